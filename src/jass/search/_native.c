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
 * boundaries (keyed by relative rank within runs of equal-point cards), equivalent cards
 * merged, bounds from the points left and from sure points (quick tricks), move ordering that
 * looks at the hands still to play. Each solver owns a Ctx
 * (a capsule in Python): there is no global state, and the GIL is released while it searches.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

#define ALL36 ((uint64_t)0xFFFFFFFFFull)
#define INF 100000
#define BIT(c) ((uint64_t)1 << (c))

static PyObject *InvalidInput; /* jass.errors.InvalidInputError, set by _set_error */

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
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(x);
#else
    int n = 0;
    while (x) { x &= x - 1; n++; }
    return n;
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
static uint64_t legal(const Rules *r, uint64_t hand, int n, const int *trick) {
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
static int winner_of(const Rules *r, int n, const int *trick) {
    const int *keys = r->keys[trick[0] / 9];
    int best = 0;
    for (int i = 1; i < n; i++)
        if (keys[trick[i]] > keys[trick[best]]) best = i;
    return best;
}

static int held_points(const Rules *r, uint64_t cards) {
    return r->suit_points[0][cards & 0x1FF] + r->suit_points[1][(cards >> 9) & 0x1FF] +
           r->suit_points[2][(cards >> 18) & 0x1FF] + r->suit_points[3][(cards >> 27) & 0x1FF];
}

static int long_at(PyObject *seq, Py_ssize_t i, long long lo, long long hi, long long *out,
                   const char *name) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (!item) return -1;
    long long v = PyLong_AsLongLong(item);
    Py_DECREF(item);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(InvalidInput, "%s[%zd] is not an int", name, i);
        return -1;
    }
    if (v < lo || v > hi) {
        PyErr_Format(InvalidInput, "%s[%zd] = %lld is out of range %lld-%lld", name, i, v, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int ints_of(PyObject *seq, Py_ssize_t n, long long lo, long long hi, long long *out,
                   const char *name) {
    if (!PySequence_Check(seq) || PySequence_Size(seq) != n) {
        PyErr_Clear();
        PyErr_Format(InvalidInput, "%s must be a sequence of %zd ints", name, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (long_at(seq, i, lo, hi, &out[i], name) < 0) return -1;
    return 0;
}

/* An int argument in [lo, hi], or InvalidInputError naming it. */
static int arg_ll(PyObject *o, long long lo, long long hi, const char *name, long long *out) {
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(InvalidInput, "%s must be an int", name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred()) || v < lo || v > hi) {
        PyErr_Clear();
        PyErr_Format(InvalidInput, "%s is out of range %lld-%lld", name, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int arg_seconds(PyObject *o, double *out) {
    double v = PyFloat_AsDouble(o);
    if ((v == -1.0 && PyErr_Occurred()) || PyBool_Check(o)) {
        PyErr_Clear();
        PyErr_SetString(InvalidInput, "time_limit must be a number of seconds");
        return -1;
    }
    *out = v;
    return 0;
}

/* Refuse a rules argument that no rule_data() call made: say what is wrong with it. */
static int bad_rules(const char *what) {
    PyErr_Clear();
    PyErr_Format(InvalidInput,
                 "rules is not the RuleData of a contract (forged, or from another jass "
                 "version): %s", what);
    return -1;
}

/* Read a RuleData tuple (jass.core.ruledata) into r. */
static int read_rules(PyObject *data, Rules *r) {
    long long v[36];
    if (!PyTuple_Check(data) || PyTuple_Size(data) != 16)
        return bad_rules("it must be a tuple of 16 fields");
    memset(r, 0, sizeof *r);
    long long scalars[16];
    static const int scalar_fields[] = {2, 4, 5, 9, 10, 11, 12, 14};
    static const char *scalar_names[] = {
        "its trump_mask", "its buur_mask", "its buur_exception", "its strict_undertrump",
        "its credit_swap", "its last_trick_bonus", "its match_bonus", "its counter_match_bonus",
    };
    for (int i = 0; i < 8; i++) {
        int f = scalar_fields[i];
        PyObject *item = PyTuple_GetItem(data, f);
        scalars[f] = item ? PyLong_AsLongLong(item) : -1;
        if (PyErr_Occurred() || scalars[f] < 0 || scalars[f] > (long long)ALL36) {
            PyErr_Clear();
            PyErr_Format(InvalidInput,
                         "rules is not the RuleData of a contract (forged, or from another "
                         "jass version): %s is not a non-negative int", scalar_names[i]);
            return -1;
        }
    }
    r->trump_mask = (uint64_t)scalars[2];
    r->buur_mask = (uint64_t)scalars[4];
    r->buur_exception = (int)scalars[5];
    r->strict = (int)scalars[9];
    r->swap = (int)scalars[10];
    r->last_bonus = (int)scalars[11];
    r->match_bonus = (int)scalars[12];
    r->counter_bonus = (int)scalars[14];
    if (r->buur_exception > 1 || r->strict > 1 || r->swap > 1)
        return bad_rules("a flag is not 0 or 1");
    if (r->last_bonus > 1000 || r->match_bonus > 10000 || r->counter_bonus > 10000)
        return bad_rules("a bonus is above 1000 (last trick) or 10000 (match)");
    if ((r->buur_mask & ~r->trump_mask) || popcount64(r->buur_mask) > 1)
        return bad_rules("its Buur is not one trump");
    int tsuit = -1;
    for (int s = 0; s < 4; s++)
        if (r->trump_mask == ((uint64_t)0x1FF << (9 * s))) tsuit = s;
    if (r->trump_mask && tsuit < 0) return bad_rules("its trumps are not one whole suit");
    if (ints_of(PyTuple_GetItem(data, 6), 36, 0, (long long)ALL36, v, "above") < 0)
        return bad_rules("its above is not 36 card masks");
    for (int c = 0; c < 36; c++) r->above[c] = (uint64_t)v[c];
    if (ints_of(PyTuple_GetItem(data, 7), 36, 0, 1000, v, "points") < 0)
        return bad_rules("its points are not 36 ints of 0-1000");
    for (int c = 0; c < 36; c++) r->points[c] = (int)v[c];
    PyObject *keys = PyTuple_GetItem(data, 8);
    if (!PySequence_Check(keys) || PySequence_Size(keys) != 4)
        return bad_rules("its win_keys do not hold one row per led suit (4)");
    for (int s = 0; s < 4; s++) {
        PyObject *row = PySequence_GetItem(keys, s);
        if (!row) return bad_rules("its win_keys do not hold one row per led suit (4)");
        int bad = ints_of(row, 36, -1, 100, v, "win_keys");
        Py_DECREF(row);
        if (bad < 0) return bad_rules("a win_keys row is not 36 ints of -1 to 100");
        for (int c = 0; c < 36; c++) {
            r->keys[s][c] = (int)v[c];
            /* The led suit must take precedence over the other plain suits. */
            int plain_other = c / 9 != s && c / 9 != tsuit;
            if ((plain_other && v[c] >= 0) || (!plain_other && v[c] < 0))
                return bad_rules("its win_keys let a card of another plain suit win a trick, "
                                 "or a card of the led suit or a trump not");
        }
    }
    for (int c = 0; c < 36; c++) r->power[c] = r->keys[c / 9][c];
    for (int s = 0; s < 4; s++) {
        /* Order each suit strongest first (keys within a suit are distinct). */
        int *o = r->order[s];
        for (int i = 0; i < 9; i++) o[i] = 9 * s + i;
        for (int i = 1; i < 9; i++)
            for (int j = i; j > 0 && r->power[o[j]] > r->power[o[j - 1]]; j--) {
                int t = o[j]; o[j] = o[j - 1]; o[j - 1] = t;
            }
        for (int i = 1; i < 9; i++)
            if (r->power[o[i]] == r->power[o[i - 1]])
                return bad_rules("its win_keys give two cards of a suit the same strength");
        for (int p = 1; p < 512; p++) {
            int low = lowest((uint64_t)p);
            r->suit_points[s][p] = r->suit_points[s][p & (p - 1)] + r->points[9 * s + low];
        }
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* The solver context                                                                       */
/* ---------------------------------------------------------------------------------------- */

typedef struct { /* a transposition-table entry: 32 bytes */
    uint64_t k0, k1, k2;
    int16_t lo, hi;
    int8_t lead;
    uint8_t cards; /* cards a hand at this position; 0: empty slot */
    uint16_t pad;
} Entry;

typedef struct {
    Rules r;
    int bonus[2];
    int sign; /* +1, or -1 under Misère: what a team takes is credited to the other */
    Entry *tt;
    uint64_t tt_mask, tt_used, tt_limit;
    /* search state */
    uint64_t hands[4];
    int leader, trick[4], match;
    uint64_t nodes, node_limit;
    double deadline;
    int stopped;
    int root_best;
    int busy;
    volatile int cancel; /* set by cancel() from another thread: stop at the next position */
    int last_value, has_last;       /* the last solve's value: the next one's guess */
    int card_value[36], card_known[36]; /* each card's last value, for card_values */
    int features; /* bits: table, ordering, merging, bounds, sure points, rank keys */
    /* Relative-rank keys: canon[s][live][i] is where card 9s+i of a suit with live cards
     * `live` moves in the table's key; same[s][live] when no card moves. */
    uint8_t canon[4][512][9], same[4][512];
} Ctx;

#define F_TABLE 1
#define F_ORDER 2
#define F_MERGE 4
#define F_BOUNDS 8
#define F_SURE 16
#define F_RANK 32

static double now_seconds(void) {
#ifdef _WIN32
    LARGE_INTEGER f, t;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&t);
    return (double)t.QuadPart / (double)f.QuadPart;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    x ^= x >> 33;
    return x;
}

/* The hands the table keys: with rank keys, each run of equal-point cards (build_canon)
 * keeps its live cards at its top, in order, so that positions that differ only in which
 * cards of a run are gone share an entry (partition search's idea, for points). */
static void key_hands(const Ctx *c, uint64_t *out) {
    const uint64_t *h = c->hands;
    memcpy(out, h, 4 * sizeof *out);
    if (!(c->features & F_RANK)) return;
    uint64_t live = h[0] | h[1] | h[2] | h[3];
    for (int s = 0; s < 4; s++) {
        int p = (int)(live >> (9 * s)) & 0x1FF;
        if (c->same[s][p]) continue;
        uint64_t suit = (uint64_t)0x1FF << (9 * s);
        for (int i = 0; i < 4; i++) {
            uint64_t moved = 0;
            for (uint64_t m = h[i] & suit; m; m &= m - 1)
                moved |= BIT(9 * s + c->canon[s][p][lowest(m) - 9 * s]);
            out[i] = (out[i] & ~suit) | moved;
        }
    }
}

static void make_key(const Ctx *c, uint64_t *k) {
    uint64_t h[4];
    key_hands(c, h);
    k[0] = h[0] | h[1] << 36;
    k[1] = h[1] >> 28 | h[2] << 8 | h[3] << 44;
    k[2] = h[3] >> 20 | (uint64_t)c->leader << 16 | (uint64_t)c->match << 18;
}

/* Whether y may stand for x in every rule (x stronger, both of one run): the same order
 * against every card outside the run in every trick, the same overtrump relations. */
static int same_role(const Rules *r, const int *run, int x, int y, int x0, int y0) {
    for (int k = 0; k < 4; k++) {
        int kx = r->keys[k][x], ky = r->keys[k][y];
        if ((kx < 0) != (ky < 0) || (kx >= 0 && kx <= ky)) return 0;
        for (int z = 0; z < 36; z++) {
            if (run[z] == run[x]) continue;
            int kz = r->keys[k][z];
            if ((kz > kx) != (kz > ky) || (kz < kx) != (kz < ky)) return 0;
        }
    }
    for (int z = 0; z < 36; z++) {
        if (run[z] == run[x]) continue;
        if ((r->above[x] >> z & 1) != (r->above[y] >> z & 1)) return 0;
        if ((r->above[z] >> x & 1) != (r->above[z] >> y & 1)) return 0;
    }
    return (r->above[y] >> x & 1) == (r->above[y0] >> x0 & 1) &&
           (r->above[x] >> y & 1) == (r->above[x0] >> y0 & 1) &&
           (r->above[x] >> x & 1) == (r->above[y] >> y & 1);
}

/* Runs: cards next to each other in a suit's order with the same points (the Buur alone).
 * Any card of a run may stand for any other where the rules treat them alike; if the rule
 * data does not (a forged one), rank keys are switched off. */
static void build_canon(Ctx *c) {
    const Rules *r = &c->r;
    int run[36], first[36];
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < 9; i++) {
            int card = r->order[s][i], prev = i ? r->order[s][i - 1] : -1;
            int joins = prev >= 0 && r->points[card] == r->points[prev] &&
                        !(r->buur_mask & (BIT(card) | BIT(prev)));
            run[card] = joins ? run[prev] : card;
            first[card] = joins ? first[prev] : i;
        }
    for (int s = 0; s < 4; s++)
        for (int i = 0; i + 1 < 9; i++) {
            int x = r->order[s][i], y = r->order[s][i + 1];
            if (run[x] != run[y]) continue;
            int x0 = r->order[s][first[x]], y0 = r->order[s][first[x] + 1];
            for (int j = i + 1; j < 9 && run[r->order[s][j]] == run[x]; j++)
                if (!same_role(r, run, x, r->order[s][j], x0, y0)) {
                    c->features &= ~F_RANK;
                    return;
                }
        }
    for (int s = 0; s < 4; s++)
        for (int p = 0; p < 512; p++) {
            int same = 1, taken[36] = {0};
            for (int i = 0; i < 9; i++) {
                int card = r->order[s][i];
                if (!(p >> (card - 9 * s) & 1)) continue;
                /* The k-th live card of a run takes the run's k-th place. */
                int to = r->order[s][first[card] + taken[run[card]]++];
                c->canon[s][p][card - 9 * s] = (uint8_t)(to - 9 * s);
                same &= to == card;
            }
            c->same[s][p] = (uint8_t)same;
        }
}

static int tt_alloc(Ctx *c, uint64_t size) {
    Entry *t = (Entry *)calloc((size_t)size, sizeof(Entry));
    if (!t) return -1;
    Entry *old = c->tt;
    uint64_t old_size = old ? c->tt_mask + 1 : 0;
    c->tt = t;
    c->tt_mask = size - 1;
    c->tt_used = 0;
    for (uint64_t i = 0; i < old_size; i++) {
        if (!old[i].cards) continue;
        uint64_t slot = mix(old[i].k0 ^ mix(old[i].k1 ^ mix(old[i].k2))) & c->tt_mask;
        for (int j = 0; j < 4; j++) {
            Entry *e = &t[(slot + (uint64_t)j) & c->tt_mask];
            if (!e->cards) { *e = old[i]; c->tt_used++; break; }
        }
    }
    free(old);
    return 0;
}

static Entry *tt_find(Ctx *c, const uint64_t *k, int cards, int create) {
    uint64_t slot = mix(k[0] ^ mix(k[1] ^ mix(k[2]))) & c->tt_mask;
    Entry *victim = NULL;
    for (int j = 0; j < 4; j++) {
        Entry *e = &c->tt[(slot + (uint64_t)j) & c->tt_mask];
        if (e->cards && e->k0 == k[0] && e->k1 == k[1] && e->k2 == k[2]) return e;
        if (!victim || e->cards < victim->cards) victim = e;
    }
    if (!create) return NULL;
    if (!victim->cards) {
        c->tt_used++;
        /* Grow before the table gets crowded, up to the limit; then replace. */
        if (c->tt_used * 2 > c->tt_mask + 1 && (c->tt_mask + 1) * 2 <= c->tt_limit) {
            if (tt_alloc(c, (c->tt_mask + 1) * 2) == 0) return tt_find(c, k, cards, create);
        }
    } else if (victim->cards > cards + 1) {
        return NULL; /* keep the bigger subtree's entry */
    }
    victim->k0 = k[0]; victim->k1 = k[1]; victim->k2 = k[2];
    victim->lo = -30000; victim->hi = 30000;
    victim->lead = -1;
    victim->cards = (uint8_t)cards;
    return victim;
}

/* One card per run of equivalent cards of hand: adjacent in power among `live` (the cards
 * held at the trick's start), with the same points. */
static uint64_t reps_of(const Rules *r, uint64_t hand, uint64_t live) {
    uint64_t reps = 0;
    for (int s = 0; s < 4; s++) {
        if (!(hand & ((uint64_t)0x1FF << (9 * s)))) continue;
        int prev = -1;
        for (int i = 0; i < 9; i++) {
            int card = r->order[s][i];
            if (!(live & BIT(card))) continue;
            if (hand & BIT(card)) {
                if (prev < 0 || r->points[prev] != r->points[card]) reps |= BIT(card);
                prev = card;
            } else {
                prev = -1;
            }
        }
    }
    return reps;
}

/* reps_of for the four hands at once: one walk over the live cards of each suit. */
static void reps_all(const Rules *r, const uint64_t *h, uint64_t live, uint64_t *reps) {
    reps[0] = reps[1] = reps[2] = reps[3] = 0;
    for (int s = 0; s < 4; s++) {
        if (!(live & ((uint64_t)0x1FF << (9 * s)))) continue;
        int prev_owner = -1, prev_points = -1;
        for (int i = 0; i < 9; i++) {
            int card = r->order[s][i];
            uint64_t b = BIT(card);
            if (!(live & b)) continue;
            int owner = (h[1] & b) ? 1 : (h[2] & b) ? 2 : (h[3] & b) ? 3 : 0;
            if (owner != prev_owner || r->points[card] != prev_points) reps[owner] |= b;
            prev_owner = owner;
            prev_points = r->points[card];
        }
    }
}

/* The rep standing for each card of hand (for card values of every legal card). */
static void rep_map(const Rules *r, uint64_t hand, uint64_t live, int merge, int *rep) {
    for (int s = 0; s < 4; s++) {
        int prev = -1, head = -1;
        for (int i = 0; i < 9; i++) {
            int card = r->order[s][i];
            if (!(live & BIT(card))) continue;
            if (hand & BIT(card)) {
                if (!merge || prev < 0 || r->points[prev] != r->points[card]) head = card;
                rep[card] = head;
                prev = card;
            } else {
                prev = -1;
            }
        }
    }
}

/* Order the moves: leads by points and power, sure winners first (the table's lead before
 * all), follows by taking the trick cheaply, or feeding points to a partner who holds it. */
static int order_moves(const Ctx *c, uint64_t moves, int pos, int top_key, int partner,
                       int hint, int *out) {
    const Rules *r = &c->r;
    int score[9], n = 0;
    const int *keys = pos ? r->keys[c->trick[0] / 9] : NULL;
    uint64_t winners = 0; /* leads that take the trick (a suit's top card nobody can ruff) */
    if (pos == 0 && (c->features & F_ORDER)) {
        const uint64_t *h = c->hands;
        uint64_t live = h[0] | h[1] | h[2] | h[3], trumps = r->trump_mask;
        uint64_t o1 = h[(c->leader + 1) & 3], o3 = h[(c->leader + 3) & 3];
        for (int s = 0; s < 4; s++) {
            uint64_t suit = (uint64_t)0x1FF << (9 * s);
            if (!(moves & suit)) continue;
            uint64_t b = 0;
            for (int i = 0; i < 9 && !b; i++) b = live & BIT(r->order[s][i]);
            /* Any trump may ruff, even from a hand that can follow (R5.3a). */
            if ((moves & b) && (suit == trumps || !((o1 | o3) & trumps))) winners |= b;
        }
    }
    /* Second and third hand: the best key each side can still bring to this trick. */
    int opp_max = -1, mate_max = -1;
    if ((pos == 1 || pos == 2) && (c->features & F_ORDER)) {
        int seat = (c->leader + pos) & 3;
        for (int q = pos + 1; q < 4; q++) {
            int other = (c->leader + q) & 3, most = -1;
            for (uint64_t m = c->hands[other]; m; m &= m - 1)
                if (keys[lowest(m)] > most) most = keys[lowest(m)];
            if ((other ^ seat) & 1) {
                if (most > opp_max) opp_max = most;
            } else {
                mate_max = most;
            }
        }
    }
    while (moves) {
        int card = lowest(moves);
        moves &= moves - 1;
        int s;
        if (!(c->features & F_ORDER)) {
            s = card;
        } else if (pos == 0) {
            s = -(r->points[card] + 2 * r->power[card]);
            if (winners & BIT(card)) s -= 400;
            if (card == hint) s = -100000;
        } else if (pos < 3 && !partner && keys[card] <= top_key && mate_max > top_key &&
                   mate_max > opp_max) {
            s = -1000 - r->points[card]; /* the partner behind takes it: feed it */
        } else if (pos < 3 && partner && top_key <= opp_max) {
            /* The partner's card is beaten behind: cover it cheaply, or keep points back. */
            s = keys[card] > top_key ? r->power[card] - 1000 : r->points[card];
        } else if (pos < 3 && !partner && keys[card] > top_key && keys[card] < opp_max &&
                   mate_max < opp_max) {
            s = r->power[card] - 900; /* beaten behind anyway: after the beats that hold */
        } else {
            int beats = keys[card] > top_key;
            if (partner)
                s = beats * 1000 - r->points[card];
            else
                s = beats ? r->power[card] - 1000 : r->points[card];
        }
        int j = n++;
        while (j > 0 && score[j - 1] > s) {
            score[j] = score[j - 1];
            out[j] = out[j - 1];
            j--;
        }
        score[j] = s;
        out[j] = card;
    }
    return n;
}

static int search_trick(Ctx *c, int target, int *chosen);

/* At a trick boundary: the top trump left always takes its trick (a trump may always be
 * played, and the top one never undertrumps), so its holder's opponents can no longer make a
 * match. Clearing their chance keeps the bounds tight and merges table entries. */
static void prune_match(Ctx *c) {
    const Rules *r = &c->r;
    const uint64_t *h = c->hands;
    uint64_t trumps = (h[0] | h[1] | h[2] | h[3]) & r->trump_mask;
    if (!c->match || !trumps) return;
    const int *order = r->order[lowest(r->trump_mask) / 9];
    for (int i = 0; i < 9; i++) {
        uint64_t b = BIT(order[i]);
        if (trumps & b) {
            int holder = (h[1] & b) ? 1 : (h[2] & b) ? 2 : (h[3] & b) ? 3 : 0;
            c->match &= 1 << (holder & 1);
            return;
        }
    }
}

/* Sure points at a trick boundary (the quick tricks of DDS, counted in points): cards whose
 * points a team takes whatever the others do. For the team holding the top trump, its run of
 * top trumps: any trick one of them falls in goes to that team. For the leader, the top trumps
 * it holds in a row, led one by one; then, if those pull every opponent's trump (they must
 * follow a trump lead, R5.4; a lone Buur is never left out here, the leader holds it or it is
 * gone), its top cards in a row of each plain suit. sure[t] gets team t's sure points;
 * returns the number of the leader's quick tricks, its whole hand when it takes every trick.
 * Only where points count for their taker (not Misere): there the leader wants them. */
static int sure_points(Ctx *c, uint64_t live, int *sure) {
    const Rules *r = &c->r;
    const uint64_t *h = c->hands;
    int leader = c->leader, team = leader & 1;
    uint64_t mine = h[leader];
    uint64_t masks[2] = {0, 0}, quick = 0;
    int can_plain = 1;
    if (r->trump_mask) {
        const int *order = r->order[lowest(r->trump_mask) / 9];
        int run_team = -1;
        for (int i = 0; i < 9; i++) { /* the top trump's team and its run */
            uint64_t b = BIT(order[i]);
            if (!(live & b)) continue;
            int t = (h[0] & b) || (h[2] & b) ? 0 : 1;
            if (run_team >= 0 && t != run_team) break;
            run_team = t;
            masks[t] |= b;
        }
        int led = 0;
        for (int i = 0; i < 9; i++) {
            uint64_t b = BIT(order[i]);
            if (!(live & b)) continue;
            if (!(mine & b)) break;
            quick |= b;
            led++;
        }
        int most = popcount64(h[(leader + 1) & 3] & r->trump_mask);
        int other = popcount64(h[(leader + 3) & 3] & r->trump_mask);
        if (other > most) most = other;
        can_plain = most <= led;
    }
    if (can_plain) {
        for (int s = 0; s < 4; s++) {
            uint64_t suit = (uint64_t)0x1FF << (9 * s);
            if (suit == r->trump_mask || !(mine & suit)) continue;
            for (int i = 0; i < 9; i++) {
                uint64_t b = BIT(r->order[s][i]);
                if (!(live & b)) continue;
                if (!(mine & b)) break;
                quick |= b;
            }
        }
    }
    masks[team] |= quick;
    sure[0] = held_points(r, masks[0]);
    sure[1] = held_points(r, masks[1]);
    return popcount64(quick);
}

/* The trick's last card is down: settle it and search on. Team-0 value of the rest. */
static int finish_trick(Ctx *c, int target, int top_pos, int pts) {
    int winner = (c->leader + top_pos) & 3, w = winner & 1;
    int last = !(c->hands[0] | c->hands[1] | c->hands[2] | c->hands[3]);
    int g = pts + (last ? c->r.last_bonus : 0);
    int match = c->match & (1 << w);
    g *= c->sign;
    if (last) {
        if (match) g += c->bonus[w];
        return w ? -g : g;
    }
    int g0 = w ? -g : g;
    int saved_leader = c->leader, saved_match = c->match;
    int saved_trick[4];
    memcpy(saved_trick, c->trick, sizeof saved_trick);
    c->leader = winner;
    c->match = match;
    int v = search_trick(c, target - g0, NULL);
    c->leader = saved_leader;
    c->match = saved_match;
    memcpy(c->trick, saved_trick, sizeof saved_trick);
    return g0 + v;
}

/* A fail-soft bound on the team-0 value from card `pos` of the current trick on, probed at
 * `target`: at least target means the value is at least the result, below means at most.
 * `only` (if not 0) restricts this card's choices; `chosen` receives the card that reached
 * the mover's side of the target, if one did. */
static int search_card(Ctx *c, int pos, int target, const uint64_t *reps, int top_pos, int pts,
                       int hint, uint64_t only, int *chosen) {
    int seat = (c->leader + pos) & 3;
    int maxing = (seat & 1) == 0;
    uint64_t moves = legal(&c->r, reps[seat] & c->hands[seat], pos, c->trick);
    if (only) moves &= only;
    int top_key = pos ? c->r.keys[c->trick[0] / 9][c->trick[top_pos]] : -1;
    int partner = pos ? (((c->leader + top_pos) ^ seat) & 1) == 0 : 0;
    int list[9];
    int n = order_moves(c, moves, pos, top_key, partner, hint, list);
    int best = maxing ? -INF : INF, best_card = -1;
    if (pos == 3 && (c->features & F_TABLE) && popcount64(c->hands[seat]) > 3) {
        /* The table entries of the next tricks: fetched while this trick is decided, then
         * read for a cutoff that one of them already proves (enhanced transposition
         * cutoff). */
        int saved_leader = c->leader, saved_match = c->match;
        const int *keys = c->r.keys[c->trick[0] / 9];
        uint64_t k[9][3];
        int g[9];
        for (int i = 0; i < n; i++) {
            int card = list[i];
            int top = keys[card] > top_key ? 3 : top_pos;
            int w = (saved_leader + top) & 3;
            int gain = c->sign * (pts + c->r.points[card]);
            g[i] = (w & 1) ? -gain : gain;
            c->hands[seat] ^= BIT(card);
            c->leader = w;
            c->match = saved_match & (1 << (w & 1));
            prune_match(c);
            make_key(c, k[i]);
            c->hands[seat] ^= BIT(card);
#if defined(__GNUC__) || defined(__clang__)
            __builtin_prefetch(&c->tt[mix(k[i][0] ^ mix(k[i][1] ^ mix(k[i][2]))) & c->tt_mask]);
#endif
        }
        c->leader = saved_leader;
        c->match = saved_match;
        int cards = popcount64(c->hands[seat]) - 1;
        for (int i = 0; i < n; i++) {
            Entry *e = tt_find(c, k[i], cards, 0);
            if (!e) continue;
            if (maxing && e->lo > -30000 && g[i] + e->lo >= target) return g[i] + e->lo;
            if (!maxing && e->hi < 30000 && g[i] + e->hi < target) return g[i] + e->hi;
        }
    }
    for (int i = 0; i < n; i++) {
        int card = list[i];
        c->hands[seat] ^= BIT(card);
        c->trick[pos] = card;
        int new_top = pos && c->r.keys[c->trick[0] / 9][card] > top_key ? pos : top_pos;
        int v;
        if (pos < 3)
            v = search_card(c, pos + 1, target, reps, new_top, pts + c->r.points[card], -1, 0,
                            NULL);
        else
            v = finish_trick(c, target, new_top, pts + c->r.points[card]);
        c->hands[seat] ^= BIT(card);
        if (c->stopped) return 0;
        if (maxing ? v > best : v < best) {
            best = v;
            best_card = card;
            if (maxing ? best >= target : best < target) break;
        }
    }
    if (chosen) *chosen = (maxing ? best >= target : best < target) ? best_card : -1;
    return best;
}

/* The last trick, every card forced: its team-0 value. */
static int last_trick(const Ctx *c) {
    const Rules *r = &c->r;
    const uint64_t *h = c->hands;
    int t[4];
    for (int i = 0; i < 4; i++) t[i] = lowest(h[(c->leader + i) & 3]);
    int w = (c->leader + winner_of(r, 4, t)) & 1;
    int g = c->sign * (held_points(r, h[0] | h[1] | h[2] | h[3]) + r->last_bonus);
    if (c->match >> w & 1) g += c->bonus[w];
    return w ? -g : g;
}

/* The exact team-0 value of the last two tricks, from card `pos` of the eighth (plain
 * minimax: at most 16 lines, cheaper than the table). */
static int exact_two(Ctx *c, int pos, int top_pos, int pts) {
    int seat = (c->leader + pos) & 3;
    int maxing = (seat & 1) == 0;
    uint64_t moves = legal(&c->r, c->hands[seat], pos, c->trick);
    const int *keys = pos ? c->r.keys[c->trick[0] / 9] : c->r.keys[lowest(moves) / 9];
    int top_key = pos ? keys[c->trick[top_pos]] : -1;
    int best = maxing ? -INF : INF;
    for (; moves; moves &= moves - 1) {
        int card = lowest(moves);
        if (pos == 0) keys = c->r.keys[card / 9];
        c->hands[seat] ^= BIT(card);
        c->trick[pos] = card;
        int new_top = pos && keys[card] > top_key ? pos : top_pos;
        int v;
        if (pos < 3) {
            v = exact_two(c, pos + 1, new_top, pts + c->r.points[card]);
        } else {
            int winner = (c->leader + new_top) & 3, w = winner & 1;
            int g = c->sign * (pts + c->r.points[card]);
            int saved_leader = c->leader, saved_match = c->match;
            c->leader = winner;
            c->match &= 1 << w;
            v = (w ? -g : g) + last_trick(c);
            c->leader = saved_leader;
            c->match = saved_match;
        }
        c->hands[seat] ^= BIT(card);
        if (maxing ? v > best : v < best) best = v;
    }
    return best;
}

/* A trick boundary. */
static int search_trick(Ctx *c, int target, int *chosen) {
    const Rules *r = &c->r;
    if (chosen) *chosen = -1;
    if (++c->nodes > c->node_limit || c->cancel) { c->stopped = 1; return 0; }
    if (c->deadline > 0 && !(c->nodes & 1023) && now_seconds() > c->deadline) {
        c->stopped = 1;
        return 0;
    }
    uint64_t *h = c->hands;
    uint64_t live = h[0] | h[1] | h[2] | h[3];
    int cards = popcount64(h[c->leader]);
    if (cards == 1) { /* the last trick: every card is forced */
        int t[4];
        for (int i = 0; i < 4; i++) t[i] = lowest(h[(c->leader + i) & 3]);
        int w = (c->leader + winner_of(r, 4, t)) & 1;
        int g = c->sign * (held_points(r, live) + r->last_bonus);
        if (c->match >> w & 1) g += c->bonus[w];
        if (chosen) *chosen = t[0];
        return w ? -g : g;
    }
    prune_match(c);
    if (cards == 2) {
        int saved[4];
        memcpy(saved, c->trick, sizeof saved);
        int v = exact_two(c, 0, 0, 0);
        memcpy(c->trick, saved, sizeof saved);
        return v;
    }
    int left = held_points(r, live) + r->last_bonus;
    int sure[2] = {0, 0};
    /* Under Misere points hurt: the leader's quick tricks are a choice, not a bound. */
    if ((c->features & F_SURE) && c->sign > 0) {
        int quick = sure_points(c, live, sure);
        int team = c->leader & 1;
        if (quick) c->match &= 1 << team; /* the other team loses a trick */
        if (quick == cards) { /* every trick: all the points, and the match if still open */
            int g = c->sign * left + ((c->match >> team & 1) ? c->bonus[team] : 0);
            return team ? -g : g;
        }
    }
    /* Team 0's difference lies in [2 sure0 - left, left - 2 sure1], plus the matches still
     * open (under Misere, with no sure points, [-left, left]). */
    int high = left - 2 * sure[1], low = 2 * sure[0] - left;
    int upper = high + ((c->match & 1) ? c->bonus[0] : 0);
    int lower = low - ((c->match & 2) ? c->bonus[1] : 0);
    if (c->features & (F_BOUNDS | F_SURE)) {
        if (target > upper) return upper;
        if (target <= lower) return lower;
    }
    uint64_t k[3];
    int hint = -1;
    if (c->features & F_TABLE) {
        make_key(c, k);
        Entry *e = tt_find(c, k, cards, 0);
        if (e) {
            if (e->lo >= target) return e->lo;
            if (e->hi < target) return e->hi;
            hint = e->lead;
        }
    }
    uint64_t reps[4];
    if ((c->features & F_MERGE) && cards > 3)
        reps_all(r, h, live, reps);
    else
        memcpy(reps, h, sizeof reps);
    int lead = -1;
    int v = search_card(c, 0, target, reps, 0, 0, hint, 0, &lead);
    if (c->stopped) return 0;
    if (chosen) *chosen = lead;
    if (c->features & F_TABLE) {
        /* Found again: the subtree may have grown (moved) the table. */
        Entry *slot = tt_find(c, k, cards, 1);
        if (slot) {
            if (v >= target) {
                if (v > slot->lo) slot->lo = (int16_t)v;
            } else if (v < slot->hi) {
                slot->hi = (int16_t)v;
            }
            if (lead >= 0) slot->lead = (int8_t)lead; /* the lead that decided it, first */
        }
    }
    return v;
}

/* ---------------------------------------------------------------------------------------- */
/* The root: bisection on the side's value                                                  */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    uint64_t hands[4];
    int leader, n, trick[4], match, side;
    int left; /* points of every card still in play, the last trick's 5 included */
    int own, theirs;
} Root;

/* Probe: a fail-soft bound on the side's value at target (restricted to one root card if
 * `only` >= 0). */
static int probe(Ctx *c, const Root *root, int target, int only) {
    memcpy(c->hands, root->hands, sizeof c->hands);
    c->leader = root->leader;
    c->match = root->match;
    memcpy(c->trick, root->trick, sizeof c->trick);
    int t0 = root->side ? 1 - target : target;
    int v;
    if (root->n == 0 && only < 0) {
        v = search_trick(c, t0, &c->root_best);
    } else {
        uint64_t live = root->hands[0] | root->hands[1] | root->hands[2] | root->hands[3];
        for (int i = 0; i < root->n; i++) live |= BIT(root->trick[i]);
        uint64_t reps[4];
        for (int i = 0; i < 4; i++)
            reps[i] = (c->features & F_MERGE) ? reps_of(&c->r, root->hands[i], live) : root->hands[i];
        if (only >= 0) reps[(root->leader + root->n) & 3] |= BIT(only);
        int top = root->n ? winner_of(&c->r, root->n, root->trick) : 0, pts = 0;
        for (int i = 0; i < root->n; i++) pts += c->r.points[root->trick[i]];
        v = search_card(c, root->n, t0, reps, top, pts, -1, only >= 0 ? BIT(only) : 0,
                        &c->root_best);
    }
    return root->side ? -v : v;
}

/* Bisection as in jass.solver: [lo, hi] narrows to the side's value; returns 1 if exact.
 * With a guess (guessed != 0) the first probes step from it as MTD(f) does (the fail-soft
 * value moves the next target), in steps that double while they go one way, and bisection
 * takes over once the value is bracketed: a good guess (a sibling card's value, the same
 * card in the last world) needs two or three probes, a poor one a few more. `good` receives the
 * root card of the last probe that reached its target, or keeps its value. */
static int bisect(Ctx *c, const Root *root, int only, int guess, int guessed, int *lo_out,
                  int *hi_out, int *good, int *good_value) {
    int left = root->left;
    int lo = -(left + root->theirs), hi = left + root->own, bottom = lo;
    int target = guess, step = 1, rose = 0, fell = 0;
    while (lo < hi) {
        if (!guessed || (rose && fell)) target = (int)(((long)lo + hi + 1) >> 1);
        if (target <= lo) target = lo + 1;
        if (target > hi) target = hi;
        c->root_best = -1;
        int value = probe(c, root, target, only);
        if (c->stopped) break;
        if (value >= target) {
            if (good && c->root_best >= 0) {
                *good = c->root_best;
                *good_value = value; /* the card makes at least this */
            }
            /* Without a match the difference has the parity of left. */
            if (-left <= value && value <= left) value += (value - left) & 1;
            lo = value < hi ? value : hi;
            step = rose ? 2 * step : 1;
            rose = 1;
            target = lo + 2 * step - 1; /* gallop up from the guess until the value is bracketed */
        } else {
            if (value < -left) value = bottom;
            else if (value > left) value = left;
            else value -= (value - left) & 1;
            hi = value > lo ? value : lo;
            step = fell ? 2 * step : 1;
            fell = 1;
            target = hi - 2 * (step - 1);
        }
    }
    *lo_out = lo;
    *hi_out = hi;
    return !c->stopped;
}

static void ctx_free(PyObject *capsule) {
    Ctx *c = (Ctx *)PyCapsule_GetPointer(capsule, "jass.native.ctx");
    if (c) {
        free(c->tt);
        free(c);
    }
}

static Ctx *get_ctx(PyObject *capsule) {
    if (!PyCapsule_IsValid(capsule, "jass.native.ctx")) {
        PyErr_SetString(InvalidInput, "context must be a solver context from new_context");
        return NULL;
    }
    return (Ctx *)PyCapsule_GetPointer(capsule, "jass.native.ctx");
}

/* new_context(rules, table_limit, features) */
static PyObject *new_context(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rules, *o_limit, *o_features;
    long long limit, features;
    if (!PyArg_ParseTuple(args, "OOO", &rules, &o_limit, &o_features)) return NULL;
    if (arg_ll(o_limit, 1, (long long)1 << 40, "table_limit", &limit) < 0 ||
        arg_ll(o_features, 0, 63, "features", &features) < 0)
        return NULL;
    Ctx *c = (Ctx *)calloc(1, sizeof(Ctx));
    if (!c) return PyErr_NoMemory();
    if (read_rules(rules, &c->r) < 0) {
        free(c);
        return NULL;
    }
    c->sign = c->r.swap ? -1 : 1;
    c->features = (int)features;
    build_canon(c);
    uint64_t cap = 4;
    while (cap * 2 <= (uint64_t)limit) cap *= 2;
    c->tt_limit = cap;
    c->bonus[0] = c->bonus[1] = -1;
    if (tt_alloc(c, cap < 1024 ? cap : 1024) < 0) {
        free(c);
        return PyErr_NoMemory();
    }
    PyObject *capsule = PyCapsule_New(c, "jass.native.ctx", ctx_free);
    if (!capsule) {
        free(c->tt);
        free(c);
    }
    return capsule;
}

/* Read a position: hands, leader, trick, tricks taken, declaring team, limits. */
static int read_root(Ctx *c, PyObject *hands, long long leader, PyObject *trick, long long t0,
                     long long t1, long long declaring, Root *root) {
    long long h[4], tr[4];
    if (ints_of(hands, 4, 0, (long long)ALL36, h, "hands") < 0) return -1;
    if (leader < 0 || leader > 3) {
        PyErr_Format(InvalidInput, "leader must be a seat 0-3, got %lld", leader);
        return -1;
    }
    if (!PySequence_Check(trick)) {
        PyErr_SetString(InvalidInput, "trick must be a sequence of cards");
        return -1;
    }
    Py_ssize_t n = PySequence_Size(trick);
    if (n < 0 || n > 3) {
        PyErr_Clear();
        PyErr_SetString(InvalidInput, "trick must hold 0-3 cards");
        return -1;
    }
    if (ints_of(trick, n, 0, 35, tr, "trick") < 0) return -1;
    if (declaring < 0 || declaring > 1) {
        PyErr_Format(InvalidInput, "declaring_team must be 0 or 1, got %lld", declaring);
        return -1;
    }
    uint64_t seen = 0;
    for (int i = 0; i < 4; i++) {
        if (seen & (uint64_t)h[i]) {
            PyErr_SetString(InvalidInput, "hands: a card is in two hands");
            return -1;
        }
        seen |= (uint64_t)h[i];
        root->hands[i] = (uint64_t)h[i];
    }
    for (int i = 0; i < n; i++) {
        if (seen & BIT(tr[i])) {
            PyErr_SetString(InvalidInput, "trick: a card is in a hand or twice in the trick");
            return -1;
        }
        seen |= BIT(tr[i]);
        root->trick[i] = (int)tr[i];
    }
    root->leader = (int)leader;
    root->n = (int)n;
    int seat = (int)((leader + n) & 3);
    int count = popcount64(root->hands[seat]);
    for (int i = 0; i < 4; i++) {
        int expect = count - (i < n ? 1 : 0);
        if (popcount64(root->hands[(leader + i) & 3]) != expect) {
            PyErr_SetString(InvalidInput, "hands: the hand sizes and the trick do not make a position");
            return -1;
        }
    }
    if (count < 1) {
        PyErr_SetString(InvalidInput, "hands: no card is left to play");
        return -1;
    }
    if (t0 < 0 || t1 < 0 || t0 + t1 + count != 9) {
        PyErr_Format(InvalidInput, "tricks: (%lld, %lld) taken do not fit %d cards left", t0, t1,
                     count);
        return -1;
    }
    root->side = seat & 1;
    root->match = (t1 == 0 ? 1 : 0) | (t0 == 0 ? 2 : 0);
    root->left = held_points(&c->r, seen) + c->r.last_bonus;
    int b[2];
    b[declaring] = c->r.match_bonus;
    b[declaring ^ 1] = c->r.counter_bonus;
    if (b[0] != c->bonus[0] || b[1] != c->bonus[1]) {
        /* Other bonuses: the table's values no longer hold. */
        memset(c->tt, 0, (size_t)(c->tt_mask + 1) * sizeof(Entry));
        c->tt_used = 0;
        c->bonus[0] = b[0];
        c->bonus[1] = b[1];
    }
    root->own = (root->match >> root->side & 1) ? b[root->side] : 0;
    root->theirs = (root->match >> (root->side ^ 1) & 1) ? b[root->side ^ 1] : 0;
    return 0;
}

static int read_limits(Ctx *c, long long node_limit, double time_limit) {
    if (node_limit < 0) {
        PyErr_Format(InvalidInput, "node_limit must be 0 (none) or positive, got %lld", node_limit);
        return -1;
    }
    if (!(time_limit >= 0) || isinf(time_limit) || time_limit > 1e9) {
        PyErr_SetString(InvalidInput, "time_limit must be 0 (none) or a positive number of seconds");
        return -1;
    }
    c->nodes = 0;
    c->stopped = 0;
    c->cancel = 0;
    c->node_limit = node_limit ? (uint64_t)node_limit : UINT64_MAX;
    c->deadline = time_limit > 0 ? now_seconds() + time_limit : 0;
    return 0;
}

static int acquire(Ctx *c) {
    if (c->busy) {
        PyErr_SetString(InvalidInput, "context: this solver is already solving (one at a time)");
        return -1;
    }
    c->busy = 1;
    return 0;
}

/* The arguments solve and card_values share: (ctx, hands, leader, trick, t0, t1, declaring,
 * node_limit, time_limit), checked; on success the context is held (busy) and root read. */
static Ctx *read_call(PyObject *args, Root *root) {
    PyObject *cap, *hands, *trick, *o_leader, *o_t0, *o_t1, *o_decl, *o_nodes, *o_time;
    long long leader, t0, t1, declaring, node_limit;
    double time_limit;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &cap, &hands, &o_leader, &trick, &o_t0, &o_t1,
                          &o_decl, &o_nodes, &o_time))
        return NULL;
    if (arg_ll(o_leader, 0, 3, "leader", &leader) < 0 || arg_ll(o_t0, 0, 9, "tricks[0]", &t0) < 0 ||
        arg_ll(o_t1, 0, 9, "tricks[1]", &t1) < 0 ||
        arg_ll(o_decl, 0, 1, "declaring_team", &declaring) < 0 ||
        arg_ll(o_nodes, 0, LLONG_MAX, "node_limit", &node_limit) < 0 ||
        arg_seconds(o_time, &time_limit) < 0)
        return NULL;
    Ctx *c = get_ctx(cap);
    if (!c || acquire(c) < 0) return NULL;
    if (read_root(c, hands, leader, trick, t0, t1, declaring, root) < 0 ||
        read_limits(c, node_limit, time_limit) < 0) {
        c->busy = 0;
        return NULL;
    }
    return c;
}

/* The legal root cards, one per class (the rep of each), in search order. */
static int root_moves(Ctx *c, const Root *root, int *list) {
    uint64_t live = root->hands[0] | root->hands[1] | root->hands[2] | root->hands[3];
    for (int i = 0; i < root->n; i++) live |= BIT(root->trick[i]);
    int seat = (root->leader + root->n) & 3;
    uint64_t hand = root->hands[seat];
    uint64_t reps = (c->features & F_MERGE) ? reps_of(&c->r, hand, live) : hand;
    uint64_t moves = legal(&c->r, reps, root->n, root->trick);
    int top = root->n ? winner_of(&c->r, root->n, root->trick) : 0;
    int top_key = root->n ? c->r.keys[root->trick[0] / 9][root->trick[top]] : -1;
    int partner = root->n ? (((root->leader + top) ^ seat) & 1) == 0 : 0;
    memcpy(c->trick, root->trick, sizeof c->trick);
    memcpy(c->hands, root->hands, sizeof c->hands);
    c->leader = root->leader;
    return order_moves(c, moves, root->n, top_key, partner, -1, list);
}

/* solve(ctx, hands, leader, trick, t0, t1, declaring, node_limit, time_limit)
 *   -> (lower, upper, best, exact, nodes, table_used) */
static PyObject *solve(PyObject *self, PyObject *args) {
    (void)self;
    Root root;
    Ctx *c = read_call(args, &root);
    if (!c) return NULL;
    int lo = 0, hi = 0, exact, best = -1, last_good = -1;
    int list[9];
    Py_BEGIN_ALLOW_THREADS
    int n = root_moves(c, &root, list);
    int good_value = INT_MIN;
    exact = bisect(c, &root, -1, c->last_value, c->has_last, &lo, &hi, &last_good, &good_value);
    if (exact) {
        c->last_value = lo;
        c->has_last = 1;
        /* A probe's card that made at least the value is a best card: no search for one. */
        if (last_good >= 0 && good_value >= lo) best = last_good;
    }
    if (exact && best < 0) {
        for (int i = 0; i < n && best < 0; i++) {
            int v = probe(c, &root, lo, list[i]);
            if (c->stopped) break;
            if (v >= lo) best = list[i];
        }
        if (best < 0) exact = 0; /* stopped while finding the card */
    }
    if (best < 0) best = last_good >= 0 ? last_good : list[0];
    Py_END_ALLOW_THREADS
    c->busy = 0;
    return Py_BuildValue("iiiiKK", lo, hi, best, exact, (unsigned long long)c->nodes,
                         (unsigned long long)c->tt_used);
}

/* card_values(ctx, hands, leader, trick, t0, t1, declaring, node_limit, time_limit)
 *   -> (((card, lower, upper), ...) for every legal card, exact, nodes, table_used) */
static PyObject *card_values(PyObject *self, PyObject *args) {
    (void)self;
    Root root;
    Ctx *c = read_call(args, &root);
    if (!c) return NULL;
    int list[9], n, lo[9], hi[9], exact = 1, rep[36];
    uint64_t all_legal;
    Py_BEGIN_ALLOW_THREADS
    n = root_moves(c, &root, list);
    for (int i = 0; i < n; i++) {
        int l, h;
        if (!c->stopped) {
            /* Guess: this card's value in the last world, else the card before it here. */
            int card = list[i];
            int guessed = c->card_known[card] || i > 0;
            int guess = c->card_known[card] ? c->card_value[card] : (i ? lo[i - 1] : 0);
            if (bisect(c, &root, card, guess, guessed, &l, &h, NULL, NULL)) {
                c->card_value[card] = l;
                c->card_known[card] = 1;
            }
        } else {
            l = -(root.left + root.theirs);
            h = root.left + root.own;
        }
        lo[i] = l;
        hi[i] = h;
    }
    exact = !c->stopped;
    {
        uint64_t live = root.hands[0] | root.hands[1] | root.hands[2] | root.hands[3];
        for (int i = 0; i < root.n; i++) live |= BIT(root.trick[i]);
        int seat = (root.leader + root.n) & 3;
        all_legal = legal(&c->r, root.hands[seat], root.n, root.trick);
        rep_map(&c->r, root.hands[seat], live, (c->features & F_MERGE) != 0, rep);
    }
    Py_END_ALLOW_THREADS
    c->busy = 0;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (uint64_t m = all_legal; m; m &= m - 1) {
        int card = lowest(m), k = -1;
        for (int i = 0; i < n; i++)
            if (list[i] == rep[card]) k = i;
        if (k < 0) continue; /* cannot happen: every legal card's rep is a legal rep */
        PyObject *item = Py_BuildValue("iii", card, lo[k], hi[k]);
        if (!item || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(item);
    }
    return Py_BuildValue("NiKK", out, exact, (unsigned long long)c->nodes,
                         (unsigned long long)c->tt_used);
}

/* legal_mask(rules, hand, trick) -> int: the kernel copy, exposed for the cross-check. */
static PyObject *py_legal(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rules, *trick, *o_hand;
    long long hand;
    if (!PyArg_ParseTuple(args, "OOO", &rules, &o_hand, &trick)) return NULL;
    Rules r;
    long long tr[3];
    if (read_rules(rules, &r) < 0) return NULL;
    if (arg_ll(o_hand, 0, (long long)ALL36, "hand", &hand) < 0) return NULL;
    Py_ssize_t n = PySequence_Check(trick) ? PySequence_Size(trick) : -1;
    if (n < 0 || n > 3) {
        PyErr_Clear();
        PyErr_SetString(InvalidInput, "trick must hold 0-3 cards");
        return NULL;
    }
    if (ints_of(trick, n, 0, 35, tr, "trick") < 0) return NULL;
    int t[3];
    for (int i = 0; i < n; i++) t[i] = (int)tr[i];
    return PyLong_FromUnsignedLongLong(legal(&r, (uint64_t)hand, (int)n, t));
}

/* trick_winner(rules, trick) -> index of the card holding it. */
static PyObject *py_winner(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rules, *trick;
    if (!PyArg_ParseTuple(args, "OO", &rules, &trick)) return NULL;
    Rules r;
    long long tr[4];
    if (read_rules(rules, &r) < 0) return NULL;
    Py_ssize_t n = PySequence_Check(trick) ? PySequence_Size(trick) : -1;
    if (n < 1 || n > 4) {
        PyErr_Clear();
        PyErr_SetString(InvalidInput, "trick must hold 1-4 cards");
        return NULL;
    }
    if (ints_of(trick, n, 0, 35, tr, "trick") < 0) return NULL;
    int t[4];
    for (int i = 0; i < n; i++) t[i] = (int)tr[i];
    return PyLong_FromLong(winner_of(&r, (int)n, t));
}


/* ---------------------------------------------------------------------------------------- */
/* The random play-out of jass.search.fast, draw for draw                                   */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    const unsigned char *bytes;
    int n, at; /* 32-bit big-endian draws */
    uint64_t state; /* or a splitmix64 stream when bytes is NULL */
} Draws;

static uint32_t next_draw(Draws *d) {
    if (!d->bytes) {
        d->state += 0x9e3779b97f4a7c15ull;
        return (uint32_t)(mix(d->state) >> 32);
    }
    if (d->at >= d->n) return 0;
    const unsigned char *b = d->bytes + 4 * d->at++;
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | (uint32_t)b[3];
}

/* The k-th card (ascending) of a mask. */
static int nth_card(uint64_t mask, int k) {
    while (k--) mask &= mask - 1;
    return lowest(mask);
}

/* Play out from `leader` with `n` cards of the current trick down; as fast.play_out picks
 * cards: cards[draw * len >> 32] of the legal cards ascending, a forced card takes no draw. */
static void play_random(const Rules *r, uint64_t *hands, int leader, int n, int *trick,
                        int *taken, int *won, Draws *d) {
    while (won[0] + won[1] < 9) {
        for (int pos = n; pos < 4; pos++) {
            int seat = (leader + pos) & 3;
            uint64_t moves = legal(r, hands[seat], pos, trick);
            int count = popcount64(moves), card;
            if (count > 1)
                card = nth_card(moves, (int)(((uint64_t)next_draw(d) * (uint64_t)count) >> 32));
            else
                card = lowest(moves);
            hands[seat] ^= BIT(card);
            trick[pos] = card;
        }
        n = 0;
        leader = (leader + winner_of(r, 4, trick)) & 3;
        int pts = r->points[trick[0]] + r->points[trick[1]] + r->points[trick[2]] +
                  r->points[trick[3]];
        taken[leader & 1] += pts;
        won[leader & 1]++;
    }
    taken[leader & 1] += r->last_bonus;
}

/* play_out(rules, hands, leader, trick, taken0, taken1, won0, won1, draws: bytes)
 *   -> (taken0, taken1, won0, won1), the raw points taken (the last trick's 5 included). */
static PyObject *py_play_out(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rules, *hands, *trick, *draws, *o[5];
    long long leader, p0, p1, w0, w1;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &rules, &hands, &o[0], &trick, &o[1], &o[2], &o[3],
                          &o[4], &draws))
        return NULL;
    if (arg_ll(o[0], 0, 3, "leader", &leader) < 0 || arg_ll(o[1], 0, 100000, "points[0]", &p0) < 0 ||
        arg_ll(o[2], 0, 100000, "points[1]", &p1) < 0 || arg_ll(o[3], 0, 9, "tricks[0]", &w0) < 0 ||
        arg_ll(o[4], 0, 9, "tricks[1]", &w1) < 0)
        return NULL;
    Rules r;
    if (read_rules(rules, &r) < 0) return NULL;
    Ctx scratch;
    memset(&scratch, 0, sizeof scratch);
    scratch.r = r;
    scratch.bonus[0] = scratch.bonus[1] = 0;
    scratch.tt = NULL;
    Root root;
    if (p0 < 0 || p1 < 0 || p0 > 100000 || p1 > 100000) {
        PyErr_SetString(InvalidInput, "points must be 0 to 100000");
        return NULL;
    }
    /* read_root clears the table when bonuses change: give it a one-entry table. */
    Entry one[4];
    memset(one, 0, sizeof one);
    scratch.tt = one;
    scratch.tt_mask = 0;
    scratch.bonus[0] = r.match_bonus;
    scratch.bonus[1] = r.counter_bonus;
    if (read_root(&scratch, hands, leader, trick, w0, w1, 0, &root) < 0) return NULL;
    if (!PyBytes_Check(draws) || PyBytes_Size(draws) < 144) {
        PyErr_SetString(InvalidInput, "draws must be at least 144 bytes");
        return NULL;
    }
    Draws d = {(const unsigned char *)PyBytes_AsString(draws), (int)(PyBytes_Size(draws) / 4), 0, 0};
    int taken[2] = {(int)p0, (int)p1}, won[2] = {(int)w0, (int)w1};
    play_random(&r, root.hands, root.leader, root.n, root.trick, taken, won, &d);
    return Py_BuildValue("iiii", taken[0], taken[1], won[0], won[1]);
}

/* Deal by 36 keys, as fast.random_hand sorts the deck (ties keep the natural order). */
static void deal_by_keys(Draws *d, uint64_t *hands) {
    uint32_t keys[36];
    int deck[36];
    for (int i = 0; i < 36; i++) {
        keys[i] = next_draw(d);
        deck[i] = i;
    }
    for (int i = 1; i < 36; i++)
        for (int j = i; j > 0 && keys[deck[j]] < keys[deck[j - 1]]; j--) {
            int t = deck[j]; deck[j] = deck[j - 1]; deck[j - 1] = t;
        }
    for (int s = 0; s < 4; s++) {
        hands[s] = 0;
        for (int i = 0; i < 9; i++) hands[s] |= BIT(deck[9 * s + i]);
    }
}

/* random_hand(rules, bytes288) -> (taken0, taken1, won0, won1): fast.random_hand's hand. */
static PyObject *py_random_hand(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rules, *bytes;
    if (!PyArg_ParseTuple(args, "OO", &rules, &bytes)) return NULL;
    Rules r;
    if (read_rules(rules, &r) < 0) return NULL;
    if (!PyBytes_Check(bytes) || PyBytes_Size(bytes) < 288) {
        PyErr_SetString(InvalidInput, "draws must be at least 288 bytes");
        return NULL;
    }
    Draws d = {(const unsigned char *)PyBytes_AsString(bytes), 72, 0, 0};
    uint64_t hands[4];
    int trick[4], taken[2] = {0, 0}, won[2] = {0, 0};
    deal_by_keys(&d, hands);
    play_random(&r, hands, 0, 0, trick, taken, won, &d);
    return Py_BuildValue("iiii", taken[0], taken[1], won[0], won[1]);
}

/* random_hands(rules, n, seed) -> (hands, points of team 0, points of team 1): n random
 * hands dealt and played in C from a splitmix64 stream (throughput; GIL released). */
static PyObject *py_random_hands(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rules, *o_n, *o_seed;
    long long n, seed;
    if (!PyArg_ParseTuple(args, "OOO", &rules, &o_n, &o_seed)) return NULL;
    Rules r;
    if (read_rules(rules, &r) < 0) return NULL;
    if (arg_ll(o_n, 0, (long long)1 << 40, "n", &n) < 0 ||
        arg_ll(o_seed, 0, LLONG_MAX, "seed", &seed) < 0)
        return NULL;
    long long sum0 = 0, sum1 = 0;
    Py_BEGIN_ALLOW_THREADS
    Draws d = {NULL, 0, 0, (uint64_t)seed};
    int deck[36];
    for (int i = 0; i < 36; i++) deck[i] = i;
    for (long long i = 0; i < n; i++) {
        uint64_t hands[4] = {0, 0, 0, 0};
        int trick[4], taken[2] = {0, 0}, won[2] = {0, 0};
        for (int j = 35; j > 0; j--) { /* Fisher-Yates: each deal uniform */
            int k = (int)(((uint64_t)next_draw(&d) * (uint64_t)(j + 1)) >> 32);
            int t = deck[j]; deck[j] = deck[k]; deck[k] = t;
        }
        for (int j = 0; j < 36; j++) hands[j / 9] |= BIT(deck[j]);
        play_random(&r, hands, 0, 0, trick, taken, won, &d);
        sum0 += taken[0];
        sum1 += taken[1];
    }
    Py_END_ALLOW_THREADS
    return Py_BuildValue("LLL", n, sum0, sum1);
}

/* cancel(ctx): the running solve of ctx stops at its next position (an interrupt). */
static PyObject *py_cancel(PyObject *self, PyObject *cap) {
    (void)self;
    Ctx *c = get_ctx(cap);
    if (!c) return NULL;
    c->cancel = 1;
    Py_RETURN_NONE;
}

static PyObject *set_error(PyObject *self, PyObject *cls) {
    (void)self;
    Py_XDECREF(InvalidInput);
    Py_INCREF(cls);
    InvalidInput = cls;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"_set_error", set_error, METH_O, "Set the exception class raised on bad input."},
    {"new_context", new_context, METH_VARARGS, "A solver context: (rules, table_limit, features)."},
    {"solve", solve, METH_VARARGS, "Solve a position."},
    {"cancel", py_cancel, METH_O, "Stop the context's running solve."},
    {"card_values", card_values, METH_VARARGS, "The value of every legal card."},
    {"legal_mask", py_legal, METH_VARARGS, "The legal cards (kernel copy)."},
    {"trick_winner", py_winner, METH_VARARGS, "The trick's holder (kernel copy)."},
    {"play_out", py_play_out, METH_VARARGS, "A random play-out from a trick boundary."},
    {"random_hand", py_random_hand, METH_VARARGS, "fast.random_hand from its 288 bytes."},
    {"random_hands", py_random_hands, METH_VARARGS, "Deal and play n random hands."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "The native search core of jass.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    InvalidInput = PyExc_ValueError;
    Py_INCREF(InvalidInput);
    return PyModule_Create(&module);
}
