"""The environments' one driver: the agent's mask is the game's legal actions, as numbers.

``agent_mask`` writes card play's 48 bytes itself (a copy of ``action_mask``'s play branch,
for speed) and leaves the other phases to ``action_mask``; both are checked here against
``Game.legal_actions``, the rules' own list, under every ``thanks`` option.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy", reason="needs the rl extra")
import numpy as np

from jass import DeclareWeis, Game, Phase, Thank, rules
from jass.engine.actions import DECLARE_WEIS_INDEX, NUM_ACTIONS
from jass.envs._driver import agent_mask, auto_thank

MANUAL = rules.SCHIEBER_1000.evolve(weis_declaration="MANUAL")


def expected(game: Game, seat: int, thanks: str, manual: bool) -> list[int]:
    if game.to_move != seat or game.phase not in (Phase.CHOOSE, Phase.PLAY):
        return []
    numbers = set()
    for action in game.legal_actions():
        if isinstance(action, Thank) and thanks == "off":
            continue
        if isinstance(action, DeclareWeis):
            numbers.add(DECLARE_WEIS_INDEX)
            continue
        numbers.add(action.index)
    if manual and game.can_declare_weis() and any(
        isinstance(a, DeclareWeis) for a in game.legal_actions()
    ):
        numbers.add(DECLARE_WEIS_INDEX)
    return sorted(numbers)


@pytest.mark.parametrize("ruleset", [rules.SCHIEBER_1000, MANUAL], ids=["auto", "manual"])
@pytest.mark.parametrize("thanks", ["on_turn", "auto", "off"])
def test_the_agent_mask_is_the_legal_actions(ruleset: rules.RuleSet, thanks: str) -> None:
    manual = ruleset is MANUAL
    rng = random.Random(7)
    game = Game.new(ruleset, seed=3)
    out = np.zeros(NUM_ACTIONS, np.int8)
    checked = 0
    while not game.is_over and checked < 400:
        game = auto_thank(game, thanks)
        if game.is_over:
            break
        if game.phase is Phase.DEAL:
            game = game.deal()
            continue
        for seat in range(4):
            mask = agent_mask(game, seat, out, thanks, manual_weis=manual)
            assert np.flatnonzero(mask).tolist() == expected(game, seat, thanks, manual)
            checked += 1
        choices = [a for a in game.legal_actions() if not isinstance(a, Thank)]
        game = game.apply(rng.choice(choices))
    assert checked >= 400
