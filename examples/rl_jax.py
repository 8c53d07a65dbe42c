"""Self-play in plain JAX: a small policy learns Schieber in the batched environment.

One compiled training step plays a batch of hands in :class:`jass.envs.jax.JassEnv` (all
four seats sample from the same policy, a one-hidden-layer network over the ``jass-obs-v1``
observation, masked to the legal actions), then takes a REINFORCE step (each action scored
by its team's margin in the hand) with a hand-written Adam. No library but JAX and NumPy.

Every few steps the policy is measured against the random policy inside JAX (the policy on
team 0, uniform random legal actions on team 1), and against :class:`jass.bots.RuleBot`
through :class:`jass.envs.SeatEnv` (the learner on seat 0 with a RuleBot partner, two
RuleBots against them), where the same weights run in NumPy: the observation and the
action numbers are the same, so nothing is converted. The figure is the learner's team's
mean margin per hand (card points under ``JASSKIT``); the random policy's row is the
baseline.

Usage::

    python examples/rl_jax.py                       # a short run (well under a minute)
    python examples/rl_jax.py --iterations 300 --batch 512 --rule-hands 300
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jass.envs import SeatEnv
from jass.envs.jax import JassEnv

HAND_STEPS = 39  # the most actions a hand takes
HIDDEN = 64
Params = dict[str, Any]


def init_params(key: Any, inputs: int, actions: int) -> Params:
    """A one-hidden-layer network, small random weights."""
    first, second = jax.random.split(key)
    return {
        "w1": jax.random.normal(first, (inputs, HIDDEN)) / np.sqrt(inputs),
        "b1": jnp.zeros(HIDDEN),
        "w2": jax.random.normal(second, (HIDDEN, actions)) * 0.01,
        "b2": jnp.zeros(actions),
    }


def logits_of(params: Params, observation: Any, mask: Any) -> Any:
    """The policy's logits over the action numbers, illegal ones at -1e9."""
    hidden = jnp.tanh(observation.astype(jnp.float32) @ params["w1"] + params["b1"])
    return jnp.where(mask, hidden @ params["w2"] + params["b2"], -1e9)


def play_hands(env: JassEnv, params: Params, key: Any, batch: int, random_team: int) -> Any:
    """A batch of hands: seats of ``random_team`` (-1: none) play uniformly at random.

    Returns what each step saw and did, and each hand's final rewards by seat.
    """
    key, deal = jax.random.split(key)
    states = jax.vmap(env.init)(jax.random.split(deal, batch))

    def body(carry: Any, _: None) -> Any:
        states, key = carry
        key, pick = jax.random.split(key)
        logits = logits_of(params, states.observation, states.legal_action_mask)
        uniform = jnp.where(states.legal_action_mask, 0.0, -1e9)
        use_random = (states.current_player & 1) == random_team
        logits = jnp.where(use_random[:, None], uniform, logits)
        actions = jax.random.categorical(pick, logits)
        live = ~states.terminated
        record = (
            states.observation,
            states.legal_action_mask,
            actions,
            states.current_player,
            live,
        )
        states = jax.vmap(env.step)(states, actions)
        return (states, key), (record, states.rewards)

    _, (records, rewards) = jax.lax.scan(body, (states, key), None, length=HAND_STEPS)
    return records, rewards.sum(0)  # (batch, 4): the hand's rewards by seat


