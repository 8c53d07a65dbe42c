"""Benchmarks of the search tools: ``python benchmarks/bench_search.py`` prints one table.

- the fast path: complete random hands per second on int bitmasks, the deal included;
- the solver: exact solves with 5 and 7 tricks left, and bounded solves of full hands from
  the opening lead (median and worst time over seeded deals, nodes per second, peak table);
- MonteCarloBot: seconds per card decision with its default budget (1 s) and with 8 deals.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from jass import Contract, Game, rules
from jass.bots import MonteCarloBot
from jass.fast import random_hand
from jass.solver import Solver


def position(seed: int, tricks_left: int) -> Game:
    """A seeded SCHIEBER hand played at random until ``tricks_left`` tricks remain."""
    rng = random.Random(seed)
    contract = Contract.standard()[seed % 6]
    game = Game.new(rules.SCHIEBER.evolve(target=10**9), seed=seed).deal().choose(contract)
    for _ in range(36 - 4 * tricks_left):
        game = game.play(rng.choice(game.legal_moves().cards()))
    return game


def bench_fast(seconds: float) -> str:
    rng = random.Random(1)
    contracts = Contract.standard()
    hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            random_hand(contracts[hands % 6], rng)
            hands += 1
    rate = hands / (time.perf_counter() - start)
    return f"{'fast path: random hands':<34} {rate:>12,.0f} hands/s   (target 40,000)"


def bench_solver(tricks_left: int, deals: int, node_limit: int | None) -> str:
    times, nodes, tables, exact = [], 0, 0, 0
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
            node_limit=node_limit,
        )
        times.append(time.perf_counter() - start)
        nodes += result.nodes
        tables = max(tables, result.table_size)
        exact += result.exact
    label = f"solver, {tricks_left} tricks left"
    if node_limit:
        label += f" ({node_limit:,} nodes max)"
    return (
        f"{label:<34} median {statistics.median(times) * 1000:>8.1f} ms, "
        f"worst {max(times) * 1000:>9.1f} ms, {nodes / sum(times):>9,.0f} nodes/s, "
        f"table {tables:>9,}, exact {exact}/{deals}"
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
    parser.add_argument("--full-nodes", type=int, default=200_000, help="node budget, 9 tricks")
    parser.add_argument("--decisions", type=int, default=5, help="MonteCarloBot decisions")
    args = parser.parse_args(argv)
    print(bench_fast(args.seconds))
    print(bench_solver(5, args.deals, None))
    print(bench_solver(7, args.deals, None))
    print(bench_solver(9, args.deals, args.full_nodes))
    print(bench_monte_carlo(args.decisions, 8))
    print(bench_monte_carlo(args.decisions, None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
