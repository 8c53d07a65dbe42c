"""Bot strength in duplicate arenas: ``python benchmarks/strength.py --deals 2000``.

RuleBot against RandomBot, and MonteCarloBot against RuleBot, each over the same seeded
deals played twice with the seats swapped, under SCHIEBER scoring (multipliers, Weis, Stöck,
match). Prints team A's mean margin per hand with its 95% confidence interval.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from jass.bots import MonteCarloBot, RandomBot, RuleBot
from jass.matches import BotFactory, play_match


def main(argv: list[str] | None = None) -> int:
    """Run both matches and print one table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--samples", type=int, default=8, help="MonteCarloBot deals per card")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    monte_carlo = partial(MonteCarloBot, samples=args.samples, time_limit=None)
    matches: list[tuple[str, BotFactory, BotFactory]] = [
        ("RuleBot vs RandomBot", RuleBot, RandomBot),
        (f"MonteCarloBot({args.samples}) vs RuleBot", monte_carlo, RuleBot),
    ]
    print(f"{'match':<30} {'deals':>6} {'margin/hand':>12} {'95% interval':>20} {'seconds':>8}")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for name, team_a, team_b in matches:
            start = time.perf_counter()
            result = play_match(team_a, team_b, args.deals, seed=2026, executor=pool)
            points = result.points
            interval = f"[{points.low:.1f}, {points.high:.1f}]"
            seconds = time.perf_counter() - start
            print(
                f"{name:<30} {args.deals:>6} {points.value:>12.1f} {interval:>20} {seconds:>8.0f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
