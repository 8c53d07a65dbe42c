/* Sure points at a trick boundary: DDS's quick tricks, counted in points. The walks over a
 * suit's order are table look-ups of its 9-bit pattern (jass_build_sure): a suit's cards as
 * ranks by power, where a run of top cards is a bit trick, and all cards as ranks by points,
 * where the cards of fewest points are the lowest bits. */
#include "_native.h"

/* The k cards of fewest points among `cards` (all of them if fewer; of equal points the
 * lower card first). */
static inline uint64_t least(const Ctx *c, uint64_t cards, int k) {
    uint64_t ranks = c->by_points[0][cards & 0x1FF] | c->by_points[1][(cards >> 9) & 0x1FF] |
                     c->by_points[2][(cards >> 18) & 0x1FF] |
                     c->by_points[3][(cards >> 27) & 0x1FF];
    uint64_t chosen = 0;
    for (; k > 0 && ranks; k--, ranks &= ranks - 1) chosen |= BIT(c->of_points[lowest(ranks)]);
    return chosen;
}

/* The live cards of suit s from its top down, as long as `held` holds them. */
static inline uint64_t top_run(const Ctx *c, int s, uint64_t live, uint64_t held) {
    unsigned all = c->by_power[s][(live >> (9 * s)) & 0x1FF];
    unsigned others = all & ~(unsigned)c->by_power[s][(held >> (9 * s)) & 0x1FF];
    unsigned run = others ? all & ((others & (0u - others)) - 1) : all;
    return (uint64_t)c->of_power[s][run] << (9 * s);
}

/* After the leader's quick tricks, one more trick for its team: a card led to the partner's
 * top card of a suit that nobody can ruff (the suit is trumps, or the opponents hold none
 * once the leader's trumps are led, `can_plain`). The partner keeps that card through the
 * quick tricks, as he holds more cards than they are tricks and none of them is of its suit.
 * Returns the two cards (the partner's and the leader's one of fewest points) of the suit
 * whose pair is worth most, or 0. */
