"""The arena: statistics, seeding, duplicate deals, and the same result on every executor."""

from __future__ import annotations

import math
import pickle
import pkgutil
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from typing import Any, ClassVar, TypeVar

import pytest

import jass
from jass import CardSet, Game, InvalidInputError, PlayerView, RuleSet, Seat, rules
from jass.bots import RandomBot, play_hand
from jass.engine.actions import Action
from jass.matches import (
    Z95,
    Estimate,
    MatchResult,
    bot_seed,
    deal_seed,
    mean_interval,
    play_match,
    wilson_interval,
)

T = TypeVar("T")

# --- bots and executors for the tests ------------------------------------------------------


class RecordingBot:
    """A RandomBot that records its tag, seat, full hand and dealer at its first decision."""

    seen: ClassVar[list[tuple[str, int, CardSet, Seat | None]]] = []

    def __init__(self, tag: str, seed: int) -> None:
        self._tag = tag
        self._bot = RandomBot(seed)
        self._first = True

    def choose_action(self, view: PlayerView) -> Action:
        if self._first:
            self._first = False
            RecordingBot.seen.append((self._tag, int(view.seat), view.hand, view.dealer))
        return self._bot.choose_action(view)


class FirstActionBot:
    """Always takes the first legal action: a weak but different player."""

    def __init__(self, seed: int) -> None:
        del seed

    def choose_action(self, view: PlayerView) -> Action:
        return view.legal_actions()[0]


def not_a_bot(seed: int) -> object:
    return seed


class _LazyFuture(Future[Any]):
    def __init__(self, executor: ReversingExecutor) -> None:
        super().__init__()
        self._executor = executor

    def result(self, timeout: float | None = None) -> Any:
        self._executor.run_pending()
        return super().result(timeout)


class ReversingExecutor(Executor):
    """Runs nothing at submission; on the first ``result()``, runs every task, last first."""

    def __init__(self) -> None:
        self.pending: list[tuple[Future[Any], Callable[[], Any]]] = []
        self.order: list[int] = []

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future = _LazyFuture(self)
        self.pending.append((future, partial(fn, *args, **kwargs)))
        return future

    def run_pending(self) -> None:
        while self.pending:
            self.order.append(len(self.pending) - 1)
            future, call = self.pending.pop()
            future.set_result(call())


# --- statistics ----------------------------------------------------------------------------


def test_mean_interval_by_hand() -> None:
    # mean 3, sample variance ((-1)^2 + 1^2) / 1 = 2, standard error sqrt(2 / 2) = 1
    e = mean_interval([2, 4])
    assert (e.value, e.n) == (3.0, 2)
    assert e.low == pytest.approx(3 - Z95)
    assert e.high == pytest.approx(3 + Z95)
    # 1..5: mean 3, variance 2.5, standard error sqrt(0.5)
    e = mean_interval([1, 2, 3, 4, 5])
    assert e.half_width == pytest.approx(1.96 * math.sqrt(0.5), rel=1e-4)
    assert e.low == pytest.approx(1.614096, abs=1e-6)
    # another z: 90%
    assert mean_interval([2, 4], z=1.645).high == pytest.approx(4.645)


def test_mean_interval_edge_cases() -> None:
    one = mean_interval([42])
    assert (one.value, one.low, one.high, one.n) == (42.0, -math.inf, math.inf, 1)
    assert not one.excludes(0)
    flat = mean_interval([-5, -5, -5, -5])
    assert (flat.value, flat.low, flat.high, flat.half_width) == (-5.0, -5.0, -5.0, 0.0)
    assert flat.excludes(0)
    assert mean_interval([0.5, 1.5]).value == 1.0
    with pytest.raises(InvalidInputError, match="at least one"):
        mean_interval([])


def test_wilson_interval_by_hand() -> None:
    # 8 of 10: the textbook Wilson interval [0.4902, 0.9433]
    e = wilson_interval(8, 10)
    assert e.value == 0.8
    assert e.low == pytest.approx(0.49016, abs=1e-5)
    assert e.high == pytest.approx(0.94332, abs=1e-5)
    # p = 1/2 is symmetric about 1/2
    half = wilson_interval(50, 100)
    assert half.low + half.high == pytest.approx(1.0)
    assert half.low == pytest.approx(0.40383, abs=1e-5)
    # one trial: [0, z^2 / (1 + z^2)] or [1 / (1 + z^2), 1]
    z2 = Z95 * Z95
    lost, won = wilson_interval(0, 1), wilson_interval(1, 1)
    assert lost.low == 0.0
    assert lost.high == pytest.approx(z2 / (1 + z2))
    assert won.low == pytest.approx(1 / (1 + z2))
    assert won.high == 1.0
    # a fractional count (draws count half) is accepted
    assert wilson_interval(2.5, 5).value == 0.5


