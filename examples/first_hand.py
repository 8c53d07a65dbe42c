"""Deal a seeded hand, name trumps, play it out with random legal cards, and read the score."""

from __future__ import annotations

import random

import jass
from jass import Contract, Phase, Suit, rules


def main() -> None:
    game = jass.Game.new(rules.SCHIEBER, seed=2026).deal()
    assert game.to_move is not None
    print(f"Forehand is seat {int(game.to_move)}, holding {game.hands[game.to_move]}")
    game = game.choose(Contract.trump(Suit.SPADES))  # spades count double under SCHIEBER
    rng = random.Random(1)
    while game.phase is Phase.PLAY:
        card = rng.choice(game.legal_moves().cards())
        game = game.play(card)
    for number, trick in enumerate(game.tricks, start=1):
        cards = " ".join(str(card) for card in trick.cards)
        print(f"trick {number}: {cards:<14} won by seat {int(trick.winner)} ({trick.points})")
    score = game.hand_results[-1]
    print(f"card points {score.card_points}, x{score.multiplier} -> {score.totals}")
    assert sum(score.card_points) == 157


if __name__ == "__main__":
    main()
