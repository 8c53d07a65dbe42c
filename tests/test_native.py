"""The native core against the pure-Python solver, and the core's entry points under fuzzing.

The C solver (``jass.search._native``) must give the pure-Python solver's values on every
position: seeded positions from 1 to 7 tricks left, mid-trick too, under every preset and each
card-play option, and every best card it names must achieve the value (checked by the Python
solver). ``JASS_NATIVE_POSITIONS`` sets how many positions (``.ci/run`` asks for thousands).
Full hands are checked against the Python solver's proven bounds. Then random and extreme
inputs go to the native entry points: each gets an answer or a JassError, never a crash.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
from typing import Any

import pytest

from jass import CardSet, Contract, Game, RuleSet, rules
from jass.core.ruledata import rule_data
from jass.engine.actions import Choose
from jass.errors import InvalidInputError, JassError
from jass.rules import CounterMatch, UndertrumpRule
from jass.rules.presets import PRESETS
from jass.search import native
from jass.search.worlds import _python_values, values
from jass.solver import Solver, card_values

pytestmark = pytest.mark.skipif(not native.NATIVE, reason="the native core is not built")

#: Every preset, and each card-play option changed from SCHIEBER.
RULESETS: tuple[RuleSet, ...] = (
    *PRESETS.values(),
    rules.SCHIEBER.evolve(undertrump_only_trumps=UndertrumpRule.ONLY_IF_NO_HIGHER),
    rules.SCHIEBER.evolve(old_undenufe=True),
    rules.SCHIEBER.evolve(counter_match=CounterMatch.NONE, match_bonus=50),
    rules.SCHIEBER.evolve(counter_match=CounterMatch.DOUBLE_TRICK_POINTS),
    rules.SCHIEBER.evolve(counter_match=CounterMatch.DOUBLE_MATCH, match_bonus=0),
)
POSITIONS = int(os.environ.get("JASS_NATIVE_POSITIONS", "400"))


def position(seed: int) -> tuple[Game, RuleSet, Contract]:
    """A seeded position: 1-7 tricks left (mostly few), 0-3 cards into the trick."""
    rng = random.Random(seed)
    ruleset = RULESETS[seed % len(RULESETS)]
    contract = Contract.all()[rng.randrange(7)]
    dealt = Game.new(ruleset, seed=seed).deal()
    allowed = [a.contract for a in dealt.legal_actions() if isinstance(a, Choose)]
    # The solver takes any contract; the game plays one the rule set allows (Misère plays as
    # Obenabe, which some presets leave out: then a trump contract deals the cards).
    game = dealt.choose(contract if contract in allowed else allowed[0])
    tricks_left = rng.choice((1, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 7) if seed % 20 else (6, 7))
    for _ in range(36 - 4 * tricks_left + rng.randrange(4)):
        game = game.play(rng.choice(game.legal_moves().cards()))
    return game, ruleset, contract


def arguments(game: Game) -> tuple[list[int], int, tuple[int, ...], tuple[int, int], int]:
    assert game.trick_leader is not None
    assert game.hand_info is not None
    return (
        [int(h) for h in game.hands],
        int(game.trick_leader),
        tuple(int(c) for c in game.trick),
        game.tricks_won,
        int(game.hand_info.declaring_team),
    )


# The seeds in shards, so that pytest-xdist's workers share the long cross-check.
SHARDS = 4


@pytest.mark.parametrize("shard", range(SHARDS))
def test_native_equals_python_on_seeded_positions(shard: int) -> None:
    """Values equal, and the native best card achieves the value (in the Python solver)."""
    checked = 0
    mine = range(shard, POSITIONS, SHARDS)
    for seed in mine:
        game, ruleset, contract = position(seed)
        hands, leader, trick, tricks, declaring = arguments(game)
        fast = Solver(contract, ruleset, backend="native")
        slow = Solver(contract, ruleset, backend="python")
        a = fast.solve(hands, leader, trick, tricks, declaring_team=declaring)
        b = slow.solve(hands, leader, trick, tricks, declaring_team=declaring)
        assert a.exact
        assert b.exact
        assert (a.lower, a.points) == (b.lower, b.points), (seed, a, b)
        # The native best card, in the Python reference: it makes the value.
        assert a.best is not None
        seat = (leader + len(trick)) & 3
        ref, _, _, _ = _python_values(
            slow, hands, leader, list(trick), tricks, seat, declaring, None, None, int(a.best)
        )
        assert ref[a.best] == a.lower, (seed, a.best, ref)
        checked += 1
    assert checked == len(mine)


@pytest.mark.parametrize("shard", range(SHARDS))
def test_native_card_values_equal_python_card_values(shard: int) -> None:
    for seed in range(4 * shard, POSITIONS, 4 * SHARDS):
        game, ruleset, contract = position(seed)
        hands, leader, trick, tricks, declaring = arguments(game)
        args = (hands, leader, trick, tricks)
        mine = values(Solver(contract, ruleset, backend="native"), *args, declaring_team=declaring)
        ref = values(Solver(contract, ruleset, backend="python"), *args, declaring_team=declaring)
        assert mine.exact
        assert ref.exact
        assert mine.differences == ref.differences, seed
        assert mine.points == ref.points
        # Every best card achieves the solver's value.
        best = Solver(contract, ruleset, backend="python").solve(
            *args, declaring_team=declaring
        ).lower
        assert all(ref.differences[c] == best for c in mine.best())


# Deals whose full hand the core solves in about a second (many take far longer).
@pytest.mark.parametrize("seed", [6, 8, 10])
def test_full_hands_lie_within_the_python_solvers_proven_bounds(seed: int) -> None:
    game = Game.new(rules.SCHIEBER, seed=seed).deal().choose(Contract.standard()[seed % 6])
    hands, leader, trick, tricks, declaring = arguments(game)
    native_result = Solver(game.contract, game.ruleset, backend="native").solve(  # type: ignore[arg-type]
        hands, leader, trick, tricks, declaring_team=declaring
    )
    bounded = Solver(game.contract, game.ruleset, backend="python").solve(  # type: ignore[arg-type]
        hands, leader, trick, tricks, declaring_team=declaring, node_limit=20_000
    )
    assert native_result.exact
    assert bounded.lower <= native_result.lower <= bounded.upper


def test_a_node_limit_gives_proven_bounds_and_a_legal_card() -> None:
    game = Game.new(rules.SCHIEBER, seed=4).deal().choose("hearts")
    rng = random.Random(4)
    for _ in range(8):  # seven tricks left: the exact value takes moments
        game = game.play(rng.choice(game.legal_moves().cards()))
    hands, leader, trick, tricks, _ = arguments(game)
    exact = Solver(game.contract, game.ruleset, backend="native").solve(  # type: ignore[arg-type]
        hands, leader, trick, tricks
    )
    for limit in (1, 50, 2000):
        cut = Solver(game.contract, game.ruleset, backend="native").solve(  # type: ignore[arg-type]
            hands, leader, trick, tricks, node_limit=limit
        )
        assert limit > 50 or not cut.exact
        assert cut.lower <= exact.lower <= cut.upper
        assert cut.best in game.legal_moves()
        assert cut.nodes <= limit + 1


def test_a_time_limit_stops_a_full_hand() -> None:
    game = Game.new(rules.SCHIEBER, seed=5).deal().choose("undenufe")
    hands, leader, trick, tricks, _ = arguments(game)
    cut = Solver(game.contract, game.ruleset, backend="native").solve(  # type: ignore[arg-type]
        hands, leader, trick, tricks, time_limit=1e-4
    )
    assert cut.best in game.legal_moves()
    assert cut.lower <= cut.upper


def test_card_values_of_a_game_agree_across_backends() -> None:
    game, _, _ = position(7)
    mine, ref = card_values(game, backend="native"), card_values(game, backend="python")
    assert (mine.differences, mine.upper, mine.points) == (ref.differences, ref.upper, ref.points)


# --------------------------------------------------------------------------------------------
# Fuzzing the entry points: an answer or a JassError, never a crash
# --------------------------------------------------------------------------------------------


def _garbage(rng: random.Random) -> object:
    return rng.choice(
        (
            -1, 0, 1, 3, 4, 35, 36, 1 << 36, (1 << 36) - 1, 1 << 64, 1 << 200, -(1 << 70),
            2.5, float("nan"), float("inf"), None, "x", True, (), (1, 2), [0] * 9, b"\0" * 300,
        )
    )  # fmt: skip


def _hands(rng: random.Random) -> list[object]:
    kind = rng.randrange(5)
    if kind == 0:
        return [0, 0, 0, 0]  # empty hands
    if kind == 1:  # a whole deal, 9 cards each
        deck = list(range(36))
        rng.shuffle(deck)
        return [sum(1 << c for c in deck[9 * s : 9 * s + 9]) for s in range(4)]
    if kind == 2:  # unequal or overlapping masks
        return [rng.getrandbits(36) for _ in range(4)]
    if kind == 3:
        return [_garbage(rng) for _ in range(rng.choice((3, 4, 5)))]
    return [1 << rng.randrange(36) for _ in range(4)]


def test_fuzzed_solves_answer_or_raise_a_jass_error() -> None:
    core = native.core
    assert core is not None
    rng = random.Random(20)
    context = core.new_context(rule_data(Contract.OBENABE, rules.SCHIEBER), 1 << 12, 15)
    answered = refused = 0
    for _ in range(3000):
        hands = _hands(rng)
        odd = [rng.randrange(40) for _ in range(rng.randrange(5))]
        trick = rng.choice(((), (0,), (35, 1), odd))
        args = [
            hands, rng.choice((0, 1, 2, 3, _garbage(rng))), trick,
            rng.choice((0, 4, 9, _garbage(rng))), rng.choice((0, 4, 9, _garbage(rng))),
            rng.choice((0, 1, _garbage(rng))),
            rng.choice((100, 5000, (1 << 63) - 1, _garbage(rng))),
            rng.choice((0.001, 0.002, 1e300, _garbage(rng))),
        ]  # fmt: skip
        if not args[6] and not args[7]:  # no limit at all: keep a whole deal's solve short
            args[7] = 0.001
        for entry in (core.solve, core.card_values):
            try:
                entry(context, *args)
                answered += 1
            except JassError:  # noqa: PERF203
                refused += 1
    assert answered > 0
    assert refused > 0


def test_fuzzed_rules_kernels_and_play_outs_answer_or_raise() -> None:
    core = native.core
    assert core is not None
    rng = random.Random(21)
    good = rule_data(Contract.standard()[0], rules.SCHIEBER)
    for _ in range(2000):
        data: object = good
        if rng.random() < 0.5:
            fields = list(good)
            fields[rng.randrange(16)] = _garbage(rng)
            data = tuple(fields)
        _fuzz_once(core, data, rng)
    # The context wrapper names what is wrong.
    with pytest.raises(JassError, match="table_limit"):
        native.NativeContext(Contract.OBENABE, rules.SCHIEBER, table_limit=-5)


def _fuzz_once(core: Any, data: object, rng: random.Random) -> None:
    """One random call of a rules-taking entry point: an answer or a JassError."""
    pick = rng.randrange(6)
    with contextlib.suppress(JassError):
        if pick == 0:
            core.new_context(data, rng.choice((1, 1 << 20, _garbage(rng))), 15)
        elif pick == 1:
            trick = rng.choice(((), (3,), _garbage(rng)))
            core.legal_mask(data, rng.choice((0, 511, _garbage(rng))), trick)
        elif pick == 2:
            core.trick_winner(data, rng.choice(((1, 2), (), (40,), _garbage(rng))))
        elif pick == 3:
            draws = rng.choice((b"\1" * 144, b"", _garbage(rng)))
            won = (rng.randrange(10), rng.randrange(10))
            core.play_out(data, _hands(rng), 0, (), 0, 0, *won, draws)
        elif pick == 4:
            core.random_hand(data, rng.choice((b"\7" * 288, b"\1", _garbage(rng))))
        else:
            # Counts that are not ints or out of range (a huge valid count would only be slow).
            core.random_hands(data, rng.choice((0, 3, -1, 1 << 41, 1 << 200, "x", None, 2.5)), 1)


def test_the_binding_names_the_bad_input() -> None:
    core = native.core
    assert core is not None
    context = core.new_context(rule_data(Contract.OBENABE, rules.SCHIEBER), 64, 15)
    full = [int(CardSet.parse(h)) for h in ("6S 7S", "8S 9S", "6H 7H", "8H 9H")]
    with pytest.raises(JassError, match="leader"):
        core.solve(context, full, 7, (), 4, 3, 0, 0, 0.0)
    with pytest.raises(JassError, match="node_limit"):
        core.solve(context, full, 0, (), 4, 3, 0, -1, 0.0)
    with pytest.raises(JassError, match="tricks"):
        core.solve(context, full, 0, (), 4, 4, 0, 0, 0.0)
    with pytest.raises(JassError, match="two hands"):
        core.solve(context, [full[0], full[0], full[2], full[3]], 0, (), 4, 3, 0, 0, 0.0)
    with pytest.raises(JassError, match="context"):
        core.solve("not a context", full, 0, (), 4, 3, 0, 0, 0.0)


def test_each_search_feature_keeps_the_values_and_the_new_ones_save_positions() -> None:
    """Switching a feature off changes the work, never the value; sure points, the first
    guess, the crossing to the partner, his cashing, the cards forced into the sure tricks and
    payoff-similar entries search fewer positions (summed over seven-trick deals of every
    contract). Rank keys save positions only without payoff-similar entries, which share
    every entry they would share (test_rank_keys_share_entries_...)."""
    everything = sum(native.FEATURES.values())
    nodes = dict.fromkeys(native.FEATURES, 0)
    nodes["all"] = 0
    for seed in range(12):
        game = Game.new(rules.SCHIEBER, seed=seed).deal().choose(Contract.standard()[seed % 6])
        rng = random.Random(seed)
        for _ in range(8):
            game = game.play(rng.choice(game.legal_moves().cards()))
        hands, leader, trick, tricks, declaring = arguments(game)
        assert game.contract is not None
        values = set()
        for name, bit in [("all", 0), *native.FEATURES.items()]:
            context = native.NativeContext(game.contract, game.ruleset, features=everything ^ bit)
            lower, upper, _, exact, count, _ = context.solve(
                hands, leader, trick, tricks, declaring, 0, 0.0
            )
            assert exact
            assert lower == upper
            values.add(lower)
            nodes[name] += count
        assert len(values) == 1, (seed, values)
    assert nodes["sure"] > nodes["all"]
    assert nodes["guess"] > nodes["all"]
    assert nodes["crossing"] > nodes["all"]
    assert nodes["cashing"] > nodes["all"]
    assert nodes["forced"] > nodes["all"]
    assert nodes["payoff"] > nodes["all"]
    assert nodes["table"] > 5 * nodes["all"]


def test_rank_keys_share_entries_across_cards_that_became_neighbours() -> None:
    """Under Obenabe the 9 and the 7 of spades are worth 0 points; once the 8 (worth 8) is gone
    they are next to each other among the live cards, so a position and the same one with the
    7 for the 9 share their table entries: solved after the first on the same context, the
    second is settled at its root, where without rank keys (or with keys by runs of the suit's
    own order, where the 8 parts them) it is searched again (payoff-similar keys, which would
    share them too, off)."""
    hands = [
        int(CardSet.parse("JH AH KD QC")),
        int(CardSet.parse("9H QH KH 10D")),
        int(CardSet.parse("6S 10S QS KS")),
        int(CardSet.parse("9S JS 7D 9C")),
    ]
    swapped = [*hands[:3], int(CardSet.parse("7S JS 7D 9C"))]
    everything = sum(native.FEATURES.values())
    searched = {}
    without = everything ^ native.FEATURES["payoff"]
    for features in (without, without ^ native.FEATURES["rank"]):
        context = native.NativeContext(Contract.OBENABE, rules.SCHIEBER, features=features)
        first = context.solve(hands, 0, (), (3, 2), 0, 0, 0.0)
        second = context.solve(swapped, 0, (), (3, 2), 0, 0, 0.0)
        assert first[:2] == second[:2] == (45, 45)
        searched[features] = second[4]
    assert searched[without] <= 3  # one position a probe: the root's entry
    assert searched[without ^ native.FEATURES["rank"]] > 50


def test_a_forged_rule_data_is_refused_in_user_terms() -> None:
    """Each broken RuleData field is refused as a forged RuleData, naming what is wrong."""
    core = native.core
    assert core is not None
    good = rule_data(Contract.standard()[0], rules.SCHIEBER)
    broken = {
        "its trumps are not one whole suit": good._replace(trump_mask=5, buur_mask=1),
        "its Buur is not one trump": good._replace(buur_mask=1 << 35),
        "a flag is not 0 or 1": good._replace(strict_undertrump=2),
        "its points are not 36 ints": good._replace(points=good.points[:35]),
        "its above is not 36 card masks": good._replace(above=(0,) * 3),
        "one row per led suit": good._replace(win_keys=good.win_keys[:3]),
        "the same strength": good._replace(
            win_keys=tuple((row[0], *row[:1], *row[2:]) for row in good.win_keys)
        ),
        "its match_bonus is not a non-negative int": good._replace(match_bonus=-1),
    }
    for what, data in broken.items():
        with pytest.raises(InvalidInputError, match="rules is not the RuleData of a contract") as e:
            core.new_context(tuple(data), 64, 15)
        assert what in str(e.value)
        with pytest.raises(InvalidInputError, match=re.escape(what)):
            core.legal_mask(tuple(data), 511, ())


def test_the_wrapper_names_bad_positions() -> None:
    context = native.NativeContext(Contract.OBENABE, rules.SCHIEBER)
    full = [int(CardSet.parse(h)) for h in ("6S 7S", "8S 9S", "6H 7H", "8H 9H")]
    for call in (context.solve, context.card_values):
        with pytest.raises(InvalidInputError, match="hands must be a sequence of ints"):
            call([full[0], "7S", 0, 0], 0, (), (4, 3), 0, 0, 0.0)  # type: ignore[list-item]
        with pytest.raises(InvalidInputError, match="trick must be a sequence of ints"):
            call(full, 0, None, (4, 3), 0, 0, 0.0)  # type: ignore[arg-type]
        with pytest.raises(InvalidInputError, match="tricks must be two counts"):
            call(full, 0, (), (4,), 0, 0, 0.0)  # type: ignore[arg-type]
        with pytest.raises(InvalidInputError, match="time_limit"):
            call(full, 0, (), (4, 3), 0, 0, "1")  # type: ignore[arg-type]


def test_an_interrupt_cancels_a_long_native_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while the core searches a full hand: it stops, and the solver still works."""
    import threading  # noqa: PLC0415

    cancelled: list[str] = []
    real_join = threading.Thread.join

    def interrupted_join(self: threading.Thread, timeout: float | None = None) -> None:
        if not cancelled:
            cancelled.append(self.name)
            raise KeyboardInterrupt
        real_join(self, timeout)

    game = Game.new(rules.SCHIEBER, seed=3).deal().choose("hearts")  # minutes to solve
    hands, leader, trick, tricks, _ = arguments(game)
    solver = Solver(game.contract, game.ruleset, backend="native")  # type: ignore[arg-type]
    monkeypatch.setattr(threading.Thread, "join", interrupted_join)
    with pytest.raises(KeyboardInterrupt):
        solver.solve(hands, leader, trick, tricks)
    monkeypatch.undo()
    assert cancelled == ["jass-solver"]
    assert solver.solve(hands, leader, trick, tricks, node_limit=100).best in game.legal_moves()