@pytest.mark.parametrize(("successes", "n"), [(1, 0), (-1, 4), (5, 4)])
def test_wilson_interval_rejects_nonsense(successes: float, n: int) -> None:
    with pytest.raises(InvalidInputError):
        wilson_interval(successes, n)


def test_estimate() -> None:
    e = Estimate(0.55, 0.51, 0.59, 1000)
    assert e.excludes(0.5)
    assert not e.excludes(0.51)
    assert e.half_width == pytest.approx(0.04)


# --- the result object ---------------------------------------------------------------------


def _result(
    mode: str, duplicate: bool, margins: tuple[int, ...], outcomes: tuple[int, ...]
) -> MatchResult:
    return MatchResult(
        mode=mode,
        duplicate=duplicate,
        seed=0,
        team_a="A",
        team_b="B",
        ruleset=rules.SCHIEBER,
        margins=margins,
        outcomes=outcomes,
        hands_played=len(margins),
    )


def test_statistics_of_duplicate_hands() -> None:
    r = _result("hands", True, (10, -4, -3, 1, 5, -5), (1, -1, -1, 1, 1, -1))
    assert r.deals == 3
    assert r.deal_margins == (3.0, -1.0, 0.0)  # the mean of each pair
    assert r.deal_scores == (1.0, 0.0, 0.5)  # by the pair's total; a tie counts half
    assert r.record == (1, 1, 1)
    assert r.points == mean_interval([3.0, -1.0, 0.0])
    assert r.win_rate == wilson_interval(1.5, 3)
    text = str(r)
    assert "3 duplicate deals (6 hands)" in text
    assert "points per hand (A - B)" in text
    assert "+0.67" in text
    assert "A's win rate (pairs)" in text
    assert "50.0%" in text


def test_statistics_of_games() -> None:
    r = _result("games", True, (300, -200, 50, 10, 0, -40), (1, 1, 1, -1, 0, -1))
    assert r.deal_margins == (50.0, 30.0, -20.0)
    assert r.deal_scores == (1.0, 0.5, 0.25)  # the share of the pair's games won
    assert r.record == (3, 1, 2)  # games won, drawn, lost
    assert r.win_rate.value == pytest.approx(1.75 / 3)
    single = _result("games", False, (300, -200), (1, -1))
    assert single.deals == 2
    assert single.deal_scores == (1.0, 0.0)
    assert "A won / drawn / lost" in str(single)


# --- matches -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset",
    [
        rules.SCHIEBER,  # the first dealer is drawn from the seed
        rules.TRADITIONAL,  # the holder of the marker card decides the first dealer
        rules.SCHIEBER.evolve(weis_declaration="MANUAL"),
    ],
)
def test_duplicate_plays_deal_the_same_hands_with_the_seats_swapped(ruleset: RuleSet) -> None:
    RecordingBot.seen.clear()
    team_a = (partial(RecordingBot, "A1"), partial(RecordingBot, "A2"))
    result = play_match(team_a, partial(RecordingBot, "B"), 3, ruleset=ruleset, seed=5)
    assert result.deals == 3
    seen = RecordingBot.seen
    assert len(seen) == 3 * 2 * 4  # four fresh bots per play
    for deal in range(3):
        dealt = Game.new(ruleset, seed=deal_seed(5, deal)).deal()
        assert dealt.hand_info is not None
        first, second = seen[8 * deal : 8 * deal + 4], seen[8 * deal + 4 : 8 * deal + 8]
        tags = [{seat: tag for tag, seat, _, _ in play} for play in (first, second)]
        assert tags[0] == {0: "A1", 1: "B", 2: "A2", 3: "B"}
        assert tags[1] == {0: "B", 1: "A1", 2: "B", 3: "A2"}
        for play in (first, second):
            for _, seat, hand, dealer in play:
                assert hand == dealt.hands[seat]  # the game's seeded deal, in both plays
                assert dealer == dealt.hand_info.dealer  # and the same dealer: the same forehand
    RecordingBot.seen.clear()


@pytest.mark.parametrize("mode", ["hands", "games"])
def test_a_team_against_itself_scores_exactly_zero_in_duplicate(mode: str) -> None:
    ruleset = rules.SCHIEBER_1000 if mode == "games" else rules.SCHIEBER
    r = play_match(RandomBot, RandomBot, 6, mode=mode, ruleset=ruleset, seed=11)  # type: ignore[arg-type]
    assert r.deal_margins == (0.0,) * 6
    assert all(r.margins[i] == -r.margins[i + 1] for i in range(0, 12, 2))
    assert all(r.outcomes[i] == -r.outcomes[i + 1] for i in range(0, 12, 2))
    assert r.win_rate.value == 0.5
    assert any(m != 0 for m in r.margins)


