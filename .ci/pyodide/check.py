"""What the jass wheel computes, as JSON: run under CPython and under Pyodide, then compared.

Everything under "results" must come out the same on both (compare.py checks it); "meta"
says where it ran and how long each part took, and is not compared. Nothing here reads the
clock to decide anything: budgets are counts (samples, nodes), so the results are exact.

    python check.py            # prints the JSON on stdout
"""

from __future__ import annotations

import time

_STARTED = time.perf_counter()

# The modules an app embedding the engine needs: each must import on both.
import importlib  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

import jass  # noqa: E402
import jass.search.fast  # noqa: E402
import jass.matches  # noqa: E402
import jass.records  # noqa: E402
import jass.search.sampling  # noqa: E402
import jass.solver  # noqa: E402
import jass.engine.view  # noqa: E402
from jass.bots import Bot, MonteCarloBot, RandomBot, RuleBot, play_game, play_hand  # noqa: E402

_IMPORT_SECONDS = round(time.perf_counter() - _STARTED, 3)

#: Modules for servers and the command line: reported, not required.
OTHER_MODULES = ("jass.cli", "jass.jasskit")


def optional_imports() -> dict[str, str]:
    """Whether each of :data:`OTHER_MODULES` imports here, or the error."""
    status = {}
    for name in OTHER_MODULES:
        status[name] = "ok"
        try:
            importlib.import_module(name)
        except Exception as error:  # noqa: BLE001  (reported, not required)
            status[name] = f"{type(error).__name__}: {error}"
    return status


def monte_carlo(seed: int) -> MonteCarloBot:
    """A Monte Carlo bot on a budget of samples, not of time: the same play everywhere."""
    return MonteCarloBot(seed, samples=3, time_limit=None)


def bot_hands() -> list[dict[str, Any]]:
    """Three seeded hands, each by one kind of bot at all four seats, as records."""
    factories: dict[str, Callable[[int], Bot]] = {
        "RuleBot": RuleBot,
        "RandomBot": RandomBot,
        "MonteCarloBot": monte_carlo,
    }
    hands = []
    for number, (name, factory) in enumerate(factories.items()):
        game = jass.Game.new(jass.rules.SCHIEBER, seed=100 + number)
        game = play_hand(game, [factory(10 * number + seat) for seat in range(4)])
        result = game.hand_results[-1]
        hands.append(
            {
                "bots": name,
                "contract": str(result.contract),
                "card_points": list(result.card_points),
                "totals": list(result.totals),
                "scores": list(game.scores),
                "record": jass.records.record(game),
            }
        )
    return hands


def position(seed: int, tricks_left: int, trick_cards: int = 0) -> jass.Game:
    """A seeded deal played by RuleBots until ``tricks_left`` tricks (and ``trick_cards``)."""
    game = jass.Game.new(jass.rules.SCHIEBER.evolve(weis=False, stoeck=False), seed=seed).deal()
    bot = RuleBot()
    played = 4 * (9 - tricks_left) + trick_cards
    while game.phase is jass.Phase.CHOOSE or (
        game.phase is jass.Phase.PLAY and 36 - sum(map(len, game.hands)) < played
    ):
        seat = game.to_move
        assert seat is not None  # noqa: S101
        game = game.apply(bot.choose_action(game.view(seat)))
    return game


def solution_json(solution: jass.solver.Solution) -> dict[str, Any]:
    """Every field of a solution, as JSON."""
    return {
        "points": solution.points,
        "difference": solution.lower,
        "lower": solution.lower,
        "upper": solution.upper,
        "best": str(solution.best),
        "exact": solution.exact,
        "nodes": solution.nodes,
        "table_size": solution.table_size,
    }


def solver_values() -> list[dict[str, Any]]:
    """Solutions from 5 and 7 tricks left (exact) and from 9 (with a node budget)."""
    cases = [
        (1, 5, 0, None),
        (2, 5, 2, None),
        (3, 5, 3, None),
        (1, 7, 0, None),
        (4, 9, 0, 50_000),
        (5, 9, 1, 5_000),
    ]
    values = []
    for seed, tricks_left, trick_cards, node_limit in cases:
        game = position(seed, tricks_left, trick_cards)
        solution = jass.solver.solve(game, node_limit=node_limit)
        values.append(
            {
                "seed": seed,
                "tricks_left": tricks_left,
                "trick_cards": trick_cards,
                "node_limit": node_limit,
                "contract": str(game.contract),
                "to_move": int(game.to_move or 0),
                "hands": [str(hand) for hand in game.hands],
                **solution_json(solution),
            }
        )
    # The solver takes a thread of its own from 6 tricks where it can; told to try one where
    # none can start (Pyodide), it must solve on the calling thread instead.
    game = position(6, 6, 0)
    saved = jass.solver._THREADS
    jass.solver._THREADS = True
    try:
        forced = jass.solver.solve(game)
    finally:
        jass.solver._THREADS = saved
    values.append({"seed": 6, "tricks_left": 6, "forced_thread": True, **solution_json(forced)})
    return values


def round_trip() -> dict[str, Any]:
    """A whole game saved and loaded back, a hand mid-trick, and deals sampled from a view."""
    game = play_game(jass.Game.new(jass.rules.TOURNAMENT_12, seed=7), [RuleBot()] * 4)
    text = jass.records.dumps(game)
    again = jass.records.loads(text)
    mid = position(6, 6, 1)
    mid_text = jass.records.dumps(mid)
    seat = mid.to_move
    assert seat is not None  # noqa: S101
    deals = jass.sample_deals(mid.view(seat), 3, random.Random(9))
    return {
        "game_text": text,
        "game_equal": again == game,
        "history_equal": again.history == game.history,
        "dumps_again_equal": jass.records.dumps(again) == text,
        "mid_hand_text": mid_text,
        "mid_hand_equal": jass.records.loads(mid_text) == mid,
        "sampled_deals": [[str(hand) for hand in deal] for deal in deals],
    }


def small_match() -> dict[str, Any]:
    """A match played in this process (the default executor), with its floats."""
    result = jass.play_match(RuleBot, RandomBot, 4, seed=3)
    return {
        "margins": list(result.margins),
        "points": [result.points.value, result.points.low, result.points.high],
        "wins": [result.win_rate.value, result.win_rate.low, result.win_rate.high],
    }


def thread_start() -> str:
    """Whether this Python can start a thread (Pyodide cannot)."""
    try:
        worker = threading.Thread(target=lambda: None)
        worker.start()
    except RuntimeError as error:
        return f"RuntimeError: {error}"
    worker.join()
    return "ok"


def main() -> None:
    """Print ``{"results": ..., "meta": ...}`` as one line of JSON."""
    timings: dict[str, float] = {"imports": _IMPORT_SECONDS}
    results: dict[str, Any] = {}
    parts = {
        "hands": bot_hands,
        "solver": solver_values,
        "round_trip": round_trip,
        "match": small_match,
    }
    for name, part in parts.items():
        started = time.perf_counter()
        results[name] = part()
        timings[name] = round(time.perf_counter() - started, 3)
    meta = {
        "python": sys.version,
        "platform": sys.platform,
        "jass": jass.__version__,
        "solver_threads": jass.solver._THREADS,
        "thread_start": thread_start(),
        "optional_imports": optional_imports(),
        "seconds": timings,
    }
    json.dump({"results": results, "meta": meta}, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
