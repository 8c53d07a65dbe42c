"""Load a hand in the jass-kit / Swisslos JSON format, check it against the rules, score it."""

from __future__ import annotations

import json
from pathlib import Path

from jass import InvalidInputError
from jass.records import from_jasskit

LOG = Path(__file__).parent / "data" / "swisslos_hand.json"


def main() -> None:
    data = json.loads(LOG.read_text(encoding="utf-8"))
    game = from_jasskit(data)  # every card replayed through the rules
    score = game.hand_results[-1]
    print(f"{game.contract}: card points {score.card_points}, Weis {score.weis}, "
          f"Stöck {score.stoeck} -> {score.totals} (x{score.multiplier})")  # fmt: skip
    for number, trick in enumerate(game.tricks, start=1):
        cards = " ".join(str(card) for card in trick.cards)
        print(f"  trick {number}: {cards:<14} won by seat {int(trick.winner)} ({trick.points})")

    # A log that breaks a rule is reported with the trick and the card.
    broken = json.loads(json.dumps(data))
    broken["tricks"][0]["points"] += 1
    try:
        from_jasskit(broken)
    except InvalidInputError as error:
        print(f"a tampered log is refused: {error}")


if __name__ == "__main__":
    main()