def test_a_play_can_be_replayed_from_the_published_seeds() -> None:
    r = play_match(RandomBot, FirstActionBot, 5, duplicate=False, seed=3)
    for index, margin in enumerate(r.margins):
        bots: list[Any] = [
            (RandomBot if seat % 2 == 0 else FirstActionBot)(bot_seed(3, index, seat))
            for seat in range(4)
        ]
        game = play_hand(Game.new(rules.SCHIEBER, seed=deal_seed(3, index)), bots)
        assert game.hand_results[0].totals[0] - game.hand_results[0].totals[1] == margin
    assert r.hands_played == 5
    assert r.team_a == "RandomBot"
    assert r.team_b == "FirstActionBot"


def test_the_same_seed_gives_the_same_result_and_another_seed_another() -> None:
    first = play_match(RandomBot, FirstActionBot, 20, seed=1)
    assert play_match(RandomBot, FirstActionBot, 20, seed=1) == first
    assert play_match(RandomBot, FirstActionBot, 20, seed=2) != first
    assert pickle.loads(pickle.dumps(first)) == first


def test_the_chunk_size_does_not_change_the_result() -> None:
    expected = play_match(RandomBot, FirstActionBot, 13, seed=9)
    for chunk_size in (1, 3, 5, 13, 100):
        assert play_match(RandomBot, FirstActionBot, 13, seed=9, chunk_size=chunk_size) == expected


def test_the_task_order_does_not_change_the_result() -> None:
    expected = play_match(RandomBot, FirstActionBot, 10, seed=4)
    executor = ReversingExecutor()
    got = play_match(RandomBot, FirstActionBot, 10, seed=4, executor=executor, chunk_size=2)
    assert executor.order == [4, 3, 2, 1, 0]  # the last chunk ran first
    assert got == expected
    with ThreadPoolExecutor(max_workers=4) as threads:
        assert play_match(RandomBot, FirstActionBot, 10, seed=4, executor=threads) == expected


def test_a_process_pool_gives_the_in_process_result() -> None:
    hands = {"n": 24, "seed": 21, "chunk_size": 5}
    games = {"n": 3, "seed": 8, "mode": "games", "ruleset": rules.SCHIEBER_1000}
    team_a = partial(RandomBot)
    expected_hands = play_match(team_a, FirstActionBot, **hands)  # type: ignore[arg-type]
    expected_games = play_match(team_a, FirstActionBot, **games)  # type: ignore[arg-type]
    with ProcessPoolExecutor(max_workers=2) as pool:
        got_hands = play_match(team_a, FirstActionBot, executor=pool, **hands)  # type: ignore[arg-type]
        got_games = play_match(team_a, FirstActionBot, executor=pool, **games)  # type: ignore[arg-type]
    assert got_hands == expected_hands
    assert got_games == expected_games
    assert got_games.hands_played > 3


def test_duplicate_narrows_the_interval_for_the_same_number_of_hands() -> None:
    pairs = play_match(RandomBot, FirstActionBot, 150, seed=0)
    single = play_match(RandomBot, FirstActionBot, 300, duplicate=False, seed=0)
    assert len(pairs.margins) == len(single.margins) == 300
    assert (pairs.points.n, single.points.n) == (150, 300)
    assert pairs.points.low < pairs.points.value < pairs.points.high
    # Without the cards' luck cancelling, 150 pair means and 300 single hands would give
    # intervals of about the same width.
    assert pairs.points.half_width < 0.9 * single.points.half_width


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n": 0}, "n must be"),
        ({"mode": "rubbers"}, "mode must be"),
        ({"chunk_size": 0}, "chunk_size"),
        ({"seed": "x"}, "seed must be"),
        ({"ruleset": "SCHIEBER"}, "ruleset must be"),
        ({"max_hands": 0}, "max_hands"),
        ({"team_a": [RandomBot] * 3}, "team A must be"),
        ({"team_b": "RandomBot"}, "team B must be"),
        ({"team_b": (RandomBot, 3)}, "team B must be made of bot factories"),
        ({"team_b": not_a_bot}, "not a Bot"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, Any], message: str) -> None:
    arguments: dict[str, Any] = {"team_a": RandomBot, "team_b": RandomBot, "n": 2}
    arguments.update(kwargs)
    with pytest.raises(InvalidInputError, match=message):
        play_match(**arguments)


def test_no_module_shares_a_name_with_jass_kit() -> None:
    # jass-kit installs these under the same top-level jass: one would hide the other.
    names = {module.name for module in pkgutil.iter_modules(jass.__path__)}
    assert "matches" in names
    assert not names & {"agents", "arena", "game", "logs", "service", "train"}
    assert jass.play_match is play_match
