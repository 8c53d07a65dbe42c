"""Arena throughput, serial against clusters: ``python benchmarks/bench_cluster.py``.

Plays the same duplicate match (``--deals`` deals, so twice as many hands) in this process,
on a ``ProcessPoolExecutor``, on a Dask ``LocalCluster`` and on a local Ray, each with
``--workers`` worker processes, and prints deals per second. Every parallel result is
checked against the serial one. Starting a cluster is timed apart from the match, after a
small warm-up match that makes every worker import jass. Needs ``pip install
'python-jass[cluster]'``; an engine that is not installed is left out of the table.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from importlib.metadata import version

from jass.bots import RandomBot, RuleBot
from jass.matches import BotFactory, MatchResult, play_match

MATCHES: list[tuple[str, BotFactory, BotFactory]] = [
    ("RandomBot vs RandomBot", RandomBot, RandomBot),
    ("RuleBot vs RandomBot", RuleBot, RandomBot),
]


@contextmanager
def process_pool(workers: int) -> Iterator[Executor]:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield pool


@contextmanager
def dask_cluster(workers: int) -> Iterator[Executor]:
    import distributed  # noqa: PLC0415

    with (
        distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=":0", silence_logs=logging.ERROR,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):  # fmt: skip
        client.wait_for_workers(workers)
        # pure=False: a repeated match is played again, not answered from the cluster's memory
        yield client.get_executor(pure=False)


@contextmanager
def ray_cluster(workers: int) -> Iterator[Executor]:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # Read when Ray is imported: off, Ray stays on the loopback address of this machine.
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    import ray  # noqa: PLC0415

    from jass.executors import RayExecutor  # noqa: PLC0415

    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        with RayExecutor() as executor:
            yield executor
    finally:
        ray.shutdown()


ENGINES: list[tuple[str, str | None, Callable[[int], AbstractContextManager[Executor]]]] = [
    ("process pool", None, process_pool),
    ("Dask LocalCluster", "distributed", dask_cluster),
    ("Ray", "ray", ray_cluster),
]


def timed(
    team_a: BotFactory,
    team_b: BotFactory,
    deals: int,
    executor: Executor | None,
    chunk: int,
    repeat: int,
) -> tuple[MatchResult, float]:
    """The result and the best time of ``repeat`` runs: the machine may be shared."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = play_match(team_a, team_b, deals, seed=2026, executor=executor, chunk_size=chunk)
        best = min(best, time.perf_counter() - start)
    return result, best


def main(argv: list[str] | None = None) -> int:
    """Time every match on every engine and print one table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=1000, help="deals per match")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (CPUs)")
    parser.add_argument("--chunk-size", type=int, default=50, help="deals per task")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best counts")
    args = parser.parse_args(argv)
    if min(args.deals, args.workers, args.chunk_size, args.repeat) < 1:
        parser.error("--deals, --workers, --chunk-size and --repeat must be positive")

    serial: dict[str, tuple[MatchResult, float]] = {
        name: timed(a, b, args.deals, None, args.chunk_size, args.repeat)
        for name, a, b in MATCHES
    }
    rows = [("serial", "-", "0.0", *(f"{args.deals / s:,.0f}" for _, s in serial.values()))]
    for engine, package, make in ENGINES:
        if package is not None:
            try:
                label = f"{package} {version(package)}"
                __import__(package)
            except ImportError:
                print(f"{engine}: {package} is not installed, left out", file=sys.stderr)
                continue
        else:
            label = "concurrent.futures"
        started = time.perf_counter()
        with make(args.workers) as executor:
            play_match(RandomBot, RandomBot, 2 * args.workers, executor=executor, chunk_size=1)
            startup = time.perf_counter() - started
            rates = []
            for name, team_a, team_b in MATCHES:
                result, seconds = timed(
                    team_a, team_b, args.deals, executor, args.chunk_size, args.repeat
                )
                if result != serial[name][0]:
                    print(f"{engine}: {name} differs from the serial result", file=sys.stderr)
                    return 1
                rates.append(f"{args.deals / seconds:,.0f}")
        rows.append((f"{engine}, {args.workers} workers", label, f"{startup:.1f}", *rates))

    print(
        f"{args.deals} duplicate deals per match ({2 * args.deals} hands), "
        f"chunks of {args.chunk_size} deals, {os.cpu_count()} CPUs; deals per second,"
        f" best of {args.repeat}:"
    )
    header = ("executor", "engine", "start s", *(name for name, _, _ in MATCHES))
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        cells = [f"{cell:<{w}}" if i < 2 else f"{cell:>{w}}" for i, (cell, w) in enumerate(
            zip(row, widths, strict=True)
        )]
        print("  ".join(cells).rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
