"""Benchmark of import time: run ``python benchmarks/bench_import.py`` and read the table.

Each line times one statement in fresh interpreters with warm bytecode caches, and gives the
fastest and the median run. The time is the CPU time of the statement itself (not the
interpreter's start-up, and not the waits of a busy machine, which make wall time noisy):
``import jass`` as it is (the rules engine; the other modules load on first use, target: under
100 ms), the eager import that 0.1 did (``import jass`` and the matches, bots, solver and
search modules it pulled in), every public module, and the command line. The last column is
the ratio to the eager import. ``--against DIR`` adds the same lines for another source tree
(say a checkout of main's ``src``), run alternately with this one so that both see the same
machine load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
EAGER = "import jass, jass.matches, jass.bots, jass.solver, jass.search.fast"
STATEMENTS = {
    "import jass": "import jass",
    "eager, as 0.1 (matches, bots)": EAGER,
    "every public module but envs": EAGER
    + ", jass.svg, jass.records, jass.jasskit, jass.naming, jass.executors, jass.rules",
    "the command line (jass.cli)": "import jass.cli",
}
#: The target of ``import jass``, in milliseconds.
TARGET_MS = 100.0
_TIMER = "import time\nstart = time.process_time()\n{}\nprint(time.process_time() - start)"


def _once(statement: str, src: Path, cache: str) -> float:
    """Seconds that ``statement`` takes in a fresh interpreter that imports jass from ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONPYCACHEPREFIX=cache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's install has its bytecode
    done = subprocess.run(  # noqa: S603  (this interpreter, our own statements)
        [sys.executable, "-c", _TIMER.format(statement)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout)


def main(argv: list[str] | None = None) -> int:
    """Time every statement and print one table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15, help="fresh interpreters per line")
    parser.add_argument("--against", type=Path, help="another source tree to compare with")
    args = parser.parse_args(argv)
    trees = {"this tree": SRC}
    if args.against is not None:
        trees[str(args.against)] = args.against.resolve()
    with tempfile.TemporaryDirectory() as cache:
        caches = {name: f"{cache}/{index}" for index, name in enumerate(trees)}
        times: dict[tuple[str, str], list[float]] = {}
        for name, src in trees.items():  # warm-up: write the bytecode caches
            for statement in STATEMENTS.values():
                _once(statement, src, caches[name])
        for _ in range(args.runs):
            for label, statement in STATEMENTS.items():
                for name, src in trees.items():
                    seconds = _once(statement, src, caches[name])
                    times.setdefault((name, label), []).append(seconds * 1000)
    print(f"Python {sys.version.split()[0]}, {args.runs} runs per line, CPU milliseconds")
    print(f"{'tree':<20} {'statement':<31} {'fastest':>8} {'median':>8} {'/ eager':>8}")
    print("-" * 79)
    for name in trees:
        eager = statistics.median(times[(name, "eager, as 0.1 (matches, bots)")])
        for label in STATEMENTS:
            runs = times[(name, label)]
            median = statistics.median(runs)
            print(
                f"{name[-20:]:<20} {label:<31} {min(runs):>8.1f} {median:>8.1f}"
                f" {median / eager:>8.2f}"
            )
    lazy = statistics.median(times[("this tree", "import jass")])
    print(f"import jass, median {lazy:.1f} ms: target under {TARGET_MS:.0f} ms")
    return 0 if lazy < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
