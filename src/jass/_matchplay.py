"""The work of :func:`jass.play_match`: deals played by fresh seeded bots, chunks gathered.

Each deal is played by bots made from seeds derived from the match seed, so a deal plays the
same in any process. A bot that raises, or answers an action the rules refuse, stops the
match with a :class:`~jass.errors.BotDecisionError` that says where and how to replay it.
Chunks run in this process or on an executor; a lost chunk is submitted again, a broken
executor is recognised at once.

>>> from jass.bots import RandomBot
>>> job = Job(SCHIEBER, (RandomBot,) * 4, "hands", True, 1, 1000)
>>> [len(plays) for plays in gather(None, job, [(0, 2), (2, 3)], 0, lambda *chunk: None)]
[4, 2]
"""

from __future__ import annotations

import hashlib
import pickle
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import BrokenExecutor, Executor, Future
from functools import partial
from typing import Any, Final, NamedTuple, TypeAlias

import attrs

from jass.bots import Bot
from jass.engine.actions import Action
from jass.engine.game import Game
from jass.engine.hand import Phase
from jass.errors import BotDecisionError, InvalidInputError, JassError, describe
from jass.rules import SCHIEBER, RuleSet, preset_name

#: A callable that takes a seed and returns a fresh bot.
Factory: TypeAlias = Callable[[int], Bot]


class Play(NamedTuple):
    """One play of a deal, as team A saw it (a tuple, so a checkpoint writes it as a list)."""

    margin: int  # A's points minus B's
    won: int  # 1, 0 or -1: A won, drew or lost
    hands: int  # hands played
    a_fallbacks: int  # answers A's bots left to their fallback
    b_fallbacks: int

#: Called with each chunk's bounds and plays as it is back, in order.
OnChunk: TypeAlias = Callable[[int, int, list[Play]], None]

_CAUSE_CHARS: Final = 300  # of the bot's own message, quoted in ours


def derive(*parts: object) -> int:
    """A 63-bit seed from ``parts``, the same on every platform and in every process.

    >>> derive("deal", 0, 5) == derive("deal", 0, 5) != derive("deal", 1, 5)
    True
    """
    # "jass-arena", the module's old name, stays in the key: the same seeds, the same matches.
    text = "/".join(map(str, ("jass-arena", *parts))).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


@attrs.frozen
class Job:
    """Everything a worker needs to play deals; picklable if the factories are.

    >>> from jass.bots import RandomBot
    >>> Job(SCHIEBER, (RandomBot,) * 4, "hands", True, 0, 1000).mode
    'hands'
    """

    ruleset: RuleSet
    factories: tuple[Factory, Factory, Factory, Factory]  # A1, A2, B1, B2
    mode: str
    duplicate: bool
    seed: int
    max_hands: int


def _bots(job: Job, index: int, *, swapped: bool) -> list[Bot]:
    """Fresh bots for one play: team A at seats 0/2, or at 1/3 when ``swapped``."""
    a1, a2, b1, b2 = job.factories
    order = (b1, a1, b2, a2) if swapped else (a1, b1, a2, b2)
    bots = []
    for seat, factory in enumerate(order):
        bot = factory(derive("bot", job.seed, index, seat))
        if not isinstance(bot, Bot):
            raise InvalidInputError(
                f"bot factory {describe(factory, typed=False)} returned {describe(bot)}, not a Bot"
            )
        bots.append(bot)
    return bots


def _outcome(game: Game, a_team: int, bots: Sequence[Bot]) -> Play:
    scores = game.scores
    margin = scores[a_team] - scores[1 - a_team]
    result = game.result
    if result is not None and result.winner is not None:
        won = 1 if int(result.winner) == a_team else -1
    elif result is not None:
        won = 0
    else:  # a single hand, or a game cut off by max_hands: whoever scored more
        won = (margin > 0) - (margin < 0)
    hands = result.hands_played if result is not None else max(1, len(game.hand_results))
    used = [_fallbacks(bot) for bot in bots]
    return Play(
        margin, won, hands, used[a_team] + used[a_team + 2], used[1 - a_team] + used[3 - a_team]
    )


def _fallbacks(bot: Bot) -> int:
    count = getattr(bot, "fallbacks", 0)
    return count if isinstance(count, int) and not isinstance(count, bool) else 0


