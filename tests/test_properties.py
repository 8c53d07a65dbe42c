"""Property tests of the state machine through the public API (rule book R2.3, §5, §8)."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jass import (
    CARDS,
    Card,
    CardSet,
    Contract,
    EndReason,
    Game,
    IllegalActionError,
    Phase,
    Play,
    RuleSet,
    Suit,
    Team,
    rules,
)
from tests.helpers import endless
from tests.strategies import contracts, play_hand, random_rulesets, seeds

# Multiplier tables of rule book R8.5, written out by hand as (♥, ♦, ♠, ♣, OBENABE, UNDENUFE).
R85_TABLES = {
    "FLAT": (1, 1, 1, 1, 1, 1),
    "SWISSLOS_2500": (1, 1, 2, 2, 3, 3),
    "PAGAT_RED_DOUBLE": (2, 2, 1, 1, 3, 3),
    "WIKIPEDIA_EN": (1, 1, 2, 2, 3, 4),
    "URIKON": (1, 1, 2, 2, 2, 2),
}
_TABLE_POSITION = {
    Contract.trump(Suit.HEARTS): 0,
    Contract.trump(Suit.DIAMONDS): 1,
    Contract.trump(Suit.SPADES): 2,
    Contract.trump(Suit.CLUBS): 3,
    Contract.OBENABE: 4,
    Contract.UNDENUFE: 5,
}


@settings(max_examples=150)
@given(seed=seeds, contract=contracts, shove=st.booleans(), rng=st.randoms(use_true_random=False))
def test_random_hand_scores_157_or_257_under_every_multiplier_table(
    seed: int, contract: Contract, shove: bool, rng: random.Random
) -> None:
    hand_plays: dict[str, tuple[int, int]] = {}
    choices_seed = rng.random()
    for name, table in R85_TABLES.items():
        ruleset = rules.SCHIEBER.evolve(multipliers=name)
        # The same seed and choices replay the same hand under each table.
        replay = random.Random(choices_seed)
        states = play_hand(Game.new(ruleset, seed=seed).deal(), replay, contract, shove=shove)
        final = states[-1]
        score = final.hand_results[-1]
        points = score.card_points
        assert sum(points) == 157
        bonus = 100 if 9 in score.tricks else 0
        assert score.match == (None if bonus == 0 else Team(score.tricks.index(9)))
        assert sum(points) + sum(score.bonus) == 157 + bonus
        multiplier = table[_TABLE_POSITION[contract]]
        assert score.multiplier == multiplier
        assert score.totals == (
            multiplier * (points[0] + score.bonus[0] + score.weis[0] + score.stoeck[0]),
            multiplier * (points[1] + score.bonus[1] + score.weis[1] + score.stoeck[1]),
        )
        assert final.scores == score.totals
        hand_plays[name] = points
    assert len(set(hand_plays.values())) == 1, "the same play gave different card points"


@settings(max_examples=100)
@given(seed=seeds, contract=contracts, rng=st.randoms(use_true_random=False))
def test_every_card_is_played_exactly_once_and_legal_moves_never_empty(
    seed: int, contract: Contract, rng: random.Random
) -> None:
    game = Game.new(rules.SCHIEBER, seed=seed).deal().choose(contract)
    played: list[Card] = []
    while game.phase is Phase.PLAY:
        legal = game.legal_moves()
        assert legal, "no legal card while a card is due"
        assert legal - game.hands[game.to_move] == CardSet(0)  # type: ignore[index]
        card = rng.choice(legal.cards())
        played.append(card)
        game = game.play(card)
    assert sorted(played) == list(CARDS)
    assert all(not hand for hand in game.hands)
    assert sum(t.points for t in game.tricks) == 157


@pytest.mark.slow
@settings(max_examples=60)
@given(
    seed=seeds,
    contract=contracts,
    ruleset=random_rulesets(),
    rng=st.randoms(use_true_random=False),
)
def test_every_card_outside_legal_moves_is_rejected(
    seed: int, contract: Contract, ruleset: RuleSet, rng: random.Random
) -> None:
    game = Game.new(ruleset, seed=seed).deal().choose(contract)
    while game.phase is Phase.PLAY:
        legal = game.legal_moves()
        for card in CARDS:
            if card in legal:
                continue
            with pytest.raises(IllegalActionError) as info:
                game.play(card)
            assert str(card) in str(info.value)
            assert info.value.action == Play(card)
            assert info.value.state is game
        game = game.play(rng.choice(legal.cards()))


@settings(max_examples=60)
@given(seed=seeds, contract=contracts, shove=st.booleans(), rng=st.randoms(use_true_random=False))
def test_states_are_unchanged_after_continuing_from_them(
    seed: int, contract: Contract, shove: bool, rng: random.Random
) -> None:
    start = Game.new(rules.SCHIEBER, seed=seed)
    states = [start, *play_hand(start.deal(), rng, contract, shove=shove)]
    # A real copy, built anew from the pickle (a deepcopy of an immutable state is the state
    # itself, so comparing with one could not fail).
    snapshots = [
        (
            pickle.loads(pickle.dumps(state)),
            pickle.dumps((state.phase, state.hands, state.trick, state.scores, state.history)),
            hash(state),
        )
        for state in states
    ]
    # Continue from every state again, along other random lines.
    for state in states:
        if state.phase is Phase.PLAY:
            state.play(state.legal_moves().cards()[0])
        elif state.phase is Phase.CHOOSE:
            state.choose(Contract.OBENABE)
    for state, (copied, dumped, digest) in zip(states, snapshots, strict=True):
        assert copied is not state
        assert state == copied
        assert hash(state) == digest == hash(pickle.loads(pickle.dumps(copied)))
        assert (
            pickle.dumps((state.phase, state.hands, state.trick, state.scores, state.history))
            == dumped
        )


@settings(max_examples=40)
@given(seed=seeds, rng=st.randoms(use_true_random=False))
def test_history_replays_to_an_equal_state(seed: int, rng: random.Random) -> None:
    game = Game.new(endless(rules.SCHIEBER), seed=seed)  # two hands
    for _ in range(2):
        game = play_hand(
            game.deal(), rng, rng.choice(Contract.standard()), shove=rng.random() < 0.5
        )[-1]
    replayed = game.initial_state()
    for action in game.history:
        replayed = replayed.apply(action)
    assert replayed == game
    assert hash(replayed) == hash(game)
    assert replayed.history == game.history


@settings(max_examples=30)
@given(seed=seeds, rng=st.randoms(use_true_random=False))
def test_legal_actions_loop_finishes_a_tournament_game(seed: int, rng: random.Random) -> None:
    game = Game.new(rules.TOURNAMENT_12, seed=seed)
    totals = [0, 0]
    while not game.is_over:
        game = (
            game.deal()
            if game.phase is Phase.DEAL
            else game.apply(rng.choice(game.legal_actions()))
        )
        if game.phase is Phase.DEAL or game.is_over:
            totals = [sum(r.totals[t] for r in game.hand_results) for t in (0, 1)]
    assert len(game.hand_results) == 12
    assert list(game.scores) == totals
    assert all(sum(r.card_points) == 157 and r.bonus == (0, 0) for r in game.hand_results)
    expected = None if totals[0] == totals[1] else Team(int(totals[1] > totals[0]))
    assert game.winner == expected
    assert game.result is not None
    assert game.result.reason is EndReason.HAND_LIMIT
