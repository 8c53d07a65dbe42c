"""The observation encoding ``jass-obs-v1``: fixtures, the incremental Encoder, masks, no leaks."""

from __future__ import annotations

import copy
import json
import pickle
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy", reason="needs the rl extra")
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import jass
from jass import Contract, Game, Phase, RuleSet, Seat, Thank, rules
from jass.engine.actions import NUM_ACTIONS
from jass.envs import encoding
from jass.envs.encoding import (
    ENCODING,
    FIELDS,
    OBSERVATION_SIZE,
    Encoder,
    action_mask,
    encode,
)
from jass.errors import InvalidInputError
from jass.records import replay
from jass.search.sampling import sample_deals
from tests.strategies import random_rulesets, seeds

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "encoding_v1.json"

#: The rule sets the step-by-step tests play: every preset, and variants with manual Weis,
#: shoving back, the marker card and the stricter undertrump rule.
RULESETS: dict[str, RuleSet] = {
    **rules.PRESETS,
    "MANUAL_WEIS": rules.SCHIEBER.evolve(
        weis_declaration="MANUAL", allow_shove_back=True, first_hand_rule="MARKER_CARD"
    ),
    "TRADITIONAL_MANUAL": rules.TRADITIONAL.evolve(
        weis_declaration="MANUAL", undertrump_only_trumps="ONLY_IF_NO_HIGHER"
    ),
    "SHORT_NO_CLAIM": rules.SCHIEBER.evolve(
        target=1000, stoeck_claim_anytime_to_finish=False, ausmach_order="STOECK_STICH_WEIS"
    ),
}


def step(game: Game, rng: random.Random, *, false_thanks: float = 0.002) -> Game:
    """A random legal action (a deal when due). The team to move thanks once it has the
    target; a false thank comes only now and then."""
    if game.phase is Phase.DEAL:
        return game.deal()
    actions = game.legal_actions()
    thanks = [a for a in actions if isinstance(a, Thank)]
    if thanks and (
        game.scores[thanks[0].team] >= game.ruleset.target or rng.random() < false_thanks
    ):
        return game.apply(thanks[0])
    return game.apply(rng.choice([a for a in actions if not isinstance(a, Thank)]))


def states(ruleset: RuleSet, seed: int, *, max_steps: int = 700) -> Iterator[Game]:
    """The states of a seeded random game (stopped after ``max_steps`` steps)."""
    rng = random.Random(seed)
    game = Game.new(ruleset, seed=seed)
    yield game
    for _ in range(max_steps):
        if game.is_over:
            return
        game = step(game, rng)
        yield game


def bits(vector: np.ndarray[Any, Any]) -> str:
    return "".join(str(int(b)) for b in vector)


def legal_indexes(game: Game) -> list[int]:
    return sorted({a.index for a in game.legal_actions()})  # declarations share 47


# --- the layout -----------------------------------------------------------------------------


def test_the_name_carries_the_version() -> None:
    assert ENCODING == "jass-obs-v1"


def test_the_fields_partition_the_vector_in_order() -> None:
    start = 0
    for part in FIELDS.values():
        assert part.start == start
        assert part.stop > part.start
        assert part.step is None
        start = part.stop
    assert start == OBSERVATION_SIZE == 678


def test_the_fields_cannot_be_changed() -> None:
    with pytest.raises(TypeError):
        FIELDS["hand"] = slice(0, 1)  # type: ignore[index]


def test_the_documented_sizes() -> None:
    sizes = {name: part.stop - part.start for name, part in FIELDS.items()}
    assert sizes == {
        "hand": 36,
        "played": 144,
        "trick": 144,
        "known": 108,
        "excluded": 108,
        "contract": 7,
        "multiplier": 4,
        "chooser": 4,
        "shoves": 2,
        "to_move": 4,
        "leader": 4,
        "dealer": 4,
        "phase": 4,
        "trick_number": 9,
        "declared": 4,
        "weis_points": 36,
        "weis_winner": 4,
        "stoeck": 4,
        "hand_points": 16,
        "scores": 26,
        "hand_number": 6,
    }


def test_the_rl_page_documents_every_field() -> None:
    page = (Path(__file__).resolve().parents[1] / "docs" / "rl.rst").read_text(encoding="utf-8")
    for name, part in FIELDS.items():
        assert f"``{name}``" in page
        assert f"{part.start}-{part.stop - 1}" in page, name