def play_one(job: Job, index: int, *, swapped: bool) -> tuple[Game, list[Bot]]:
    """Play deal ``index`` once, team A at seats 1 and 3 if ``swapped``: the game, the bots.

    >>> from jass.bots import RandomBot
    >>> game, bots = play_one(Job(SCHIEBER, (RandomBot,) * 4, "hands", True, 0, 9), 0, swapped=True)
    >>> len(game.hand_results), len(bots)
    (1, 4)
    """
    game = Game.new(job.ruleset, seed=derive("deal", job.seed, index))
    bots = _bots(job, index, swapped=swapped)
    if job.mode == "hands":
        first = game.deal()
        # The same seed draws the same first dealer; the same hands go to the same seats.
        game = game.deal(hands=first.hands) if swapped else first
        return _play_hand(game, bots, job, index, swapped), bots
    for _ in range(job.max_hands):
        if game.is_over:
            break
        game = _play_hand(game, bots, job, index, swapped)
    return game, bots


def _play_hand(game: Game, bots: Sequence[Bot], job: Job, index: int, swapped: bool) -> Game:
    """Deal if due, and let the bots play the hand; a failed decision names its bot."""
    if game.phase is Phase.DEAL:
        game = game.deal()
    while game.phase in (Phase.CHOOSE, Phase.PLAY):
        seat = game.to_move
        assert seat is not None  # noqa: S101
        bot = bots[seat]
        try:
            action = bot.choose_action(game.view(seat))
        except Exception as exc:
            raise _decision_error(job, index, swapped, int(seat), bot, game, None, exc) from exc
        try:
            game = game.apply(action)
        except Exception as exc:  # the rules refuse it, or it is not an action at all
            raise _decision_error(job, index, swapped, int(seat), bot, game, action, exc) from exc
    return game


def _decision_error(
    job: Job,
    index: int,
    swapped: bool,
    seat: int,
    bot: Bot,
    game: Game,
    action: Action | None,
    cause: Exception,
) -> BotDecisionError:
    """The error for a bot's failed decision: who, where, with which seeds, how to replay."""
    team = "A" if (seat % 2 == 1) == swapped else "B"
    name = type(bot).__qualname__
    reason = str(cause)
    if len(reason) > _CAUSE_CHARS:
        reason = reason[: _CAUSE_CHARS - 3] + "..."
    if action is None:
        what = f"raised {type(cause).__name__}: {reason}"
    else:
        what = f"answered {describe(action, typed=False)}, which the rules refuse: {reason}"
    play = ""
    if job.duplicate:
        play = " (its second play, team A at seats 1 and 3)" if swapped else " (its first play)"
    hand = game.hand_info.number + 1 if game.hand_info is not None else 1
    game_seed = derive("deal", job.seed, index)
    bot_seed = derive("bot", job.seed, index, seat)
    line = replay_line(job, index, swapped)
    message = (
        f"{name} of team {team} at seat {seat} {what}; in deal {index}{play} of the match with "
        f"seed {job.seed}, hand {hand}, trick {len(game.tricks) + 1}; game seed {game_seed} "
        f"(jass.matches.deal_seed({job.seed}, {index})), bot seed {bot_seed} "
        f"(jass.matches.bot_seed({job.seed}, {index}, {seat})). Replay it: {line}"
    )
    return BotDecisionError(
        message,
        action=action,
        view=game.view(game.to_move) if game.to_move is not None else None,
        state=game,
        bot=name,
        team=team,
        seat=seat,
        deal=index,
        swapped=swapped,
        match_seed=job.seed,
        game_seed=game_seed,
        bot_seed=bot_seed,
        replay=line,
    )


def replay_line(job: Job, index: int, swapped: bool) -> str:
    """A shell line that replays play ``index`` (``swapped`` or not) of ``job``'s match.

    >>> from jass.bots import RandomBot
    >>> line = replay_line(Job(SCHIEBER, (RandomBot,) * 4, "hands", True, 3, 1000), 7, True)
    >>> line.startswith('python -c "import jass.'), line.endswith('7, seed=3, swapped=True)"')
    (True, True)
    """
    modules = {"jass.matches"}
    a1, a2, b1, b2 = job.factories
    teams = [_team_source(a1, a2, "TEAM_A", modules), _team_source(b1, b2, "TEAM_B", modules)]
    arguments = [*teams, str(index), f"seed={job.seed}"]
    if swapped:
        arguments.append("swapped=True")
    if not job.duplicate:
        arguments.append("duplicate=False")
    if job.mode != "hands":
        arguments.append(f"mode={job.mode!r}")
        if job.max_hands != 1000:
            arguments.append(f"max_hands={job.max_hands}")
    if job.ruleset != SCHIEBER:
        name = preset_name(job.ruleset)
        arguments.append(f"ruleset=jass.rules.{name}" if name else "ruleset=RULES")
        modules.add("jass.rules")
    call = f"jass.matches.replay_deal({', '.join(arguments)})"
    line = f'python -c "import {", ".join(sorted(modules))}; {call}"'
    unknown = [word for word in ("TEAM_A", "TEAM_B", "RULES") if word in call]
    if unknown:
        line += f" (with {', '.join(unknown)} written as in your call)"
    return line


