/* The transposition table at trick boundaries: its keys (relative rank within runs of
 * equal-point cards; with payoff-similar keys, owners in power order plus the live cards),
 * its growth, its slots and its cutoffs.
 *
 * Payoff-similar entries (Furtak and Buro's payoff similarity; Kupferschmid and Helmert's
 * quasi-symmetry in Skat): two trick starts whose live cards of each suit, in power order,
 * have the same owners have isomorphic game trees (abstract_suit), which differ only in
 * points. So |V(a) - V(b)| is at most the points that differ place by place (payoff_delta),
 * and a bound stored for one, widened by that, serves the other (jass_tt_cut). The steps the
 * search's loops take (a key after a card, its packing, the cutoff test) are inline in
 * _native.h. */
#include "_native.h"

#include <stdlib.h>

/* Suit s of the hands the table keys, its live cards `p`: the cards that move (few, the
 * small cards of a run below a gap) go to their run's top places; the others stay. */
void jass_key_suit(const Ctx *c, const uint64_t *h, int s, int p, uint64_t *out) {
    uint64_t suit = (uint64_t)0x1FF << (9 * s);
    uint64_t moving = (uint64_t)c->moving[s][p] << (9 * s), to[4] = {0, 0, 0, 0};
    for (uint64_t m = moving; m; m &= m - 1) {
        uint64_t b = m & -m;
        int owner = (h[1] & b) ? 1 : (h[2] & b) ? 2 : (h[3] & b) ? 3 : 0;
        to[owner] |= BIT(9 * s + c->canon[s][p][lowest(m) - 9 * s]);
    }
    for (int i = 0; i < 4; i++) out[i] = (out[i] & ~suit) | (h[i] & suit & ~moving) | to[i];
}

/* The hands the table keys: with rank keys, each run of equal-point cards (jass_build_canon)
 * keeps its live cards at its top, in order, so that positions that differ only in which
 * cards of a run are gone share an entry (partition search's idea, for points). */
