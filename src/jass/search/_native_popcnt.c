/* The search compiled a second time, for x86-64 CPUs with a popcount instruction: a
 * baseline x86-64 build (the wheels') has none, so popcount64 is a dozen instructions there,
 * called at every position. The module picks this copy once, at import, when the CPU has the
 * instruction (use_popcnt in _native.c); without GCC or Clang on x86-64 Linux (MSVC, macOS,
 * ARM, a build for a CPU that has it anyway) this file is empty and the one search serves.
 * The copy is the same source: the files of the search are included here under other names,
 * with every function compiled for the popcnt target. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__POPCNT__) && \
    defined(__linux__) /* the condition of JASS_HAVE_POPCNT_COPY in _native.h */
#define JASS_POPCNT_COPY 1 /* popcount64 takes the builtin (_native.h) */
#ifdef __clang__
#pragma clang attribute push(__attribute__((target("popcnt"))), apply_to = function)
#else
#pragma GCC target("popcnt")
#endif
#define jass_now_seconds jass_now_seconds_popcnt
#define jass_rep_map jass_rep_map_popcnt
#define jass_order_moves jass_order_moves_popcnt
#define jass_probe jass_probe_popcnt
#define jass_bisect jass_bisect_popcnt
#define jass_root_moves jass_root_moves_popcnt
#define jass_exact_two jass_exact_two_popcnt
#define jass_sure_points jass_sure_points_popcnt
#define jass_build_sure jass_build_sure_popcnt
#define jass_key_hands jass_key_hands_popcnt
#define jass_make_key jass_make_key_popcnt
#define jass_make_key_after jass_make_key_after_popcnt
#define jass_build_canon jass_build_canon_popcnt
#define jass_tt_alloc jass_tt_alloc_popcnt
#define jass_tt_find jass_tt_find_popcnt
#include "_native_search.c"
#include "_native_last.c"
#include "_native_sure.c"
#include "_native_table.c"
#ifdef __clang__
#pragma clang attribute pop
#endif
#else
typedef int jass_no_popcnt_copy; /* ISO C forbids an empty file */
#endif
