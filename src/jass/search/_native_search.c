/* The search: alpha-beta on null-window probes at trick and card level, equivalent cards
 * merged, move ordering, bounds and sure points; at the root, bisection on the side's value. */
#include "_native.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

double jass_now_seconds(void) {
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
void jass_rep_map(const Rules *r, uint64_t hand, uint64_t live, int merge, int *rep) {
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
 * all, the killer, the lead that decided the last trick start of as many cards, a little
 * earlier), follows by taking the trick cheaply, or feeding points to a partner who holds it. */
int jass_order_moves(const Ctx *c, uint64_t moves, int pos, int top_key, int partner,
                       int hint, int killer, int *out) {
    const Rules *r = &c->r;
    if (!(moves & (moves - 1))) { /* one card (or none): nothing to order */
        if (moves) out[0] = lowest(moves);
        return moves ? 1 : 0;
    }
    int score[9], n = 0;
    if (!(c->features & F_ORDER)) { /* card order, as the bits come */
        for (; moves; moves &= moves - 1) out[n++] = lowest(moves);
        return n;
    }
    const int *keys = pos ? r->keys[c->trick[0] / 9] : NULL;
    uint64_t winners = 0; /* leads that take the trick (a suit's top card nobody can ruff) */
    uint64_t to_mate = 0, ruffed = 0; /* leads the partner takes; leads likely ruffed */
    if (pos == 0) {
        const uint64_t *h = c->hands;
        uint64_t live = h[0] | h[1] | h[2] | h[3], trumps = r->trump_mask;
        uint64_t o1 = h[(c->leader + 1) & 3], o3 = h[(c->leader + 3) & 3];
        uint64_t mate = h[(c->leader + 2) & 3];
        for (int s = 0; s < 4; s++) {
            uint64_t suit = (uint64_t)0x1FF << (9 * s);
            if (!(moves & suit)) continue;
            uint64_t b = top_card(c, s, live);
            /* Any trump may ruff, even from a hand that can follow (R5.3a). */
            if ((moves & b) && (suit == trumps || !((o1 | o3) & trumps))) winners |= b;
            /* The partner's top card that nobody can ruff: lead the suit to it. */
            if ((mate & b) && (suit == trumps || !((o1 | o3) & trumps))) to_mate |= moves & suit;
            /* An opponent void in the suit who holds trumps: a ruff is likely, lead it late. */
            if (suit != trumps &&
                ((!(o1 & suit) && (o1 & trumps)) || (!(o3 & suit) && (o3 & trumps))))
                ruffed |= moves & suit;
        }
    }
    /* Second and third hand: the best key each side can still bring to this trick (only the
     * led suit and trumps have keys, the other cards' are -1). */
    int opp_max = -1, mate_max = -1;
    if (pos == 1 || pos == 2) {
        int seat = (c->leader + pos) & 3;
        uint64_t keyed = suit_mask(c->trick[0]) | r->trump_mask;
        for (int q = pos + 1; q < 4; q++) {
            int other = (c->leader + q) & 3, most = -1;
            for (uint64_t m = c->hands[other] & keyed; m; m &= m - 1)
                if (keys[lowest(m)] > most) most = keys[lowest(m)];
            if ((other ^ seat) & 1) {
                if (most > opp_max) opp_max = most;
            } else {
                mate_max = most;
            }
        }
    }
    /* The follows' cases, which hold for the whole trick so far: the partner behind takes
     * it (feed him), the partner's card is beaten behind (cover it cheaply or keep points
     * back), an opponent behind beats every beat that does not hold. */
    int feed = pos < 3 && !partner && mate_max > top_key && mate_max > opp_max;
    int cover = pos < 3 && partner && top_key <= opp_max;
    int late = pos < 3 && !partner && mate_max < opp_max;
    while (moves) {
        int card = lowest(moves);
        moves &= moves - 1;
        int s;
        if (pos == 0) {
            s = -(r->points[card] + 2 * r->power[card]);
            if ((winners | to_mate) & BIT(card)) s -= 400;
            if (ruffed & BIT(card)) s += 12; /* a little later */
            if (card == killer) s -= 60;
            if (card == hint) s = -100000;
        } else {
            int beats = keys[card] > top_key;
            if (partner)
                s = cover ? (beats ? r->power[card] - 1000 : r->points[card])
                          : beats * 1000 - r->points[card];
            else if (!beats && feed)
                s = -1000 - r->points[card];
            else if (beats && late && keys[card] < opp_max)
                s = r->power[card] - 900; /* after the beats that hold */
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

static int search_trick(Ctx *c, int target, int *chosen, int cards);

/* At a trick boundary: the top trump left always takes its trick (a trump may always be
 * played, and the top one never undertrumps), so its holder's opponents can no longer make a
 * match. Clearing their chance keeps the bounds tight and merges table entries. */
static void prune_match(Ctx *c) {
    const uint64_t *h = c->hands;
    uint64_t trumps = (h[0] | h[1] | h[2] | h[3]) & c->r.trump_mask;
    if (!c->match || !trumps) return;
    uint64_t top = top_card(c, lowest(c->r.trump_mask) / 9, trumps);
    c->match &= 1 << team_of(h, top);
}

/* Count a position: 1 if the search must stop (the node limit, a cancel, the deadline). */
static inline int counted(Ctx *c) {
    if (++c->nodes > c->node_limit || JASS_GET_FLAG(c->cancel)) {
        if (!JASS_GET_FLAG(c->cancel) && c->split && jass_more_nodes(c)) return 0; /* budget */
        c->stopped = 1;
        return 1;
    }
    /* Every 1024 positions: the deadline, and a split's other threads (jass_poll). */
    return c->poll && !(c->nodes & 1023) && jass_poll(c);
}

/* A trick start with two cards a hand, counted: the bounds from the points left, then the
 * last two tricks' small search. */
static int last_two(Ctx *c, int target) {
    const Rules *r = &c->r;
    const uint64_t *h = c->hands;
    uint64_t live = h[0] | h[1] | h[2] | h[3];
    prune_match(c);
    if (c->features & F_BOUNDS) { /* the points left, as below: a probe far off is cut */
        int left = held_points(r, live) + r->last_bonus;
        int upper = left + ((c->match & 1) ? c->bonus[0] : 0);
        int lower = -left - ((c->match & 2) ? c->bonus[1] : 0);
        if (target > upper) return upper;
        if (target <= lower) return lower;
    }
    return jass_exact_two(c, target, held_points(r, live));
}

/* The trick's last card is down: settle it and search on. Team-0 value of the rest. `cards`
 * is what each hand held at the trick's start. */
static int finish_trick(Ctx *c, int target, int top_pos, int pts, int cards) {
    int winner = (c->leader + top_pos) & 3, w = winner & 1;
    int last = cards == 1;
    int g = pts + (last ? c->r.last_bonus : 0);
    int match = c->match & (1 << w);
    g *= c->sign;
    if (last) {
        if (match) g += c->bonus[w];
        return w ? -g : g;
    }
    int g0 = w ? -g : g;
    int saved_leader = c->leader, saved_match = c->match;
    if (cards == 3) { /* the next trick start is one of the last two tricks': no copy of the
                       * trick to keep, nothing of the trick start's work but theirs */
        c->leader = winner;
        c->match = match;
        int v = counted(c) ? 0 : last_two(c, target - g0);
        c->leader = saved_leader;
        c->match = saved_match;
        return g0 + v;
    }
    int saved_trick[4];
    memcpy(saved_trick, c->trick, sizeof saved_trick);
    c->leader = winner;
    c->match = match;
    int v = search_trick(c, target - g0, NULL, cards - 1);
    c->leader = saved_leader;
    c->match = saved_match;
    memcpy(c->trick, saved_trick, sizeof saved_trick);
    return g0 + v;
}

/* A fail-soft bound on the team-0 value from card `pos` of the current trick on, probed at
 * `target`: at least target means the value is at least the result, below means at most.
 * `only` (if not 0) restricts this card's choices; `chosen` receives the card that reached
 * the mover's side of the target, if one did. `cards` is what each hand held at the
 * trick's start (the mover still does: counted once, not at every card). */
static int search_card(Ctx *c, int pos, int target, const uint64_t *reps, int top_pos, int pts,
                       int hint, uint64_t only, int *chosen, int cards, const uint64_t *kh) {
    int seat = (c->leader + pos) & 3;
    int maxing = (seat & 1) == 0;
    uint64_t moves = legal(&c->r, reps[seat] & c->hands[seat], pos, c->trick);
    if (only) moves &= only;
    const int *keys = c->r.keys[pos ? c->trick[0] / 9 : 0]; /* the led suit's (read if pos) */
    int top_key = pos ? keys[c->trick[top_pos]] : -1;
    int partner = pos ? (((c->leader + top_pos) ^ seat) & 1) == 0 : 0;
    int list[9];
    int killer = pos ? -1 : c->killer[cards & 15][c->leader];
    int n = jass_order_moves(c, moves, pos, top_key, partner, hint, killer, list);
    int best = maxing ? -INF : INF, best_card = -1;
    int etc = pos == 3 && (c->features & F_TABLE) && cards > 3;
    uint64_t live = c->hands[0] | c->hands[1] | c->hands[2] | c->hands[3];
    uint64_t k[9][KEY_WORDS + 4]; /* each next trick's key, then its key hands */
    if (etc) {
        /* The table entries of the next tricks: fetched while this trick is decided, then
         * read for a cutoff that one of them already proves (enhanced transposition
         * cutoff). */
        int saved_leader = c->leader, saved_match = c->match;
        int g[9];
        uint64_t own[4]; /* the key hands now: each card's key redoes only its suit */
        const uint64_t *base = kh;
        if (!base) {
            jass_key_hands(c, own);
            base = own;
        }
        /* prune_match after each card: the top trump left is the top one now, or the next
         * one if the card is the top one. */
        const uint64_t *h = c->hands;
        uint64_t trumps = live & c->r.trump_mask, top1 = 0, top2 = 0;
        if (trumps) {
            int ts = lowest(c->r.trump_mask) / 9;
            top1 = top_card(c, ts, trumps);
            top2 = top_card(c, ts, trumps & ~top1);
        }
        for (int i = 0; i < n; i++) {
            int card = list[i];
            int top = keys[card] > top_key ? 3 : top_pos;
            int w = (saved_leader + top) & 3;
            int gain = c->sign * (pts + c->r.points[card]);
            g[i] = (w & 1) ? -gain : gain;
            c->hands[seat] ^= BIT(card);
            c->leader = w;
            int match = saved_match & (1 << (w & 1));
            uint64_t top_trump = BIT(card) == top1 ? top2 : top1;
            if (match && top_trump) match &= 1 << team_of(h, top_trump);
            c->match = match;
            jass_key_after(c, base, card, live & ~BIT(card), k[i] + KEY_WORDS);
            jass_pack_key(c, k[i] + KEY_WORDS, k[i]);
            c->hands[seat] ^= BIT(card);
#if defined(__GNUC__) || defined(__clang__)
            __builtin_prefetch(&c->tt[k[i][3] & c->tt_mask]);
#endif
        }
        c->leader = saved_leader;
        c->match = saved_match;
        for (int i = 0; i < n; i++) {
            int cut;
            if (jass_tt_cut(c, k[i], cards - 1, target - g[i], maxing ? 1 : 2, &cut, NULL))
                return g[i] + cut;
        }
    }
    for (int i = 0; i < n; i++) {
        int card = list[i];
        c->hands[seat] ^= BIT(card);
        c->trick[pos] = card;
        int new_top = pos && keys[card] > top_key ? pos : top_pos;
        int v;
        if (pos < 3) {
            uint64_t next[4]; /* the key hands after the card, for the trick's last card */
            if (kh) jass_key_after(c, kh, card, live & ~BIT(card), next);
            v = search_card(c, pos + 1, target, reps, new_top, pts + c->r.points[card], -1, 0,
                            NULL, cards, kh ? next : NULL);
        } else {
            c->pre_key = etc ? k[i] : NULL; /* read (and cleared) by the next trick's start */
            v = finish_trick(c, target, new_top, pts + c->r.points[card], cards);
            c->pre_key = NULL;
        }
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

/* A trick boundary, where each hand holds `cards`. */
static int search_trick(Ctx *c, int target, int *chosen, int cards) {
    const Rules *r = &c->r;
    const uint64_t *pre = c->pre_key;
    c->pre_key = NULL;
    if (chosen) *chosen = -1;
    if (counted(c)) return 0;
    uint64_t *h = c->hands;
    uint64_t live = h[0] | h[1] | h[2] | h[3];
    if (cards == 1) { /* the last trick: every card is forced */
        int t[4];
        for (int i = 0; i < 4; i++) t[i] = lowest(h[(c->leader + i) & 3]);
        int w = (c->leader + winner_of(r, 4, t)) & 1;
        int g = c->sign * (held_points(r, live) + r->last_bonus);
        if (c->match >> w & 1) g += c->bonus[w];
        if (chosen) *chosen = t[0];
        return w ? -g : g;
    }
    if (cards == 2) return last_two(c, target);
    prune_match(c);
    uint64_t k[KEY_WORDS], own[4];
    const uint64_t *kh = NULL; /* the key hands, kept through the trick for its last card */
    int hint = -1;
    if (c->features & F_TABLE) {
        /* Looked up before the sure points, which cost more (the key holds the match chances
         * they have not cleared yet). The key the trick before computed (its enhanced
         * cutoff), unless the match changed. */
        if (pre) {
            kh = pre + KEY_WORDS;
            if ((pre[2] >> 16 & 15) == (uint64_t)(c->leader | c->match << 2))
                memcpy(k, pre, sizeof k);
            else
                jass_pack_key(c, kh, k);
        } else {
            jass_key_hands(c, own);
            jass_pack_key(c, own, k);
            kh = own;
        }
        int cut;
        if (jass_tt_cut(c, k, cards, target, 3, &cut, &hint)) return cut;
        if (hint >= 0 && (c->features & F_PAYOFF)) hint = jass_lead_card(c, hint);
    }
    int left = held_points(r, live) + r->last_bonus;
    int sure[2] = {0, 0};
    /* Under Misere points hurt: the leader's quick tricks are a choice, not a bound. */
    if ((c->features & F_SURE) && c->sign > 0) {
        int quick = jass_sure_points(c, live, cards, sure);
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
    uint64_t reps[4];
    if ((c->features & F_MERGE) && cards > 3)
        reps_all(r, h, live, reps);
    else
        memcpy(reps, h, sizeof reps);
    int lead = -1;
    int v = search_card(c, 0, target, reps, 0, 0, hint, 0, &lead, cards, cards > 3 ? kh : NULL);
    if (c->stopped) return 0;
    if (lead >= 0) c->killer[cards][c->leader] = (int8_t)lead;
    if (chosen) *chosen = lead;
    if (c->features & F_TABLE) {
        /* Found again: the subtree may have grown (moved) the table. */
        Entry *slot = jass_tt_find(c, k, cards, 1);
        if (slot) {
            if (v >= target) {
                if (v > slot->lo) slot->lo = (int16_t)v;
            } else if (v < slot->hi) {
                slot->hi = (int16_t)v;
            }
            if (lead >= 0) /* the lead that decided it, first */
                slot->lead = (int8_t)((c->features & F_PAYOFF) ? jass_lead_place(c, lead) : lead);
        }
    }
    return v;
}

/* ---------------------------------------------------------------------------------------- */
/* The root: bisection on the side's value                                                  */
/* ---------------------------------------------------------------------------------------- */

/* Probe: a fail-soft bound on the side's value at target (restricted to one root card if
 * `only` >= 0). */
int jass_probe(Ctx *c, const Root *root, int target, int only) {
    memcpy(c->hands, root->hands, sizeof c->hands);
    c->leader = root->leader;
    c->match = root->match;
    memcpy(c->trick, root->trick, sizeof c->trick);
    int t0 = root->side ? 1 - target : target;
    int v;
    if (root->n == 0 && only < 0) {
        v = search_trick(c, t0, &c->root_best, popcount64(root->hands[root->leader]));
    } else {
        uint64_t live = root->hands[0] | root->hands[1] | root->hands[2] | root->hands[3];
        for (int i = 0; i < root->n; i++) live |= BIT(root->trick[i]);
        uint64_t reps[4];
        for (int i = 0; i < 4; i++)
            reps[i] = (c->features & F_MERGE) ? reps_of(&c->r, root->hands[i], live)
                                              : root->hands[i];
        if (only >= 0) reps[(root->leader + root->n) & 3] |= BIT(only);
        int top = root->n ? winner_of(&c->r, root->n, root->trick) : 0, pts = 0;
        for (int i = 0; i < root->n; i++) pts += c->r.points[root->trick[i]];
        v = search_card(c, root->n, t0, reps, top, pts, -1, only >= 0 ? BIT(only) : 0,
                        &c->root_best, popcount64(root->hands[(root->leader + root->n) & 3]),
                        NULL);
    }
    return root->side ? -v : v;
}

/* A probe's fail-soft value at target narrows [lo, hi] to the side's value: 1 if it
 * reached the target. Without a match the difference has the parity of left. (The step of
 * jass_bisect and of the split's bisection, _native_split.c.) */
int jass_narrow(const Root *root, int target, int value, int *lo, int *hi) {
    int left = root->left;
    if (value >= target) {
        if (-left <= value && value <= left) value += (value - left) & 1;
        *lo = value < *hi ? value : *hi;
        return 1;
    }
    if (value < -left) value = -(left + root->theirs);
    else if (value > left) value = left;
    else value -= (value - left) & 1;
    *hi = value > *lo ? value : *lo;
    return 0;
}

/* Bisection as in jass.solver: [lo, hi] narrows to the side's value; returns 1 if exact.
 * With a guess (guessed != 0) the first probes step from it as MTD(f) does (the fail-soft
 * value moves the next target), in steps that double while they go one way, and bisection
 * takes over once the value is bracketed: a good guess (a sibling card's value, the last
 * call's value) needs two or three probes, a poor one a few more. `good` receives the
 * root card of the last probe that reached its target, or keeps its value. */
int jass_bisect(Ctx *c, const Root *root, int only, int guess, int guessed, int *lo_out,
                  int *hi_out, int *good, int *good_value) {
    int lo = -(root->left + root->theirs), hi = root->left + root->own;
    int target = guess, step = 1, rose = 0, fell = 0;
    while (lo < hi) {
        if (!guessed || (rose && fell)) target = (int)(((long)lo + hi + 1) >> 1);
        if (target <= lo) target = lo + 1;
        if (target > hi) target = hi;
        c->root_best = -1;
        int value = jass_probe(c, root, target, only);
        if (c->stopped) break;
        if (value >= target && good && c->root_best >= 0) {
            *good = c->root_best;
            *good_value = value; /* the card makes at least this */
        }
        if (jass_narrow(root, target, value, &lo, &hi)) {
            step = rose ? 2 * step : 1;
            rose = 1;
            target = lo + 2 * step - 1; /* gallop up from the guess until the value is bracketed */
        } else {
            step = fell ? 2 * step : 1;
            fell = 1;
            target = hi - 2 * (step - 1);
        }
    }
    *lo_out = lo;
    *hi_out = hi;
    return !c->stopped;
}

/* The legal root cards, one per class (the rep of each), in search order. */
int jass_root_moves(Ctx *c, const Root *root, int *list) {
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
    return jass_order_moves(c, moves, root->n, top_key, partner, -1, -1, list);
}

