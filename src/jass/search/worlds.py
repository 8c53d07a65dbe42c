"""Card values: the exact value of every legal card, in one world or in many sampled worlds.

A Monte Carlo player needs more than the best card of a deal: it averages each card's value
over the worlds (deals) it samples. :func:`values` gives every legal card's value in one
position, :func:`batch` in many worlds of one decision, reusing each solver's table from
world to world and spreading the worlds over threads (the native core releases the GIL).
:func:`analyze_game` runs :func:`values` before every card of a game: double-dummy analysis.
The public faces are :func:`jass.solver.card_values`, :func:`jass.solver.card_values_batch`
and :func:`jass.solver.analyze`.

A card's value is the difference the side to move makes with that card and best play after
it, as :attr:`jass.solver.Solution.lower` of an exact solve; its points as
:attr:`~jass.solver.Solution.points`.

>>> from jass import rules
>>> from jass.core.contracts import Contract
>>> hands = [int(CardSet.parse(h)) for h in ("AS 6H", "KS 7H", "QS 8H", "JS 9H")]
>>> v = values(Solver(Contract.OBENABE, rules.SCHIEBER), hands, 0, (), (4, 3))
>>> {str(card): v.points[card] for card in sorted(v.points)}
{'AS': 20, '6H': 25}
>>> [str(card) for card in v.best()]
['6H']
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from jass._budgets import count_or_none, seconds_or_none
from jass.core.cards import CARDS, Card, CardSet
from jass.core.play import legal_mask, trick_winner
from jass.core.ruledata import rule_data
from jass.core.scoring import team_match_bonus
from jass.engine.actions import Play
from jass.engine.hand import Phase
from jass.engine.view import PlayerView
from jass.errors import InvalidInputError
from jass.search.values import Analysis, CardValues, PlayAnalysis
from jass.solver import Solver, native_backend, side_points

if TYPE_CHECKING:
    from jass.core.contracts import Contract
    from jass.engine.game import Game
    from jass.engine.hand import HandInfo

__all__ = [
    "Analysis", "CardValues", "PlayAnalysis", "analyze_game", "batch", "default_threads", "values",
]  # fmt: skip


def values(
    solver: Solver,
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    tricks: tuple[int, int],
    *,
    declaring_team: int = 0,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> CardValues:
    """Every legal card's value in a position (as :meth:`Solver.solve` takes it).

    On the native core one call; in Python one solve after each card (the reference).

    >>> from jass import rules
    >>> from jass.core.contracts import Contract
    >>> hands = [int(CardSet.parse(h)) for h in ("AS 6H", "KS 7H", "QS 8H", "JS 9H")]
    >>> v = values(Solver(Contract.OBENABE, rules.SCHIEBER), hands, 0, (), (4, 3))
    >>> v.exact, sorted(str(card) for card in v.differences)
    (True, ['6H', 'AS'])
    """
    held = [int(h) for h in hands]
    if solver.native is not None:
        # The core checks the position and gives the points.
        found, exact, nodes, _ = solver.native_call(
            "card_values", held, leader, trick, tricks, declaring_team,
            count_or_none("node_limit", node_limit), seconds_or_none("time_limit", time_limit),
        )  # fmt: skip
        lows = {CARDS[card]: lo for card, lo, _, _ in found}
        highs = {CARDS[card]: hi for card, _, hi, _ in found}
        points = {CARDS[card]: made for card, _, _, made in found}
        return CardValues(lows, highs, points, bool(exact), nodes)
    seen, seat = solver.check_position(held, leader, trick, tricks)
    own, theirs = solver._bonuses(seen, leader, trick, tricks, declaring_team)
    left = solver._left_points(seen) + 5
    lows, highs, exact, nodes = _python_values(
        solver, held, leader, list(trick), tricks, seat, declaring_team, node_limit, time_limit
    )
    points = {card: side_points(lo, left, own, theirs) for card, lo in lows.items()}
    return CardValues(lows, highs, points, exact, nodes)


def _python_values(
    solver: Solver,
    held: list[int],
    leader: int,
    trick: list[int],
    tricks: tuple[int, int],
    seat: int,
    declaring_team: int,
    node_limit: int | None,
    time_limit: float | None,
    only: int | None = None,
) -> tuple[dict[Card, int], dict[Card, int], bool, int]:
    """The reference: play each legal card (or ``only`` that one), solve what follows, add up."""
    data = rule_data(solver.contract, solver.ruleset)
    table = data.points
    sign = solver._sign
    side = seat & 1
    lows: dict[Card, int] = {}
    highs: dict[Card, int] = {}
    exact, nodes = True, 0
    for card in CardSet(legal_mask(held[seat], trick, data)):
        if only is not None and card != only:
            continue
        hands = list(held)
        hands[seat] ^= 1 << card
        after = [*trick, int(card)]
        if len(after) < 4:  # the next seat is an opponent: its value is ours negated
            s = solver.solve(
                hands, leader, after, tricks, declaring_team=declaring_team,
                node_limit=node_limit, time_limit=time_limit,
            )  # fmt: skip
            lows[card], highs[card] = -s.upper, -s.lower
            exact, nodes = exact and s.exact, nodes + s.nodes
            continue
        winner = (leader + trick_winner(after, data)) & 3
        team = winner & 1
        won = (tricks[0] + (team == 0), tricks[1] + (team == 1))
        points = sum(table[c] for c in after)
        if not any(hands):  # the hand is over
            gain = sign * (points + 5)
            if won[team] == 9:
                gain += team_match_bonus(team, declaring_team, solver.contract, solver.ruleset)
            value = gain if team == side else -gain
            lows[card] = highs[card] = value
            continue
        gain = sign * points if team == side else -sign * points
        s = solver.solve(
            hands, winner, (), won, declaring_team=declaring_team,
            node_limit=node_limit, time_limit=time_limit,
        )  # fmt: skip
        if team == side:
            lows[card], highs[card] = gain + s.lower, gain + s.upper
        else:
            lows[card], highs[card] = gain - s.upper, gain - s.lower
        exact, nodes = exact and s.exact, nodes + s.nodes
    return lows, highs, exact, nodes


def batch(
    game: Game | PlayerView,
    worlds: Sequence[Sequence[int]],
    *,
    threads: int | None = None,
    node_limit: int | None = None,
    time_limit: float | None = None,
    backend: str = "auto",
) -> list[CardValues]:
    """The card values of ``game``'s decision in each world (four hands, the cards in play).

    ``game`` may be a :class:`~jass.PlayerView` (a bot's), whose worlds come from
    :func:`~jass.sample_deals` with the cards played taken out.

    Each thread keeps one solver for all its worlds, so its table carries over. ``threads``
    spreads the worlds over that many threads, searched in parallel on the native core (it
    releases the GIL); ``None`` (the default) takes the cores this process may use
    (:func:`default_threads`) on the native core, and one thread in pure Python, where
    threads cannot search in parallel. The values do not depend on the threads: a finished
    search gives every card's exact value whichever worlds its solver searched before. Only
    ``nodes``, and the bounds of a search a limit stopped, do.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("obenabe")
    >>> for _ in range(26):
    ...     g = g.play(g.legal_moves().cards()[0])
    >>> found = batch(g, [[int(h) for h in g.hands]] * 3, threads=2)
    >>> len(found), found[0].differences == found[2].differences  # the same world, the same values
    (3, True)
    """
    contract, leader, tricks, declaring = _position_of(game)
    threads = _thread_count(threads, backend)
    trick = [int(c) for c in game.trick]
    local = threading.local()

    def one(world: Sequence[int]) -> CardValues:
        solver = getattr(local, "solver", None)
        if solver is None:
            # The threads go to the worlds: each solver searches on its own thread.
            solver = local.solver = Solver(contract, game.ruleset, backend=backend, threads=1)
        if len(world) != 4:
            raise InvalidInputError(f"a world must hold four hands, got {len(world)}")
        return values(
            solver, world, leader, trick, tricks, declaring_team=declaring,
            node_limit=node_limit, time_limit=time_limit,
        )  # fmt: skip

    if threads == 1 or len(worlds) < 2:
        return [one(world) for world in worlds]
    with ThreadPoolExecutor(max_workers=min(threads, len(worlds))) as pool:
        return list(pool.map(one, worlds))


def _thread_count(threads: int | None, backend: str) -> int:
    """The threads to search on: ``threads``, else the default.

    The default is every usable core on the native core, and one thread in pure Python
    (where threads cannot search in parallel).
    """
    if threads is not None and (
        isinstance(threads, bool) or not isinstance(threads, int) or threads < 1
    ):
        raise InvalidInputError(f"threads must be a positive int or None, got {threads!r}")
    on_core = native_backend(backend)  # validate it here, before any thread starts
    if threads is None:
        return default_threads() if on_core else 1
    return threads


def default_threads() -> int:
    """The threads :func:`batch` uses by default on the native core: the usable cores.

    The cores this process may run on (its CPU affinity where the platform tells it, else
    :func:`os.cpu_count`), at least 1.

    >>> default_threads() >= 1
    True
    """
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        return max(1, len(affinity(0)))
    return max(1, os.cpu_count() or 1)


def _position_of(state: Game | PlayerView) -> tuple[Contract, int, tuple[int, int], int]:
    """A game's or a view's decision: contract, trick leader, tricks taken, declaring team."""
    if isinstance(state, PlayerView):
        if state.phase is not Phase.PLAY or state.contract is None or state.chooser is None:
            raise InvalidInputError("card values need a view in the play phase")
        won = [0, 0]
        for done in state.tricks:
            won[int(done.winner) & 1] += 1
        lead = state.trick_leader
        assert lead is not None  # noqa: S101
        return state.contract, int(lead), (won[0], won[1]), int(state.chooser) & 1
    contract, first, hand = _decision(state)
    return contract, first, state.tricks_won, int(hand.declaring_team)


def _decision(game: Game) -> tuple[Contract, int, HandInfo]:
    if game.phase is not Phase.PLAY or game.contract is None or game.trick_leader is None:
        raise InvalidInputError("card values need a game in the play phase")
    hand = game.hand_info
    assert hand is not None  # noqa: S101
    return game.contract, int(game.trick_leader), hand


def game_card_values(
    game: Game, node_limit: int | None, time_limit: float | None, backend: str
) -> CardValues:
    """:func:`jass.solver.card_values`: the values in ``game``'s own hands."""
    contract, leader, hand = _decision(game)
    return values(
        Solver(contract, game.ruleset, backend=backend), [int(h) for h in game.hands], leader,
        game.trick, game.tricks_won, declaring_team=int(hand.declaring_team),
        node_limit=node_limit, time_limit=time_limit,
    )  # fmt: skip


def game_batch(
    game: Game | PlayerView,
    worlds: Sequence[Sequence[int]],
    threads: int | None,
    node_limit: int | None,
    time_limit: float | None,
    backend: str,
) -> list[CardValues]:
    """:func:`jass.solver.card_values_batch`."""
    return batch(
        game, worlds, threads=threads, node_limit=node_limit, time_limit=time_limit,
        backend=backend,
    )  # fmt: skip


def analyze_game(
    game: Game, backend: str = "auto", first_trick: int = 0, threads: int | None = None
) -> Analysis:
    """Replay ``game`` from its start and analyze each card played, all hands known.

    ``first_trick`` (0-8) leaves out the cards of each hand's earlier tricks: the first
    tricks take the longest to solve. ``threads`` analyzes that many hands at once, each with
    its own solver (searched in parallel on the native core; ``None``, the default, uses
    :func:`default_threads` there and one thread in pure Python); with fewer hands than
    threads, each hand's solver splits its long card values over the threads left
    (:data:`jass.solver.SPLIT_CARDS`). The analysis does not depend on the threads.

    >>> import jass
    >>> from jass.bots import RuleBot, play_hand
    >>> g = play_hand(jass.Game.new(jass.rules.JASSKIT, seed=2).deal(), [RuleBot()] * 4)
    >>> len(analyze_game(g, first_trick=7).plays)  # the last two tricks' eight cards
    8
    """
    if isinstance(first_trick, bool) or first_trick not in range(9):
        raise InvalidInputError(f"first_trick must be 0-8, got {first_trick!r}")
    threads = _thread_count(threads, backend)
    from jass.engine.game import Game as GameClass  # noqa: PLC0415  (typing only above)

    setup = game.setup
    current = GameClass.new(
        game.ruleset, seed=game.seed, scores=setup.scores, dealer=setup.dealer,
        hands_played=setup.hands_played,
    )  # fmt: skip
    hands: list[list[tuple[int, int, Game, Card]]] = [[]]
    for index, action in enumerate(game.history):
        if (
            isinstance(action, Play)
            and current.phase is Phase.PLAY
            and sum(current.tricks_won) >= first_trick
        ):
            hands[-1].append((index, len(hands) - 1, current, action.card))
        before = current.hands_played
        current = current.apply(action)
        if current.hands_played != before:
            hands.append([])

    work = [plays for plays in hands if plays]
    # The threads go to the hands first; those left over split each hand's long card values
    # (its first tricks, of SPLIT_CARDS or more cards: a one-hand game gets them all).
    split = max(1, threads // max(1, len(work)))

    def one_hand(plays: list[tuple[int, int, Game, Card]]) -> list[PlayAnalysis]:
        found = []
        solver = None  # one a hand: its table carries from card to card
        for index, hand_number, state, card in plays:
            contract, leader, hand = _decision(state)
            if solver is None:
                solver = Solver(contract, state.ruleset, backend=backend, threads=split)
            v = values(
                solver, [int(h) for h in state.hands], leader, state.trick,
                state.tricks_won, declaring_team=int(hand.declaring_team),
            )  # fmt: skip
            seat = state.to_move
            assert seat is not None  # noqa: S101
            played = v.points[card]
            lost = max(v.points.values()) - played
            trick = sum(state.tricks_won)
            found.append(
                PlayAnalysis(index, hand_number, trick, int(seat), card, v.best(), lost, played)
            )
        return found

    if threads == 1 or len(work) < 2:
        done = [one_hand(plays) for plays in work]
    else:
        with ThreadPoolExecutor(max_workers=min(threads, len(work))) as pool:
            done = list(pool.map(one_hand, work))
    return Analysis(tuple(play for found in done for play in found))
