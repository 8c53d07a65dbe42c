"""Seeded matches between two teams of bots (the arena), duplicate or not, on any executor.

This module was ``jass.arena`` before version 0.2. jass-kit installs a package of that name
inside the same top-level ``jass`` package, which hid the module when both were installed;
:func:`play_match` is also ``jass.play_match``.

:func:`play_match` plays ``n`` deals (single hands, or whole games) between team A and
team B and returns a :class:`MatchResult`: team A's points minus team B's per hand or game,
their mean with a 95% confidence interval, and team A's win rate with a Wilson interval.

A team is given as *bot factories*: callables that take a seed and return a fresh
:class:`~jass.bots.Bot`, such as the class :class:`~jass.bots.RandomBot` itself. Every play
builds its own bots from seeds derived from the match seed, so no state is shared between
plays, and the result depends only on the arguments: not on the executor, the chunk size,
or the order in which the workers finish.

>>> from jass.bots import RandomBot
>>> result = play_match(RandomBot, RandomBot, 4, seed=1)
>>> result.deals, len(result.margins), result.points.value
(4, 8, 0.0)
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from functools import partial
from typing import Final, Literal, TypeAlias, cast

import attrs

from jass._budgets import is_int
from jass._matchplay import Job, Play, derive, gather, missing, play_one
from jass.bots import Bot
from jass.engine.game import Game
from jass.errors import InvalidInputError, describe
from jass.rules import SCHIEBER, RuleSet, preset_name

__all__ = [
    "Z95",
    "BotFactory",
    "Estimate",
    "MatchResult",
    "TeamSpec",
    "bot_seed",
    "deal_seed",
    "mean_interval",
    "play_match",
    "replay_deal",
    "wilson_interval",
]

#: A callable that takes a seed and returns a fresh bot: a bot class, a
#: ``functools.partial`` of one, or a module-level function. It must be picklable to run on a
#: process pool or a cluster.
BotFactory: TypeAlias = Callable[[int], Bot]
#: A team: one factory for both seats, or a pair of factories (the first seat, its partner).
TeamSpec: TypeAlias = BotFactory | Sequence[BotFactory]

#: The 97.5% quantile of the standard normal distribution, for two-sided 95% intervals.
Z95: Final = 1.959963984540054

_MODES: Final = ("hands", "games")
_MAX_CHUNK: Final = 1000
_RETRIES: Final = 3


# --- statistics ---------------------------------------------------------------------------


@attrs.frozen
class Estimate:
    """An estimate with its confidence interval.

    Attributes:
        value: the point estimate (a mean, or a share).
        low: the lower end of the interval.
        high: the upper end of the interval.
        n: the number of independent samples behind it.

    >>> e = Estimate(3.0, 1.5, 4.5, 5)
    >>> e.half_width, e.excludes(0), e.excludes(2)
    (1.5, True, False)
    """

    value: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        """Half the width of the interval: ``inf`` when it is unbounded.

        >>> Estimate(0.5, 0.25, 0.75, 10).half_width
        0.25
        """
        return (self.high - self.low) / 2

    def excludes(self, value: float) -> bool:
        """Whether ``value`` lies outside the interval (e.g. 0 points, or a 50% win rate).

        >>> Estimate(0.6, 0.52, 0.68, 100).excludes(0.5)
        True
        """
        return not self.low <= value <= self.high


def mean_interval(values: Sequence[float], z: float = Z95) -> Estimate:
    """The mean of ``values`` with a normal-approximation confidence interval.

    The interval is ``mean ± z · s / √n``, where ``s`` is the sample standard deviation
    (divisor ``n - 1``) and ``z`` defaults to :data:`Z95` for 95%. It is the large-sample
    interval; with a few hundred deals or more it is as good as Student's t. One value says
    nothing about the spread, so its interval is unbounded; equal values give a zero-width
    interval.

    >>> e = mean_interval([1, 2, 3, 4, 5])
    >>> e.value, round(e.low, 4), round(e.high, 4)
    (3.0, 1.6141, 4.3859)
    >>> mean_interval([7]).low, mean_interval([2, 2, 2]).high
    (-inf, 2.0)
    """
    n = len(values)
    if n == 0:
        raise InvalidInputError("a mean needs at least one value")
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, -math.inf, math.inf, 1)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return Estimate(mean, mean - half, mean + half, n)


def wilson_interval(successes: float, n: int, z: float = Z95) -> Estimate:
    """The share ``successes / n`` with its Wilson score interval (95% by default).

    Unlike the normal approximation, the Wilson interval stays inside [0, 1] and is sensible
    for shares near 0 or 1 and for small ``n``. ``successes`` may be fractional (a draw counts
    half a win in :func:`play_match`).

    >>> e = wilson_interval(8, 10)
    >>> e.value, round(e.low, 4), round(e.high, 4)
    (0.8, 0.4902, 0.9433)
    >>> e = wilson_interval(0, 1)
    >>> e.low, round(e.high, 4)
    (0.0, 0.7935)
    """
    if n <= 0:
        raise InvalidInputError(f"a share needs at least one trial, got n={n}")
    if not 0 <= successes <= n:
        raise InvalidInputError(f"successes must be between 0 and n={n}, got {successes}")
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


# --- seeds --------------------------------------------------------------------------------


def deal_seed(seed: int, index: int) -> int:
    """The game seed of deal ``index`` of a match with ``seed``.

    ``Game.new(ruleset, seed=deal_seed(seed, i))`` replays the deal (or the game's deals) of
    deal ``i`` of a :func:`play_match` call.

    >>> deal_seed(0, 5) == deal_seed(0, 5), deal_seed(0, 5) == deal_seed(1, 5)
    (True, False)
    """
    return derive("deal", seed, index)


def bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed given to the factory of the bot at ``seat`` in deal ``index``.

    It depends on the seat, not on the team, so it is the same in both plays of a duplicate
    pair: a team playing against itself plays the second game exactly as the first.

    >>> bot_seed(0, 3, 1) == bot_seed(0, 3, 1), bot_seed(0, 3, 1) == bot_seed(0, 3, 2)
    (True, False)
    """
    return derive("bot", seed, index, seat)


# --- the result ---------------------------------------------------------------------------


def _sign_share(won: int) -> float:
    return (won + 1) / 2


@attrs.frozen
class MatchResult:
    """The outcome of :func:`play_match`: every play, and the statistics over the deals.

    Plays are listed deal by deal; in duplicate mode each deal's first play has team A at
    seats 0 and 2, its second play at seats 1 and 3. The statistics treat each deal (a
    duplicate pair counts as one) as one independent sample.

    Attributes:
        mode: ``"hands"`` or ``"games"``.
        duplicate: whether each deal was played twice with the seats swapped.
        seed: the match seed.
        team_a: a name for team A.
        team_b: a name for team B.
        ruleset: the rules played.
        margins: per play, team A's points minus team B's (what was added to the scores in
            a hand; the final scores of a game).
        outcomes: per play, +1 when team A won (the game, or scored more in a hand), 0 for a
            draw, -1 when it lost.
        hands_played: the number of hands played in all.
        fallbacks: how many answers team A's and team B's bots took from a fallback bot,
            counted from the ``fallbacks`` attribute of each bot that has one (such as
            :class:`jass.jasskit.RemoteBot`, whose remote player failed or answered
            illegally); ``(0, 0)`` for bots without one.

    >>> from jass.bots import RandomBot
    >>> r = play_match(RandomBot, RandomBot, 3, duplicate=False, seed=2)
    >>> len(r.margins) == len(r.outcomes) == r.hands_played == 3
    True
    """

    mode: str
    duplicate: bool
    seed: int
    team_a: str
    team_b: str
    ruleset: RuleSet
    margins: tuple[int, ...]
    outcomes: tuple[int, ...]
    hands_played: int
    fallbacks: tuple[int, int] = (0, 0)

    @property
    def deals(self) -> int:
        """The number of deals (independent samples): plays, or duplicate pairs.

        >>> from jass.bots import RandomBot
        >>> play_match(RandomBot, RandomBot, 2, seed=0).deals
        2
        """
        return len(self.margins) // (2 if self.duplicate else 1)

    @property
    def deal_margins(self) -> tuple[float, ...]:
        """Per deal, team A's points minus team B's per play (a duplicate pair's mean).

        Taking the pair's mean rather than its sum makes both modes estimate the same
        quantity: team A's expected margin per hand (or game).

        >>> from jass.bots import RandomBot
        >>> play_match(RandomBot, RandomBot, 2, seed=0).deal_margins  # mirrored: no edge
        (0.0, 0.0)
        """
        k = 2 if self.duplicate else 1
        m = self.margins
        return tuple(math.fsum(m[i : i + k]) / k for i in range(0, len(m), k))

    @property
    def deal_scores(self) -> tuple[float, ...]:
        """Per deal, team A's win score: 1 a win, 0.5 a draw, 0 a loss.

        For hands, a deal is won when team A scored more over the deal (both plays of a
        duplicate pair together). For games, it is the share of the deal's games that team
        A won, a draw counting half.

        >>> from jass.bots import RandomBot
        >>> play_match(RandomBot, RandomBot, 2, seed=0).deal_scores
        (0.5, 0.5)
        """
        k = 2 if self.duplicate else 1
        if self.mode == "hands":
            return tuple(_sign_share((m > 0) - (m < 0)) for m in self.deal_margins)
        o = self.outcomes
        return tuple(math.fsum(map(_sign_share, o[i : i + k])) / k for i in range(0, len(o), k))

    @property
    def points(self) -> Estimate:
        """Team A's mean margin per hand (or game), with its 95% interval.

        See :func:`mean_interval`: the normal approximation over the deals, with the sample
        standard deviation.

        >>> from jass.bots import RandomBot
        >>> play_match(RandomBot, RandomBot, 5, duplicate=False, seed=3).points.n
        5
        """
        return mean_interval(self.deal_margins)

    @property
    def win_rate(self) -> Estimate:
        """Team A's win rate, with its 95% Wilson interval (:func:`wilson_interval`).

        For games, the share of games team A won; for hands, the share of deals (hands, or
        duplicate pairs) in which it scored more. A draw or tie counts half.

        >>> from jass.bots import RandomBot
        >>> play_match(RandomBot, RandomBot, 3, seed=4).win_rate.value
        0.5
        """
        scores = self.deal_scores
        return wilson_interval(math.fsum(scores), len(scores))

    @property
    def record(self) -> tuple[int, int, int]:
        """(won, drawn, lost) by team A: games in games mode, deals in hands mode.

        >>> from jass.bots import RandomBot
        >>> play_match(RandomBot, RandomBot, 3, seed=4).record
        (0, 3, 0)
        """
        if self.mode == "games":
            signs: Sequence[float] = self.outcomes
        else:
            signs = self.deal_margins
        return (
            sum(1 for s in signs if s > 0),
            sum(1 for s in signs if s == 0),
            sum(1 for s in signs if s < 0),
        )

    def __str__(self) -> str:
        """The result as a small table.

        >>> from jass.bots import RandomBot
        >>> print(play_match(RandomBot, RandomBot, 2, seed=0))
        RandomBot vs RandomBot: 2 duplicate deals (4 hands), SCHIEBER, seed 0
                                 estimate  95% interval    n
        points per hand (A - B)     +0.00  [+0.00, +0.00]  2
        A's win rate (pairs)        50.0%  [9.5%, 90.5%]   2
        A won / tied / lost      0 / 2 / 0
        """
        unit = "hand" if self.mode == "hands" else "game"
        rules = preset_name(self.ruleset) or "custom rules"
        plays = len(self.margins)
        kind = "duplicate " if self.duplicate else ""
        what = f"{self.deals} {kind}deal{'s' if self.deals != 1 else ''}"
        played = f"{plays} {unit}{'s' if plays != 1 else ''}"
        if self.mode == "games":
            played += f", {self.hands_played} hand{'s' if self.hands_played != 1 else ''}"
        points, rate = self.points, self.win_rate
        wins_of = {"hands": "pairs" if self.duplicate else "hands", "games": "games"}[self.mode]
        won, drawn, lost = self.record
        tied = "drawn" if self.mode == "games" else "tied"
        cells = [
            ("", "estimate", "95% interval", "n"),
            (
                f"points per {unit} (A - B)",
                f"{points.value:+.2f}",
                f"[{points.low:+.2f}, {points.high:+.2f}]",
                str(points.n),
            ),
            (
                f"A's win rate ({wins_of})",
                f"{rate.value:.1%}",
                f"[{rate.low:.1%}, {rate.high:.1%}]",
                str(rate.n),
            ),
        ]
        w = [max(len(row[i]) for row in cells) for i in range(4)]
        rows = [f"{self.team_a} vs {self.team_b}: {what} ({played}), {rules}, seed {self.seed}"]
        rows += [f"{a:<{w[0]}}  {b:>{w[1]}}  {c:<{w[2]}}  {d:>{w[3]}}" for a, b, c, d in cells]
        rows.append(f"{f'A won / {tied} / lost':<{w[0]}}  {won} / {drawn} / {lost}")
        if any(self.fallbacks):
            a, b = self.fallbacks
            rows.append(f"{'fallback answers A / B':<{w[0]}}  {a} / {b}")
        return "\n".join(rows)


# --- the match ----------------------------------------------------------------------------


def _name(factory: object) -> str:
    """A short name for a bot factory: its ``label``, or the class or function it calls."""
    label = getattr(factory, "label", None)
    if isinstance(label, str):
        return label
    while isinstance(factory, partial):
        factory = factory.func
    name = getattr(factory, "__qualname__", None) or type(factory).__qualname__
    return str(name)


def _team(spec: object, label: str) -> tuple[tuple[BotFactory, BotFactory], str]:
    """The two factories of a team (first seat, partner) and its name."""
    if callable(spec):
        return (cast("BotFactory", spec),) * 2, _name(spec)
    if isinstance(spec, (str, bytes)) or not isinstance(spec, Sequence) or len(spec) != 2:
        raise InvalidInputError(
            f"team {label} must be a bot factory or a pair of them, got {spec!r}"
        )
    first, second = spec
    if not callable(first) or not callable(second):
        raise InvalidInputError(f"team {label} must be made of bot factories, got {spec!r}")
    names = (_name(first), _name(second))
    factories = (cast("BotFactory", first), cast("BotFactory", second))
    return factories, names[0] if names[0] == names[1] else " + ".join(names)


def play_match(
    team_a: TeamSpec,
    team_b: TeamSpec,
    n: int,
    *,
    mode: Literal["hands", "games"] = "hands",
    duplicate: bool = True,
    ruleset: RuleSet = SCHIEBER,
    seed: int = 0,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    max_hands: int = 1000,
    progress: Callable[[int, int], None] | None = None,
    retries: int = _RETRIES,
    checkpoint: str | os.PathLike[str] | None = None,
) -> MatchResult:
    """Play ``n`` seeded deals between team A and team B and return the :class:`MatchResult`.

    The result is identical for the same arguments whatever the executor and chunk size:
    each deal gets its own seeds and fresh bots, and the chunks are put back in order.

    Args:
        team_a: team A, as one bot factory for both its seats or a pair of factories (the
            first for seat 0, or seat 1 when swapped; the second for its partner). A factory
            takes a seed and returns a fresh bot, e.g. :class:`~jass.bots.RandomBot`.
        team_b: team B, likewise.
        n: the number of deals.
        mode: ``"hands"`` plays one hand per deal: the first hand of
            ``Game.new(ruleset, seed=deal_seed(seed, i))``; a hand's points are what it added
            to the scores (multiplier, Weis, Stöck and match included). ``"games"`` plays
            that game to its end (at most ``max_hands`` hands); its points are the final
            scores.
        duplicate: play every deal twice, first with team A at seats 0 and 2, then at seats 1
            and 3, with the same bot seed at each seat. In hands mode the second play is
            dealt the first play's hands, seat by seat, and the same seed draws the same
            dealer. In games mode both games use the same seed, so each hand number deals
            the same cards to the same seats as long as the dealers agree (always, unless
            ``dealer_rotation`` depends on the results). The luck of the cards cancels out.
        ruleset: the rules played.
        seed: the match seed; the deals and the bots' seeds are derived from it.
        executor: a :class:`concurrent.futures.Executor` (a process pool, a Dask client's
            ``get_executor()``, a :class:`jass.executors.RayExecutor`, ...) to run the
            chunks on; ``None`` plays in this process. Only its ``submit`` and the futures'
            ``result()`` and ``cancel()`` are used. The factories must be picklable for a
            process pool.
        chunk_size: deals per submitted task; by default ``n / 32`` rounded up, at most
            1,000. It does not change the result.
        max_hands: the most hands of a game in games mode.
        progress: called as ``progress(deals_done, n)`` in this process whenever a chunk of
            deals is back (in order), for a progress display. The count only grows, up
            to ``n``.
        retries: how many times a chunk is submitted again when its future fails (a
            worker died, a connection was lost, a task was cancelled) on an executor. Each
            deal is seeded, so a retry plays it exactly as before and no deal is lost or
            counted twice. After the last retry the match stops with a
            :class:`~jass.errors.JassError` whose cause is the last failure. A broken
            executor (a process pool whose worker died) stops the match at once, since
            it cannot run anything again; Dask and Ray replace dead workers. An exception
            raised by the deals themselves is not retried, whatever the executor: a bot's
            is raised as a :class:`~jass.errors.BotDecisionError`, a factory's as it is.
        checkpoint: a file that keeps the deals played, so that a match cut short (a
            broken pool, a killed process, a machine gone) loses nothing. Each chunk's
            outcomes are appended to it as the chunk is back, with one write that is on
            disk before the match goes on; the first line holds the match's parameters.
            Called again with the same arguments, ``play_match`` reads the file, plays only
            the deals missing from it, and returns what the uninterrupted match would have
            returned, deal for deal. A file written by a match with other parameters (the
            teams, ``n``, ``mode``, ``duplicate``, the rules, ``seed``, ``max_hands``) is
            refused. The teams are compared by their pickled form, or by name when they
            cannot be pickled. The file is kept once the match is over.

    Raises:
        InvalidInputError: an argument that is not what is described here, an executor
            that refuses work (shut down, say), or a checkpoint of another match.
        BotDecisionError: a bot raised, or answered an action the rules refuse; the message
            names the bot, its team and seat, the deal and its seeds, and a line that
            replays the decision (see :func:`replay_deal`).
        JassError: a chunk of deals failed ``retries + 1`` times on the executor, or the
            executor broke.

    >>> from functools import partial
    >>> from jass.bots import RandomBot
    >>> r = play_match(partial(RandomBot), RandomBot, 10, duplicate=False, seed=7)
    >>> r.deals, r.mode, r.points.n, r.win_rate.n
    (10, 'hands', 10, 10)
    >>> r = play_match(RandomBot, RandomBot, 1, mode="games")  # the same bots: mirrored
    >>> r.outcomes[0] == -r.outcomes[1], r.points.value
    (True, 0.0)
    """
    if not is_int(n) or n < 1:
        raise InvalidInputError(f"n must be a positive number of deals, got {n!r}")
    if mode not in _MODES:
        raise InvalidInputError(f"mode must be 'hands' or 'games', got {mode!r}")
    if not isinstance(ruleset, RuleSet):
        raise InvalidInputError(f"ruleset must be a RuleSet, got {ruleset!r}")
    if not is_int(seed):
        raise InvalidInputError(f"seed must be an int, got {seed!r}")
    if chunk_size is None:
        chunk_size = min(_MAX_CHUNK, -(-n // 32))
    elif not is_int(chunk_size) or chunk_size < 1:
        raise InvalidInputError(f"chunk_size must be a positive int, got {chunk_size!r}")
    if not is_int(max_hands) or max_hands < 1:
        raise InvalidInputError(f"max_hands must be a positive int, got {max_hands!r}")
    if not is_int(retries) or retries < 0:
        raise InvalidInputError(f"retries must be an int of at least 0, got {retries!r}")
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise InvalidInputError(f"executor must be an Executor or None, got {describe(executor)}")
    (a1, a2), name_a = _team(team_a, "A")
    (b1, b2), name_b = _team(team_b, "B")
    job = Job(ruleset, (a1, a2, b1, b2), mode, bool(duplicate), seed, max_hands)
    done: dict[int, tuple[int, list[Play]]] = {}
    on_chunk: Callable[[int, int, list[Play]], None] | None = None
    if checkpoint is not None:
        from jass._checkpoint import Checkpoint, parameters  # noqa: PLC0415  (when used)

        names = [_name(factory) for factory in job.factories]
        saved = Checkpoint.open(
            checkpoint, parameters(job, n, names), plays_per_deal=2 if duplicate else 1
        )
        done, on_chunk = saved.done, saved.append
    bounds = missing(done, n, chunk_size)
    count = sum(stop - start for start, (stop, _) in done.items())
    if progress is not None and count:
        progress(count, n)

    def back(start: int, stop: int, plays: list[Play]) -> None:
        nonlocal count
        if on_chunk is not None:
            on_chunk(start, stop, plays)
        count += stop - start
        if progress is not None:
            progress(count, n)

    new = gather(executor, job, bounds, retries, back, resumable=checkpoint is not None)
    chunks = {start: plays for (start, _), plays in zip(bounds, new, strict=True)}
    chunks.update((start, plays) for start, (_, plays) in done.items())
    plays = [play for start in sorted(chunks) for play in chunks[start]]
    return MatchResult(
        mode=mode,
        duplicate=bool(duplicate),
        seed=seed,
        team_a=name_a,
        team_b=name_b,
        ruleset=ruleset,
        margins=tuple(p.margin for p in plays),
        outcomes=tuple(p.won for p in plays),
        hands_played=sum(p.hands for p in plays),
        fallbacks=(sum(p.a_fallbacks for p in plays), sum(p.b_fallbacks for p in plays)),
    )


def replay_deal(
    team_a: TeamSpec,
    team_b: TeamSpec,
    index: int,
    *,
    seed: int = 0,
    swapped: bool = False,
    mode: Literal["hands", "games"] = "hands",
    ruleset: RuleSet = SCHIEBER,
    max_hands: int = 1000,
    duplicate: bool = True,
) -> Game:
    """Play one play of a :func:`play_match` match again, in this process; the game it ends in.

    Deal ``index`` of the match with ``seed`` is played as the match played it: the same
    seeds, fresh bots, team A at seats 0 and 2, or at 1 and 3 when ``swapped`` (the second
    play of a duplicate pair; ``duplicate=False`` for a match without pairs, which only
    changes how the error names the play). A bot that failed in the match fails here the
    same way, with the same :class:`~jass.errors.BotDecisionError`, where a debugger can
    stop in it: the error of a match ends with the line that calls this.

    >>> from jass.bots import RandomBot, RuleBot
    >>> r = play_match(RuleBot, RandomBot, 3, seed=5)
    >>> g = replay_deal(RuleBot, RandomBot, 2, seed=5, swapped=True)
    >>> g.scores[1] - g.scores[0] == r.margins[5]
    True
    """
    if not is_int(index) or index < 0:
        raise InvalidInputError(f"index must be a deal's index, 0 or more, got {describe(index)}")
    if mode not in _MODES:
        raise InvalidInputError(f"mode must be 'hands' or 'games', got {describe(mode)}")
    (a1, a2), _ = _team(team_a, "A")
    (b1, b2), _ = _team(team_b, "B")
    job = Job(ruleset, (a1, a2, b1, b2), mode, bool(duplicate), seed, max_hands)
    return play_one(job, index, swapped=bool(swapped))[0]
