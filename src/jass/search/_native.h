/* The native search core of jass: the exact card-play solver and the random play-out.
 *
 * C99, CPython's stable ABI (3.10), no other dependency. The rules come from Python as data
 * (jass.core.ruledata.RuleData, read as a tuple); the only rule code here is the card-play
 * kernels, copied from jass.core.play: legal() is legal_mask (rule book R5.5) and the trick's
 * holder is kept card by card as trick_winner keeps it (R6.1-R6.2). tests/test_kernels.py and
 * tests/test_native.py check both against the Python kernels.
 *
 * The search is the one of jass.solver: null-window probes driven by bisection on the
 * difference between the two sides' points, fail-soft bounds, a transposition table at trick
 * boundaries (keyed by relative rank within runs of equal-point cards; an entry's bounds,
 * widened by the points that differ, also serve every position of the same shape),
 * equivalent cards merged, bounds from the points left and from sure points (quick tricks),
 * move ordering that looks at the hands still to play. Each solver owns a Ctx
 * (a capsule in Python): there is no global state, and the GIL is released while it searches.
 *
 * This private header holds what the core's files share: the types, the card-play kernels
 * and the table's key steps and cutoff test (inline, for the search's inner loops) and the
 * jass_ functions one file gives another.
 * The files: _native_rules.c reads the rule data; _native_table.c is the transposition table
 * and its keys; _native_search.c the search; _native_sure.c its sure points (quick tricks);
 * _native_last.c its last two tricks; _native_guess.c the first guess of a fresh context;
 * _native_split.c one solve split over threads; _native_playout.c the random play-out;
 * _native.c the Python binding. Only PyInit__native leaves the shared object.
 */
#ifndef JASS_NATIVE_H
#define JASS_NATIVE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#define ALL36 ((uint64_t)0xFFFFFFFFFull)
#define INF 100000
#define BIT(c) ((uint64_t)1 << (c))

/* Shared between the core's files, never exported (setup.py also passes -fvisibility=hidden). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define JASS_HIDDEN __attribute__((visibility("hidden")))
#else
#define JASS_HIDDEN
#endif

/* A small function the compiler must inline (so that a constant argument specialises it). */
#if defined(__GNUC__) || defined(__clang__)
#define JASS_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define JASS_INLINE static __forceinline
#else
#define JASS_INLINE static inline
#endif

/* A flag one thread sets and others poll (cancel): relaxed atomics, a plain load or store. */
#if defined(__GNUC__) || defined(__clang__)
#define JASS_GET_FLAG(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define JASS_SET_FLAG(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#else
#define JASS_GET_FLAG(x) (x)
#define JASS_SET_FLAG(x, v) ((x) = (v))
#endif

/* jass.errors.InvalidInputError, set by _set_error */
JASS_HIDDEN extern PyObject *jass_invalid_input;

/* ---------------------------------------------------------------------------------------- */
/* Rule data                                                                                */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    uint64_t trump_mask, buur_mask, above[36];
    int buur_exception, strict, swap, last_bonus, match_bonus, counter_bonus;
    int points[36];
    int keys[4][36];
    int power[36];         /* a card's key in a trick led in its own suit */
    int order[4][9];       /* each suit's cards, strongest first */
    int suit_points[4][512];
} Rules;

static inline int popcount64(uint64_t x) {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || defined(__aarch64__))
    return __builtin_popcountll(x);
#else
    /* Without a popcount instruction (baseline x86-64) the builtin is a call: count inline. */
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}

static inline int lowest(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!(x & 1)) { x >>= 1; n++; }
    return n;
#endif
}

static inline uint64_t suit_mask(int card) { return (uint64_t)0x1FF << (9 * (card / 9)); }


