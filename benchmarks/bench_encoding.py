"""Benchmarks of the observation encoding: run ``python benchmarks/bench_encoding.py``.

It plays random hands under ``SCHIEBER`` once, keeps every state, and then times, per step
(the choice and the 36 cards of each hand): ``Game.legal_moves()`` + ``play()`` for
reference; ``encode(view, out)`` for the seat to move; ``Encoder.update`` for all four seats
plus ``observation(seat).copy()`` for the seat to move, over whole hands (from a new
``Encoder`` on the dealt game) and over card plays only; and ``action_mask(game, out)``.
Times are CPU times of this process (``time.process_time``), the best of several rounds, so
that other work on the machine disturbs them less.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import sys
import time
from collections.abc import Callable

import numpy as np

import jass
from jass import Contract, Game, Phase, rules
from jass.envs.encoding import OBSERVATION_SIZE, Encoder, action_mask, encode


def _hands(count: int) -> list[list[Game]]:
    """The states of ``count`` random hands: dealt, chosen, then each card."""
    hands = []
    for seed in range(count):
        rng = random.Random(seed)
        game = Game.new(rules.SCHIEBER, seed=seed).deal()
        states = [game]
        game = game.choose(rng.choice(Contract.standard()))
        states.append(game)
        while game.phase is Phase.PLAY:
            game = game.play(rng.choice(game.legal_moves().cards()))
            states.append(game)
        hands.append(states)
    return hands


def _best(run: Callable[[], None], rounds: int) -> float:
    """The least CPU time of ``rounds`` runs, in seconds."""
    best = float("inf")
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
        gc.enable()
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="random hands (default 300)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, best kept (default 5)")
    args = parser.parse_args(argv)
    hands = _hands(args.hands)
    steps = sum(len(states) - 1 for states in hands)
    plays = sum(len(states) - 2 for states in hands)
    cards = [[after.plays[-1][1] for after in states[2:]] for states in hands]
    out = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
    mask = np.zeros(jass.NUM_ACTIONS, dtype=np.int8)

    def game_loop() -> None:
        for states, played in zip(hands, cards, strict=True):
            game = states[1]
            for card in played:
                game.legal_moves()
                game = game.play(card)

    def encode_views() -> None:
        for states in hands:
            for game in states[1:]:
                encode(game.view(game.to_move if game.to_move is not None else 0), out)

    encoders: list[Encoder] = []

    def new_encoders(first: int) -> Callable[[], None]:
        def run() -> None:
            encoders[:] = [Encoder(states[first]) for states in hands]

        return run

    def update_hands() -> None:
        new_encoders(0)()
        for encoder, states in zip(encoders, hands, strict=True):
            for game in states[1:]:
                encoder.update(game)
                encoder.observation(game.to_move if game.to_move is not None else 0).copy()

    def update_plays() -> None:
        new_encoders(1)()
        for encoder, states in zip(encoders, hands, strict=True):
            for game in states[2:]:
                encoder.update(game)

    def masks() -> None:
        for states in hands:
            for game in states[1:]:
                action_mask(game, mask)

    rounds = args.rounds
    rows = [
        ("Game.legal_moves() + play(), per card", _best(game_loop, rounds) / plays),
        ("encode(view, out), per step", _best(encode_views, rounds) / steps),
        (
            "Encoder(dealt game) + update + observation().copy(), per step",
            _best(update_hands, rounds) / steps,
        ),
        (
            "Encoder.update after a card play (4 seats), per card",
            (_best(update_plays, rounds) - _best(new_encoders(1), rounds)) / plays,
        ),
        ("Encoder(game), per encoder", _best(new_encoders(0), rounds) / len(hands)),
        ("action_mask(game, out), per step", _best(masks, rounds) / steps),
    ]
    print(f"jass {jass.__version__}, Python {platform.python_version()} on {sys.platform}")
    print(f"{args.hands} random SCHIEBER hands, {steps} steps ({plays} card plays)")
    width = max(len(name) for name, _ in rows)
    for name, seconds in rows:
        print(f"{name:<{width}}  {seconds * 1e6:8.2f} µs")


if __name__ == "__main__":
    main()
