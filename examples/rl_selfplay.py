"""REINFORCE in plain NumPy: a linear softmax policy learns one seat against RandomBots.

The learner holds seat 0 of :class:`jass.envs.SeatEnv`; RandomBot plays its partner and both
opponents. Its policy is a linear map from the int8 observation to one logit per action,
with the illegal actions masked out, trained by Adam; a linear value function of the same
observation is the baseline. One episode is one hand, and its reward is the hand's margin in
card points, ours minus theirs (``reward="points"``), paid when the hand ends.

It prints the win rate and the mean margin of its training hands at intervals, and evaluates
the policy on the same 200 fixed deals before and after training: sampling its actions
(which, untrained, is a uniform random player) and taking its likeliest action.

    python examples/rl_selfplay.py                 # a smoke run of about 10 s (CI runs this)
    python examples/rl_selfplay.py --budget 120    # the real learning curve: two minutes

Needs the ``rl`` extra: ``pip install 'python-jass[rl]'``.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass, field

# The matrices are small: BLAS threads would only compete for the cores.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
from numpy.typing import NDArray

import jass
from jass.envs import SeatEnv

Floats = NDArray[np.float64]


@dataclass
class Learner:
    """Softmax policy ``obs @ W + b`` over the legal actions, value ``obs @ v + c``."""

    size: int
    actions: int
    lr: float = 0.01
    value_lr: float = 0.02
    weights: Floats = field(init=False)
    value: Floats = field(init=False)

    def __post_init__(self) -> None:
        self.weights = np.zeros((self.size + 1, self.actions))  # the last row is the bias
        self.value = np.zeros(self.size + 1)
        self._moments = (np.zeros_like(self.weights), np.zeros_like(self.weights))
        self._steps = 0

    def probabilities(self, obs: Floats, mask: NDArray[np.bool_]) -> Floats:
        logits = obs @ self.weights[:-1] + self.weights[-1]
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        odds = np.exp(logits)
        return odds / odds.sum(axis=-1, keepdims=True)  # type: ignore[no-any-return]

    def update(
        self, obs: Floats, masks: NDArray[np.bool_], actions: NDArray[np.int64], returns: Floats
    ) -> None:
        """One REINFORCE step on a batch of decisions with their returns-to-go."""
        inputs = np.hstack([obs, np.ones((len(obs), 1))])
        advantage = returns - inputs @ self.value
        self.value += self.value_lr * (inputs.T @ advantage) / len(obs)
        # The policy gradient, d log p(a) / d logits times the advantage, taken by Adam.
        logits_grad = -self.probabilities(obs, masks)
        logits_grad[np.arange(len(actions)), actions] += 1.0
        grad = inputs.T @ (logits_grad * advantage[:, None]) / len(obs)
        first, second = self._moments
        first *= 0.9
        first += 0.1 * grad
        second *= 0.999
        second += 0.001 * grad * grad
        self._steps += 1
        step = first / (1 - 0.9**self._steps)
        scale = np.sqrt(second / (1 - 0.999**self._steps)) + 1e-8
        self.weights += self.lr * step / scale


def play_hand(
    env: SeatEnv, learner: Learner, rng: np.random.Generator, seed: int | None, greedy: bool
) -> tuple[list[Floats], list[NDArray[np.bool_]], list[int], list[float]]:
    """One hand: the observations, masks, actions and rewards of the learner's decisions."""
    raw, _ = env.reset(seed=seed)
    observations, masks, actions, rewards = [], [], [], []
    done = False
    while not done:
        obs = raw.astype(np.float64)
        mask = env.action_masks()
        p = learner.probabilities(obs, mask)
        action = int(p.argmax()) if greedy else int(rng.choice(len(p), p=p))
        raw, reward, done, _, _ = env.step(action)
        observations.append(obs)
        masks.append(mask)
        actions.append(action)
        rewards.append(float(reward))
    return observations, masks, actions, rewards


def evaluate(
    env: SeatEnv, learner: Learner, deals: int, greedy: bool = False
) -> tuple[float, float]:
    """Win rate and mean margin of the policy on ``deals`` fixed deals (a fixed draw, too)."""
    rng = np.random.default_rng(0)
    margins = np.array(
        [sum(play_hand(env, learner, rng, 1_000_000 + i, greedy)[3]) for i in range(deals)]
    )
    return float(np.mean(margins > 0)), float(margins.mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--budget", type=float, default=6.0, help="seconds of training (default: 6, a smoke run)"
    )
    parser.add_argument("--episodes", type=int, default=None, help="stop after this many hands")
    parser.add_argument("--eval", type=int, default=200, help="fixed deals per evaluation")
    parser.add_argument("--batch", type=int, default=32, help="hands per policy update")
    parser.add_argument("--lr", type=float, default=0.03, help="Adam's step size for the policy")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    env = SeatEnv(opponents="random", partner="random", reward="points")
    judge = SeatEnv(opponents="random", partner="random", reward="points")  # fixed deals
    size = env.observation_space.shape[0]
    learner = Learner(size, jass.NUM_ACTIONS, lr=args.lr, value_lr=0.02)
    rng = np.random.default_rng(args.seed)
    env.reset(seed=args.seed)  # then each hand continues from the env's np_random

    win, margin = evaluate(judge, learner, args.eval)
    print(f"start (a uniform random policy): win rate {win:.1%}, mean margin {margin:+.1f}")
    start = time.perf_counter()
    interval = max(args.budget / 6, 1.0)
    next_report = start + interval
    hands = 0
    recent: list[float] = []
    batch: tuple[list[Floats], list[NDArray[np.bool_]], list[int], list[float]] = ([], [], [], [])
    while time.perf_counter() - start < args.budget and (
        args.episodes is None or hands < args.episodes
    ):
        observations, masks, actions, rewards = play_hand(env, learner, rng, None, greedy=False)
        to_go = np.cumsum(rewards[::-1])[::-1] / 157.0  # returns-to-go, in units of 157
        batch[0].extend(observations)
        batch[1].extend(masks)
        batch[2].extend(actions)
        batch[3].extend(to_go.tolist())
        recent.append(sum(rewards))
        hands += 1
        if hands % args.batch == 0:
            learner.update(
                np.array(batch[0]),
                np.array(batch[1]),
                np.array(batch[2], dtype=np.int64),
                np.array(batch[3]),
            )
            batch = ([], [], [], [])
        now = time.perf_counter()
        if now >= next_report:
            margins = np.array(recent)
            print(
                f"{now - start:6.1f} s, {hands:6d} hands: training win rate "
                f"{np.mean(margins > 0):.1%}, mean margin {margins.mean():+.1f}"
            )
            recent = []
            next_report = now + interval
    elapsed = time.perf_counter() - start
    win, margin = evaluate(judge, learner, args.eval)
    print(f"after {hands} hands ({elapsed:.0f} s): win rate {win:.1%}, mean margin {margin:+.1f}")
    win, margin = evaluate(judge, learner, args.eval, greedy=True)
    print(f"the same, always its likeliest action: win rate {win:.1%}, mean margin {margin:+.1f}")


if __name__ == "__main__":
    main()
