"""Throughput of the JAX environment against raw_env() and the bare Game loop, in one run.

Whole rollouts run inside one compiled program: ``jit`` of a ``lax.scan`` over hands of a
``lax.scan`` over the steps of a ``vmap``-ed batch, random legal actions (see
:func:`rollout`). The
same run measures :func:`jass.envs.raw_env` and the bare :class:`jass.Game` loop (random
legal actions from NumPy / Python), and prints hands/s, steps/s and the ratios. A step is
one action: a shove, a contract or a card. It runs unchanged on a GPU (JAX picks the
device; the table says which). The figures per CPU-second (``time.process_time``, every
thread of the process) are steadier than the wall clock on a shared machine; on a GPU they
count only the host's work, so read the wall-clock columns there.

Usage::

    python benchmarks/bench_jax.py                          # batches 1, 64, 1024, 8192
    python benchmarks/bench_jax.py --batches 1 64 --hands 64 --seconds 0.5   # a smoke run
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

import jass
from jass.envs import raw_env
from jass.envs.jax import JassEnv, State

#: The most actions a hand takes: two shoves at most, a contract, 36 cards.
HAND_STEPS = 39


#: Upper triangular ones: ``mask @ _UPPER`` is the running count of legal actions.
_UPPER = np.triu(np.ones((jass.NUM_ACTIONS, jass.NUM_ACTIONS), np.float32))


def random_legal(key: Any, mask: Any) -> Any:
    """A uniformly random legal action of each mask in the batch (one random number each).

    The running count is a product with a triangular matrix (``jnp.cumsum`` becomes a
    reduce-window on the CPU), and the action the number of places the count has not
    passed the pick yet (``argmax`` is a slow tuple reduction): together they were a
    quarter of a step.
    """
    count = mask.sum(-1)
    pick = (jax.random.uniform(key, count.shape) * count).astype(jnp.int32)
    running = mask.astype(jnp.float32) @ _UPPER
    return (running <= pick[..., None].astype(jnp.float32)).sum(-1, dtype=jnp.int32)


def rollout(env: JassEnv, batch: int, hands: int) -> Callable[[Any], Any]:
    """A rollout to compile: ``hands`` hands in each of ``batch`` environments, random play.

    For ``episode="hand"`` an episode lasts 37 to 39 steps, so an inner ``lax.scan`` of 39
    steps plays one hand in every environment (a finished one stands still, as the API
    says), and the outer scan deals the next batch of hands: one ``init`` per hand rather
    than the ``auto_reset`` of every step. It returns the number of actions taken.
    """
    stepped = jax.vmap(env.step)

    def one_hand(carry: tuple[Any, Any], _: None) -> tuple[tuple[Any, Any], None]:
        key, actions = carry
        key, deal = jax.random.split(key)
        states = jax.vmap(env.init)(jax.random.split(deal, batch))

        def body(inner: tuple[State, Any, Any], _: None) -> tuple[tuple[State, Any, Any], None]:
            states, key, actions = inner
            key, pick = jax.random.split(key)
            live = ~states.terminated
            states = stepped(states, random_legal(pick, states.legal_action_mask))
            return (states, key, actions + live.sum()), None

        (states, key, actions), _ = jax.lax.scan(
            body, (states, key, actions), None, length=HAND_STEPS
        )
        return (key, actions), None

    def run(key: Any) -> Any:
        (_, actions), _ = jax.lax.scan(one_hand, (key, jnp.int32(0)), None, length=hands)
        return actions

    return run


def measure_jax(ruleset: str, batch: int, hands: int) -> tuple[float, float, float, float]:
    """(compile seconds, hands/s, steps/s, hands per CPU-second) of the JAX rollout."""
    env = JassEnv(ruleset=ruleset)
    run = rollout(env, batch, hands)
    start = time.perf_counter()
    compiled = jax.jit(run).lower(jax.random.key(0)).compile()
    compile_time = time.perf_counter() - start
    int(compiled(jax.random.key(1)))  # warm
    start, cpu = time.perf_counter(), time.process_time()
    actions = int(compiled(jax.random.key(2)))
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return compile_time, batch * hands / elapsed, actions / elapsed, batch * hands / cpu


def measure_raw_env(ruleset: str, seconds: float) -> tuple[float, float, float]:
    """(hands/s, steps/s, hands per CPU-second) of raw_env(), random legal actions."""
    env = raw_env(ruleset=ruleset)
    rng = np.random.default_rng(0)
    hands = steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        env.reset(seed=hands)
        for _ in env.agent_iter():
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        hands += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return hands / elapsed, steps / elapsed, hands / cpu


def measure_game(ruleset: str, seconds: float) -> tuple[float, float, float]:
    """(hands/s, steps/s, hands per CPU-second) of the bare Game loop: no encoding."""
    rules = jass.rules.find_ruleset(ruleset)
    rng = random.Random(0)
    hands = steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        game = jass.Game.new(rules, seed=hands).deal()
        while game.phase is jass.Phase.CHOOSE:
            options = [a for a in game.legal_actions() if not isinstance(a, jass.Thank)]
            game = game.apply(rng.choice(options))
            steps += 1
        while game.phase is jass.Phase.PLAY:
            game = game.play(rng.choice(game.legal_moves().cards()))
            steps += 1
        hands += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return hands / elapsed, steps / elapsed, hands / cpu


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="SCHIEBER")
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 64, 1024, 8192])
    parser.add_argument(
        "--hands", type=int, default=8192, help="hands per measured rollout, over the whole batch"
    )
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="seconds of raw_env() and of the Game loop"
    )
    args = parser.parse_args(argv)
    device = jax.devices()[0]
    print(
        f"jass {jass.__version__}, JAX {jax.__version__} on {device.platform} "
        f"({device.device_kind}), rule set {args.ruleset}, random legal actions"
    )
    raw = measure_raw_env(args.ruleset, args.seconds)
    rows = [("raw_env()", "-", *raw), ("Game loop", "-", *measure_game(args.ruleset, args.seconds))]
    for batch in args.batches:
        per_batch = max(1, min(512, args.hands // batch))
        compile_time, hands, per_step, per_cpu = measure_jax(args.ruleset, batch, per_batch)
        rows.append((f"JAX batch {batch}", f"{compile_time:.1f}", hands, per_step, per_cpu))
    # Per CPU-second too: on a shared machine the wall-clock figures move with the load.
    print(
        f"{'':>16} {'compile s':>10} {'hands/s':>12} {'steps/s':>12} {'x raw_env':>10} "
        f"{'hands/CPU-s':>12} {'x (CPU)':>8}"
    )
    for name, compile_text, hands, per_step, per_cpu in rows:
        print(
            f"{name:>16} {compile_text:>10} {hands:>12,.0f} {per_step:>12,.0f} "
            f"{hands / raw[0]:>10.1f} {per_cpu:>12,.0f} {per_cpu / raw[2]:>8.1f}"
        )


if __name__ == "__main__":
    main()
