"""Benchmark of the PettingZoo environment: run ``python benchmarks/bench_envs.py``.

Every row plays the same hands (the deals of the games that ``raw_env()`` draws after
``reset(seed=0)``, one hand per episode, ``SCHIEBER``) with a uniformly random legal action
at every step, and prints agent steps per second (actions taken) and hands per second:

- the bare ``Game`` loop: ``legal_actions()`` and ``apply()`` (``Thank`` left out, as the
  environment's default ``thanks="off"`` does);
- the card-play-only loop: a random contract, then ``legal_moves()`` and ``play()``;
- ``raw_env()``: ``agent_iter()``, ``last()`` (observation and mask copied) and ``step()``,
  the four terminated agents stepped out with ``None`` (not counted as agent steps);
- ``aec_env()``: the same through PettingZoo's three wrappers.

Then the ratio raw/bare (target: at least 0.25), raw/card-play-only, and what the wrappers
cost per agent step. Each row is the best of ``--repeat`` runs, and the rows take turns, so
that a busy machine slows them alike.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import jass
from jass import Contract, Game, Phase, Thank, rules
from jass.envs import aec_env, raw_env

Loop = Callable[[list[int]], int]


def hand_seeds(count: int) -> list[int]:
    """The game seeds of the first ``count`` episodes of ``raw_env()`` after ``reset(seed=0)``."""
    env = raw_env()
    seeds = []
    env.reset(seed=0)
    for _ in range(count):
        seeds.append(env.game.seed)
        env.reset()
    return seeds


def bare_loop(seeds: list[int]) -> int:
    """The bare loop: ``legal_actions()`` / ``apply()``, random legal actions but Thank."""
    rng = random.Random(1)
    uniform = rng.random
    steps = 0
    for seed in seeds:
        game = Game.new(rules.SCHIEBER, seed=seed).deal()
        while game.phase is Phase.CHOOSE or game.phase is Phase.PLAY:
            actions = [a for a in game.legal_actions() if not isinstance(a, Thank)]
            game = game.apply(actions[int(uniform() * len(actions))])
            steps += 1
    return steps


def card_play_loop(seeds: list[int]) -> int:
    """Card play only: a random contract, then ``legal_moves()`` / ``play()``."""
    rng = random.Random(2)
    uniform = rng.random
    contracts = Contract.standard()
    steps = 0
    for seed in seeds:
        game = Game.new(rules.SCHIEBER, seed=seed).deal()
        game = game.choose(contracts[int(uniform() * len(contracts))])
        steps += 1
        while game.phase is Phase.PLAY:
            legal = game.legal_moves().cards()
            game = game.play(legal[int(uniform() * len(legal))])
            steps += 1
    return steps


def env_loop(make: Callable[[], Any]) -> Loop:
    """A loop over the environment ``make()`` builds: one episode per hand."""

    def loop(seeds: list[int]) -> int:
        env = make()
        rng = random.Random(3)
        uniform = rng.random
        flatnonzero = np.flatnonzero
        steps = 0
        env.reset(seed=0)
        for index, seed in enumerate(seeds):
            if index:
                env.reset()
            assert env.unwrapped.game.seed == seed
            for _ in env.agent_iter():
                obs, _reward, terminated, truncated, _info = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = flatnonzero(obs["action_mask"])
                env.step(legal[int(uniform() * len(legal))])
                steps += 1
        return steps

    return loop


def measure(loops: dict[str, Loop], seeds: list[int], repeat: int) -> dict[str, tuple[float, int]]:
    """For each loop, the best time of ``repeat`` runs (in turns) and the agent steps of one."""
    rows = {name: (float("inf"), 0) for name in loops}
    for _ in range(repeat):
        for name, loop in loops.items():
            start = time.perf_counter()
            steps = loop(seeds)
            seconds = time.perf_counter() - start
            rows[name] = (min(rows[name][0], seconds), steps)
    return rows


def main(argv: list[str] | None = None) -> int:
    """Run the four loops on the same hands and print one table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2000, help="hands per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row (the best counts)")
    args = parser.parse_args(argv)
    seeds = hand_seeds(args.hands)
    loops: dict[str, Loop] = {
        "bare Game loop, legal_actions/apply": bare_loop,
        "card play only, legal_moves/play": card_play_loop,
        "raw_env()": env_loop(raw_env),
        "aec_env() (PettingZoo's wrappers)": env_loop(aec_env),
    }
    print(f"jass {jass.__version__}, Python {platform.python_version()}, {platform.machine()}")
    print(f"{len(seeds):,} hands of SCHIEBER, random legal actions, best of {args.repeat}")
    print(f"{'loop':<38} {'agent steps/s':>14} {'hands/s':>10} {'us/step':>9}")
    print("-" * 74)
    rows = measure(loops, seeds, args.repeat)
    for name, (seconds, steps) in rows.items():
        print(
            f"{name:<38} {steps / seconds:>14,.0f} {len(seeds) / seconds:>10,.0f}"
            f" {1e6 * seconds / steps:>9.1f}"
        )
    bare, card, raw, wrapped = (rows[name][0] for name in loops)
    raw_steps = rows["raw_env()"][1]
    print("-" * 74)
    print(f"raw_env / bare loop (hands/s): {bare / raw:.2f}x   (target: at least 0.25x)")
    print(f"raw_env / card play only (hands/s): {card / raw:.2f}x")
    print(f"the wrappers cost {1e6 * (wrapped - raw) / raw_steps:.1f} us per agent step")
    return 0


if __name__ == "__main__":
    sys.exit(main())