/* Copy of jass.core.play.legal_mask (rule book R5.5) on a trick of n cards. */
static inline uint64_t legal(const Rules *r, uint64_t hand, int n, const int *trick) {
    if (n == 0) return hand; /* R5.1 */
    uint64_t led = suit_mask(trick[0]);
    uint64_t follow = led & hand;
    uint64_t trumps = r->trump_mask;
    if (!trumps) return follow ? follow : hand; /* R5.2 */
    uint64_t held = trumps & hand;
    if (led == trumps) {
        /* R5.4: a lone Buur need not follow a trump lead. */
        if (r->buur_exception) return (held & ~r->buur_mask) ? held : hand;
        return held ? held : hand;
    }
    uint64_t over = held;
    for (int i = 0; i < n; i++) over &= r->above[trick[i]];
    if (follow) return follow | over;                         /* R5.3a */
    if (held == hand) return (r->strict && over) ? over : hand; /* R5.3d/e */
    return (~trumps & hand) | over;                           /* R5.3b */
}

/* Copy of jass.core.play.trick_winner (R6.1-R6.2): the index of the card that holds it. */
static inline int winner_of(const Rules *r, int n, const int *trick) {
    const int *keys = r->keys[trick[0] / 9];
    int best = 0;
    for (int i = 1; i < n; i++)
        if (keys[trick[i]] > keys[trick[best]]) best = i;
    return best;
}

static inline int held_points(const Rules *r, uint64_t cards) {
    return r->suit_points[0][cards & 0x1FF] + r->suit_points[1][(cards >> 9) & 0x1FF] +
           r->suit_points[2][(cards >> 18) & 0x1FF] + r->suit_points[3][(cards >> 27) & 0x1FF];
}

/* ---------------------------------------------------------------------------------------- */
/* The solver context                                                                       */
/* ---------------------------------------------------------------------------------------- */

typedef struct { /* a transposition-table entry: 32 bytes */
    uint64_t k0, k1, k2;
    int16_t lo, hi;
    int8_t lead;
    uint8_t cards; /* cards a hand at this position; 0: empty slot */
    uint16_t gen;  /* the call that stored or last found it: older ones are replaced first */
} Entry;

typedef struct {
    Rules r;
    int bonus[2];
    int sign; /* +1, or -1 under Misère: what a team takes is credited to the other */
    Entry *tt;
    uint64_t tt_mask, tt_used, tt_limit;
    uint16_t gen; /* this call's generation (jass_read_root counts the calls) */
    /* search state */
    uint64_t hands[4];
    int leader, trick[4], match;
    uint64_t nodes, node_limit;
    double deadline;
    int stopped;
    int root_best;
    int8_t killer[16][4]; /* by cards a hand and leader: the last lead that decided a trick */
    /* the next trick's key, then its key hands (jass_key_hands), computed by the trick
     * before */
    const uint64_t *pre_key;
    int busy;
    volatile int cancel; /* set by cancel() from another thread: stop at the next position */
    int last_value, has_last; /* the last call's (best) value: the next one's first guess */
    int features; /* bits: table, ordering, merging, bounds, sure points, rank keys */
    /* A solve split over threads (_native_split.c): the threads' shared state, the root card
     * this thread probes (-1: none; its probe is moot once another thread refutes the card),
     * whether counted() polls every 1024 positions (a deadline or a split). */
    struct Split *split;
    int moot, poll;
    /* Relative-rank keys: canon[s][live][i] is where card 9s+i of a suit with live cards
     * `live` moves in the table's key; moving[s][live] the live cards that move (suit bits,
     * 0 when none does: the key then holds the suit as it is). */
    uint8_t canon[4][512][9];
    uint16_t moving[4][512];
    /* Payoff-similar keys (F_PAYOFF): clive[s][live] is a suit's live cards as the rank keys
     * have them (the exact part of a key), ppow[s][i] the points of its i-th card by power. */
    uint16_t clive[4][512];
    int8_t ppow[4][9];
    /* The abstract key of a suit ordered by its cards' numbers (kdir 1: the lowest strongest,
     * 2: the highest), as a shift: cmv[s][live] the four steps' masks of compressing each
     * hand's cards onto the suit's strong end (kdir 3: another abstract suit, see krm;
     * kdir 0: the suit goes by canon). */
    uint64_t cmv[4][512][4];
    int8_t kdir[4];
    /* kdir 3 (at most one suit, the trumps of a trump contract): krm[r][field] is a hand's
     * key field once the r-th live card from the top is gone (the places below move up). */
    uint16_t krm[9][512];
    uint8_t pc9[512]; /* popcounts of 9 bits */
    uint64_t payoff_cuts[2][10]; /* cuts by an exact / a payoff-similar entry, by cards */
    /* The sure points' tables (jass_build_sure): a suit's cards by power and back, all cards
     * by points and back, a suit's card of fewest points (weakest first). */
    uint16_t by_power[4][512], of_power[4][512];
    uint64_t by_points[4][512];
    int8_t of_points[36], cheap_weak[4][512];
} Ctx;

