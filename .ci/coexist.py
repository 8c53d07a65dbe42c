"""Run by .ci/run in a virtual environment that holds both jass-kit 2.0.5 and our wheel.

Both packages install into the top-level ``jass`` package; none of our modules may carry a
name jass-kit uses there (agents, arena, game, logs, service, train), or one would hide the
other. This imports jass-kit's game simulation and our whole public API, and plays a match.
"""

from __future__ import annotations

import importlib

import jass.game.game_sim  # jass-kit
from jass.game.const import PUSH  # jass-kit

import jass
from jass.bots import RandomBot

KIT_NAMES = ("agents", "arena", "game", "logs", "service", "train")


def check(condition: object, what: str) -> None:
    """Stop with a message when ``condition`` does not hold."""
    if not condition:
        raise SystemExit(f"coexistence check failed: {what}")


OURS = (
    "actions", "bots", "cards", "cli", "contracts", "crediting", "dealing", "errors", "fast",
    "hand", "matches", "play", "records", "rules", "sampling", "scoring", "seats", "solver",
    "state", "view", "weis",
)

for name in OURS:
    module = importlib.import_module(f"jass.{name}")
    check(module.__name__.split(".")[-1] not in KIT_NAMES, module.__name__)
for name in jass.__all__:
    check(getattr(jass, name, None) is not None, f"jass.{name}")
check(jass.game.game_sim.GameSim is not None, "jass-kit's GameSim")
check(PUSH == 10, "jass-kit's constants")
result = jass.play_match(RandomBot, RandomBot, 2, seed=1)
check(result.deals == 2, str(result))
game = jass.Game.new(jass.rules.SCHIEBER, seed=1).deal()
check(jass.records.loads(jass.records.dumps(game)) == game, "a record round trip")
print(f"jass {jass.__version__} and jass-kit share one environment: {result.deals} deals played")