def _team_source(first: Factory, second: Factory, fallback: str, modules: set[str]) -> str:
    one, two = _source(first, modules), _source(second, modules)
    if one is None or two is None:
        return fallback
    return one if first is second else f"({one}, {two})"


def _source(factory: object, modules: set[str]) -> str | None:
    """Python that names ``factory``, if it is importable: a class, a function, a partial."""
    if isinstance(factory, partial):
        func = _source(factory.func, modules)
        literals = (int, float, str, bool, type(None))
        values = [*factory.args, *factory.keywords.values()]
        if func is None or not all(isinstance(v, literals) for v in values):
            return None
        modules.add("functools")
        parts = [func, *map(repr, factory.args)]
        parts += [f"{key}={value!r}" for key, value in factory.keywords.items()]
        return f"functools.partial({', '.join(parts)})"
    module = getattr(factory, "__module__", None)
    qualname = getattr(factory, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname:
        return None
    if module == "__main__" or not callable(factory):
        return None
    modules.add(module)
    return f"{module}.{qualname}"


def play_deal(job: Job, index: int) -> list[Play]:
    """Play deal ``index`` once, or twice with the seats swapped (duplicate)."""
    plays = []
    for swapped in (False, True) if job.duplicate else (False,):
        game, bots = play_one(job, index, swapped=swapped)
        plays.append(_outcome(game, int(swapped), bots))
    return plays


def play_chunk(job: Job, start: int, stop: int) -> list[Play]:
    """Play deals ``start`` to ``stop - 1``; the plays in order."""
    return [play for index in range(start, stop) for play in play_deal(job, index)]


@attrs.frozen
class ChunkError:
    """An exception raised while playing a chunk, sent back as a value.

    It is the bots' or the arguments' fault and would happen again, so it is raised as it
    is, not retried; only a failure of the executor itself (no value came back) is.
    """

    error: Exception
    traceback: str
    cause: BaseException | None = None


class RemoteTraceback(Exception):  # noqa: N818  (not an error: the text of one)
    """The traceback of an exception raised in a worker, shown as its cause."""

    def __str__(self) -> str:
        return str(self.args[0])


def _travels(error: BaseException) -> bool:
    try:
        pickle.loads(pickle.dumps(error))  # noqa: S301  (our own bytes)
    except Exception:  # noqa: BLE001  (an exception that cannot travel: its repr can)
        return False
    return True


def run_chunk(job: Job, start: int, stop: int, attempt: int) -> list[Play] | ChunkError:
    """Play a chunk in a worker: its plays, or the exception its deals raised.

    ``attempt`` is unused: it makes a retry a new task for executors that cache tasks by
    their arguments (Dask's ``pure`` tasks would hand back the failed one).
    """
    del attempt
    try:
        return play_chunk(job, start, stop)
    except Exception as error:  # noqa: BLE001  (sent back whole, raised again by the caller)
        text = traceback.format_exc()
        cause = error.__cause__
        if cause is not None and not _travels(cause):
            cause = JassError(f"{type(cause).__name__}: {cause}")
        if not _travels(error):
            error = JassError(f"deals {start} to {stop - 1} raised {error!r}")
        return ChunkError(error, text, cause)


def _raise(outcome: ChunkError) -> None:
    """Raise a worker's exception here, its own cause (if any) first in the chain."""
    remote = RemoteTraceback(outcome.traceback)
    if outcome.cause is not None:
        outcome.cause.__cause__ = remote
        raise outcome.error from outcome.cause
    raise outcome.error from remote


def gather(
    executor: Executor | None,
    job: Job,
    bounds: Sequence[tuple[int, int]],
    retries: int,
    on_chunk: OnChunk,
    *,
    resumable: bool = False,
) -> list[list[Play]]:
    """Play the chunks ``bounds``, in this process or on ``executor``; their plays in order.

    On an executor, a chunk whose future fails (a dead worker, a lost connection, a
    cancelled task) is submitted again, at most ``retries`` times; its deals are seeded, so
    a retry plays them exactly as the first attempt would have. A broken executor (a
    process pool whose worker died) cannot run anything again: it stops the match at once.
    The chunks are collected in order, and ``on_chunk`` sees each one as it is back.
    """
    chunks: list[list[Play]] = []
    if executor is None:
        for start, stop in bounds:
            plays = play_chunk(job, start, stop)
            on_chunk(start, stop, plays)
            chunks.append(plays)
        return chunks
    futures = _submit_all(executor, job, bounds)
    done = 0
    try:
        for i, (start, stop) in enumerate(bounds):
            failure: Exception | None = None
            for attempt in range(retries + 1):
                try:
                    if attempt:
                        futures[i] = executor.submit(run_chunk, job, start, stop, attempt)
                    outcome = futures[i].result()
                except BrokenExecutor as error:
                    raise _broken(error, start, stop, done, bounds, resumable) from error
                except Exception as error:  # noqa: BLE001  (whatever the executor raises)
                    failure = error
                    continue
                break
            else:
                tries = f"{retries + 1} time{'s' if retries else ''}"
                raise JassError(
                    f"deals {start} to {stop - 1} of the match failed {tries} on the executor;"
                    f" the last failure: {failure!r}"
                ) from failure
            if isinstance(outcome, ChunkError):
                _raise(outcome)
            assert not isinstance(outcome, ChunkError)  # noqa: S101  (for mypy)
            on_chunk(start, stop, outcome)
            chunks.append(outcome)
            done += stop - start
    finally:
        for future in futures:
            future.cancel()
    return chunks


def _submit_all(
    executor: Executor, job: Job, bounds: Sequence[tuple[int, int]]
) -> list[Future[list[Play] | ChunkError]]:
    """Submit every chunk; an executor that refuses the very first is misused."""
    futures: list[Future[list[Play] | ChunkError]] = []
    for start, stop in bounds:
        try:
            futures.append(executor.submit(run_chunk, job, start, stop, 0))
        except Exception as error:  # noqa: PERF203  (each submission may fail apart)
            if futures:  # a later chunk: a failed attempt, submitted again in turn
                failed: Future[list[Play] | ChunkError] = Future()
                failed.set_exception(error)
                futures.append(failed)
                continue
            hint = "the bot factories must be picklable for it"
            if isinstance(error, BrokenExecutor):
                hint = "it is broken: a worker died; make a new one"
            elif isinstance(error, RuntimeError):
                hint = "was it shut down? pass an executor that is running"
            raise InvalidInputError(
                f"the executor {type(executor).__name__} refuses the match's work "
                f"({type(error).__name__}: {error}): {hint}"
            ) from error
    return futures


def _broken(
    error: Exception,
    start: int,
    stop: int,
    done: int,
    bounds: Sequence[tuple[int, int]],
    resumable: bool,
) -> JassError:
    total = sum(b - a for a, b in bounds)
    then = (
        "rerun the same call to resume from its checkpoint"
        if resumable
        else "pass checkpoint=PATH to keep the deals played when this happens"
    )
    return JassError(
        f"the executor broke at deals {start} to {stop - 1}, with {done} of the {total} deals "
        f"to play back ({type(error).__name__}: {error}). A ProcessPoolExecutor cannot go on "
        "once a worker process died; Dask (a distributed Client's get_executor()) and Ray "
        f"(jass.executors.RayExecutor) replace dead workers and run their work again; {then}"
    )


def team_fingerprint(factory: Any) -> str:
    """A stable key for a bot factory: the hash of its pickle, else its import name.

    >>> from jass.bots import RandomBot
    >>> team_fingerprint(RandomBot) == team_fingerprint(RandomBot)
    True
    """
    try:
        data = pickle.dumps(factory, protocol=4)
    except Exception:  # noqa: BLE001  (a factory that does not pickle: its name must do)
        name = getattr(factory, "__qualname__", type(factory).__qualname__)
        return f"name:{getattr(factory, '__module__', '?')}.{name}"
    return "pickle:" + hashlib.sha256(data).hexdigest()[:32]


def missing(done: dict[int, tuple[int, list[Play]]], n: int, size: int) -> list[tuple[int, int]]:
    """The chunks of at most ``size`` deals that cover what ``done`` does not, in order.

    >>> missing({2: (4, [])}, 9, 3)
    [(0, 2), (4, 7), (7, 9)]
    """
    bounds: list[tuple[int, int]] = []
    start = 0
    for begin, (end, _) in [*sorted(done.items()), (n, (n, []))]:
        bounds += [(a, min(a + size, begin)) for a in range(start, begin, size)]
        start = max(start, end)
    return bounds