def make_train_step(env: JassEnv, batch: int, rate: float) -> Any:
    """The compiled step: self-play a batch, REINFORCE, Adam."""

    def loss(params: Params, records: Any, returns: Any) -> Any:
        observation, mask, actions, player, live = records
        logp = jax.nn.log_softmax(logits_of(params, observation, mask))
        chosen = jnp.take_along_axis(logp, actions[..., None], -1)[..., 0]
        advantage = jnp.take_along_axis(returns[None, :, :], player[..., None], -1)[..., 0]
        return -(chosen * advantage * live).sum() / live.sum()

    def train_step(params: Params, moments: Any, key: Any, count: Any) -> Any:
        records, rewards = play_hands(env, params, key, batch, -1)
        returns = rewards / 100.0  # self-play: the mean is 0 by symmetry, the baseline
        grads = jax.grad(loss)(params, records, returns)
        first, second = moments
        first = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, first, grads)
        second = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g * g, second, grads)
        scale = jnp.sqrt(1 - 0.999**count) / (1 - 0.9**count)
        params = jax.tree.map(
            lambda p, m, v: p - rate * scale * m / (jnp.sqrt(v) + 1e-8), params, first, second
        )
        return params, (first, second)

    return jax.jit(train_step)


def make_against_random(env: JassEnv, batch: int) -> Any:
    """The compiled measure: team 0's mean margin per hand against uniform random play."""

    def measure(params: Params, key: Any) -> Any:
        _, rewards = play_hands(env, params, key, batch, 1)
        return rewards[:, 0].mean()

    return jax.jit(measure)


def against_rulebot(params: Params | None, hands: int, ruleset: str, seed: int) -> float:
    """The learner's team's mean margin per hand in SeatEnv, RuleBots at the table.

    ``params=None`` plays uniformly random legal actions (the baseline).
    """
    env = SeatEnv(opponents="rule", partner="rule", ruleset=ruleset)
    weights = None if params is None else {k: np.asarray(v) for k, v in params.items()}
    rng = np.random.default_rng(seed)
    total = 0.0
    for hand in range(hands):
        observation, _ = env.reset(seed=seed + hand)
        done = False
        while not done:
            mask = env.action_masks()
            if weights is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                hidden = np.tanh(observation.astype(np.float32) @ weights["w1"] + weights["b1"])
                logits = np.where(mask, hidden @ weights["w2"] + weights["b2"], -np.inf)
                action = int(np.argmax(logits))
            observation, reward, done, _, _ = env.step(action)
            total += float(reward)
    return total / hands


def main(argv: list[str] | None = None) -> None:
    """Train, and print the learning curve."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="JASSKIT")
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--batch", type=int, default=128, help="hands per training step")
    parser.add_argument("--rate", type=float, default=3e-3)
    parser.add_argument("--every", type=int, default=20, help="iterations between measures")
    parser.add_argument("--eval-hands", type=int, default=512)
    parser.add_argument("--rule-hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    env = JassEnv(ruleset=args.ruleset, episode="hand")
    key = jax.random.key(args.seed)
    key, init_key = jax.random.split(key)
    params = init_params(init_key, env.observation_shape[0], env.num_actions)
    zeros = jax.tree.map(jnp.zeros_like, params)
    moments = (zeros, zeros)
    train_step = make_train_step(env, args.batch, args.rate)
    measure = make_against_random(env, args.eval_hands)
    eval_key = jax.random.key(args.seed + 1)
    print(f"rule set {args.ruleset}; mean margin per hand of the learner's team")
    print(f"{'iteration':>9} {'hands':>8} {'vs random':>10} {'vs RuleBot':>11} {'seconds':>8}")
    start = time.perf_counter()
    baseline = against_rulebot(None, args.rule_hands, args.ruleset, 10_000)
    print(f"{'random':>9} {'-':>8} {0.0:>10.1f} {baseline:>11.1f} {'-':>8}")
    for iteration in range(args.iterations + 1):
        if iteration % args.every == 0 or iteration == args.iterations:
            versus_random = float(measure(params, eval_key))
            versus_rule = against_rulebot(params, args.rule_hands, args.ruleset, 10_000)
            print(
                f"{iteration:>9} {iteration * args.batch:>8} {versus_random:>10.1f} "
                f"{versus_rule:>11.1f} {time.perf_counter() - start:>8.1f}",
                flush=True,
            )
        if iteration < args.iterations:
            key, step_key = jax.random.split(key)
            params, moments = train_step(params, moments, step_key, jnp.float32(iteration + 1))


if __name__ == "__main__":
    main()
