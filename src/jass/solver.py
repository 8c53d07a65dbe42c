"""An exact perfect-information solver for the card play of a hand.

Given all four hands, :func:`solve` finds what the side to move makes from here with best play
by both sides, and a card that makes it. The value counts card points, the last trick's 5 and
the match bonus (a match of the side to move counts for it, one of the opponents against it);
Weis and Stöck are fixed before the play and left out.

The search works on the difference between the two sides' points, with null-window
("can the side make at least d?") alpha-beta searches driven by bisection on d, on plain ints
with make/unmake. It keeps a transposition table at trick boundaries (the cards left, the
leader and which side can still make a match) with lower and upper bounds, plays a trick as one
level of loops, merges equivalent cards (adjacent in rank among the cards left, same points,
same hand), and orders moves by the table's best card, then by strength. With a node or time
budget it returns proven bounds and the best card found so far when it cannot finish.

>>> import jass
>>> g = jass.Game.new(seed=3).deal().choose("obenabe")
>>> for _ in range(28):
...     g = g.play(g.legal_moves().cards()[0])
>>> result = solve(g)
>>> result.exact, result.best in g.legal_moves(), 0 <= result.points <= 257
(True, True, True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import attrs

from jass.cards import CARDS, Card, Suit
from jass.contracts import Contract, ContractKind
from jass.errors import InvalidInputError
from jass.fast import legal_mask
from jass.hand import Phase
from jass.rules import SCHIEBER, RuleSet, UndertrumpRule
from jass.scoring import match_bonus

if TYPE_CHECKING:
    from jass.readout import GameReadout

__all__ = ["Solution", "Solver", "solve"]

_SUIT_OF: Final = tuple(card // 9 for card in range(36))


class _Budget(Exception):  # noqa: N818  (internal control flow, never escapes)
    """The node or time budget ran out."""


@attrs.frozen
class Solution:
    """The result of a solve.

    Attributes:
        points: what the side to move makes from here (card points, last trick, its match
            bonus); the lower bound when the solve did not finish.
        difference: its points minus the opponents' from here, both bonuses counted.
        lower, upper: proven bounds on the difference (equal when exact).
        best: a card for the player to move that achieves the value (the best found so far
            when not exact).
        exact: whether the search finished.
        nodes: positions searched.
        table_size: entries in the transposition table at the end.

    >>> Solution(10, -137, -137, -137, Card.parse("6S"), True, 1, 0).exact
    True
    """

    points: int
    difference: int
    lower: int
    upper: int
    best: Card | None
    exact: bool
    nodes: int
    table_size: int


class Solver:
    """A reusable solver for one contract and rule set (its table is kept between solves).

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("hearts")
    >>> for _ in range(24):
    ...     g = g.play(g.legal_moves().cards()[-1])
    >>> solver = Solver(g.contract)
    >>> hands = [int(h) for h in g.hands]
    >>> solver.solve(hands, int(g.trick_leader), g.trick, g.tricks_won).exact
    True
    """

    def __init__(
        self, contract: Contract, ruleset: RuleSet = SCHIEBER, *, table_limit: int = 4_000_000
    ) -> None:
        if not isinstance(contract, Contract):
            raise InvalidInputError(f"{contract!r} is not a Contract")
        self.contract = contract
        self.ruleset = ruleset
        self.table_limit = table_limit
        self._table = contract.card_points(old_undenufe=ruleset.old_undenufe)
        self._keys = contract.win_keys
        self._strict = ruleset.undertrump_only_trumps is UndertrumpRule.ONLY_IF_NO_HIGHER
        self._sign = -1 if contract.kind is ContractKind.MISERE else 1
        self._tt: dict[tuple[int, int, int], tuple[int, int, int]] = {}
        self._move_cache: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._classes: dict[int, int] = {}
        # Each suit's cards from the strongest down, for merging equivalent cards.
        self._orders = tuple(
            tuple(9 * suit + rank for rank in contract.rank_order(Suit(suit))) for suit in range(4)
        )
        self._bonus = (0, 0)  # match bonus of the side to move and of its opponents
        # The card points of each 9-bit pattern of each suit.
        self._suit_points = tuple(
            tuple(
                sum(self._table[9 * suit + r] for r in range(9) if pattern >> r & 1)
                for pattern in range(512)
            )
            for suit in range(4)
        )
        self._side = 0
        self._table_context: tuple[int, tuple[int, int]] = (-1, (0, 0))
        self.nodes = 0
        self._limit = 0
        self._deadline = 0.0

    def solve(
        self,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[int] = (),
        tricks: tuple[int, int] = (0, 0),
        *,
        declaring_team: int = 0,
        node_limit: int | None = None,
        time_limit: float | None = None,
    ) -> Solution:
        """Solve the position: ``hands`` held (int masks), ``leader`` of the current ``trick``.

        ``tricks`` are the tricks each team took so far (for the match);
        ``declaring_team`` matters for counter-match rules.

        >>> import jass
        >>> hands = [jass.CardSet.parse(h) for h in ("AS", "KS", "6H", "7H")]
        >>> Solver(jass.Contract.OBENABE).solve(hands, 0, tricks=(4, 4)).points
        20
        """
        held = [int(h) for h in hands]
        cards_left = [h.bit_count() for h in held]
        seat = (leader + len(trick)) & 3
        if len(trick) > 3 or any(
            cards_left[(leader + i) & 3] != cards_left[seat] - (1 if i < len(trick) else 0)
            for i in range(4)
        ):
            raise InvalidInputError("the hands and the trick do not make a position")
        seen = 0
        for cards in (*held, sum(1 << c for c in trick)):
            if seen & cards:
                raise InvalidInputError("a card is in two hands (or in a hand and the trick)")
            seen |= cards
        if tricks[0] + tricks[1] + cards_left[seat] != 9 or min(tricks) < 0:
            raise InvalidInputError(
                f"{tricks} tricks taken do not fit {cards_left[seat]} cards left to play"
            )
        side = seat & 1
        self.nodes = 0
        self._limit = node_limit or 0
        self._deadline = time.perf_counter() + time_limit if time_limit else 0.0
        match = (1 if tricks[side ^ 1] == 0 else 0) | (2 if tricks[side] == 0 else 0)
        rules = self.ruleset
        self._bonus = (
            (match_bonus(side == declaring_team, rules), match_bonus(side != declaring_team, rules))
            if self._sign > 0
            else (0, 0)
        )
        if (side, self._bonus) != self._table_context:
            # The table's values are the side's: another side (or bonus) needs a new table.
            self._tt.clear()
            self._table_context = (side, self._bonus)
        self._side = side
        left = sum(self._table[c] for h in held for c in range(36) if h >> c & 1)
        left += sum(self._table[c] for c in trick) + 5
        lo, hi = -(left + self._bonus[1]), left + self._bonus[0]
        current = list(trick)
        best: int | None = None
        exact = True
        bottom = lo

        def down(value: int) -> int:
            # Without a match the difference is 2 x (the side's points) - left, so it has the
            # parity of ``left``: a failed probe at ``value + 1`` bounds it by this.
            if value < -left:
                return bottom
            if value > left:
                return left
            return value - ((value - left) & 1)

        try:
            while lo < hi:
                target = (lo + hi + 1) // 2
                if self._search(held, current, leader, target, match):
                    lo = target
                else:
                    hi = max(down(target - 1), lo)
            best = self._best_move(held, current, leader, lo, match)
        except _Budget:
            exact = False
        if best is None:
            best = self._moves(held, current, seat)[0]
        # The difference is what the side is credited minus what the opponents are (in Misère
        # each side is credited what the other takes); the two add up to ``left`` but for a match.
        if self._bonus[0] and lo == left + self._bonus[0]:
            points = lo
        elif self._bonus[1] and lo == -(left + self._bonus[1]):
            points = 0
        else:
            points = (left + lo) // 2
        return Solution(points, lo, lo, hi, CARDS[best], exact, self.nodes, len(self._tt))

    def _best_move(
        self, hands: list[int], trick: list[int], leader: int, target: int, match: int
    ) -> int | None:
        seat = (leader + len(trick)) & 3
        for card in self._moves(hands, trick, seat):
            hands[seat] ^= 1 << card
            trick.append(card)
            try:
                if self._search(hands, trick, leader, target, match):
                    return card
            finally:
                trick.pop()
                hands[seat] ^= 1 << card
        return None

    def _moves(self, hands: list[int], trick: list[int], seat: int) -> tuple[int, ...]:
        """The mover's legal cards, one per class of equivalent cards, in the order to try."""
        hand = hands[seat]
        legal = legal_mask(hand, trick, self.contract, self._strict)
        # Cards elsewhere (other hands, the trick) part runs of equivalent cards; classes are
        # looked up suit by suit.
        others = (hands[0] | hands[1] | hands[2] | hands[3]) ^ hand
        for card in trick:
            others |= 1 << card
        reps = 0
        classes = self._classes
        for suit in range(4):
            mine = (legal >> (9 * suit)) & 0x1FF
            if mine:
                key = suit << 18 | mine << 9 | ((others >> (9 * suit)) & 0x1FF)
                found = classes.get(key)
                if found is None:
                    found = classes[key] = self._suit_classes(suit, mine, key & 0x1FF)
                reps |= found << (9 * suit)
        if trick:
            keys = self._keys[trick[0] // 9]
            top = -1
            top_at = 0
            for index, card in enumerate(trick):
                if keys[card] > top:
                    top, top_at = keys[card], index
            order_key: tuple[int, ...] = (reps, trick[0] // 9, top, (len(trick) - top_at) & 1)
        else:
            order_key = (reps,)
        moves = self._move_cache.get(order_key)
        if moves is None:
            if len(self._move_cache) >= self.table_limit:
                self._move_cache.clear()
            moves = self._move_cache[order_key] = self._order(reps, trick)
        return moves

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

    def _order(self, reps: int, trick: list[int]) -> tuple[int, ...]:
        table = self._table
        cards = [c for c in range(36) if reps >> c & 1]
        if not trick:  # leads: the strongest first
            cards.sort(key=lambda c: self._keys[c // 9][c], reverse=True)
            return tuple(cards)
        keys = self._keys[trick[0] // 9]
        top = max(keys[c] for c in trick)
        top_at = max(range(len(trick)), key=lambda i: keys[trick[i]])
        if (len(trick) - top_at) % 2 == 0:  # the partner holds the trick: give it points
            cards.sort(key=lambda c: (keys[c] > top, -table[c]))
        else:  # take it as cheaply as possible, or give away little
            cards.sort(key=lambda c: (keys[c] <= top, keys[c] if keys[c] > top else table[c]))
        return tuple(cards)

    def _search(
        self, hands: list[int], trick: list[int], leader: int, target: int, match: int
    ) -> bool:
        """Whether the side can make a difference of at least ``target`` from here."""
        self.nodes += 1
        if self._limit and self.nodes > self._limit:
            raise _Budget
        if self._deadline and not self.nodes & 1023 and time.perf_counter() > self._deadline:
            raise _Budget
        n = len(trick)
        if n == 4:
            return self._after_trick(hands, trick, leader, target, match)
        seat = (leader + n) & 3
        mine = (seat & 1) == self._side
        entry = None
        if n == 0:
            remaining = hands[0] | hands[1] | hands[2] | hands[3]
            if not remaining:
                return target <= 0
            key = (remaining, leader, match)
            entry = self._tt.get(key)
            if entry is not None:
                if entry[0] >= target:
                    return True
                if entry[1] < target:
                    return False
            else:
                # Nothing known: the points left bound what either side can still make.
                points = self._left_points(remaining) + 5
                best = points + (self._bonus[0] if match & 1 else 0)
                if target > best:
                    return False
                if target <= -(points + (self._bonus[1] if match & 2 else 0)):
                    return True
        moves = self._moves(hands, trick, seat)
        if entry is not None and entry[2] in moves and moves[0] != entry[2]:
            moves = (entry[2], *(card for card in moves if card != entry[2]))
        result = not mine
        chosen = -1
        for card in moves:
            hands[seat] ^= 1 << card
            trick.append(card)
            try:
                value = self._search(hands, trick, leader, target, match)
            finally:  # also when the budget runs out: the position must be left as it was
                trick.pop()
                hands[seat] ^= 1 << card
            if value == mine:
                result = mine
                chosen = card
                break
        if n == 0:
            self._store(hands, leader, match, target, result, chosen)
        return result

    def _left_points(self, remaining: int) -> int:
        suits = self._suit_points
        return (
            suits[0][remaining & 0x1FF]
            + suits[1][(remaining >> 9) & 0x1FF]
            + suits[2][(remaining >> 18) & 0x1FF]
            + suits[3][remaining >> 27]
        )

    def _after_trick(
        self, hands: list[int], trick: list[int], leader: int, target: int, match: int
    ) -> bool:
        keys = self._keys[trick[0] // 9]
        best = 0
        for index in (1, 2, 3):
            if keys[trick[index]] > keys[trick[best]]:
                best = index
        winner = (leader + best) & 3
        table = self._table
        points = table[trick[0]] + table[trick[1]] + table[trick[2]] + table[trick[3]]
        ours = (winner & 1) == self._side
        match &= 1 if ours else 2
        last = not (hands[0] | hands[1] | hands[2] | hands[3])
        if last:
            points += 5
        gain = self._sign * (points if ours else -points)
        if last:
            if match & 1:
                gain += self._bonus[0]
            elif match & 2:
                gain -= self._bonus[1]
            return gain >= target
        saved = trick[:]
        trick.clear()
        try:
            return self._search(hands, trick, winner, target - gain, match)
        finally:
            trick.extend(saved)

    def _store(
        self, hands: list[int], leader: int, match: int, target: int, result: bool, card: int
    ) -> None:
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        key = (remaining, leader, match)
        lo, hi, best = self._tt.get(key, (-1000, 1000, -1))
        if result:
            lo = max(lo, target)
            best = card if card >= 0 else best
        else:
            hi = min(hi, target - 1)
        if len(self._tt) >= self.table_limit and key not in self._tt:
            self._tt.clear()  # memory cap: start over rather than grow
        self._tt[key] = (lo, hi, best)


def solve(
    game: GameReadout,
    *,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> Solution:
    """Solve the card play of ``game`` from its current position, all hands known.

    >>> import jass
    >>> g = jass.Game.new(seed=8).deal().choose("undenufe")
    >>> for _ in range(24):
    ...     g = g.play(g.legal_moves().cards()[0])
    >>> solve(g).exact
    True
    """
    if game.phase is not Phase.PLAY or game.contract is None or game.to_move is None:
        raise InvalidInputError("solve needs a game in the play phase")
    hand = game.hand
    assert hand is not None  # noqa: S101
    solver = Solver(game.contract, game.ruleset)
    leader = game.trick_leader
    assert leader is not None  # noqa: S101
    return solver.solve(
        [int(h) for h in game.hands],
        int(leader),
        game.trick,
        game.tricks_won,
        declaring_team=int(hand.declaring_team),
        node_limit=node_limit,
        time_limit=time_limit,
    )
