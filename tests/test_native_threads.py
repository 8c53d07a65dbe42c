"""One native solve split over threads (``_native_split.c``, ``Solver(threads=)``).

The split must give the single thread's values, and a best card that achieves them, on every
position: checked here against the pure-Python solver on seeded positions (the split forced
down to a few cards a hand, where Python is quick), and against one thread on full hands.
Limits and cancel() hold across the threads, the threads run at once, and bad thread counts
are refused.
"""

from __future__ import annotations

import random
import threading
import time

import pytest

from jass import Contract, Game, rules
from jass.errors import InvalidInputError
from jass.search import native, worlds
from jass.search.worlds import _python_values, analyze_game, values
from jass.solver import SPLIT_CARDS, Solver, solve
from tests.test_native import RULESETS, arguments, position

pytestmark = pytest.mark.skipif(not native.NATIVE, reason="the native core is not built")


def full_hand(seed: int, cards_played: int = 0) -> Game:
    """bench_search's full hands: a seeded SCHIEBER deal, ``cards_played`` cards in."""
    rng = random.Random(seed)
    game = Game.new(rules.SCHIEBER, seed=seed).deal().choose(Contract.standard()[seed % 6])
    for _ in range(cards_played):
        game = game.play(rng.choice(game.legal_moves().cards()))
    return game


