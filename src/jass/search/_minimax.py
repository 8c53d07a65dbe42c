"""The search of :mod:`jass.solver`: null-window probes over whole tricks, on plain ints.

Internal: :class:`_Search` holds the solver's search methods, and :class:`jass.solver.Solver`
(its only subclass) sets up the tables and state they read, and drives them by bisection.
See :mod:`jass.solver` for the method.

>>> from jass.solver import Solver
>>> issubclass(Solver, _Search)
True
"""

from __future__ import annotations

import time
from typing import Any

from jass.core.contracts import Contract
from jass.core.play import legal_mask, trick_winner
from jass.core.ruledata import RuleData
from jass.search._solver_tables import (
    _CACHE_LIMIT,
    _INFINITY,
    _PAIR_SUM,
    _PAIRS,
    _SHIFTS,
    _SUIT_INDEX_OF,
    _cards_of,
)

__all__: list[str] = []


class _Budget(Exception):  # noqa: N818  (internal control flow, never escapes)
    """The node or time budget ran out."""



class _Search:
    """The search methods of a :class:`~jass.solver.Solver`, over the state it sets up."""

    contract: Contract
    table_limit: int
    nodes: int
    _data: RuleData
    _sign: int
    _table: tuple[int, ...]
    _keys: tuple[tuple[int, ...], ...]
    _lead_rank: tuple[int, ...]
    _orders: tuple[tuple[int, ...], ...]
    _suit_points: tuple[tuple[int, ...], ...]
    _classes: dict[int, int]
    _leads: dict[int, tuple[int, ...]]
    _follows: dict[int, tuple[int, ...]]
    _sorted: dict[int, tuple[int, ...]]
    _power: tuple[int, ...]
    _beats: tuple[int, ...]
    _tt: dict[int, list[Any]]
    _exact: dict[int, int]
    _bonus: tuple[int, int]
    _most: int
    _limit: int
    _deadline: float

    def _probe(
        self, hands: list[int], trick: list[int], leader: int, target: int, match: int, side: int
    ) -> int:
        """A fail-soft bound on what ``side`` makes, probed at ``target`` (from any root).

        At least ``target``: the value is at least the result; below: at most the result.
        """
        if not trick:
            remaining = hands[0] | hands[1] | hands[2] | hands[3]
            left = self._left_points(remaining)
            if leader & 1 == side:
                return self._trick(hands, leader, target, match, remaining, left)
            return -self._trick(hands, leader, 1 - target, match, remaining, left)
        seat = (leader + len(trick)) & 3
        mine = seat & 1 == side
        result = -_INFINITY if mine else _INFINITY
        for card in self._root_moves(hands, trick, seat, match):
            hands[seat] ^= 1 << card
            trick.append(card)
            try:
                value = self._settle(hands, trick, leader, target, match, side)
            finally:
                trick.pop()
                hands[seat] ^= 1 << card
            if mine:
                result = max(result, value)
                if result >= target:
                    break
            else:
                result = min(result, value)
                if result < target:
                    break
        return result

    def _settle(
        self, hands: list[int], trick: list[int], leader: int, target: int, match: int, side: int
    ) -> int:
        if len(trick) < 4:
            return self._probe(hands, trick, leader, target, match, side)
        winner = (leader + trick_winner(trick, self.contract)) & 3
        points = sum(self._table[c] for c in trick)
        match &= 1 << (winner & 1)
        last = not (hands[0] | hands[1] | hands[2] | hands[3])
        if last:
            points += 5
        gain = self._sign * points
        if last and match:
            gain += self._bonus[winner & 1]
        if winner & 1 != side:
            gain = -gain
        if last:
            return gain
        saved = trick[:]
        trick.clear()
        try:
            return gain + self._probe(hands, trick, winner, target - gain, match, side)
        finally:
            trick.extend(saved)

    def _best_move(
        self, hands: list[int], trick: list[int], leader: int, target: int, match: int, side: int
    ) -> int | None:
        seat = (leader + len(trick)) & 3
        for card in self._root_moves(hands, trick, seat, match):
            hands[seat] ^= 1 << card
            trick.append(card)
            try:
                if self._settle(hands, trick, leader, target, match, side) >= target:
                    return card
            finally:
                trick.pop()
                hands[seat] ^= 1 << card
        return None

    def _root_moves(
        self, hands: list[int], trick: list[int], seat: int, match: int
    ) -> tuple[int, ...]:
        """The mover's legal cards at the root, one per class of equivalent cards, in order."""
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        if not trick:  # the table knows which lead worked last: it is first in its list
            entry = self._tt.get(remaining << 4 | seat << 2 | match)
            if entry is not None:
                return tuple(entry[2])
        for card in trick:
            remaining |= 1 << card
        reps = self._reps(hands[seat], remaining)
        if not trick:
            return self._lead_order(reps)
        top_at = trick_winner(trick, self.contract)
        return self._follow_order(
            reps, trick[0], trick[top_at], partner=(len(trick) - top_at) % 2 == 0
        )

    def _reps(self, hand: int, remaining: int) -> int:
        """One card per class of equivalent cards of ``hand`` (runs among ``remaining``)."""
        classes = self._classes
        reps = 0
        for shift, suit in _SHIFTS:
            mine = (hand >> shift) & 0x1FF
            if mine:
                key = suit | mine << 9 | ((remaining >> shift) & 0x1FF)
                found = classes.get(key)
                if found is None:
                    if len(classes) >= _CACHE_LIMIT:
                        classes.clear()
                    found = classes[key] = self._suit_classes(suit >> 18, mine, key & 0x1FF & ~mine)
                reps |= found << shift
        return reps

    def _suit_classes(self, suit: int, mine: int, others: int) -> int:
        """One card per run of equivalent cards of ``mine`` in ``suit`` (9-bit patterns)."""
        table = self._table
        reps = 0
        previous = -1
        for card in self._orders[suit]:
            rank = card - 9 * suit
            if others >> rank & 1:
                previous = -1  # a card elsewhere breaks the run
            elif mine >> rank & 1:
                if previous < 0 or table[previous] != table[card]:
                    reps |= 1 << rank
                previous = card
        return reps

    def _lead_order(self, reps: int) -> tuple[int, ...]:
        """Leads: strong cards and points first (this order searched the fewest positions)."""
        if len(self._leads) >= _CACHE_LIMIT:
            self._leads.clear()
        return tuple(sorted(_cards_of(reps), key=self._lead_rank.__getitem__))

    def _follow_order(self, reps: int, led: int, top: int, *, partner: bool) -> tuple[int, ...]:
        """The legal cards among ``reps`` on a trick led by ``led`` and held by ``top``."""
        if len(self._follows) >= _CACHE_LIMIT:
            self._follows.clear()
        legal = legal_mask(reps, [led] if top == led else [led, top], self._data)
        # The order depends only on which legal cards beat the trick: many hands and tricks
        # share one list.
        beats = legal & self._beats[top]
        key = (legal << 36 | beats) << 1 | partner
        found = self._sorted.get(key)
        if found is not None:
            return found
        if len(self._sorted) >= _CACHE_LIMIT:
            self._sorted.clear()
        table = self._table
        if partner:  # the partner holds the trick: give it points, without beating it
            order = sorted(_cards_of(legal), key=lambda c: (beats >> c & 1, -table[c]))
        else:  # take it as cheaply as possible, or give away little
            power = self._power
            order = sorted(
                _cards_of(legal), key=lambda c: (0, power[c]) if beats >> c & 1 else (1, table[c])
            )
        found = self._sorted[key] = tuple(order)
        return found

    def _two(self, hands: list[int], leader: int, match: int, left: int) -> int:
        """The exact value of the last two tricks for the leader's team (plain minimax).

        Inlined copies of play.trick_winner (R6.1-R6.2): the eighth trick's holder is kept
        card by card, and the ninth's winning team is found from the keys of the cards left;
        cross-checked in tests/test_kernels.py (``test_solver_copies_agree_with_the_kernels``).
        Calling the kernel per card instead costs 46% more instructions on 5-trick solves.
        """
        team = leader & 1
        s1, s2, s3 = (leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3
        h0, h1, h2, h3 = hands[leader], hands[s1], hands[s2], hands[s3]
        table = self._table
        keys_of = self._keys
        moves = self._follows
        order = self._follow_order
        sign = self._sign
        bonus = self._bonus[team] if match >> team & 1 else 0
        against = self._bonus[team ^ 1] if match >> (team ^ 1) & 1 else 0
        total = left + 5
        # Two cards a hand: the one kept is the pair's sum less the one played.
        pair0, pair1, pair2, pair3 = _PAIR_SUM[h0], _PAIR_SUM[h1], _PAIR_SUM[h2], _PAIR_SUM[h3]
        best0 = -1000
        for c0 in _PAIRS[h0]:
            keys = keys_of[_SUIT_INDEX_OF[c0]]
            k0 = keys[c0]
            l0 = pair0 - c0
            p0 = table[c0]
            led = _SUIT_INDEX_OF[c0] << 1
            key1 = h1 << 9 | c0 << 3 | led
            moves1 = moves.get(key1)
            if moves1 is None:
                moves1 = moves[key1] = order(h1, c0, c0, partner=False)
            worst1 = 1000
            for c1 in moves1:
                k1 = keys[c1]
                if k1 > k0:
                    top1, topk1, win1 = c1, k1, 1
                else:
                    top1, topk1, win1 = c0, k0, 0
                l1 = pair1 - c1
                p1 = p0 + table[c1]
                key2 = h2 << 9 | top1 << 3 | led | (win1 ^ 1)
                moves2 = moves.get(key2)
                if moves2 is None:
                    moves2 = moves[key2] = order(h2, c0, top1, partner=win1 == 0)
                best2 = -1000
                for c2 in moves2:
                    k2 = keys[c2]
                    if k2 > topk1:
                        top2, topk2, win2 = c2, k2, 2
                    else:
                        top2, topk2, win2 = top1, topk1, win1
                    l2 = pair2 - c2
                    p2 = p1 + table[c2]
                    key3 = h3 << 9 | top2 << 3 | led | (1 if win2 == 1 else 0)
                    moves3 = moves.get(key3)
                    if moves3 is None:
                        moves3 = moves[key3] = order(h3, c0, top2, partner=win2 == 1)
                    worst3 = 1000
                    alpha = max(best2, best0)
                    # Unless the fourth card takes the trick, the last trick is led from the
                    # hand that holds it now: its suit and three of its cards are known.
                    lkeys = keys_of[_SUIT_INDEX_OF[l2 if win2 == 2 else (l1 if win2 else l0)]]
                    held_high = max(lkeys[l2], lkeys[l0])
                    low1 = lkeys[l1]
                    ours = win2 & 1 == 0  # positions 0 and 2 are the leader's team
                    for c3 in moves3:
                        first = p2 + table[c3]
                        second = total - first
                        l3 = pair3 - c3
                        if keys[c3] > topk2:  # the fourth card takes it and leads the last
                            value = -sign * first
                            k3 = keys_of[_SUIT_INDEX_OF[l3]]
                            ka, kb, kc = k3[l0], k3[l1], k3[l2]
                            if (max(kc, ka)) > (max(k3[l3], kb)):
                                value += sign * second
                            else:
                                value -= sign * second + against
                        else:
                            value = sign * (first if ours else -first)
                            kd = lkeys[l3]
                            if held_high > (max(kd, low1)):
                                value += sign * second + (bonus if ours else 0)
                            else:
                                value -= sign * second + (0 if ours else against)
                        if value < worst3:
                            worst3 = value
                            if worst3 <= alpha:
                                break
                    if worst3 > best2:
                        best2 = worst3
                        if best2 >= worst1:
                            break
                if best2 < worst1:
                    worst1 = best2
                    if worst1 <= best0:
                        break
            best0 = max(best0, worst1)
        return best0

    def _left_points(self, remaining: int) -> int:
        suits = self._suit_points
        return (
            suits[0][remaining & 0x1FF]
            + suits[1][(remaining >> 9) & 0x1FF]
            + suits[2][(remaining >> 18) & 0x1FF]
            + suits[3][remaining >> 27]
        )

    # ----------------------------------------------------------------------------------------
    # The search
    # ----------------------------------------------------------------------------------------

    def _trick(
        self, hands: list[int], leader: int, target: int, match: int, remaining: int, left: int
    ) -> int:
        """A fail-soft bound on the difference the leader's team makes, probed at ``target``.

        A trick boundary: ``remaining`` is every card held, ``left`` their points. The four
        cards of the trick are four nested loops (the leader's team picks at the first and third
        card, the other team at the second and fourth), so the recursion is one level a trick.
        """
        # The trick's holder is kept card by card in the loops below: an inlined copy of
        # play.trick_winner (R6.1-R6.2), cross-checked in tests/test_kernels.py
        # (test_solver_copies_agree_with_the_kernels). Calling the kernel per card instead
        # costs 18% more instructions on 5-trick solves.
        self.nodes += 1
        if self.nodes > self._limit:
            raise _Budget
        if self._deadline and not self.nodes & 255 and time.perf_counter() > self._deadline:
            raise _Budget
        lower: int  # the table holds ints and tuples: typed here once
        upper: int
        key = remaining << 4 | leader << 2 | match
        entry = self._tt.get(key)
        if entry is not None:  # most visits end here: before any other work
            lower = entry[0]
            if lower >= target:
                return lower
            upper = entry[1]
            if upper < target:
                return upper
        team = leader & 1
        s1, s2, s3 = (leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3
        h0, h1, h2, h3 = hands[leader], hands[s1], hands[s2], hands[s3]
        table = self._table
        sign = self._sign
        if entry is None:
            if h0 & (h0 - 1) == 0:  # the last trick: every card is forced
                c0, c1, c2, c3 = (
                    h0.bit_length() - 1,
                    h1.bit_length() - 1,
                    h2.bit_length() - 1,
                    h3.bit_length() - 1,
                )
                winner = (leader + trick_winner((c0, c1, c2, c3), self.contract)) & 1
                gain = sign * (left + 5)
                if match >> winner & 1:
                    gain += self._bonus[winner]
                return gain if winner == team else -gain
            bonus = self._bonus
            upper = left + 5 + (bonus[team] if match >> team & 1 else 0)
            if target > upper:
                return upper
            lower = -(left + 5 + (bonus[team ^ 1] if match >> (team ^ 1) & 1 else 0))
            if target <= lower:
                return lower
            if h0.bit_count() > 3:
                reps = self._reps
                r0 = reps(h0, remaining)
                rest_reps = (reps(h1, remaining), reps(h2, remaining), reps(h3, remaining))
            else:  # three cards each: merging saves less than it costs
                r0, rest_reps = h0, (h1, h2, h3)
            leads = self._leads.get(r0)
            if leads is None:
                leads = self._leads[r0] = self._lead_order(r0)
            entry = [lower, upper, leads, *rest_reps]
            if len(self._tt) >= self.table_limit:
                self._tt.clear()  # memory cap: start over rather than grow
                self._exact.clear()
            self._tt[key] = entry
        _lower, _upper, leads, r1, r2, r3 = entry
        moves = self._follows
        order = self._follow_order
        keys_of = self._keys
        search = self._trick
        exact = self._exact
        two_left = h0.bit_count() == 3
        left5 = left + 5
        last_tag = s3 << 2 | (match & (1 << (s3 & 1)))
        most = self._most
        best0 = -_INFINITY
        chosen = -1
        for c0 in leads:
            hands[leader] = h0 ^ (1 << c0)
            keys = keys_of[_SUIT_INDEX_OF[c0]]
            k0 = keys[c0]
            p0 = table[c0]
            led = _SUIT_INDEX_OF[c0] << 1
            # Second card, the other team: it looks for an answer that keeps us below target.
            key1 = r1 << 9 | c0 << 3 | led
            moves1 = moves.get(key1)
            if moves1 is None:
                moves1 = moves[key1] = order(r1, c0, c0, partner=False)
            worst1 = _INFINITY
            for c1 in moves1:
                hands[s1] = h1 ^ (1 << c1)
                k1 = keys[c1]
                if k1 > k0:
                    top1, topk1, win1 = c1, k1, 1
                else:
                    top1, topk1, win1 = c0, k0, 0
                p1 = p0 + table[c1]
                # Third card, the leader's team: one answer that reaches the target is enough.
                key2 = r2 << 9 | top1 << 3 | led | (win1 ^ 1)
                moves2 = moves.get(key2)
                if moves2 is None:
                    moves2 = moves[key2] = order(r2, c0, top1, partner=win1 == 0)
                best2 = -_INFINITY
                for c2 in moves2:
                    hands[s2] = h2 ^ (1 << c2)
                    k2 = keys[c2]
                    if k2 > topk1:
                        top2, topk2, win2 = c2, k2, 2
                    else:
                        top2, topk2, win2 = top1, topk1, win1
                    p2 = p1 + table[c2]
                    # Fourth card, the other team again.
                    key3 = r3 << 9 | top2 << 3 | led | (1 if win2 == 1 else 0)
                    moves3 = moves.get(key3)
                    if moves3 is None:
                        moves3 = moves[key3] = order(r3, c0, top2, partner=win2 == 1)
                    worst3 = _INFINITY
                    held = win2 & 1 == 0  # does the leader's team hold the trick so far?
                    holder = (leader + win2) & 3
                    base = remaining ^ (1 << c0 | 1 << c1 | 1 << c2)
                    # The next leader and the match chances left, as in the table's keys.
                    holder_tag = holder << 2 | (match & (1 << (holder & 1)))
                    for c3 in moves3:
                        points = p2 + table[c3]
                        rest = left5 - points  # all that is left to take, the last 5 too
                        if keys[c3] > topk2:
                            winner, same, tag = s3, False, last_tag
                        else:
                            winner, same, tag = holder, held, holder_tag
                        if same:
                            gain = sign * points
                            need = target - gain
                        else:
                            # The others lead on: our value is the gain less theirs, and they
                            # probe the mirror of our target.
                            gain = -sign * points
                            need = gain - target + 1
                        if need <= -rest:
                            value = -rest
                        elif need > rest + most:
                            value = rest + most
                        else:
                            after = base ^ (1 << c3)
                            chances = tag & 3
                            if two_left:
                                key = after << 4 | tag
                                value = exact.get(key)
                                if value is None:
                                    if len(exact) >= self.table_limit:
                                        exact.clear()  # the same memory cap
                                    hands[s3] = h3 ^ (1 << c3)
                                    value = exact[key] = self._two(hands, winner, chances, rest - 5)
                            else:
                                hands[s3] = h3 ^ (1 << c3)
                                value = search(hands, winner, need, chances, after, rest - 5)
                        value = gain + value if same else gain - value
                        if value < worst3:
                            worst3 = value
                            if value < target:
                                break
                    hands[s3] = h3
                    if worst3 > best2:
                        best2 = worst3
                        if worst3 >= target:
                            break
                hands[s2] = h2
                if best2 < worst1:
                    worst1 = best2
                    if best2 < target:
                        break
            hands[s1] = h1
            if worst1 > best0:
                best0 = worst1
                if worst1 >= target:
                    chosen = c0
                    break
        hands[leader] = h0
        if best0 >= target:
            entry[0] = max(entry[0], best0)
            if leads[0] != chosen:  # the lead that worked comes first next time
                entry[2] = (chosen, *(card for card in leads if card != chosen))
        elif best0 < entry[1]:
            entry[1] = best0
        return best0

