"""Benchmarks of the search tools: ``python benchmarks/bench_search.py`` prints one table.

- the fast path: complete random hands per second on int bitmasks, the deal included (the
  best of several rounds, as timeit reports: the host's speed drifts);
- the solver: exact solves with 5 and 7 tricks left, and full hands from the opening lead
  with a time limit per deal (median and worst time over seeded deals, positions searched per
  second, peak table size; a full hand's median and worst count only the exact solves);
- MonteCarloBot: seconds per card decision with its default budget (1 s) and with 8 deals.

Each solve starts from a fresh :class:`~jass.solver.Solver`; the move tables the solvers of a
contract share warm up over the deals, as they do in a bot.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from jass import Contract, Game, rules
from jass.bots import MonteCarloBot
from jass.search.fast import random_hand
from jass.solver import Solver


def position(seed: int, tricks_left: int) -> Game:
    """A seeded SCHIEBER hand played at random until ``tricks_left`` tricks remain."""
    rng = random.Random(seed)
    contract = Contract.standard()[seed % 6]
    game = Game.new(rules.SCHIEBER, seed=seed).deal().choose(contract)  # 2500: no end in one hand
    for _ in range(36 - 4 * tricks_left):
        game = game.play(rng.choice(game.legal_moves().cards()))
    return game


def bench_fast(seconds: float, rounds: int = 5) -> str:
    rng = random.Random(1)
    contracts = Contract.standard()
    best = 0.0
    for _ in range(rounds):
        hands = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / rounds:
            for _ in range(200):
                random_hand(contracts[hands % 6], rng)
                hands += 1
        best = max(best, hands / (time.perf_counter() - start))
    return f"{'fast path: random hands':<34} {best:>12,.0f} hands/s   (target 40,000)"


def bench_solver(tricks_left: int, deals: int, time_limit: float | None) -> str:
    times, exact_times, nodes, tables = [], [], 0, 0
    for seed in range(deals):
        game = position(seed, tricks_left)
        assert game.contract is not None
        assert game.trick_leader is not None
        solver = Solver(game.contract, game.ruleset)
        start = time.perf_counter()
        result = solver.solve(
            [int(h) for h in game.hands],
            int(game.trick_leader),
            game.trick,
            game.tricks_won,
            time_limit=time_limit,
        )
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        nodes += result.nodes
        tables = max(tables, result.table_size)
        if result.exact:
            exact_times.append(elapsed)
    label = f"solver, {tricks_left} tricks left"
    if time_limit:
        label += f" ({time_limit:g} s max)"
    timing = (
        f"median {statistics.median(exact_times) * 1000:>8.1f} ms, "
        f"worst {max(exact_times) * 1000:>9.1f} ms"
        if exact_times
        else f"{'no solve finished':<36}"
    )
    return (
        f"{label:<34} {timing}, {nodes / sum(times):>9,.0f} positions/s, "
        f"table {tables:>9,}, exact {len(exact_times)}/{deals}"
    )


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
    return f"{label:<34} median {median:>7.3f} s, worst {max(times):>7.3f} s"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks and print one table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time for the fast path")
    parser.add_argument("--deals", type=int, default=50, help="seeded deals per solver row")
    parser.add_argument("--full-deals", type=int, default=10, help="seeded deals, 9 tricks")
    parser.add_argument("--full-seconds", type=float, default=60.0, help="limit per full hand")
    parser.add_argument("--decisions", type=int, default=5, help="MonteCarloBot decisions")
    args = parser.parse_args(argv)
    print(bench_fast(args.seconds))
    print(bench_solver(5, args.deals, None))
    print(bench_solver(7, args.deals, None))
    if args.full_deals:
        print(bench_solver(9, args.full_deals, args.full_seconds))
    print(bench_monte_carlo(args.decisions, 8))
    print(bench_monte_carlo(args.decisions, None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