@pytest.mark.parametrize("threads", [2, 3])
def test_split_threads_equal_python_on_seeded_positions(
    threads: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Solve and card values split from two cards a hand: Python's values, best cards that
    achieve them (mid-trick and trick starts, every preset and contract of test_native)."""
    from jass import solver as solver_module  # noqa: PLC0415

    monkeypatch.setattr(solver_module, "SPLIT_CARDS", 2)
    starts = mids = 0
    for seed in range(threads, 160, 2):
        game, ruleset, contract = position(seed)
        hands, leader, trick, tricks, declaring = arguments(game)
        if hands[(leader + len(trick)) & 3].bit_count() < 2:
            continue
        starts, mids = starts + (not trick), mids + bool(trick)
        split = Solver(contract, ruleset, threads=threads)
        slow = Solver(contract, ruleset, backend="python")
        a = split.solve(hands, leader, trick, tricks, declaring_team=declaring)
        b = slow.solve(hands, leader, trick, tricks, declaring_team=declaring)
        assert a.exact
        assert (a.lower, a.upper, a.points) == (b.lower, b.upper, b.points), (seed, a, b)
        seat = (leader + len(trick)) & 3
        assert a.best is not None
        ref, _, _, _ = _python_values(
            slow, hands, leader, list(trick), tricks, seat, declaring, None, None, int(a.best)
        )
        assert ref[a.best] == a.lower, (seed, a.best, ref)
        mine = values(split, hands, leader, trick, tricks, declaring_team=declaring)
        theirs = values(slow, hands, leader, trick, tricks, declaring_team=declaring)
        assert mine.exact
        assert (mine.differences, mine.upper, mine.points) == (
            theirs.differences, theirs.upper, theirs.points,
        )  # fmt: skip
        assert split._helpers
    assert starts > 10
    assert mids > 10
    assert len(RULESETS) > 5


@pytest.mark.parametrize(("seed", "played"), [(4, 0), (10, 0), (5, 1), (12, 4), (7, 6)])
def test_full_hands_split_over_threads_equal_one_thread(seed: int, played: int) -> None:
    """bench_search's full hands (and 8-card positions, one mid-trick): the same value and
    points on 1, 2 and 3 threads; each best card achieves the value (its card value)."""
    game = full_hand(seed, played)
    one = solve(game, threads=1)
    card = values(Solver(game.contract, game.ruleset, threads=1), *arguments(game)[:4],  # type: ignore[arg-type]
                  declaring_team=arguments(game)[4])  # fmt: skip
    assert card.exact
    assert max(card.differences.values()) == one.lower
    for threads in (2, 3):
        split = solve(game, threads=threads)
        assert split.exact
        assert (split.lower, split.upper, split.points) == (one.lower, one.upper, one.points)
        assert split.best is not None
        assert card.differences[split.best] == one.lower, (threads, split.best)
    if not played:  # a whole hand: each thread searches enough to fill its table
        solver = Solver(game.contract, game.ruleset, threads=2)  # type: ignore[arg-type]
        solver.solve(*arguments(game)[:4], declaring_team=arguments(game)[4])
        # The helper searched: its table holds entries (a split that is ignored leaves it empty).
        assert solver._helpers[0].solve(*arguments(game), 1, 0.0)[5] > 0
    split_values = values(Solver(game.contract, game.ruleset, threads=2), *arguments(game)[:4],  # type: ignore[arg-type]
                          declaring_team=arguments(game)[4])  # fmt: skip
    assert (split_values.differences, split_values.upper) == (card.differences, card.upper)


def test_split_threads_honour_a_node_limit_and_a_time_limit() -> None:
    game = full_hand(7)
    exact = solve(game, threads=1)
    for limit in (1, 3000, 60_000, 400_000):
        cut = solve(game, threads=2, node_limit=limit)
        assert not cut.exact
        assert cut.nodes <= limit + 2  # each thread counts the position it stops at
        assert cut.lower <= exact.lower <= cut.upper
        assert cut.best in game.legal_moves()
    start = time.perf_counter()
    timed = solve(game, threads=2, time_limit=0.02)
    assert time.perf_counter() - start < 0.5
    assert not timed.exact
    assert timed.lower <= exact.lower <= timed.upper
    assert timed.best in game.legal_moves()
    hands, leader, trick, tricks, declaring = arguments(game)
    cut_values = values(Solver(game.contract, game.ruleset, threads=2), hands, leader, trick,  # type: ignore[arg-type]
                        tricks, declaring_team=declaring, node_limit=20_000)  # fmt: skip
    assert not cut_values.exact
    assert cut_values.nodes <= 20_002
    assert set(cut_values.differences) == set(game.legal_moves())


def test_cancel_stops_every_thread_of_a_split_solve() -> None:
    """cancel() on the solver's context stops the helpers' threads too, and the solver
    solves again afterwards."""
    game = full_hand(13)  # about 2 s on one thread
    hands, leader, trick, tricks, _ = arguments(game)
    solver = Solver(game.contract, game.ruleset, threads=2)  # type: ignore[arg-type]
    assert solver.native is not None
    found = []

    def run() -> None:
        found.append(solver.solve(hands, leader, trick, tricks))

    worker = threading.Thread(target=run)
    start = time.perf_counter()
    worker.start()
    time.sleep(0.05)
    while worker.is_alive():  # a cancel before the solve starts is forgotten: repeat it
        solver.native.cancel()
        worker.join(0.01)
    assert time.perf_counter() - start < 1.5
    assert not found[0].exact
    assert found[0].best in game.legal_moves()
    again = solver.solve(hands, leader, trick, tricks, node_limit=1000)
    assert again.best in game.legal_moves()


def test_the_threads_of_a_split_run_at_once() -> None:
    """Each thread of solve_split waits until all have started (the test flag, values + 2):
    only threads that run at the same time meet; and every thread's context searched."""
    game = full_hand(4)
    hands, leader, trick, tricks, declaring = arguments(game)
    contexts = [native.NativeContext(game.contract, game.ruleset) for _ in range(3)]  # type: ignore[arg-type]
    core = contexts[0].core
    position_args = (hands, leader, trick, tricks[0], tricks[1], declaring, 0, 0.0)
    met = core.solve_split(tuple(c.context for c in contexts), 2, *position_args)
    one = solve(game, threads=1)
    assert (met[0], met[1], met[3]) == (one.lower, one.upper, 1)
    for context in contexts:  # each searched: its table holds entries
        assert context.solve(hands, leader, trick, tricks, declaring, 1, 0.0)[5] > 0
    # One context only: no other thread to meet, and the flag passes.
    alone = core.solve_split((contexts[0].context,), 2, *position_args)
    assert alone[:2] == met[:2]
    with pytest.raises(InvalidInputError, match="already solving"):  # one context twice
        core.solve_split((contexts[0].context, contexts[0].context), 0, *position_args)


@pytest.mark.parametrize(("seed", "played", "helped"), [(4, 2, True), (8, 3, False)])
def test_a_position_with_one_legal_card_splits_its_replies(
    seed: int, played: int, helped: bool
) -> None:
    """One legal card: nothing to share out at the root, but its replies (the next hand's
    cards) are units of their own: the threads still search at once, to the same value. The
    trick's last card has no reply in the trick: one unit, no other thread."""
    game = full_hand(seed, played)
    (card,) = game.legal_moves()
    hands, leader, trick, tricks, declaring = arguments(game)
    one = solve(game, threads=1)
    solver = Solver(game.contract, game.ruleset, threads=2)  # type: ignore[arg-type]
    split = solver.solve(hands, leader, trick, tricks, declaring_team=declaring)
    assert split.exact
    assert (split.lower, split.upper, split.best) == (one.lower, one.upper, card)
    assert len(trick) == (2 if helped else 3)
    # Whether the second thread searched: which thread takes which unit is up to the machine
    # (a busy one may leave them all to the first), so a few tries may be needed to see it;
    # at the trick's last card no other thread starts, and its table stays empty every time.
    position_args = (hands, leader, trick, tricks[0], tricks[1], declaring, 0, 0.0)
    searched = 0
    for _ in range(1 if not helped else 20):
        contexts = [native.NativeContext(game.contract, game.ruleset) for _ in range(2)]  # type: ignore[arg-type]
        met = contexts[0].core.solve_split(tuple(c.context for c in contexts), 0, *position_args)
        assert (met[0], met[1], met[3]) == (one.lower, one.upper, 1)
        searched = contexts[1].solve(hands, leader, trick, tricks, declaring, 1, 0.0)[5]
        if searched:
            break
    assert (searched > 0) == helped


@pytest.mark.parametrize("threads", [0, -1, True, 1.5, "2"])
def test_a_bad_thread_count_for_a_solve_is_refused(threads: object) -> None:
    game = full_hand(4, 30)
    with pytest.raises(InvalidInputError, match="threads"):
        solve(game, threads=threads)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="threads"):
        Solver(Contract.OBENABE, threads=threads)  # type: ignore[arg-type]