void jass_key_hands(const Ctx *c, uint64_t *out) {
    const uint64_t *h = c->hands;
    memcpy(out, h, 4 * sizeof *out);
    if (!(c->features & (F_RANK | F_PAYOFF))) return;
    uint64_t live = h[0] | h[1] | h[2] | h[3];
    /* The suits of kdir: all at once, each hand compressed by shifts (one direction, then
     * the other); the others by canon. */
    uint64_t right[4] = {0, 0, 0, 0}, left[4] = {0, 0, 0, 0};
    int dirs = 0;
    for (int s = 0; s < 4; s++) {
        int p = (int)(live >> (9 * s)) & 0x1FF;
        const uint64_t *m = c->cmv[s][p];
        if (c->kdir[s] == 1) {
            for (int i = 0; i < 4; i++) right[i] |= m[i];
            dirs |= 1;
        } else if (c->kdir[s] == 2) {
            for (int i = 0; i < 4; i++) left[i] |= m[i];
            dirs |= 2;
        } else if (c->moving[s][p]) {
            jass_key_suit(c, h, s, p, out);
        }
    }
    for (int j = 0; j < 4; j++) {
        uint64_t x = out[j], t;
        if (dirs & 1)
            for (int i = 0; i < 4; i++) { t = x & right[i]; x = (x ^ t) | t >> (1 << i); }
        if (dirs & 2)
            for (int i = 0; i < 4; i++) { t = x & left[i]; x = (x ^ t) | t << (1 << i); }
        out[j] = x;
    }
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

static int cmp(int a, int b) { return (a > b) - (a < b); }

/* Whether the rules order a suit's cards among themselves by their place in it alone: in a
 * trick led in any suit, and in the overtrump test, every stronger card stands to every
 * weaker one as any other does. Then a map of a suit's live cards that keeps their order
 * keeps every relation among them. */
static int by_place(const Rules *r, int s) {
    const int *o = r->order[s];
    for (int i = 0; i < 9; i++)
        for (int j = i + 1; j < 9; j++) {
            for (int k = 0; k < 4; k++)
                if (cmp(r->keys[k][o[i]], r->keys[k][o[j]]) !=
                    cmp(r->keys[k][o[0]], r->keys[k][o[1]]))
                    return 0;
            if ((r->above[o[i]] >> o[j] & 1) != (r->above[o[0]] >> o[1] & 1) ||
                (r->above[o[j]] >> o[i] & 1) != (r->above[o[1]] >> o[0] & 1) ||
                (r->above[o[i]] >> o[i] & 1) != (r->above[o[0]] >> o[0] & 1))
                return 0;
        }
    return 1;
}

/* Whether y may stand for x against every card of the other suits: the same order in every
 * trick, the same overtrump relations. */
static int outside_same(const Rules *r, int x, int y) {
    for (int z = 0; z < 36; z++) {
        if (z / 9 == x / 9) continue;
        for (int k = 0; k < 4; k++)
            if (cmp(r->keys[k][z], r->keys[k][x]) != cmp(r->keys[k][z], r->keys[k][y]) ||
                (r->keys[k][x] < 0) != (r->keys[k][y] < 0))
                return 0;
        if ((r->above[x] >> z & 1) != (r->above[y] >> z & 1) ||
            (r->above[z] >> x & 1) != (r->above[z] >> y & 1))
            return 0;
    }
    return 1;
}

/* outside_same, with the same points, neither a Buur. */
static int outside_alike(const Rules *r, int x, int y) {
    if (r->points[x] != r->points[y] || (r->buur_mask & (BIT(x) | BIT(y)))) return 0;
    return outside_same(r, x, y);
}

/* Whether positions whose live cards of suit s, in order, have the same owners have
 * isomorphic game trees (map the k-th live card to the k-th): the rules order the suit by
 * place alone, all its cards stand alike to the other suits, and a Buur (whose lone card R5.4
 * exempts) is its top card, live in both positions or in neither (a bit of the key). */
static int abstract_suit(const Rules *r, int s) {
    const int *o = r->order[s];
    if (!by_place(r, s)) return 0;
    for (int i = 1; i < 9; i++) {
        if (!outside_same(r, o[0], o[i])) return 0;
        if (r->buur_mask & BIT(o[i])) return 0;
    }
    return 1;
}

/* Classes: cards that may stand for each other where they are next to each other among the
 * live cards of their suit (partition search's idea, with the points kept exact). Where the
 * rules order a suit by place alone (by_place), any two cards of a suit with the same points
 * and the same relations to the other suits share a class: two positions whose live cards of
 * each suit, in order, have the same owners and classes, have the same value (map the k-th
 * live card of a suit to the k-th: every rule relation and every point is kept). Otherwise
 * only runs next to each other in the suit's order, with the same points and the same role
 * (same_role), share one; if the rule data does not allow even that (a forged one), rank keys
 * are switched off. */
static int classes(Ctx *c, int *cls) {
    const Rules *r = &c->r;
    int run[36], first[36];
    for (int s = 0; s < 4; s++) {
        const int *o = r->order[s];
        if (by_place(r, s)) {
            for (int i = 0; i < 9; i++) {
                cls[o[i]] = o[i];
                for (int j = 0; j < i; j++)
                    if (outside_alike(r, o[j], o[i])) { cls[o[i]] = cls[o[j]]; break; }
            }
            continue;
        }
        for (int i = 0; i < 9; i++) {
            int card = o[i], prev = i ? o[i - 1] : -1;
            int joins = prev >= 0 && r->points[card] == r->points[prev] &&
                        !(r->buur_mask & (BIT(card) | BIT(prev)));
            run[card] = joins ? run[prev] : card;
            first[card] = joins ? first[prev] : i;
        }
        for (int i = 0; i + 1 < 9; i++) {
            int x = o[i], y = o[i + 1];
            if (run[x] != run[y]) continue;
            int x0 = o[first[x]], y0 = o[first[x] + 1];
            for (int j = i + 1; j < 9 && run[o[j]] == run[x]; j++)
                if (!same_role(r, run, x, o[j], x0, y0)) return 0;
        }
        for (int i = 0; i < 9; i++) cls[o[i]] = run[o[i]];
    }
    return 1;
}

/* The map of suit s's live cards p by classes cls: the k-th live card goes to the first place
 * after the (k-1)-th's whose card has its class, so that it depends only on the classes in
 * order; moving gets the cards that move. */
static void class_map(const Rules *r, const int *cls, int s, int p, uint8_t *to,
                      uint16_t *moving) {
    int moved = 0, at = 0;
    for (int i = 0; i < 9; i++) {
        int card = r->order[s][i];
        if (!(p >> (card - 9 * s) & 1)) continue;
        while (cls[r->order[s][at]] != cls[card]) at++;
        int dest = r->order[s][at++];
        to[card - 9 * s] = (uint8_t)(dest - 9 * s);
        if (dest != card) moved |= 1 << (card - 9 * s);
    }
    *moving = (uint16_t)moved;
}

/* The masks of compressing a suit's cards onto its strong end (the high card numbers if
 * `left`): the k-th live card from that end goes to the k-th place. In four steps (shifts
 * 1, 2, 4, 8: Hacker's Delight's compress), a card moving in step i by its gaps' count's
 * bit i, from where the earlier steps put it; within the suit's 9 bits, so one mask serves
 * every suit of a hand at once. */
static void build_shift(Ctx *c, int s, int left) {
    for (int m = 0; m < 512; m++) {
        uint64_t mv[4] = {0, 0, 0, 0};
        for (int q = 0; q < 9; q++) {
            if (!(m >> q & 1)) continue;
            int d = 0; /* the gaps between the card and the strong end */
            for (int z = left ? q + 1 : 0; z < (left ? 9 : q); z++) d += !(m >> z & 1);
            for (int i = 0; i < 4; i++)
                if (d >> i & 1) {
                    int done = d & ((1 << i) - 1);
                    mv[i] |= BIT(9 * s + (left ? q + done : q - done));
                }
        }
        memcpy(c->cmv[s][m], mv, sizeof mv);
    }
}

/* krm for suit s: each key field in power order, its r-th place taken out, back. */
static void build_removal(Ctx *c, int s) {
    const int *o = c->r.order[s];
    for (int r = 0; r < 9; r++)
        for (int f = 0; f < 512; f++) {
            unsigned q = 0, strong = (1u << r) - 1, back = 0;
            for (int i = 0; i < 9; i++)
                if (f >> (o[i] - 9 * s) & 1) q |= 1u << i;
            q = (q & strong) | (q >> 1 & ~strong);
            for (int i = 0; i < 9; i++)
                if (q >> i & 1) back |= 1u << (o[i] - 9 * s);
            c->krm[r][f] = (uint16_t)back;
        }
}

/* canon[s][live] by the rank classes (each card its own without rank keys) and, with
 * payoff-similar keys, one class for each suit of abstract_suit (the k-th live card to the
 * k-th place); clive[s][live] the live cards under the rank classes. */
void jass_build_canon(Ctx *c) {
    const Rules *r = &c->r;
    int cls[36], abstract[36];
    for (int card = 0; card < 36; card++) cls[card] = card;
    if ((c->features & F_RANK) && !classes(c, cls)) {
        c->features &= ~F_RANK;
        for (int card = 0; card < 36; card++) cls[card] = card;
    }
    memcpy(abstract, cls, sizeof abstract);
    for (int p = 0; p < 512; p++) c->pc9[p] = (uint8_t)popcount64((uint64_t)p);
    int generic = 0; /* a suit of kdir 3 is taken */
    for (int s = 0; s < 4; s++) {
        for (int i = 0; i < 9; i++) c->ppow[s][i] = (int8_t)r->points[r->order[s][i]];
        c->kdir[s] = 0;
        if ((c->features & F_PAYOFF) && abstract_suit(r, s)) {
            for (int i = 0; i < 9; i++) abstract[r->order[s][i]] = r->order[s][0];
            int asc = 1, desc = 1;
            for (int i = 0; i < 9; i++) {
                asc &= r->order[s][i] == 9 * s + i;
                desc &= r->order[s][i] == 9 * s + 8 - i;
            }
            c->kdir[s] = (int8_t)(asc ? 1 : desc ? 2 : generic ? 0 : 3);
            if (c->kdir[s] && c->kdir[s] < 3) build_shift(c, s, c->kdir[s] == 2);
            if (c->kdir[s] == 3) {
                generic = 1;
                build_removal(c, s);
            }
        }
    }
    for (int s = 0; s < 4; s++)
        for (int p = 0; p < 512; p++) {
            uint8_t to[9];
            uint16_t moving;
            class_map(r, cls, s, p, to, &moving);
            unsigned live = 0;
            for (int i = 0; i < 9; i++)
                if (p >> i & 1) live |= 1u << to[i];
            c->clive[s][p] = (uint16_t)live;
            class_map(r, abstract, s, p, c->canon[s][p], &c->moving[s][p]);
        }
}

/* A lead as the table keeps it with payoff-similar keys: its suit and its place among the
 * suit's live cards by power (9 s + place), which names the same card in every position of
 * the abstract state; jass_lead_card reads it back in c->hands. */
int jass_lead_place(const Ctx *c, int card) {
    const uint64_t *h = c->hands;
    int s = card / 9;
    unsigned p = (unsigned)((h[0] | h[1] | h[2] | h[3]) >> (9 * s)) & 0x1FF;
    unsigned at = c->by_power[s][1u << (card - 9 * s)];
    return 9 * s + popcount64(c->by_power[s][p] & (at - 1));
}

int jass_lead_card(const Ctx *c, int place) {
    const uint64_t *h = c->hands;
    int s = place / 9;
    unsigned p = (unsigned)((h[0] | h[1] | h[2] | h[3]) >> (9 * s)) & 0x1FF;
    unsigned x = c->by_power[s][p];
    for (int i = place - 9 * s; i > 0 && x; i--) x &= x - 1;
    return x ? 9 * s + lowest(c->of_power[s][x & (0u - x)]) : -1;
}

int jass_tt_alloc(Ctx *c, uint64_t size) {
    Entry *t = (Entry *)calloc((size_t)size, sizeof(Entry));
    if (!t) return -1;
    Entry *old = c->tt;
    uint64_t old_size = old ? c->tt_mask + 1 : 0;
    c->tt = t;
    c->tt_mask = size - 1;
    c->tt_used = 0;
    for (uint64_t i = 0; i < old_size; i++) {
        if (!old[i].cards) continue;
        uint64_t k[3] = {old[i].k0, old[i].k1, old[i].k2};
        uint64_t slot = key_hash(k) & c->tt_mask;
        for (int j = 0; j < 4; j++) {
            Entry *e = &t[(slot + (uint64_t)j) & c->tt_mask];
            if (!e->cards) { *e = old[i]; c->tt_used++; break; }
        }
    }
    free(old);
    return 0;
}

Entry *jass_tt_find(Ctx *c, const uint64_t *k, int cards, int create) {
    uint64_t slot = k[3] & c->tt_mask;
    Entry *victim = NULL;
    int worst = 0;
    for (int j = 0; j < 4; j++) {
        Entry *e = &c->tt[(slot + (uint64_t)j) & c->tt_mask];
        if (e->cards && e->k0 == k[0] && e->k1 == k[1] && e->k2 == k[2]) {
            if (create) e->gen = c->gen;
            return e;
        }
        /* The victim: an empty slot, else one of an earlier call (another world's, mostly
         * dead), else the smallest subtree's. */
        int rank = !e->cards ? -2 : e->gen != c->gen ? -1 : e->cards;
        if (!victim || rank < worst) {
            victim = e;
            worst = rank;
        }
    }
    if (!create) return NULL;
    if (!victim->cards) {
        c->tt_used++;
        /* Grow before the table gets crowded, up to the limit; then replace. */
        if (c->tt_used * 2 > c->tt_mask + 1 && (c->tt_mask + 1) * 2 <= c->tt_limit) {
            if (jass_tt_alloc(c, (c->tt_mask + 1) * 2) == 0)
                return jass_tt_find(c, k, cards, create);
        }
    } else if (worst > cards + 1) {
        return NULL; /* keep the bigger subtree's entry of this call */
    }
    victim->k0 = k[0]; victim->k1 = k[1]; victim->k2 = k[2];
    victim->gen = c->gen;
    victim->lo = -30000; victim->hi = 30000;
    victim->lead = -1;
    victim->cards = (uint8_t)cards;
    return victim;
}