# --- the fixture vectors --------------------------------------------------------------------


def _fixture() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURES.read_text(encoding="utf-8"))
    return data


def test_the_fixture_file_describes_this_encoding() -> None:
    data = _fixture()
    assert data["encoding"] == ENCODING
    assert data["size"] == OBSERVATION_SIZE
    assert data["fields"] == {name: [p.start, p.stop] for name, p in FIELDS.items()}
    assert len(data["cases"]) >= 20
    assert len({case["name"] for case in data["cases"]}) == len(data["cases"])


@pytest.mark.parametrize("case", _fixture()["cases"], ids=lambda case: case["name"])
def test_fixture_vectors_match(case: dict[str, Any]) -> None:
    game = replay(case["record"])
    view = game.view(case["viewer"])
    assert bits(encode(view)) == case["observation"]
    assert bits(Encoder(game).observation(case["viewer"])) == case["observation"]


def test_the_fixtures_cover_the_phases_and_presets() -> None:
    games = [replay(case["record"]) for case in _fixture()["cases"]]
    assert {g.phase for g in games} == set(Phase)
    assert {jass.rules.preset_name(g.ruleset) for g in games} >= set(rules.PRESETS)
    assert any(g.contract is Contract.MISERE for g in games)
    assert any(g.weis_result is not None and g.weis_result.winner is not None for g in games)
    assert any(g.stoeck is not None for g in games)
    assert any(g.hand_info is not None and g.hand_info.shoves == 2 for g in games)
    assert any(max(g.scores) > 8191 for g in games)


# --- what the fields say --------------------------------------------------------------------


def test_relative_seats_and_own_team_first() -> None:
    g = Game.new(rules.SCHIEBER, seed=3, scores=(120, 340), dealer=Seat(3)).deal()
    g = g.choose("obenabe")  # seat 0 leads
    first = g.legal_moves().cards()[0]
    g = g.play(first)
    obs = encode(g.view(Seat(3)))
    played = obs[FIELDS["played"]].reshape(4, 36)
    assert played[1, first] == 1  # seat 0 is the next player after seat 3
    assert played.sum() == 1
    assert obs[FIELDS["to_move"]].tolist() == [0, 0, 1, 0]  # seat 1 is seat 3's partner
    assert obs[FIELDS["leader"]].tolist() == [0, 1, 0, 0]
    assert obs[FIELDS["dealer"]].tolist() == [1, 0, 0, 0]
    assert obs[FIELDS["chooser"]].tolist() == [0, 1, 0, 0]
    assert obs[FIELDS["contract"]].tolist() == [0, 0, 0, 0, 1, 0, 0]
    assert obs[FIELDS["multiplier"]].tolist() == [0, 0, 1, 0]
    scores = obs[FIELDS["scores"]]
    weights = 1 << np.arange(13)
    assert int(scores[:13] @ weights) == 340  # seat 3's team first
    assert int(scores[13:] @ weights) == 120
    assert obs[FIELDS["hand"]].sum() == 9
    assert bits(obs[FIELDS["hand"]]) == bits(
        np.array([int(c in g.hands[3]) for c in range(36)], dtype=np.int8)
    )


def mask_of(cards: jass.CardSet) -> list[int]:
    return [int(card in cards) for card in range(36)]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["SCHIEBER", "TRADITIONAL", "MANUAL_WEIS"])
def test_card_fields_say_what_the_view_says(name: str) -> None:
    for game in states(RULESETS[name], 5):
        for viewer in range(4):
            view = game.view(viewer)
            obs = encode(view)
            assert obs[FIELDS["hand"]].tolist() == mask_of(view.hand)
            played = obs[FIELDS["played"]].reshape(4, 36)
            trick = obs[FIELDS["trick"]].reshape(4, 36)
            known = obs[FIELDS["known"]].reshape(3, 36)
            excluded = obs[FIELDS["excluded"]].reshape(3, 36)
            in_trick = view.plays[len(view.plays) - len(view.trick) :]
            for r in range(4):
                seat = (viewer + r) % 4
                by_seat = jass.CardSet([card for who, card in view.plays if who == seat])
                assert played[r].tolist() == mask_of(by_seat)
                now = jass.CardSet([card for who, card in in_trick if who == seat])
                assert trick[r].tolist() == mask_of(now)
                if r:
                    assert known[r - 1].tolist() == mask_of(view.known_cards(seat))
                    assert excluded[r - 1].tolist() == mask_of(view.excluded[seat])


