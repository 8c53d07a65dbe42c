"""Benchmarks of the search tools: ``python benchmarks/bench_search.py`` prints one table.

Native core and pure Python on the same fixed positions, in one run, with their ratio:

- the fast path: complete random hands per second (pure ``jass.search.fast``; with the core,
  ``fast.random_hand`` through Python and the core's own loop, ``random_hands``);
- the solver: exact solves with 5 and 7 tricks left, reached from seeded deals of mixed
  contracts, and full hands from the opening lead with a time limit per deal (median, p95
  and worst time; positions searched per second; peak table memory; exact solves), on one
  thread, and the full hands again on the default threads (each solve split over every
  usable core, timed in wall time);
- the batch call: the card values of a 7-tricks-left decision over 32 sampled worlds, on one
  thread and on the default threads (every usable core, timed in wall time);
- MonteCarloBot: seconds per card decision with 8 deals and with its default budget (1 s).

Each solve starts from a fresh :class:`~jass.solver.Solver`. The Python side of a row is
skipped (shown as ``-``) when ``--python-deals`` is smaller than the row's deals: pure
Python full hands take minutes each. ``JASS_PURE=1`` runs everything in pure Python.
``--cpu`` times everything in the process's CPU time, for a shared machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from jass import Contract, Game, rules
from jass.bots import MonteCarloBot
from jass.core.ruledata import rule_data
from jass.search import fast
from jass.search.native import NATIVE, core
from jass.search.sampling import sample_deals
from jass.search.worlds import default_threads
from jass.solver import Solution, Solver, card_values_batch

#: Bytes a native table entry takes; Python's entries take about 400.
_ENTRY_BYTES = {"native": 32, "python": 400}

#: Issue 20's goals for the native core: (median, p95) seconds per solve, by tricks left.
_SOLVE_GOALS = {5: (0.0002, None), 7: (0.010, 0.150), 9: (0.100, 2.0)}
#: The batch call's goal (median seconds) and the play-out's (hands per second).
_BATCH_GOAL, _PLAY_OUT_GOAL = 0.150, 500_000


#: The solver rows' clock: wall time, or with ``--cpu`` the process's CPU time (on a shared
#: machine the wall time counts the other jobs' turns too; time limits stay wall time).
_CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
_clock = _CLOCKS["wall"]


def _verdict(met: bool, goal: str) -> str:
    return f"goal {goal}: {'met' if met else 'MISSED'}"


def position(seed: int, tricks_left: int) -> Game:
    """A seeded SCHIEBER hand played at random until ``tricks_left`` tricks remain."""
    rng = random.Random(seed)
    contract = Contract.standard()[seed % 6]
    game = Game.new(rules.SCHIEBER, seed=seed).deal().choose(contract)  # 2500: no end in one hand
    for _ in range(36 - 4 * tricks_left):
        game = game.play(rng.choice(game.legal_moves().cards()))
    return game


def _rate(run: Callable[[int], None], seconds: float, rounds: int = 5, chunk: int = 200) -> float:
    best = 0.0
    for _ in range(rounds):
        hands = 0
        start = _clock()
        while _clock() - start < seconds / rounds:
            run(chunk)
            hands += chunk
        best = max(best, hands / (_clock() - start))
    return best


def bench_fast(seconds: float) -> list[str]:
    contracts = Contract.standard()
    rng = random.Random(1)

    def python_hands(n: int) -> None:
        for i in range(n):
            fast.random_hand(contracts[i % 6], rng)

    module = vars(fast)  # fast's own names: its core switched off for the pure row
    saved = module["core"]
    module["core"] = None
    try:
        pure = _rate(python_hands, seconds)
    finally:
        module["core"] = saved
    lines = [f"{'fast path: random hands, Python':<38} {pure:>12,.0f} hands/s"]
    if core is not None:
        through = _rate(python_hands, seconds)
        data = rule_data(contracts[0], rules.SCHIEBER)
        loop = _rate(lambda n: core.random_hands(data, n, 7), seconds, chunk=20_000)
        lines.append(
            f"{'  native, via fast.random_hand':<38} {through:>12,.0f} hands/s  "
            f"({through / pure:.1f}x)"
        )
        lines.append(
            f"{'  native loop (random_hands)':<38} {loop:>12,.0f} hands/s  ({loop / pure:.0f}x), "
            + _verdict(loop >= _PLAY_OUT_GOAL, f">= {_PLAY_OUT_GOAL:,} hands/s")
        )
    return lines


def _solve(
    game: Game, backend: str, time_limit: float | None, threads: int | None = 1
) -> tuple[Solution, float]:
    """One solve on a fresh solver: on one thread (the chosen clock), or on ``threads``
    (None: the default, every usable core) in wall time."""
    assert game.contract is not None
    assert game.trick_leader is not None
    solver = Solver(game.contract, game.ruleset, backend=backend, threads=threads)
    clock = _clock if threads == 1 else time.perf_counter
    start = clock()
    result = solver.solve(
        [int(h) for h in game.hands], int(game.trick_leader), game.trick, game.tricks_won,
        time_limit=time_limit,
    )  # fmt: skip
    return result, clock() - start


def _row(
    tricks_left: int, deals: int, backend: str, limit: float | None, threads: int | None = 1
) -> dict[str, Any]:
    times, exact_times, nodes, table = [], [], 0, 0
    for seed in range(deals):
        result, elapsed = _solve(position(seed, tricks_left), backend, limit, threads)
        times.append(elapsed)
        nodes += result.nodes
        table = max(table, result.table_size)
        if result.exact:
            exact_times.append(elapsed)
    exact_times.sort()
    return {
        "times": times,
        "median": statistics.median(exact_times) if exact_times else float("nan"),
        "p95": exact_times[min(len(exact_times) - 1, int(0.95 * len(exact_times)))]
        if exact_times
        else float("nan"),
        "worst": max(exact_times) if exact_times else float("nan"),
        "rate": nodes / sum(times),
        "memory": table * _ENTRY_BYTES[backend] / 1e6,
        "exact": len(exact_times),
        "deals": deals,
    }


def bench_solver(
    tricks_left: int, deals: int, python_deals: int, limit: float | None
) -> list[str]:
    label = f"solver, {tricks_left} tricks left" + (f" ({limit:g} s max)" if limit else "")
    rows = []
    backends = ["native", "python"] if NATIVE else ["python"]
    found = {}
    for backend in backends:
        count = deals if backend == "native" else min(deals, python_deals)
        if count == 0:
            continue
        found[backend] = row = _row(tricks_left, count, backend, limit)
        rows.append(
            f"{label + ', ' + backend:<38} median {row['median'] * 1000:>9.2f} ms, "
            f"p95 {row['p95'] * 1000:>9.1f} ms, worst {row['worst'] * 1000:>9.1f} ms, "
            f"{row['rate']:>10,.0f} positions/s, table {row['memory']:>7.1f} MB, "
            f"exact {row['exact']}/{row['deals']}"
        )
        if backend == "native":
            median, p95 = _SOLVE_GOALS[tricks_left]
            met = row["median"] <= median and (p95 is None or row["p95"] <= p95)
            goal = f"median <= {median * 1000:g} ms" + (f", p95 <= {p95:g} s" if p95 else "")
            if limit:  # every deal exact within the limit
                met = met and row["exact"] == row["deals"]
                goal += f", all exact in {limit:g} s"
            rows.append(f"{'':<38} {_verdict(met, goal)}")
    if len(found) == 2:
        # On the same positions: the deals both solved.
        slow = found["python"]["times"]
        quick = found["native"]["times"][: len(slow)]
        ratio = statistics.median(slow) / statistics.median(quick)
        rows.append(
            f"{'  ratio python/native':<38} {ratio:>9.1f}x  (medians of the same {len(slow)} deals)"
        )
    return rows


def bench_full_threads(deals: int, limit: float) -> list[str]:
    """Full hands on the default threads (every usable core, each solve split over them),
    in wall time: the same deals as the one-thread full-hand row."""
    row = _row(9, deals, "native", limit, threads=None)
    label = f"  same, {default_threads()} threads, wall time"
    median, p95 = _SOLVE_GOALS[9]
    met = row["median"] <= median and row["p95"] <= p95 and row["exact"] == row["deals"]
    return [
        f"{label:<38} median {row['median'] * 1000:>9.2f} ms, "
        f"p95 {row['p95'] * 1000:>9.1f} ms, worst {row['worst'] * 1000:>9.1f} ms, "
        f"{row['rate']:>10,.0f} positions/s, table {row['memory']:>7.1f} MB, "
        f"exact {row['exact']}/{row['deals']}",
        f"{'':<38} "
        + _verdict(met, f"median <= {median * 1000:g} ms, p95 <= {p95:g} s, all exact"),
    ]


def bench_batch(decisions: int, worlds: int, python: bool) -> list[str]:
    """The batch row: native on one thread (the chosen clock, CPU time with ``--cpu``) and on
    the default threads (wall time: the row a caller waits for); pure Python on one."""
    rows = []
    runs = [("native", 1), ("native", None)] if NATIVE else []
    for backend, threads in runs + ([("python", 1)] if python else []):
        clock = _clock if threads == 1 else time.perf_counter
        times = []
        for seed in range(decisions):
            game = position(seed, 7)
            assert game.to_move is not None
            deals = sample_deals(game.view(game.to_move), worlds, random.Random(seed))
            held = 0
            for h in game.hands:
                held |= int(h)
            hands = [[int(h) & held for h in deal] for deal in deals]
            start = clock()
            card_values_batch(game, hands, backend=backend, threads=threads)
            times.append(clock() - start)
        median = statistics.median(times)
        how = (
            f"{threads} thread" if threads == 1 else f"{default_threads()} threads, wall time"
        )
        rows.append(
            f"{f'card values, {worlds} worlds, ' + backend:<38} "
            f"median {median * 1000:>9.1f} ms, worst {max(times) * 1000:>9.1f} ms ({how})"
            + (f", {_verdict(median <= _BATCH_GOAL, '<= 150 ms')}" if backend == "native" else "")
        )
    return rows


def bench_monte_carlo(decisions: int, samples: int | None) -> str:
    times = []
    for seed in range(decisions):
        game = position(seed, 7)
        assert game.to_move is not None
        bot = MonteCarloBot(seed, samples=samples, time_limit=None if samples else 1.0)
        start = time.perf_counter()
        bot.choose_action(game.view(game.to_move))
        times.append(time.perf_counter() - start)
    label = (
        f"MonteCarloBot per card ({samples} deals)" if samples else "MonteCarloBot per card (1 s)"
    )
    median = statistics.median(times)
    return f"{label:<38} median {median:>7.3f} s, worst {max(times):>7.3f} s"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks and print one table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time for the fast path")
    parser.add_argument("--deals", type=int, default=50, help="seeded deals per solver row")
    parser.add_argument("--full-deals", type=int, default=30, help="seeded deals, 9 tricks")
    parser.add_argument("--full-seconds", type=float, default=60.0, help="limit per full hand")
    parser.add_argument("--decisions", type=int, default=5, help="MonteCarloBot decisions")
    parser.add_argument(
        "--batch-decisions", type=int, default=15,
        help="seven-trick decisions of the batch row (its median moves a lot with few)",
    )  # fmt: skip
    parser.add_argument(
        "--python-deals", type=int, default=None,
        help="deals per row for the pure-Python solver (default: as many as native; 0 for "
        "full hands unless given)",
    )  # fmt: skip
    parser.add_argument("--worlds", type=int, default=32, help="worlds in the batch call")
    parser.add_argument(
        "--cpu", action="store_true", help="time everything in process CPU time"
    )
    args = parser.parse_args(argv)
    global _clock  # noqa: PLW0603  (one switch for the whole run)
    _clock = _CLOCKS["cpu" if args.cpu else "wall"]
    python_deals = args.deals if args.python_deals is None else args.python_deals
    full_python = 0 if args.python_deals is None else args.python_deals
    clock = "CPU" if args.cpu else "wall"
    print(f"native core: {'yes' if NATIVE else 'no (pure Python)'}; {clock} time")
    for line in bench_fast(args.seconds):
        print(line)
    for tricks in (5, 7):
        for line in bench_solver(tricks, args.deals, python_deals, None):
            print(line)
    if args.full_deals:
        for line in bench_solver(9, args.full_deals, full_python, args.full_seconds):
            print(line)
        if NATIVE:
            for line in bench_full_threads(args.full_deals, args.full_seconds):
                print(line)
    for line in bench_batch(args.batch_decisions, args.worlds, python=not NATIVE):
        print(line)
    print(bench_monte_carlo(args.decisions, 8))
    print(bench_monte_carlo(args.decisions, None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
