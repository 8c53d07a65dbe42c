"""Views read the game lazily and incrementally; they must equal a view built from scratch."""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from jass import Deal, Game, Phase, Play, PlayerView, RuleSet, Seat, Trick, rules
from jass.core.play import trick_points, trick_winner
from jass.engine.view import excluded_cards

RULESETS = [
    rules.SCHIEBER,
    rules.SCHIEBER.evolve(weis_declaration="MANUAL"),
    rules.TRADITIONAL,
    rules.SCHIEBER_1000.evolve(old_undenufe=True, undertrump_only_trumps="ONLY_IF_NO_HIGHER"),
]


def from_scratch(game: Game, seat: Seat) -> dict[str, object]:
    """What the seat may know, worked out from the history alone (no incremental state)."""
    actions = game.history
    start = max((i for i, a in enumerate(actions) if isinstance(a, Deal)), default=-1)
    cards = [a.card for a in actions[start + 1 :] if isinstance(a, Play)]
    contract = game.contract
    plays: list[tuple[Seat, object]] = []
    tricks: list[Trick] = []
    if contract is not None:
        assert game.hand_info is not None
        leader = game.hand_info.forehand
        for first in range(0, len(cards), 4):
            trick = cards[first : first + 4]
            plays.extend((leader.offset(i), card) for i, card in enumerate(trick))
            if len(trick) == 4:
                winner = leader.offset(trick_winner(trick, contract))
                points = trick_points(trick, contract, game.ruleset, last=first == 32)
                four = (trick[0], trick[1], trick[2], trick[3])
                tricks.append(Trick(leader, four, winner, points))
                leader = winner
    excluded = (
        excluded_cards(plays, contract, game.ruleset)  # type: ignore[arg-type]
        if contract is not None
        else None
    )
    return {
        "hand": game.hands[seat],
        "plays": tuple(plays),
        "tricks": tuple(tricks),
        "excluded": excluded,
        "trick": game.trick,
        "scores": game.scores,
        "legal_moves": game.legal_moves() if game.to_move == seat else None,
        "legal_actions": game.legal_actions() if game.to_move == seat else (),
    }


def check(game: Game) -> None:
    replayed = game.initial_state()
    for action in game.history:
        replayed = replayed.apply(action)
    unpickled = pickle.loads(pickle.dumps(game))
    for seat in Seat:
        view = game.view(seat)
        expected = from_scratch(game, seat)
        assert view.hand == expected["hand"]
        assert view.plays == expected["plays"]
        assert view.tricks == expected["tricks"]
        assert view.trick == expected["trick"]
        assert view.scores == expected["scores"]
        if expected["excluded"] is not None:
            assert view.excluded == expected["excluded"]
        if expected["legal_moves"] is not None:
            assert view.legal_moves() == expected["legal_moves"]
        assert view.legal_actions() == expected["legal_actions"]
        # A view of the same state reached another way is equal, field by field.
        assert view == replayed.view(seat) == unpickled.view(seat) == PlayerView(game, int(seat))
        assert hash(view) == hash(replayed.view(seat))
        if game.phase is not Phase.DEAL:
            assert view != game.view(seat.next)


@settings(max_examples=40)
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 10**6), steps=st.integers(0, 90))
def test_views_equal_views_built_from_scratch(ruleset: RuleSet, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    game = Game.new(ruleset, seed=seed)
    for _ in range(steps):
        if game.is_over:
            break
        if game.phase is Phase.DEAL:
            game = game.deal()
            continue
        actions = [a for a in game.legal_actions() if type(a).__name__ != "Thank"]
        game = game.apply(rng.choice(actions))
    check(game)


def test_a_view_is_cheap_and_reads_the_game_it_was_made_from() -> None:
    game = Game.new(seed=4).deal().choose("hearts")
    view = game.view(game.hand_info.forehand if game.hand_info else 0)
    after = game.play(view.legal_moves().cards()[0])
    assert view.trick == ()  # a view is of one state: later states don't change it
    assert after.view(view.seat).trick != ()


def test_views_are_immutable() -> None:
    view = Game.new(seed=4).deal().view(0)
    for name in ("seat", "hand", "_game", "other"):
        try:
            setattr(view, name, None)
        except AttributeError:
            continue
        raise AssertionError(f"{name} could be set")


@settings(max_examples=60)
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 10**6), steps=st.integers(0, 40))
def test_excluded_cards_are_never_held(ruleset: RuleSet, seed: int, steps: int) -> None:
    """The public inference (R5.5 read backwards) never rules out a card a seat really holds."""
    rng = random.Random(seed)
    game = Game.new(ruleset, seed=seed).deal()
    for _ in range(steps):
        if game.phase is not Phase.CHOOSE and game.phase is not Phase.PLAY:
            break
        actions = [a for a in game.legal_actions() if type(a).__name__ != "Thank"]
        game = game.apply(rng.choice(actions))
        view = game.view(0)
        for seat in Seat:
            assert not view.excluded[seat] & game.hands[seat], (seat, game.history)