def test_binary_fields_are_clipped() -> None:
    endless = rules.SCHIEBER.evolve(target=10**6)
    g = Game.new(endless, seed=1, scores=(10_000, 8191), hands_played=99).deal()
    obs = encode(g.view(1))
    assert obs[FIELDS["scores"]].tolist() == [1] * 26
    assert obs[FIELDS["hand_number"]].tolist() == [1] * 6


def test_values_are_int8_bits() -> None:
    for game in states(rules.TRADITIONAL, 4, max_steps=120):
        for seat in range(4):
            obs = encode(game.view(seat))
            assert obs.dtype == np.int8
            assert obs.shape == (OBSERVATION_SIZE,)
            assert set(np.unique(obs).tolist()) <= {0, 1}


# --- the incremental encoder ----------------------------------------------------------------


def assert_encoder_matches(encoder: Encoder, game: Game) -> None:
    for seat in range(4):
        expected = encode(game.view(seat))
        got = encoder.observation(seat)
        if not np.array_equal(got, expected):
            wrong = [
                name
                for name, part in FIELDS.items()
                if not np.array_equal(got[part], expected[part])
            ]
            pytest.fail(f"seat {seat} of {game!r}: fields {wrong} differ")


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RULESETS))
@pytest.mark.parametrize("seed", [1, 2])
def test_encoder_equals_encode_at_every_step(name: str, seed: int) -> None:
    encoder: Encoder | None = None
    for game in states(RULESETS[name], seed):
        if encoder is None:
            encoder = Encoder(game)
        else:
            encoder.update(game)
        assert encoder.game is game
        assert_encoder_matches(encoder, game)


@settings(max_examples=25)
@given(ruleset=random_rulesets(), seed=seeds, shove=st.booleans())
def test_encoder_equals_encode_in_random_hands(ruleset: RuleSet, seed: int, shove: bool) -> None:
    rng = random.Random(seed)
    game = Game.new(ruleset, seed=seed).deal()
    encoder = Encoder(game)
    if shove:
        game = game.shove()
        encoder.update(game)
    game = game.choose(rng.choice(sorted(ruleset.contracts, key=lambda c: c.index)))
    while not game.is_over and game.phase is Phase.PLAY:
        encoder.update(game)
        assert_encoder_matches(encoder, game)
        game = game.play(rng.choice(game.legal_moves().cards()))
    encoder.update(game)
    assert_encoder_matches(encoder, game)


def test_encoder_follows_any_sequence_of_games() -> None:
    # Jumps back, to siblings, across hands and rule sets: the encoder compares, never trusts.
    pool = [g for name in ("SCHIEBER", "TRADITIONAL") for g in states(rules.PRESETS[name], 3)]
    rng = random.Random(5)
    encoder = Encoder(pool[0])
    for _ in range(300):
        game = rng.choice(pool)
        if game.phase is Phase.PLAY and rng.random() < 0.5:
            # a sibling: another card from the same state
            game = game.play(rng.choice(game.legal_moves().cards()))
        encoder.update(game)
        assert_encoder_matches(encoder, game)


def test_encoder_reset_and_repeated_update() -> None:
    games = list(states(rules.SCHIEBER, 7, max_steps=60))
    encoder = Encoder(games[-1])
    encoder.reset(games[0])
    assert_encoder_matches(encoder, games[0])
    encoder.update(games[0])
    assert_encoder_matches(encoder, games[0])
    for game in games[1:]:
        encoder.update(game)
    assert_encoder_matches(encoder, games[-1])


def test_observation_is_the_buffer_itself() -> None:
    g = Game.new(seed=2).deal()
    encoder = Encoder(g)
    first = encoder.observation(Seat(1))
    kept = first.copy()
    encoder.update(g.choose("hearts"))
    assert encoder.observation(1) is first or np.shares_memory(encoder.observation(1), first)
    assert not np.array_equal(first, kept)  # overwritten: callers copy


def test_copies_and_pickles_are_independent() -> None:
    games = list(states(rules.SCHIEBER, 8, max_steps=50))
    encoder = Encoder(games[20])
    for twin in (copy.copy(encoder), copy.deepcopy(encoder), pickle.loads(pickle.dumps(encoder))):
        assert twin is not encoder
        assert_encoder_matches(twin, games[20])
        twin.update(games[21])
        assert_encoder_matches(twin, games[21])
        assert_encoder_matches(encoder, games[20])


