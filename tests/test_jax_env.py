"""The JAX environment, move for move the engine's game (``jass.envs.jax``).

Engine episodes with random legal actions from fixed seeds are replayed through the JAX
environment (see ``tests/jax_replay.py``): at every step the seat to act, the mask and the
observation byte for byte, the rewards at every step, and at the end the card points, Weis,
Stöck and totals. 2,000 hands per supported preset and 200 whole games; the rare cases are
counted and must occur. Mutants (broken copies of the rule tables) must be caught.
``-s`` shows the counts.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

pytest.importorskip("numpy", reason="needs the jax extra")
pytest.importorskip("jax", reason="needs the jax extra")
import numpy as np

from jass import rules
from tests import jax_replay as jr

# Compiling and replaying thousands of hands: a minute of CPU; the full suite runs it.
pytestmark = pytest.mark.slow

HANDS = 2000  # per preset
PRESETS = ("SCHIEBER", "SCHIEBER_1000", "BEGINNER", "JASSKIT")
# Whole games: (preset, games); 200 in all.
GAMES = (("SCHIEBER", 80), ("SCHIEBER_1000", 60), ("BEGINNER", 40), ("JASSKIT", 20))
# The rare cases each preset's 2,000 hands must show at least (about a third of what the
# seeds give, so that a change of seeds keeps them).
MINIMUM = {
    "shoves": 150,
    "undertrump ban": 800,
    "lone Buur": 60,
    "only trumps": 150,
    "matches": 10,
}
MINIMUM_WEIS_STOECK = {"Stöck": 100, "Weis ties decided by position": 15}


@pytest.fixture(scope="module")
def schieber_hands() -> list[jr.Episode]:
    return jr.engine_episodes(rules.SCHIEBER, range(jr.BATCH), "hand", Counter())


@pytest.mark.parametrize("name", PRESETS)
def test_hands_move_for_move(name: str) -> None:
    ruleset = rules.PRESETS[name]
    counts: Counter[str] = Counter()
    seeds = range(PRESETS.index(name) * HANDS, (PRESETS.index(name) + 1) * HANDS)
    episodes = jr.engine_episodes(ruleset, seeds, "hand", counts)
    problems = jr.replay(jr.traced_tables(ruleset), episodes, game=False)
    print(
        f"\n{name}: {HANDS} hands, {sum(len(e.actions) for e in episodes)} steps, "
        f"{len(problems)} disagreements; {dict(sorted(counts.items()))}"
    )
    assert problems == []
    assert counts["hands"] == HANDS
    for case, least in MINIMUM.items():
        assert counts[case] >= least, (case, counts[case])
    if ruleset.weis:
        for case, least in MINIMUM_WEIS_STOECK.items():
            assert counts[case] >= least, (case, counts[case])
    named = jr.contracts_named(episodes)
    assert {c for c in range(7) if named[c]} == {c.index for c in ruleset.contracts}


def test_games_move_for_move() -> None:
    total: Counter[str] = Counter()
    games = 0
    for name, number in GAMES:
        ruleset = rules.PRESETS[name]
        counts: Counter[str] = Counter()
        episodes = jr.engine_episodes(ruleset, range(10**6, 10**6 + number), "game", counts)
        problems = jr.replay(jr.traced_tables(ruleset), episodes, game=True)
        print(
            f"\n{name}: {number} games, {counts['hands']} hands, {len(problems)} "
            f"disagreements; {dict(sorted(counts.items()))}"
        )
        assert problems == []
        total += counts
        games += len(episodes)
        if name == "JASSKIT":  # a game of one hand
            assert counts["hands"] == number
    assert games == 200
    assert total["games ending mid-hand"] >= 50
    assert total["Stöck"] >= 50


# Variants of the presets the environment also plays: 250 hands each.
VARIANTS = {
    "Misère, shove back, strict undertrump": rules.SCHIEBER.evolve(
        contracts=rules.TRADITIONAL.contracts,
        allow_shove_back=True,
        undertrump_only_trumps="ONLY_IF_NO_HIGHER",
    ),
    "small Weis, quartets first, old Undenufe": rules.SCHIEBER_1000.evolve(
        small_weis=True,
        small_weis_split_long_runs=True,
        weis_tie_sequence_vs_quartet="QUARTET_FIRST",
        undenufe_reverse_weis=False,
        old_undenufe=True,
        counter_match="DOUBLE_MATCH",
    ),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variants_move_for_move(name: str) -> None:
    ruleset = VARIANTS[name]
    counts: Counter[str] = Counter()
    episodes = jr.engine_episodes(ruleset, range(5000, 5000 + jr.BATCH), "hand", counts)
    assert jr.replay(jr.traced_tables(ruleset), episodes, game=False) == []
    named = jr.contracts_named(episodes)
    assert {c for c in range(7) if named[c]} == {c.index for c in ruleset.contracts}
    if ruleset.allow_shove_back:
        assert any(e.actions[:2] == [43, 43] for e in episodes)


def _mutant(t: Any, **changes: Any) -> Any:
    return t._replace(**changes)


def test_the_comparison_bites(schieber_hands: list[jr.Episode]) -> None:
    """Each broken copy of a rule disagrees with the engine somewhere in 250 hands."""
    t = jr.traced_tables(rules.SCHIEBER)
    mutants = {
        # R5.4: no exemption for the lone Buur.
        "no Buur exception": _mutant(t, buur_mask=t.buur_mask & False),
        # R5.3e: must overtrump when holding only trumps.
        "strict undertrump": _mutant(t, strict_undertrump=~t.strict_undertrump),
        # R7.1: a Weis worth 10 more.
        "Weis points": _mutant(t, seq_points=np.where(t.seq_points > 0, t.seq_points + 10, 0)),
        # R8.3: a match bonus of 50.
        "match bonus": _mutant(t, match_bonus=t.match_bonus // 2),
        # R2.2: the trump Nell worth 13.
        "Nell points": _mutant(t, points=np.where(t.points == 14, 13, t.points)),
    }
    assert jr.replay(t, schieber_hands, game=False) == []
    for name, mutant in mutants.items():
        problems = jr.replay(mutant, schieber_hands, game=False)
        print(f"\nmutant {name}: {len(problems)} disagreements, first {problems[:1]}")
        assert problems, name
