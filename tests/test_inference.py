"""The public inference, written once in jass.engine.inference, and everything that shows it.

The view (``known_cards``, ``excluded``), the one-shot encoding and the incremental
``Encoder`` must all say what the inference says, for any set-up: a given dealer or not, the
marker card, scores carried in, hands played before.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy", reason="needs the rl extra")
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from jass import Card, CardSet, Game, Phase, Seat, rules
from jass.core.ruledata import rule_data
from jass.engine.inference import FULL, excluded_masks, play_exclusion
from jass.envs.encoding import FIELDS, Encoder, encode
from jass.rules import FirstHandRule, UndertrumpRule
from tests.strategies import seeds


def card_fields(obs: np.ndarray, viewer: int) -> dict[str, list[CardSet]]:
    """The card fields of an encoding, decoded into card sets by absolute seat."""

    def sets(name: str, rows: int) -> list[CardSet]:
        grid = obs[FIELDS[name]].reshape(rows, 36)
        return [CardSet(Card(c) for c in range(36) if grid[r][c]) for r in range(rows)]

    by_relative = {"played": sets("played", 4), "trick": sets("trick", 4)}
    out: dict[str, list[CardSet]] = {"hand": sets("hand", 1)}
    for name, rows in by_relative.items():
        out[name] = [rows[(seat - viewer) % 4] for seat in range(4)]
    for name in ("known", "excluded"):
        rows = sets(name, 3)
        out[name] = [CardSet(0) if seat == viewer else rows[(seat - viewer) % 4 - 1]
                     for seat in range(4)]
    return out


def assert_fields_say_what_the_view_says(game: Game, encoder: Encoder) -> None:
    for viewer in range(4):
        view = game.view(viewer)
        for obs in (encode(view), encoder.observation(viewer)):
            fields = card_fields(obs, viewer)
            assert fields["hand"] == [view.hand]
            in_trick = view.plays[len(view.plays) - len(view.trick):]
            for seat in range(4):
                assert fields["played"][seat] == CardSet(c for s, c in view.plays if s == seat)
                assert fields["trick"][seat] == CardSet(c for s, c in in_trick if s == seat)
                if seat != viewer:
                    assert fields["known"][seat] == view.known_cards(seat), ("known", seat)
                    assert fields["excluded"][seat] == view.excluded[seat], ("excluded", seat)
                    # What the view says is true of the real hands.
                    assert view.known_cards(seat) <= game.hands[seat]
                    assert not view.excluded[seat] & game.hands[seat]


def test_a_given_dealer_overrides_the_marker_card() -> None:
    """Rule book R3.7: with the dealer given, nobody is known to hold the marker card.

    This failed before the inference was written once: the encoding said that seat 3 held the
    7D while the viewer held it itself.
    """
    game = Game.new(rules.TRADITIONAL, seed=3, dealer=Seat(2)).deal()
    assert Card.parse("7D") in game.hands[0]  # the viewer holds the marker card itself
    view = game.view(0)
    fields = card_fields(encode(view), 0)
    assert fields["known"][3] == CardSet(0) == view.known_cards(3)
    assert card_fields(Encoder(game).observation(0), 0)["known"][3] == CardSet(0)
    # Without the given dealer the forehand is known to hold the marker card.
    drawn = Game.new(rules.TRADITIONAL, seed=3).deal()
    forehand = drawn.hand_info.forehand  # type: ignore[union-attr]
    marker = CardSet([rules.TRADITIONAL.first_hand_marker])
    assert marker <= drawn.hands[forehand]
    viewer = forehand.next
    assert card_fields(encode(drawn.view(viewer)), viewer)["known"][forehand] == marker


MARKER = rules.SCHIEBER.evolve(first_hand_rule=FirstHandRule.MARKER_CARD)
STRICT = rules.TRADITIONAL.evolve(undertrump_only_trumps=UndertrumpRule.ONLY_IF_NO_HIGHER)


@settings(max_examples=40, deadline=None)
@given(
    ruleset=st.sampled_from([rules.SCHIEBER, rules.TRADITIONAL, MARKER, STRICT, rules.BEGINNER]),
    seed=seeds,
    dealer=st.none() | st.sampled_from(list(Seat)),
    scores=st.tuples(st.integers(0, 900), st.integers(0, 900)),
    hands_played=st.integers(0, 3),
    hands=st.integers(1, 2),
)
def test_every_card_field_says_what_the_view_says(
    ruleset: rules.RuleSet,
    seed: int,
    dealer: Seat | None,
    scores: tuple[int, int],
    hands_played: int,
    hands: int,
) -> None:
    rng = random.Random(seed)
    game = Game.new(ruleset, seed=seed, dealer=dealer, scores=scores, hands_played=hands_played)
    encoder = Encoder(game)
    for _ in range(hands):
        if game.phase is not Phase.DEAL:
            break
        game = game.deal()
        encoder.update(game)
        if rng.random() < 0.3:
            game = game.shove()
            encoder.update(game)
        game = game.choose(rng.choice(sorted(ruleset.contracts, key=lambda c: c.index)))
        while game.phase is Phase.PLAY:
            encoder.update(game)
            assert_fields_say_what_the_view_says(game, encoder)
            game = game.play(rng.choice(game.legal_moves().cards()))
        encoder.update(game)
        assert_fields_say_what_the_view_says(game, encoder)


def test_the_fold_is_the_step_card_by_card() -> None:
    """excluded_masks is play_exclusion folded over the plays, on random hands."""
    for seed in range(30):
        rng = random.Random(seed)
        game = Game.new(STRICT, seed=seed).deal().choose(rng.choice(sorted(
            STRICT.contracts, key=lambda c: c.index)))
        assert game.contract is not None
        data = rule_data(game.contract, STRICT)
        while game.phase is Phase.PLAY:
            game = game.play(rng.choice(game.legal_moves().cards()))
        plays = [(int(s), int(c)) for s, c in game.plays]
        expected = [0, 0, 0, 0]
        for index, (seat, card) in enumerate(plays):
            start = index & ~3
            top = FULL
            for _, before in plays[start + 1:index]:
                top &= data.above[before]
            expected[seat] |= play_exclusion(plays[start][1], card, top, data)
        assert excluded_masks(plays, data) == expected
