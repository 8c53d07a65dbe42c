"""Instructions per hand through the checked API, counted by callgrind: steady on a busy machine.

Run ``python benchmarks/bench_instructions.py`` (valgrind must be installed). It plays
``--hands`` fixed random hands through ``Game.new``, ``deal``, ``shove`` (three hands in ten),
``choose``, and ``legal_moves`` and ``play`` of a random legal card until the hand is scored,
under ``SCHIEBER`` with Weis and Stöck, in pure Python (``JASS_PURE=1``) and with
``PYTHONHASHSEED=0``, so that two runs of the same code count the same. The count of a run
with no hands (start-up and imports) is subtracted.

``--against SRC`` counts another checkout's ``src`` directory in the same run, and prints the
ratio: for example a worktree of the 0.1.0 release, made with
``git worktree add --detach ../jass-0.1 969c528``, then ``--against ../jass-0.1/src``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: The hands, the same for every checkout (only the public API of 0.1 and later).
_HANDS = """
import random, sys
import jass
from jass import Contract, Game, Phase
rng = random.Random(7)
contracts = Contract.standard()
for i in range(int(sys.argv[1])):
    game = Game.new(jass.rules.SCHIEBER, seed=i).deal()
    if rng.random() < 0.3:
        game = game.shove()
    game = game.choose(rng.choice(contracts))
    while game.phase is Phase.PLAY:
        legal = game.legal_moves().cards()
        game = game.play(legal[int(rng.random() * len(legal))])
"""


def count(src: Path, script: Path, hands: int) -> int:
    """Instructions callgrind counts for ``hands`` hands with the package in ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0", JASS_PURE="1")
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed (apt install valgrind)")
    done = subprocess.run(  # noqa: S603  (our own script and arguments)
        [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, str(script), str(hands)],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = re.search(r"refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr}")
    return int(found.group(1).replace(",", ""))


def per_hand(src: Path, script: Path, hands: int) -> float:
    """Instructions per hand: a run of ``hands`` hands less a run of none."""
    return (count(src, script, hands) - count(src, script, 0)) / hands


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="hands per run")
    parser.add_argument("--against", type=Path, help="another checkout's src directory")
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent / "src"
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "hands.py"
        script.write_text(_HANDS)
        rows = [("this checkout", per_hand(here, script, args.hands))]
        if args.against is not None:
            rows.append((str(args.against), per_hand(args.against.resolve(), script, args.hands)))
    print(f"{'code':40} {'instructions/hand':>18} {'ratio to this':>14}")
    print("-" * 74)
    for name, value in rows:
        print(f"{name:40} {value:18,.0f} {value / rows[0][1]:14.3f}")


if __name__ == "__main__":
    main()