#define F_TABLE 1
#define F_ORDER 2
#define F_MERGE 4
#define F_BOUNDS 8
#define F_SURE 16
#define F_RANK 32
#define F_GUESS 64
#define F_CROSS 128
#define F_CASH 256
#define F_FORCED 512
#define F_PAYOFF 1024
#define F_ALL 2047

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    x ^= x >> 33;
    return x;
}

/* The strongest live card of suit s (0 if none), from jass_build_sure's tables. */
static inline uint64_t top_card(const Ctx *c, int s, uint64_t live) {
    unsigned all = c->by_power[s][(live >> (9 * s)) & 0x1FF];
    return (uint64_t)c->of_power[s][all & (0u - all)] << (9 * s);
}

/* The team whose hand holds `card` (a one-bit mask of a card in play). */
static inline int team_of(const uint64_t *h, uint64_t card) {
    return ((h[0] | h[2]) & card) ? 0 : 1;
}

/* A table key: the three words of the four hands (jass_pack_key), then their hash, computed
 * once for the prefetch and every look-up of the key. With payoff-similar keys the third
 * word's bits from KEY_LIVE on hold the exact live cards, which the hash leaves out: every
 * position of one abstract state lands in the same bucket. */
#define KEY_WORDS 4
#define KEY_LIVE 21
#define KEY_ABSTRACT (((uint64_t)1 << KEY_LIVE) - 1)
static inline uint64_t key_hash(const uint64_t *k) {
    return mix(k[0] ^ mix(k[1] ^ mix(k[2] & KEY_ABSTRACT)));
}

/* A root position: what solve and card_values search from (read by jass_read_root). */
typedef struct {
    uint64_t hands[4];
    int leader, n, trick[4], match, side;
    int left; /* points of every card still in play, the last trick's 5 included */
    int own, theirs;
} Root;

/* _native_rules.c */
JASS_HIDDEN int jass_ints_of(PyObject *seq, Py_ssize_t n, long long lo, long long hi,
                             long long *out, const char *name);
JASS_HIDDEN int jass_read_rules(PyObject *data, Rules *r);

/* _native_table.c */
JASS_HIDDEN void jass_key_hands(const Ctx *c, uint64_t *out);
JASS_HIDDEN void jass_key_suit(const Ctx *c, const uint64_t *h, int s, int p, uint64_t *out);
JASS_HIDDEN void jass_build_canon(Ctx *c);
JASS_HIDDEN int jass_tt_alloc(Ctx *c, uint64_t size);
JASS_HIDDEN Entry *jass_tt_find(Ctx *c, const uint64_t *k, int cards, int create);
JASS_HIDDEN int jass_lead_place(const Ctx *c, int card);
JASS_HIDDEN int jass_lead_card(const Ctx *c, int place);

/* The table's keys and cutoffs, inline in the search's loops (_native_table.c has the rest). */
JASS_INLINE void jass_pack_key(const Ctx *c, const uint64_t *h, uint64_t *k) {
    k[0] = h[0] | h[1] << 36;
    k[1] = h[1] >> 28 | h[2] << 8 | h[3] << 44;
    k[2] = h[3] >> 20 | (uint64_t)c->leader << 16 | (uint64_t)c->match << 18;
    if (c->features & F_PAYOFF) { /* the Buur live, then the exact live cards */
        const uint64_t *x = c->hands;
        uint64_t live = x[0] | x[1] | x[2] | x[3];
        uint64_t exact = (uint64_t)c->clive[0][live & 0x1FF] |
                         (uint64_t)c->clive[1][(live >> 9) & 0x1FF] << 9 |
                         (uint64_t)c->clive[2][(live >> 18) & 0x1FF] << 18 |
                         (uint64_t)c->clive[3][(live >> 27) & 0x1FF] << 27;
        k[2] |= (uint64_t)((live & c->r.buur_mask) != 0) << 20 | exact << KEY_LIVE;
    }
    k[3] = key_hash(k);
}

