"""Hypothesis strategies for jass values and games."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from jass import Contract, Game, Phase, RuleSet, rules

seeds = st.integers(min_value=-(2**63), max_value=2**63)
contracts = st.sampled_from(Contract.standard())
multiplier_tables = st.sampled_from(list(rules.Multipliers))
presets = st.sampled_from(list(rules.PRESETS.values()))


def play_hand(
    game: Game, rng: random.Random, contract: Contract, *, shove: bool = False
) -> list[Game]:
    """Play one dealt hand with random legal cards; return every state passed through."""
    states = [game]
    if shove:
        game = game.shove()
        states.append(game)
    game = game.choose(contract)
    states.append(game)
    while game.phase is Phase.PLAY:
        game = game.play(rng.choice(game.legal_moves().cards()))
        states.append(game)
    return states


@st.composite
def dealt_games(draw: st.DrawFn, ruleset: RuleSet = rules.SCHIEBER) -> Game:
    """A freshly dealt game under ``ruleset`` with a random seed."""
    return Game.new(ruleset, seed=draw(seeds)).deal()


@st.composite
def random_rulesets(draw: st.DrawFn) -> RuleSet:
    """A rule set with random values for the options that card play and scoring read."""
    return rules.SCHIEBER.evolve(
        multipliers=draw(multiplier_tables),
        undertrump_only_trumps=draw(st.sampled_from(list(rules.UndertrumpRule))),
        old_undenufe=draw(st.booleans()),
        counter_match=draw(st.sampled_from(list(rules.CounterMatch))),
        match_bonus=draw(st.sampled_from([0, 50, 100])),
        allow_shove_back=draw(st.booleans()),
    )


__all__ = [
    "contracts",
    "dealt_games",
    "multiplier_tables",
    "play_hand",
    "presets",
    "random_rulesets",
    "seeds",
]
