"""jass-kit plays seeded random hands; prints every card-play position with its valid cards.

Run in the jass-kit environment: ``python kit_positions.py HANDS SEED``. The last line of
output is JSON: one list per hand of ``{"state": GameState JSON, "valid": [cards], "played":
card}``, where ``valid`` is jass-kit's ``get_valid_cards`` for the player to move. The cards
are chosen as its ``AgentRandomSchieber`` chooses them, but from a seeded generator (the
agent's own is unseeded).
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any


def positions(hands: int, seed: int) -> list[list[dict[str, Any]]]:
    """Every card-play position of ``hands`` hands."""
    np: Any = importlib.import_module("numpy")
    const: Any = importlib.import_module("jass.game.const")
    game_sim: Any = importlib.import_module("jass.game.game_sim")
    schieber: Any = importlib.import_module("jass.game.rule_schieber")
    game_util: Any = importlib.import_module("jass.game.game_util")
    np.random.seed(seed)  # deal_random_hand draws from numpy's global generator
    rng = np.random.default_rng(seed)
    sim = game_sim.GameSim(rule=schieber.RuleSchieber())
    played: list[list[dict[str, Any]]] = []
    for number in range(hands):
        sim.init_from_cards(hands=game_util.deal_random_hand(), dealer=number % 4)
        if rng.random() < 0.3:
            sim.action_trump(const.PUSH)
        sim.action_trump(int(rng.integers(0, 6)))
        hand: list[dict[str, Any]] = []
        while not sim.is_done():
            valid = np.flatnonzero(sim.rule.get_valid_cards_from_obs(sim.get_observation()))
            card = int(rng.choice(valid))
            hand.append({
                "state": sim.state.to_json(),
                "valid": [str(const.card_strings[c]) for c in valid],
                "played": str(const.card_strings[card]),
            })  # fmt: skip
            sim.action_play_card(card)
        played.append(hand)
    return played


if __name__ == "__main__":
    print(json.dumps(positions(int(sys.argv[1]), int(sys.argv[2]))))
