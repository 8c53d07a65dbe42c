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

``--jasskit PYTHON`` also counts jass-kit 2.0.5's leanest loop of the same shape, in the
Python of an environment that has it (the tests' cached one is
``~/.cache/jass/jasskit-2.0.5-venv/bin/python``): a random deal, a push in three hands of
ten, a random trump, then ``get_valid_cards`` and ``action_play_card`` of a random valid
card until the hand is done, with no observation built. Its ratio is how many times more
instructions jass-kit spends on a hand.

``--timed`` also runs every loop without valgrind, in turns (``--repeat`` rounds), and
prints hands per CPU-second, the best round of each: the side-by-side speed.
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


#: The same loop in jass-kit 2.0.5 (its own names; numpy is its dependency).
_KIT_HANDS = """
import random, sys
import numpy as np
from jass.game.const import PUSH
from jass.game.game_sim import GameSim
from jass.game.game_util import deal_random_hand
from jass.game.rule_schieber import RuleSchieber
rng = random.Random(7)
np.random.seed(7)
sim = GameSim(rule=RuleSchieber())
rule = sim.rule
for i in range(int(sys.argv[1])):
    sim.init_from_cards(hands=deal_random_hand(), dealer=i % 4)
    if rng.random() < 0.3:
        sim.action_trump(PUSH)
    sim.action_trump(rng.randrange(6))
    state = sim.state
    while not sim.is_done():
        valid = np.flatnonzero(rule.get_valid_cards(
            state.hands[state.player], state.current_trick, state.nr_cards_in_trick, state.trump))
        sim.action_play_card(int(valid[int(rng.random() * len(valid))]))
"""


def count(src: Path | None, script: Path, hands: int, python: str = sys.executable) -> int:
    """Instructions callgrind counts for ``hands`` hands with the package in ``src``."""
    env = dict(os.environ, PYTHONHASHSEED="0", JASS_PURE="1")
    env.pop("PYTHONPATH", None)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed (apt install valgrind)")
    done = subprocess.run(  # noqa: S603  (our own script and arguments)
        [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null",
         python, str(script), str(hands)],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = re.search(r"refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr}")
    return int(found.group(1).replace(",", ""))


def cpu_seconds(src: Path | None, script: Path, hands: int, python: str) -> float:
    """CPU seconds of the child that plays ``hands`` hands (start-up included)."""
    env = dict(os.environ, PYTHONHASHSEED="0", JASS_PURE="1")
    env.pop("PYTHONPATH", None)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    before = os.times()
    subprocess.run([python, str(script), str(hands)], env=env, check=True)  # noqa: S603
    after = os.times()
    return (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def per_hand(src: Path | None, script: Path, hands: int, python: str = sys.executable) -> float:
    """Instructions per hand: a run of ``hands`` hands less a run of none."""
    return (count(src, script, hands, python) - count(src, script, 0, python)) / hands


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="hands per run")
    parser.add_argument("--against", type=Path, help="another checkout's src directory")
    parser.add_argument("--jasskit", help="a Python with jass-kit 2.0.5 installed")
    parser.add_argument("--timed", action="store_true", help="also time the loops side by side")
    parser.add_argument("--timed-hands", type=int, default=2000, help="hands per timed run")
    parser.add_argument("--repeat", type=int, default=3, help="timed rounds")
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent / "src"
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "hands.py"
        script.write_text(_HANDS)
        rows = [("this checkout", per_hand(here, script, args.hands))]
        if args.against is not None:
            rows.append((str(args.against), per_hand(args.against.resolve(), script, args.hands)))
        if args.jasskit is not None:
            kit = Path(tmp) / "kit_hands.py"
            kit.write_text(_KIT_HANDS)
            rows.append(("jass-kit 2.0.5", per_hand(None, kit, args.hands, args.jasskit)))
        runs: list[tuple[Path | None, Path, str]] = [(here, script, sys.executable)]
        if args.against is not None:
            runs.append((args.against.resolve(), script, sys.executable))
        if args.jasskit is not None:
            runs.append((None, kit, args.jasskit))
        rates = [0.0] * len(runs)
        for _ in range(args.repeat if args.timed else 0):
            for i, (src, loop, python) in enumerate(runs):
                spent = cpu_seconds(src, loop, args.timed_hands, python)
                spent -= cpu_seconds(src, loop, 0, python)
                rates[i] = max(rates[i], args.timed_hands / max(spent, 1e-9))
    print(f"{'code':40} {'instructions/hand':>18} {'ratio to this':>14}")
    print("-" * 74)
    for name, value in rows:
        print(f"{name:40} {value:18,.0f} {value / rows[0][1]:14.3f}")
    if args.timed:
        print(f"\n{'code':40} {'hands/CPU-s':>18} {'this / it':>14}")
        print("-" * 74)
        for (name, _), rate in zip(rows, rates, strict=True):
            print(f"{name:40} {rate:18,.0f} {rates[0] / rate:14.2f}")


if __name__ == "__main__":
    main()
