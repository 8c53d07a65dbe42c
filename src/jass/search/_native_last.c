/* The last two tricks: a small alpha-beta over the at most 16 lines of the eighth trick (the
 * ninth is forced), cheaper than the table. Four nested loops, one per card of the eighth
 * trick, over locals: no recursion, and nothing of the context is written. The lines are
 * tried in the same order (each hand's legal cards, lowest first) and cut on the same
 * condition as a recursive fail-soft search would, so it returns that search's bound. */
#include "_native.h"

/* Whether v improves on best for the side (maxing: team 0), and whether best then reaches
 * the mover's side of the target (a cutoff). */
#define BETTER(maxing, v, best) ((maxing) ? (v) > (best) : (v) < (best))
#define CUTS(maxing, best, target) ((maxing) ? (best) >= (target) : (best) < (target))
/* A card's value v taken into its seat's best, leaving the seat's loop on a cutoff. */
#define KEEP(maxing, v, best)                                                                \
    if (BETTER(maxing, v, best)) {                                                           \
        best = v;                                                                            \
        if (CUTS(maxing, best, target)) break;                                               \
    }

/* The team-0 value of a line: position `top` (from the eighth's leader) takes the eighth
 * trick, with `eighth` points, and position `ninth` the ninth. `rest9` is the points of the
 * two tricks plus the last trick's bonus. */
JASS_INLINE int line_value(const Ctx *c, int top, int eighth, int ninth, int rest9) {
    int w = (c->leader + top) & 1, w9 = (c->leader + ninth) & 1;
    int g = c->sign * eighth, g9 = c->sign * (rest9 - eighth);
    if (w9 == w && (c->match >> w & 1)) g9 += c->bonus[w];
    return (w ? -g : g) + (w9 ? -g9 : g9);
}

/* The search, for a leader of team 0 (even) or 1: a constant, so each case compiles on its
 * own, without the side's tests in the loops. */
JASS_INLINE int two_tricks(const Ctx *c, int target, int all, const int even) {
    const Rules *r = &c->r;
    uint64_t h[4];
    for (int i = 0; i < 4; i++) h[i] = c->hands[(c->leader + i) & 3];
    int t[4], rest[4], rest9 = all + r->last_bonus;
    int best0 = even ? -INF : INF;
    for (uint64_t m0 = h[0]; m0; m0 &= m0 - 1) {
        t[0] = lowest(m0);
        rest[0] = lowest(h[0] & ~BIT(t[0]));
        const int *keys = r->keys[t[0] / 9];
        int p0 = r->points[t[0]];
        int best1 = even ? INF : -INF;
        for (uint64_t m1 = legal(r, h[1], 1, t); m1; m1 &= m1 - 1) {
            t[1] = lowest(m1);
            rest[1] = lowest(h[1] & ~BIT(t[1]));
            int top1 = keys[t[1]] > keys[t[0]] ? 1 : 0;
            int p1 = p0 + r->points[t[1]];
            int best2 = even ? -INF : INF;
            for (uint64_t m2 = legal(r, h[2], 2, t); m2; m2 &= m2 - 1) {
                t[2] = lowest(m2);
                rest[2] = lowest(h[2] & ~BIT(t[2]));
                int top2 = keys[t[2]] > keys[t[top1]] ? 2 : top1;
                int key2 = keys[t[top2]], p2 = p1 + r->points[t[2]];
                /* The ninth trick's holder (R6.1-R6.2: winner_of's first best key from its
                 * leader on) when top2 keeps the eighth and leads it: the best of positions
                 * 0-2 now, position 3's card compared at each line (it comes before the
                 * positions below top2 in the ninth's order). */
                const int *led9 = r->keys[rest[top2] / 9];
                int first9 = top2, most9 = led9[rest[top2]];
                static const int8_t after[3][2] = {{1, 2}, {2, 0}, {0, 1}}; /* mod 3 */
                for (int j = 0; j < 2; j++) {
                    int q = after[top2][j], key = led9[rest[q]];
                    if (key > most9) {
                        first9 = q;
                        most9 = key;
                    }
                }
                int best3 = even ? INF : -INF;
                for (uint64_t m3 = legal(r, h[3], 3, t); m3; m3 &= m3 - 1) {
                    int card = lowest(m3), kept = lowest(h[3] & ~BIT(card)), top, ninth;
                    if (keys[card] > key2) { /* position 3 takes the eighth and leads */
                        const int *k9 = r->keys[kept / 9];
                        int most = k9[kept];
                        top = ninth = 3;
                        for (int q = 0; q < 3; q++)
                            if (k9[rest[q]] > most) {
                                ninth = q;
                                most = k9[rest[q]];
                            }
                    } else {
                        int key = led9[kept];
                        top = top2;
                        ninth = key > most9 || (key == most9 && first9 < top2) ? 3 : first9;
                    }
                    int v = line_value(c, top, p2 + r->points[card], ninth, rest9);
                    KEEP(!even, v, best3)
                }
                KEEP(even, best3, best2)
            }
            KEEP(!even, best2, best1)
        }
        KEEP(even, best1, best0)
    }
    return best0;
}

/* The team-0 value of the last two tricks from the eighth trick's start, probed at `target`
 * (fail-soft: at least target means the value is at least the result, below means at most).
 * `all` is the points of the eight cards still in play. */
int jass_exact_two(const Ctx *c, int target, int all) {
    return c->leader & 1 ? two_tricks(c, target, all, 0) : two_tricks(c, target, all, 1);
}
