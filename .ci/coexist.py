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
    "bots", "cli", "cli.commands", "core", "core.cards", "core.contracts", "core.dealing",
    "core.play", "core.scoring", "core.seats", "core.suits", "core.weis", "engine",
    "engine.actions", "engine.game", "engine.hand", "engine.view", "errors", "matches",
    "records", "rules", "search", "search.fast", "search.sampling", "solver",
)

for name in OURS:
    module = importlib.import_module(f"jass.{name}")
    check(module.__name__.split(".")[1] not in KIT_NAMES, module.__name__)
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

# A game that ends in the middle of a hand (a target reached after a trick, or a thank in the
# middle of a trick) exports a hand that jass-kit loads: the cards played, nobody to move.
ended = {"after a trick": 0, "within a trick": 0}
early_ends = ((jass.rules.EndMode.AUTO, (995, 990)), (jass.rules.EndMode.THANK, (990, 985)))
for end_mode, scores in early_ends:
    rules = jass.rules.SCHIEBER.evolve(end_mode=end_mode, target=1000)
    for seed in range(60):
        rng = random.Random(seed)
        game = jass.Game.new(rules, seed=seed, scores=scores).deal()
        game = game.choose(jass.Contract.standard()[seed % 6])
        while not game.is_over:
            thanks = [team for team in jass.Team if game.can_thank(team)]
            if thanks and rng.random() < 0.5:
                game = game.thank(thanks[0])
            else:
                game = game.play(rng.choice(game.legal_moves().cards()))
        if len(game.plays) in (0, 36):
            continue
        data = jass.records.to_jasskit(game)
        kit_state = GameState.from_json(data)
        where = f"{end_mode.name} seed {seed}"
        check(kit_state is not None, f"jass-kit reads a hand that ended early ({where})")
        check(kit_state.nr_played_cards == len(game.plays), f"cards played ({where})")
        check(data["currentPlayer"] == -1 and kit_state.player == -1, f"no one to move ({where})")
        for player in range(4):
            observation_from_state(kit_state, player)
        check(jass.records.from_jasskit(data, rules).plays == game.plays, f"round trip ({where})")
        ended["within a trick" if len(game.plays) % 4 else "after a trick"] += 1
check(all(ended.values()), f"both kinds of early end were met: {ended}")
print(f"jass-kit reads hands of games that ended early: {ended}")
print(f"jass {jass.__version__} and jass-kit share one environment: {result.deals} deals played")