# --- no leak --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["SCHIEBER", "TRADITIONAL", "JASSKIT"])
def test_hidden_cards_do_not_change_the_encoding(name: str) -> None:
    ruleset = rules.PRESETS[name]
    rng = random.Random(9)
    checked = 0
    for seed in range(6):
        start = Game.new(ruleset, seed=seed)
        game = start.deal()
        actions: list[jass.engine.actions.Action] = []
        while game.phase is not Phase.DEAL and not game.is_over and len(actions) < 20:
            action = rng.choice([a for a in game.legal_actions() if not isinstance(a, Thank)])
            actions.append(action)
            game = game.apply(action)
        viewer = rng.randrange(4)
        view = game.view(viewer)
        for deal in sample_deals(view, 4, rng):
            if list(deal) == list(game.hand_info.dealt):  # type: ignore[union-attr]
                continue
            other = start.deal(hands=deal)
            try:
                for done in actions:
                    other = other.apply(done)
            except jass.IllegalActionError:  # pragma: no cover - the sampler keeps plays legal
                continue
            if other.view(viewer).declared_points != view.declared_points:
                continue  # a rare Weis the sampler could not explain: not the same view
            assert other.hands[viewer] == game.hands[viewer]
            assert any(other.hands[s] != game.hands[s] for s in range(4))
            assert np.array_equal(encode(other.view(viewer)), encode(view))
            assert np.array_equal(Encoder(other).observation(viewer), encode(view))
            checked += 1
    assert checked >= 10


# --- the action mask ------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(RULESETS))
def test_mask_equals_the_legal_actions_at_every_step(name: str) -> None:
    out = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for game in states(RULESETS[name], 11):
        expected = legal_indexes(game)
        assert np.flatnonzero(action_mask(game)).tolist() == expected
        assert action_mask(game, out) is out
        assert np.flatnonzero(out).tolist() == expected
        for seat in range(4):
            mask = action_mask(game.view(seat))
            assert mask.dtype == np.int8
            assert mask.shape == (NUM_ACTIONS,)
            if seat == game.to_move:
                assert np.flatnonzero(mask).tolist() == expected
            else:
                assert not mask.any()


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "out",
    [
        np.zeros(OBSERVATION_SIZE, dtype=np.int16),
        np.zeros(OBSERVATION_SIZE + 1, dtype=np.int8),
        np.zeros((1, OBSERVATION_SIZE), dtype=np.int8),
        [0] * OBSERVATION_SIZE,
    ],
)
def test_encode_checks_out(out: Any) -> None:
    with pytest.raises(InvalidInputError, match="out must be"):
        encode(Game.new(seed=1).view(0), out)


def test_action_mask_checks_out() -> None:
    with pytest.raises(InvalidInputError, match=rf"int8 array of shape \({NUM_ACTIONS},\)"):
        action_mask(Game.new(seed=1).deal(), np.zeros(45, dtype=np.int8))


def test_bad_arguments_raise() -> None:
    game = Game.new(seed=1)
    with pytest.raises(InvalidInputError, match="PlayerView"):
        encode(game)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="PlayerView or a Game"):
        action_mask("game")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="needs a Game"):
        Encoder(game.view(0))  # type: ignore[arg-type]
    encoder = Encoder(game)
    with pytest.raises(InvalidInputError, match="needs a Game"):
        encoder.update(None)  # type: ignore[arg-type]
    for seat in (4, -1, True, "1", 1.0):
        with pytest.raises(InvalidInputError, match="seat must be"):
            encoder.observation(seat)  # type: ignore[arg-type]


# --- the optional dependency ----------------------------------------------------------------


def test_import_jass_does_not_import_the_environments() -> None:
    code = "import sys, jass; print('jass.envs' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_without_numpy_the_error_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from jass.errors import MissingDependencyError\n"
        "try:\n"
        "    import jass.envs.encoding\n"
        "except MissingDependencyError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'python-jass[rl]'" in out.stdout


def test_the_module_names() -> None:
    assert set(encoding.__all__) == {
        "ENCODING",
        "FIELDS",
        "OBSERVATION_SIZE",
        "Encoder",
        "action_mask",
        "encode",
    }
    assert Encoder.__module__ == "jass.envs.encoding"