/* jass_key_hands once `card` is gone from c->hands (which leaves `live`), from `base`, the
 * key hands while it was held: only its suit changes, so only that suit is redone (each card
 * of a trick whose last card needs the next trick's keys). */
JASS_INLINE void jass_key_after(const Ctx *c, const uint64_t *base, int card, uint64_t live,
                                uint64_t *out) {
    const uint64_t *h = c->hands;
    memcpy(out, base, 4 * sizeof *out);
    int s = card / 9;
    uint64_t suit = (uint64_t)0x1FF << (9 * s);
    int p = (int)(live >> (9 * s)) & 0x1FF;
    if (c->kdir[s]) {
        /* A compressed suit: the card's place goes, the places on its weak side move one
         * towards the strong end (the card was the r-th live card from it). */
        int i = card - 9 * s;
        if (c->kdir[s] == 2) {
            uint64_t at = BIT(9 * s + 8 - c->pc9[p >> (i + 1)]), weak = (at - 1) & suit;
            for (int j = 0; j < 4; j++) out[j] = (out[j] & ~(weak | at)) | (out[j] & weak) << 1;
        } else if (c->kdir[s] == 1) {
            uint64_t at = BIT(9 * s + c->pc9[p & ((1 << i) - 1)]), weak = suit & ~(2 * at - 1);
            for (int j = 0; j < 4; j++) out[j] = (out[j] & ~(weak | at)) | (out[j] & weak) >> 1;
        } else {
            unsigned above = c->by_power[s][p] & (c->by_power[s][1u << i] - 1);
            const uint16_t *moved = c->krm[c->pc9[above]];
            for (int j = 0; j < 4; j++)
                out[j] = (out[j] & ~suit) | (uint64_t)moved[(out[j] >> (9 * s)) & 0x1FF] << (9 * s);
        }
    } else if ((c->features & (F_RANK | F_PAYOFF)) && c->moving[s][p]) {
        jass_key_suit(c, h, s, p, out);
    } else {
        for (int i = 0; i < 4; i++) out[i] = (out[i] & ~suit) | (h[i] & suit);
    }
}

/* The points that differ between two positions of one abstract state, whose exact live
 * cards are a and b (key bits from KEY_LIVE): card by card in power order, suit by suit. */
JASS_INLINE int payoff_delta(const Ctx *c, uint64_t a, uint64_t b) {
    int delta = 0;
    for (int s = 0; s < 4; s++) {
        unsigned pa = (unsigned)(a >> (9 * s)) & 0x1FF, pb = (unsigned)(b >> (9 * s)) & 0x1FF;
        if (pa == pb) continue;
        unsigned x = c->by_power[s][pa], y = c->by_power[s][pb];
        for (; x; x &= x - 1, y &= y - 1) {
            int d = c->ppow[s][lowest(x)] - c->ppow[s][lowest(y)];
            delta += d < 0 ? -d : d;
        }
    }
    return delta;
}

/* Whether the table settles a probe at target of a position of `cards` a hand, key k:
 * sides 1 tests a lower bound (at least target), 2 an upper one (below it), 3 both. An
 * exact entry gives its bounds and its lead (hint, if not NULL); with payoff-similar keys an
 * entry of another position of the same abstract state gives its bounds widened by the
 * points that differ (payoff_delta). 1 and the bound in *value if one settles it. */
