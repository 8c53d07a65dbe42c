/* Sure points at a trick boundary: DDS's quick tricks, counted in points. */
#include "_native.h"

/* The k cards of fewest points among `cards` (all of them if fewer). */
static uint64_t least(const Rules *r, uint64_t cards, int k) {
    uint64_t chosen = 0;
    for (; k > 0 && cards; k--) {
        uint64_t pick = 0;
        for (uint64_t m = cards; m; m &= m - 1)
            if (!pick || r->points[lowest(m)] < r->points[lowest(pick)]) pick = m & -m;
        chosen |= pick;
        cards &= ~pick;
    }
    return chosen;
}

/* After the leader's quick tricks, one more trick for its team: a card led to the partner's
 * top card of a suit that nobody can ruff (the suit is trumps, or the opponents hold none
 * once the leader's trumps are led, `can_plain`). The partner keeps that card through the
 * quick tricks, as he holds more cards than they are tricks and none of them is of its suit.
 * Returns the two cards (the partner's and the leader's one of fewest points) of the suit
 * whose pair is worth most, or 0. */
static uint64_t crossing(const Ctx *c, uint64_t live, uint64_t quick, int can_plain) {
    const Rules *r = &c->r;
    uint64_t mine = c->hands[c->leader] & ~quick, mate = c->hands[(c->leader + 2) & 3];
    uint64_t pair = 0;
    int most = -1;
    for (int s = 0; s < 4; s++) {
        uint64_t suit = (uint64_t)0x1FF << (9 * s);
        if (!(mine & suit) || !(mate & suit) || (suit != r->trump_mask && !can_plain)) continue;
        uint64_t top = 0, low = 0;
        for (int i = 0; i < 9 && !top; i++) top = live & BIT(r->order[s][i]);
        if (!(mate & top)) continue;
        for (int i = 0; i < 9; i++) { /* the leader's card of fewest points, weakest first */
            uint64_t b = BIT(r->order[s][8 - i]);
            if ((mine & b) && (!low || r->points[lowest(b)] < r->points[lowest(low)])) low = b;
        }
        int points = r->points[lowest(top)] + r->points[lowest(low)];
        if (points > most) {
            most = points;
            pair = top | low;
        }
    }
    if (!pair || !can_plain || !(c->features & F_CASH)) return pair;
    /* The partner, on lead, then cashes his top cards in a row of the plain suits (nobody can
     * ruff), of suits the leader's quick tricks left alone (the partner need not follow
     * them), as long as he can keep them all through the quick tricks. */
    uint64_t rest = live & ~quick & ~pair, quick_suits = 0;
    for (int s = 0; s < 4; s++)
        if (quick & ((uint64_t)0x1FF << (9 * s))) quick_suits |= (uint64_t)0x1FF << (9 * s);
    int spare = popcount64(mate) - 1 - popcount64(quick);
    for (int s = 0; s < 4; s++) {
        uint64_t suit = (uint64_t)0x1FF << (9 * s);
        if (suit == r->trump_mask || (suit & quick_suits) || !(mate & suit)) continue;
        uint64_t run = 0;
        for (int i = 0; i < 9; i++) {
            uint64_t b = BIT(r->order[s][i]);
            if (!(rest & b)) continue;
            if (!(mate & b)) break;
            run |= b;
        }
        if (popcount64(run) > spare) break;
        spare -= popcount64(run);
        pair |= run;
    }
    return pair;
}

/* Sure points at a trick boundary (the quick tricks of DDS, counted in points): cards whose
 * points a team takes whatever the others do. For the team holding the top trump, its run of
 * top trumps: any trick one of them falls in goes to that team. For the leader, the top trumps
 * it holds in a row, led one by one; then, if those pull every opponent's trump (they must
 * follow a trump lead, R5.4; a lone Buur is never left out here, the leader holds it or it is
 * gone), its top cards in a row of each plain suit; then one more trick, led to a top card
 * of the partner's (crossing), and the partner's top cards in a row after it; with the cards
 * of fewest points each hand must play into those tricks (an opponent follows each suit led
 * while he can). sure[t] gets team t's sure points; returns the number of the leader's team's
 * quick tricks, its whole hand when the team takes every trick.
 * Only where points count for their taker (not Misere): there the leader wants them. */
int jass_sure_points(const Ctx *c, uint64_t live, int *sure) {
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
    int tricks = popcount64(quick);
    uint64_t cross = 0;
    if (tricks < popcount64(mine) && (c->features & F_CROSS)) {
        cross = crossing(c, live, quick, can_plain);
        masks[team] |= cross;
        tricks += popcount64(cross & h[(leader + 2) & 3]);
    }
    sure[0] = held_points(r, masks[0]);
    sure[1] = held_points(r, masks[1]);
    if (tricks && (c->features & F_FORCED)) {
        /* Each hand plays `tricks` cards into those tricks: the fewest points of those not
         * counted yet. (The other team's masks are empty here: the leader's team holds the
         * top trump, or there are no trumps.) */
        uint64_t led = quick | (masks[team] & h[(leader + 2) & 3] & cross);
        for (int p = 0; p < 4; p++) {
            uint64_t forced = 0;
            if ((p ^ leader) & 1) /* an opponent follows each suit led while he can */
                for (int s = 0; s < 4; s++) {
                    uint64_t suit = (uint64_t)0x1FF << (9 * s);
                    if (led & suit) forced |= least(r, h[p] & suit, popcount64(led & suit));
                }
            uint64_t free = h[p] & ~masks[team] & ~forced;
            int k = tricks - popcount64(h[p] & masks[team]) - popcount64(forced);
            if (k > 0) forced |= least(r, free, k);
            if (forced) sure[team] += held_points(r, forced);
        }
    }
    return tricks;
}

