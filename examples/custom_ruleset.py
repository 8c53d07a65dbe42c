"""Derive a rule set from a preset, and see an illegal card refused with the reason."""

from __future__ import annotations

import jass
from jass import CardSet, Contract, IllegalActionError, Seat, Suit, rules


def main() -> None:
    # Swisslos to 1000 points, but old Undenufe values and shoving back allowed.
    house = rules.SCHIEBER_1000.evolve(old_undenufe=True, allow_shove_back=True)
    print("changes from SCHIEBER:", house.changes_from(rules.SCHIEBER))

    # Inject a deal: seat 0 leads the ace of diamonds, seat 1 trumps with the Buur.
    hands = [
        CardSet.parse("AD 6S 7S 8S 9S 10S 6C 7C 8C"),
        CardSet.parse("JH 6D 7D 8D JS QS KS AS 9C"),
        CardSet.parse("9H 10C JC QC KC AC 6H 7H 8H"),
        CardSet.parse("10H QH KH AH 9D 10D JD QD KD"),
    ]
    # Seat 3 deals the first hand, so seat 0, on its right, is the forehand.
    game = jass.Game.new(house, seed=1, dealer=Seat(3)).deal(hands=hands)
    game = game.choose(Contract.trump(Suit.HEARTS))
    game = game.play("AD").play("JH")
    print("seat 2 may play:", game.legal_moves())
    try:
        game.play("9H")
    except IllegalActionError as error:
        print(f"refused ({error.reason.name}): {error}")


if __name__ == "__main__":
    main()
