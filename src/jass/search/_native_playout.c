/* The random play-out of jass.search.fast, draw for draw, and its three entry points. */
#include "_native.h"

#include <limits.h>

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
PyObject *jass_py_play_out(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rules, *hands, *trick, *draws, *o[5];
    long long leader, p0, p1, w0, w1;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &rules, &hands, &o[0], &trick, &o[1], &o[2], &o[3],
                          &o[4], &draws))
        return NULL;
    if (jass_arg_ll(o[0], 0, 3, "leader", &leader) < 0 ||
        jass_arg_ll(o[1], 0, 100000, "points[0]", &p0) < 0 ||
        jass_arg_ll(o[2], 0, 100000, "points[1]", &p1) < 0 ||
        jass_arg_ll(o[3], 0, 9, "tricks[0]", &w0) < 0 ||
        jass_arg_ll(o[4], 0, 9, "tricks[1]", &w1) < 0)
        return NULL;
    Rules r;
    if (jass_read_rules(rules, &r) < 0) return NULL;
    Ctx scratch;
    memset(&scratch, 0, sizeof scratch);
    scratch.r = r;
    scratch.bonus[0] = scratch.bonus[1] = 0;
    scratch.tt = NULL;
    Root root;
    if (p0 < 0 || p1 < 0 || p0 > 100000 || p1 > 100000) {
        PyErr_SetString(jass_invalid_input, "points must be 0 to 100000");
        return NULL;
    }
    /* jass_read_root clears the table when bonuses change: give it a one-entry table. */
    Entry one[4];
    memset(one, 0, sizeof one);
    scratch.tt = one;
    scratch.tt_mask = 0;
    scratch.bonus[0] = r.match_bonus;
    scratch.bonus[1] = r.counter_bonus;
    if (jass_read_root(&scratch, hands, leader, trick, w0, w1, 0, &root) < 0) return NULL;
    if (!PyBytes_Check(draws) || PyBytes_Size(draws) < 144) {
        PyErr_SetString(jass_invalid_input, "draws must be at least 144 bytes");
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
PyObject *jass_py_random_hand(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rules, *bytes;
    if (!PyArg_ParseTuple(args, "OO", &rules, &bytes)) return NULL;
    Rules r;
    if (jass_read_rules(rules, &r) < 0) return NULL;
    if (!PyBytes_Check(bytes) || PyBytes_Size(bytes) < 288) {
        PyErr_SetString(jass_invalid_input, "draws must be at least 288 bytes");
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
PyObject *jass_py_random_hands(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rules, *o_n, *o_seed;
    long long n, seed;
    if (!PyArg_ParseTuple(args, "OOO", &rules, &o_n, &o_seed)) return NULL;
    Rules r;
    if (jass_read_rules(rules, &r) < 0) return NULL;
    if (jass_arg_ll(o_n, 0, (long long)1 << 40, "n", &n) < 0 ||
        jass_arg_ll(o_seed, 0, LLONG_MAX, "seed", &seed) < 0)
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

