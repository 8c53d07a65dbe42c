/* A first guess at a root's value, for the bisection's first probe: one greedy line of
 * play, each seat playing the card the move ordering puts first. It costs one pass over the
 * cards left; the probes that follow prove the exact value whatever the guess. */
#include "_native.h"

/* The side to move's difference along the greedy line from root. (The best greedy line over
 * the root's cards was tried: it guesses worse, too high.) */
int jass_guess(Ctx *c, const Root *root) {
    const Rules *r = &c->r;
    memcpy(c->hands, root->hands, sizeof c->hands);
    memcpy(c->trick, root->trick, sizeof c->trick);
    c->leader = root->leader;
    int match = root->match, pos = root->n, pts = 0, top = 0, total = 0;
    for (int i = 0; i < pos; i++) pts += r->points[root->trick[i]];
    if (pos) top = winner_of(r, pos, root->trick);
    for (;;) {
        int seat = (c->leader + pos) & 3;
        int list[9];
        uint64_t moves = legal(r, c->hands[seat], pos, c->trick);
        const int *keys = pos ? r->keys[c->trick[0] / 9] : NULL;
        int top_key = pos ? keys[c->trick[top]] : -1;
        int partner = pos ? (((c->leader + top) ^ seat) & 1) == 0 : 0;
        jass_order_moves(c, moves, pos, top_key, partner, -1, -1, list);
        int card = list[0];
        c->hands[seat] ^= BIT(card);
        c->trick[pos] = card;
        pts += r->points[card];
        if (pos && r->keys[c->trick[0] / 9][card] > top_key) top = pos;
        if (++pos < 4) continue;
        int winner = (c->leader + top) & 3, w = winner & 1;
        int last = !(c->hands[0] | c->hands[1] | c->hands[2] | c->hands[3]);
        int g = c->sign * (pts + (last ? r->last_bonus : 0));
        match &= 1 << w;
        if (last && match) g += c->bonus[w];
        total += w ? -g : g;
        if (last) break;
        c->leader = winner;
        pos = pts = top = 0;
    }
    return root->side ? -total : total;
}