def test_the_default_threads_are_the_usable_cores_on_the_core_and_one_in_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(worlds, "default_threads", lambda: 5)
    assert Solver(Contract.OBENABE).threads == 5
    assert Solver(Contract.OBENABE, backend="python").threads == 1
    assert Solver(Contract.OBENABE, backend="python", threads=3).threads == 3
    game = full_hand(4, 30)
    assert solve(game, backend="python", threads=2) == solve(game, backend="python")
    assert SPLIT_CARDS == 8


def test_analyze_gives_a_one_hand_game_all_its_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-hand game: its solver splits the card values over every thread (the hands
    would get them, but there is one)."""
    made: list[int] = []
    real = worlds.Solver  # type: ignore[attr-defined]

    def counting(*args: object, **kwargs: object) -> Solver:
        made.append(kwargs["threads"])  # type: ignore[arg-type]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    from jass.bots import RuleBot, play_hand  # noqa: PLC0415

    game = play_hand(Game.new(rules.JASSKIT, seed=2).deal(), [RuleBot()] * 4)
    monkeypatch.setattr(worlds, "Solver", counting)
    split = analyze_game(game, first_trick=6, threads=3)
    assert made == [3]
    monkeypatch.undo()
    assert split == analyze_game(game, first_trick=6, threads=1)


def test_fuzzed_split_solves_answer_or_raise_a_jass_error() -> None:
    """Random and extreme input to solve_split (contexts, values, the position, limits): an
    answer or a JassError, never a crash; the contexts are free again after each call."""
    from jass.core.ruledata import rule_data  # noqa: PLC0415
    from jass.errors import JassError  # noqa: PLC0415
    from tests.test_native import _garbage, _hands  # noqa: PLC0415

    core = native.core
    assert core is not None
    rng = random.Random(29)
    contexts = [core.new_context(rule_data(Contract.OBENABE, rules.SCHIEBER), 1 << 12, 1023)]
    contexts.append(core.new_context(rule_data(Contract.OBENABE, rules.SCHIEBER), 1 << 12, 1023))
    answered = refused = 0
    for _ in range(1500):
        pool = rng.choice((
            tuple(contexts), (contexts[0],), (), tuple(contexts) * 40, [contexts[0]],
            (contexts[0], _garbage(rng)), _garbage(rng),
        ))  # fmt: skip
        args = [
            pool, rng.choice((0, 1, 2, 3, _garbage(rng))), _hands(rng),
            rng.choice((0, 1, 2, 3, _garbage(rng))),
            rng.choice(((), (0,), (35, 1), [rng.randrange(40) for _ in range(rng.randrange(5))])),
            rng.choice((0, 4, 9, _garbage(rng))), rng.choice((0, 4, 9, _garbage(rng))),
            rng.choice((0, 1, _garbage(rng))),
            rng.choice((100, 5000, (1 << 63) - 1, _garbage(rng))),
            rng.choice((0.001, 0.002, 1e300, _garbage(rng))),
        ]  # fmt: skip
        if rng.random() < 0.5:  # a good call, then one argument (or none) made bad
            deck = list(range(36))
            rng.shuffle(deck)
            hands = [sum(1 << c for c in deck[9 * s : 9 * s + 9]) for s in range(4)]
            args = [tuple(contexts), rng.randrange(2), hands, rng.randrange(4), (), 0, 0, 0,
                    rng.choice((50, 3000)), 0.01]  # fmt: skip
            if rng.random() < 0.6:
                args[rng.randrange(10)] = _garbage(rng)
        if not args[8] and not args[9]:  # no limit at all: keep a whole deal's solve short
            args[9] = 0.001
        if rng.random() < 0.05:
            args = args[: rng.randrange(10)]
        try:
            core.solve_split(*args)
            answered += 1
        except JassError:
            refused += 1
    assert answered > 0
    assert refused > 0
    for context in contexts:  # none left busy
        assert core.solve(context, [1 << 8, 1 << 7, 1 << 17, 1 << 16], 0, (), 4, 4, 0, 0, 0.0)[3]
