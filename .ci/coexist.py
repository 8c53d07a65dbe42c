"""Run by .ci/run in a virtual environment that holds both jass-kit 2.0.5 and our wheel.

Both packages install into the top-level ``jass`` package; none of our modules may carry a
name jass-kit uses there (agents, arena, game, logs, service, train), or one would hide the
other. This imports jass-kit's game simulation and our whole public API, and plays a match.
"""

from __future__ import annotations

import importlib

import random

import jass.game.game_sim  # jass-kit
from jass.game.const import PUSH  # jass-kit
from jass.game.game_observation import GameObservation  # jass-kit
from jass.game.game_state import GameState  # jass-kit
from jass.game.game_state_util import observation_from_state  # jass-kit

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

# Our hand and observation JSON, read by jass-kit: its own observation of our hand, for every
# player at every stage, equals what it reads from our observation of that player's view.
stages = 0
for seed in range(30):
    rng = random.Random(seed)
    game = jass.Game.new(jass.rules.SCHIEBER, seed=seed).deal()
    if seed % 3 == 0:
        game = game.shove()
    states = [game]
    game = game.choose(rng.choice(jass.Contract.standard()))
    while game.phase is jass.Phase.PLAY:
        states.append(game)
        game = game.play(rng.choice(game.legal_moves().cards()))
    for state in states:
        kit_state = GameState.from_json(jass.records.to_jasskit(state))
        check(kit_state is not None, f"jass-kit reads our hand (seed {seed})")
        for seat in jass.Seat:
            ours = jass.records.to_jasskit_observation(state.view(seat))
            theirs = observation_from_state(kit_state, ours["playerView"])
            check(GameObservation.from_json(ours) == theirs, f"observation, seed {seed}, {seat}")
        stages += 1
print(f"jass-kit reads our hands and observations alike at {stages} stages of 30 hands")
print(f"jass {jass.__version__} and jass-kit share one environment: {result.deals} deals played")