static uint64_t crossing(const Ctx *c, uint64_t live, uint64_t quick, int can_plain,
                         int cards) {
    const Rules *r = &c->r;
    uint64_t mine = c->hands[c->leader] & ~quick, mate = c->hands[(c->leader + 2) & 3];
    uint64_t pair = 0;
    int most = -1;
    for (int s = 0; s < 4; s++) {
        uint64_t suit = (uint64_t)0x1FF << (9 * s);
        if (!(mine & suit) || !(mate & suit) || (suit != r->trump_mask && !can_plain)) continue;
        uint64_t top = top_card(c, s, live);
        if (!(mate & top)) continue;
        int low = c->cheap_weak[s][(mine >> (9 * s)) & 0x1FF];
        int points = r->points[lowest(top)] + r->points[low];
        if (points > most) {
            most = points;
            pair = top | BIT(low);
        }
    }
    if (!pair || !can_plain || !(c->features & F_CASH)) return pair;
    /* The partner, on lead, then cashes his top cards in a row of the plain suits (nobody can
     * ruff), of suits the leader's quick tricks left alone (the partner need not follow
     * them), as long as he can keep them all through the quick tricks. */
    uint64_t rest = live & ~quick & ~pair, quick_suits = 0;
    for (int s = 0; s < 4; s++)
        if (quick & ((uint64_t)0x1FF << (9 * s))) quick_suits |= (uint64_t)0x1FF << (9 * s);
    int spare = cards - 1 - popcount64(quick);
    for (int s = 0; s < 4; s++) {
        uint64_t suit = (uint64_t)0x1FF << (9 * s);
        if (suit == r->trump_mask || (suit & quick_suits) || !(mate & suit)) continue;
        uint64_t run = top_run(c, s, rest, mate);
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
 * while he can). Each hand holds `cards`. sure[t] gets team t's sure points; returns the number
 * of the leader's team's quick tricks, its whole hand when the team takes every trick.
 * Only where points count for their taker (not Misere): there the leader wants them. */
int jass_sure_points(const Ctx *c, uint64_t live, int cards, int *sure) {
    const Rules *r = &c->r;
    const uint64_t *h = c->hands;
    int leader = c->leader, team = leader & 1;
    uint64_t mine = h[leader];
    uint64_t masks[2] = {0, 0}, quick = 0;
    int can_plain = 1;
    if (r->trump_mask) {
        int ts = lowest(r->trump_mask) / 9;
        uint64_t top = top_card(c, ts, live);
        if (top) { /* the top trump's team and its run */
            int t = team_of(h, top);
            masks[t] = top_run(c, ts, live, h[t] | h[t + 2]);
        }
        quick = top_run(c, ts, live, mine);
        int led = popcount64(quick);
        int most = popcount64(h[(leader + 1) & 3] & r->trump_mask);
        int other = popcount64(h[(leader + 3) & 3] & r->trump_mask);
        if (other > most) most = other;
        can_plain = most <= led;
    }
    if (can_plain)
        for (int s = 0; s < 4; s++) {
            uint64_t suit = (uint64_t)0x1FF << (9 * s);
            if (suit != r->trump_mask && (mine & suit)) quick |= top_run(c, s, live, mine);
        }
    masks[team] |= quick;
    int tricks = popcount64(quick);
    uint64_t cross = 0;
    if (tricks < cards && (c->features & F_CROSS)) {
        cross = crossing(c, live, quick, can_plain, cards);
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
                    if (led & suit) {
                        /* one suit: its ranks by points alone, its count from its 9 bits */
                        uint64_t ranks = c->by_points[s][(h[p] >> (9 * s)) & 0x1FF];
                        for (int k = c->pc9[(led >> (9 * s)) & 0x1FF]; k > 0 && ranks;
                             k--, ranks &= ranks - 1)
                            forced |= BIT(c->of_points[lowest(ranks)]);
                    }
                }
            uint64_t free = h[p] & ~masks[team] & ~forced;
            int k = tricks - popcount64(h[p] & masks[team]) - popcount64(forced);
            if (k > 0) forced |= least(c, free, k);
            if (forced) sure[team] += held_points(r, forced);
        }
    }
    return tricks;
}

/* The tables of the walks above, from the rules: by_power[s][p] gives suit s's cards p as
 * ranks by power (bit 0 its strongest), of_power[s] back; by_points[s][p] gives them as
 * ranks among all 36 cards by points, the lower card first of equal points, and
 * of_points[rank] the card; cheap_weak[s][p] is the card of fewest points of p, the weakest
 * first of equal points (-1 for none). */
void jass_build_sure(Ctx *c) {
    const Rules *r = &c->r;
    int rank[36];
    for (int card = 0; card < 36; card++) {
        rank[card] = 0;
        for (int other = 0; other < 36; other++)
            if (r->points[other] < r->points[card] ||
                (r->points[other] == r->points[card] && other < card))
                rank[card]++;
        c->of_points[rank[card]] = (int8_t)card;
    }
    for (int s = 0; s < 4; s++)
        for (int p = 0; p < 512; p++) {
            unsigned power = 0, cards = 0;
            uint64_t points = 0;
            int weak = -1;
            for (int i = 0; i < 9; i++) {
                int card = r->order[s][i], bit = card - 9 * s;
                if (p >> bit & 1) {
                    power |= 1u << i;
                    points |= BIT(rank[card]);
                }
                if (p >> i & 1) cards |= 1u << (r->order[s][i] - 9 * s);
                int w = r->order[s][8 - i];
                if ((p >> (w - 9 * s) & 1) && (weak < 0 || r->points[w] < r->points[weak]))
                    weak = w;
            }
            c->by_power[s][p] = (uint16_t)power;
            c->of_power[s][p] = (uint16_t)cards;
            c->by_points[s][p] = points;
            c->cheap_weak[s][p] = (int8_t)weak;
        }
}
