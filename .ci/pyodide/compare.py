"""Prove the jass wheel in Pyodide: the same check under CPython and under Pyodide, compared.

    python compare.py --wheel-dir DIST --python VENV/bin/python [--node-modules DIR]

DIST holds the built ``python_jass-*.whl``; VENV is an environment where that wheel is installed
(CI's package step makes one). The script:

1. downloads the wheels of attrs and typing-extensions, at the versions installed in VENV, so
   both sides run the same code (``pip download --only-binary=:all: --no-deps``);
2. runs check.py with VENV's Python, then in Pyodide under Node (run.mjs: the three wheels
   unpacked into site-packages, every network request refused, and in a user namespace
   without network where ``unshare`` allows it);
3. compares the two "results" and fails on any difference, on any network request, or if the
   Pyodide side did not really run under emscripten.

The expected values are CPython's, computed in the same run: nothing is hard-coded here.
Uses only the standard library.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: The runtime dependencies, as pip and importlib.metadata name them.
DEPENDENCIES = ("attrs", "typing-extensions")


def run(command: list[str], *, cwd: Path | None = None) -> tuple[str, float]:
    """Run ``command``; its stdout and the seconds it took. Its stderr goes through."""
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, text=True, check=False)  # noqa: S603
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"failed (exit {done.returncode}): {' '.join(command)}\n{done.stdout[-2000:]}")
    return done.stdout, seconds


def collect_wheels(wheel_dir: Path, python: str, dest: Path) -> list[str]:
    """Copy the jass wheel to ``dest`` and download its dependencies' wheels next to it."""
    found = sorted(wheel_dir.glob("python_jass-*.whl"))
    if len(found) != 1:
        sys.exit(f"expected one jass wheel in {wheel_dir}, found {[p.name for p in found]}")
    shutil.copy(found[0], dest)
    code = "import importlib.metadata as m, sys; print(*(m.version(n) for n in sys.argv[1:]))"
    versions, _ = run([python, "-c", code, *DEPENDENCIES])
    pins = [
        f"{name}=={version}" for name, version in zip(DEPENDENCIES, versions.split(), strict=True)
    ]
    pip = [python, "-m", "pip", "download", "--quiet", "--only-binary=:all:", "--no-deps"]
    run([*pip, "--dest", str(dest), *pins])
    return sorted(path.name for path in dest.glob("*.whl"))


def differences(expected: Any, actual: Any, where: str = "") -> list[str]:
    """Where two JSON values differ, as paths (``/solver/4/points``), with both values."""
    if type(expected) is not type(actual):
        return [f"{where or '/'}: {expected!r:.120} != {actual!r:.120}"]
    if isinstance(expected, dict):
        found = []
        for key in sorted(expected.keys() | actual.keys()):
            if key not in expected or key not in actual:
                found.append(f"{where}/{key}: only on one side")
            else:
                found += differences(expected[key], actual[key], f"{where}/{key}")
        return found
    if isinstance(expected, list):
        if len(expected) != len(actual):
            return [f"{where}: {len(expected)} items != {len(actual)}"]
        return [
            line
            for index, (a, b) in enumerate(zip(expected, actual, strict=True))
            for line in differences(a, b, f"{where}/{index}")
        ]
    return [] if expected == actual else [f"{where}: {expected!r:.120} != {actual!r:.120}"]


def summary(results: dict[str, Any]) -> list[str]:
    """A few of the compared values, for the log."""
    lines = [
        f"  hand by {hand['bots']}: {hand['contract']}, totals {hand['totals']}, "
        f"{len(hand['record']['actions'])} actions"
        for hand in results["hands"]
    ]
    lines += [
        f"  solve from {value['tricks_left']} tricks"
        + (f" (node_limit {value['node_limit']})" if value.get("node_limit") else "")
        + (" (thread forced)" if value.get("forced_thread") else "")
        + f": points {value['points']}, bounds [{value['lower']}, {value['upper']}], "
        f"best {value['best']}, exact {value['exact']}, {value['nodes']} nodes"
        for value in results["solver"]
    ]
    trip = results["round_trip"]
    lines.append(
        f"  record round trip: {len(trip['game_text'])} characters, "
        f"equal {trip['game_equal']}, same text again {trip['dumps_again_equal']}"
    )
    lines.append(f"  match margins {results['match']['margins']}")
    return lines


def main() -> int:
    """Run both sides and compare; 0 when they agree and nothing went to the network."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel-dir", type=Path, required=True, help="holds python_jass-*.whl")
    parser.add_argument("--python", required=True, help="a Python with that wheel installed")
    parser.add_argument("--node-modules", type=Path, default=HERE / "node_modules")
    parser.add_argument("--node", default="node")
    args = parser.parse_args()
    check = HERE / "check.py"
    # Where user namespaces are allowed, Node runs in one with no network at all, on top of
    # run.mjs refusing every request.
    isolate = ["unshare", "--user", "--map-root-user", "--net"]
    isolated = shutil.which("unshare") is not None and (
        subprocess.run([*isolate, "true"], capture_output=True, check=False).returncode == 0  # noqa: S603
    )
    with tempfile.TemporaryDirectory(prefix="jass-pyodide-") as temp:
        wheels = Path(temp) / "wheels"
        wheels.mkdir()
        names = collect_wheels(args.wheel_dir, args.python, wheels)
        print("wheels:", ", ".join(names))
        # Run from the temporary directory, so the source tree cannot shadow the wheel.
        cpython_out, cpython_seconds = run([args.python, str(check)], cwd=Path(temp))
        node_out, node_seconds = run(
            [
                *(isolate if isolated else []),
                args.node,
                str(HERE / "run.mjs"),
                "--wheels",
                str(wheels),
                "--script",
                str(check),
                "--node-modules",
                str(args.node_modules),
            ],
            cwd=Path(temp),
        )
    cpython = json.loads(cpython_out)
    report = json.loads(node_out)
    pyodide = json.loads(report["stdout"])
    node = report["node"]
    print(f"CPython {cpython['meta']['python'].split()[0]} ({cpython['meta']['platform']}):")
    print(f"  check {cpython_seconds:.1f} s wall, parts {cpython['meta']['seconds']}")
    print(f"Pyodide {node['pyodide']}, Python {pyodide['meta']['python'].split()[0]}", end="")
    print(f" ({pyodide['meta']['platform']}), Node {node['node']}:")
    print(f"  {node_seconds:.1f} s wall; stages {node['seconds']}")
    print(f"  check parts {pyodide['meta']['seconds']}")
    print(f"  thread start: {pyodide['meta']['thread_start']}")
    print(f"  optional imports: {pyodide['meta']['optional_imports']}")
    print(f"  network requests: {node['requests'] or 'none'}", end="")
    print(" (in a namespace without network)" if isolated else " (no network namespace here)")
    problems = differences(cpython["results"], pyodide["results"])
    if pyodide["meta"]["platform"] != "emscripten":
        problems.append(f"the Pyodide side ran on {pyodide['meta']['platform']!r}")
    if node["requests"]:
        problems.append(f"network requests: {node['requests']}")
    if problems:
        print("PYODIDE DIFFERS FROM CPYTHON:")
        print("\n".join(f"  {line}" for line in problems[:40]))
        return 1
    print("Pyodide agrees with CPython on:")
    print("\n".join(summary(cpython["results"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