JASS_INLINE int jass_tt_cut(Ctx *c, const uint64_t *k, int cards, int target, int sides,
                            int *value, int *hint) {
    uint64_t slot = k[3] & c->tt_mask;
    int hinted = 0; /* 2: an exact entry's lead, 1: another's */
    const Entry *first = &c->tt[slot];
    int wraps = slot + 3 > c->tt_mask;
    for (int j = 0; j < 4; j++) {
        const Entry *e = wraps ? &c->tt[(slot + (uint64_t)j) & c->tt_mask] : first + j;
        /* (an empty slot's k0 is 0, and a key's never: the first hand holds cards) */
        if (e->k0 != k[0] || e->k1 != k[1] || ((e->k2 ^ k[2]) & KEY_ABSTRACT)) continue;
        int exact = e->k2 == k[2];
        if (hint && e->lead >= 0 && hinted < 1 + exact) {
            *hint = e->lead; /* an exact entry's lead first, by place (jass_lead_place) */
            hinted = 1 + exact;
        }
        /* The points that differ only where the bound would cut without them. */
        int low = (sides & 1) && e->lo > -30000 && e->lo >= target;
        int high = (sides & 2) && e->hi < 30000 && e->hi < target;
        if (!low && !high) continue;
        int delta = exact ? 0 : payoff_delta(c, e->k2 >> KEY_LIVE, k[2] >> KEY_LIVE);
        if (low && e->lo - delta >= target) {
            *value = e->lo - delta;
        } else if (high && e->hi + delta < target) {
            *value = e->hi + delta;
        } else {
            continue;
        }
#ifdef JASS_PAYOFF_STATS /* counted only for docs/performance.rst's table */
        c->payoff_cuts[!exact][cards < 10 ? cards : 9]++;
#else
        (void)cards;
#endif
        return 1;
    }
    return 0;
}

/* _native_search.c */
JASS_HIDDEN double jass_now_seconds(void);
JASS_HIDDEN void jass_rep_map(const Rules *r, uint64_t hand, uint64_t live, int merge, int *rep);
JASS_HIDDEN int jass_probe(Ctx *c, const Root *root, int target, int only);
JASS_HIDDEN int jass_narrow(const Root *root, int target, int value, int *lo, int *hi);
JASS_HIDDEN int jass_bisect(Ctx *c, const Root *root, int only, int guess, int guessed,
                            int *lo_out, int *hi_out, int *good, int *good_value);
JASS_HIDDEN int jass_root_moves(Ctx *c, const Root *root, int *list);
JASS_HIDDEN int jass_order_moves(const Ctx *c, uint64_t moves, int pos, int top_key,
                                 int partner, int hint, int killer, int *out);

/* _native_last.c */
JASS_HIDDEN int jass_exact_two(const Ctx *c, int target, int all);

/* _native_sure.c */
JASS_HIDDEN int jass_sure_points(const Ctx *c, uint64_t live, int cards, int *sure);
JASS_HIDDEN void jass_build_sure(Ctx *c);

/* _native_split.c */
JASS_HIDDEN int jass_poll(Ctx *c);
JASS_HIDDEN int jass_more_nodes(Ctx *c);
JASS_HIDDEN PyObject *jass_py_solve_split(PyObject *self, PyObject *args);

/* _native_guess.c */
JASS_HIDDEN int jass_guess(Ctx *c, const Root *root);

/* _native.c */
JASS_HIDDEN int jass_arg_ll(PyObject *o, long long lo, long long hi, const char *name,
                            long long *out);
JASS_HIDDEN int jass_read_root(Ctx *c, PyObject *hands, long long leader, PyObject *trick,
                               long long t0, long long t1, long long declaring, Root *root);
JASS_HIDDEN Ctx *jass_read_call(PyObject *args, Root *root);
JASS_HIDDEN int jass_side_points(const Root *root, int difference);
JASS_HIDDEN PyObject *jass_values_list(Ctx *c, const Root *root, const int *list, int n,
                                       const int *lo, const int *hi);

/* _native_playout.c */
JASS_HIDDEN PyObject *jass_py_play_out(PyObject *self, PyObject *args);
JASS_HIDDEN PyObject *jass_py_random_hand(PyObject *self, PyObject *args);
JASS_HIDDEN PyObject *jass_py_random_hands(PyObject *self, PyObject *args);

#endif
