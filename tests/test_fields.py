"""The fields of a state, each where it belongs, and every plain accessor checked by value.

A ``Game`` keeps several fields of the same shape (the seat to move and the trick's leader;
the points, the tricks and the scores by team). Here a reference replays each random hand
with the rule kernels alone and says what every one of them must be, state by state, so a
field that changed places with another fails. The accessors that ``tests/test_docstrings.py``
exempts from an example (:data:`ACCESSORS`) are all checked here, on the game and on every
seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from jass import Contract, Game, Phase, PlayerView, Seat, rules
from jass.core.play import trick_winner
from jass.core.ruledata import rule_data

#: Card play and scores only, and a target out of reach: the reference stays short.
PLAIN = rules.SCHIEBER.evolve(weis=False, stoeck=False, target=100_000)


def reference(game: Game) -> dict[str, Any]:
    """What the fields of ``game`` (in the play phase) must be, from its plays and the kernels."""
    hand = game.hand_info
    assert hand is not None
    assert hand.contract is not None
    data = rule_data(hand.contract, game.ruleset)
    leader = int(hand.forehand)
    points, tricks = [0, 0], [0, 0]
    scores = list(hand.scores_before)
    plays = [card for _, card in game.plays]
    complete = len(plays) // 4
    for number in range(complete):
        cards = plays[4 * number : 4 * number + 4]
        leader = (leader + trick_winner(cards, data)) & 3
        taken = sum(data.points[c] for c in cards) + (5 if number == 8 else 0)
        points[leader & 1] += taken
        tricks[leader & 1] += 1
        scores[(leader & 1) ^ data.credit_swap] += data.multiplier * taken
    trick = tuple(plays[4 * complete :])
    return {
        "trick_leader": Seat(leader),
        "to_move": Seat((leader + len(trick)) & 3),
        "hand_points": (points[0], points[1]),
        "tricks_won": (tricks[0], tricks[1]),
        "scores": (scores[0], scores[1]),
        "trick": trick,
    }


def play_states(seed: int) -> list[Game]:
    rng = random.Random(seed)
    game = Game.new(PLAIN, seed=seed, scores=(rng.randrange(900), rng.randrange(900))).deal()
    game = game.choose(rng.choice(Contract.standard()))
    states = []
    while game.phase is Phase.PLAY:
        states.append(game)
        game = game.play(rng.choice(game.legal_moves().cards()))
    return states


@pytest.mark.parametrize("seed", range(12))
def test_no_two_fields_change_places(seed: int) -> None:
    differ = {"seats": 0, "pairs": 0}
    for game in play_states(seed):
        expected = reference(game)
        got = {name: getattr(game, name) for name in expected}
        assert got == expected
        for seat in range(4):
            view = game.view(seat)
            assert {name: getattr(view, name) for name in expected} == expected
        differ["seats"] += expected["to_move"] != expected["trick_leader"]
        pairs = {expected["hand_points"], expected["tricks_won"], expected["scores"]}
        differ["pairs"] += len(pairs)
    # The check bites only if the fields differ: they do in most states.
    assert differ["seats"] > 15
    assert differ["pairs"] > 70


def expected_phase(game: Game) -> Phase:
    hand = game._ctx.hand_info
    if game._ctx.outcome is not None:
        return Phase.OVER
    if hand is None or len(game._ctx.results) > hand.number - game.setup.hands_played:
        return Phase.DEAL
    return Phase.CHOOSE if hand.contract is None else Phase.PLAY


def expected_to_move(game: Game) -> Seat | None:
    phase = expected_phase(game)
    hand = game._ctx.hand_info
    if phase is Phase.PLAY:
        return reference(game)["to_move"]  # type: ignore[no-any-return]
    if phase is Phase.CHOOSE and hand is not None:
        return hand.forehand if hand.shoves % 2 == 0 else hand.forehand.partner
    return None


#: Plain accessors, by public name: a reference for each, from a game and one of its views.
#: tests/test_docstrings.py exempts exactly these from having an example.
GAME_ACCESSORS: dict[str, Callable[[Game, PlayerView], object]] = {
    "ruleset": lambda g, v: g._ctx.rules,
    "seed": lambda g, v: g._ctx.facts.seed,
    "setup": lambda g, v: g._ctx.facts.setup,
    "phase": lambda g, v: expected_phase(g),
    "to_move": lambda g, v: expected_to_move(g),
    "hand_info": lambda g, v: g._ctx.hand_info,
    "contract": lambda g, v: g.hand_info.contract if g.hand_info else None,
    "hands": lambda g, v: tuple(
        g.hand_info.dealt[s] - g.view(s).played for s in range(4)) if g.hand_info else g.hands,
    "trick": lambda g, v: reference(g)["trick"] if g.phase is Phase.PLAY else g.trick,
    "trick_leader": lambda g, v: reference(g)["trick_leader"] if g.phase is Phase.PLAY
    else g.trick_leader,
    "tricks_won": lambda g, v: reference(g)["tricks_won"] if g.phase is Phase.PLAY
    else g.tricks_won,
    "hand_points": lambda g, v: reference(g)["hand_points"] if g.phase is Phase.PLAY
    else g.hand_points,
    "scores": lambda g, v: reference(g)["scores"] if g.phase is Phase.PLAY else g.scores,
    "hand_results": lambda g, v: g._ctx.results,
    "hands_played": lambda g, v: g.setup.hands_played + len(g.hand_results),
    "result": lambda g, v: g._ctx.outcome,
    "is_over": lambda g, v: g.result is not None,
    "winner": lambda g, v: g.result.winner if g.result else None,
    "unchecked_plays": lambda g, v: frozenset(),
    "weis_result": lambda g, v: g._tally.weis,
    "stoeck": lambda g, v: None,
    "hand_weis_stoeck": lambda g, v: ((0, 0), (0, 0)),
}
#: The view's plain accessors: each equals the game's (or its seat's) value.
VIEW_ACCESSORS: dict[str, Callable[[Game, PlayerView], object]] = {
    "ruleset": lambda g, v: g.ruleset,
    "setup": lambda g, v: g.setup,
    "hand_number": lambda g, v: g.hand_info.number if g.hand_info else None,
    "dealer": lambda g, v: g.hand_info.dealer if g.hand_info else None,
    "contract": lambda g, v: g.contract,
    "chooser": lambda g, v: g.hand_info.chooser if g.hand_info else None,
    "shoves": lambda g, v: g.hand_info.shoves if g.hand_info else 0,
    "trick_leader": lambda g, v: g.trick_leader,
    "declared_points": lambda g, v: tuple(
        None if w is None else tuple(x.points for x in w) for w in g.declared_weis),
    "own_weis": lambda g, v: g.declared_weis[v.seat],
    "shown_weis": lambda g, v: (),
    "weis_winner": lambda g, v: None,
    "stoeck": lambda g, v: g.stoeck,
    "hand_points": lambda g, v: g.hand_points,
    "tricks_won": lambda g, v: g.tricks_won,
    "hand_results": lambda g, v: g.hand_results,
    "result": lambda g, v: g.result,
    "unchecked_plays": lambda g, v: g.unchecked_plays,
    "team": lambda g, v: v.seat.team,
}
#: ``phase`` is a slot, not a property (read on every step): no docstring test applies.
_PROPERTIES = set(GAME_ACCESSORS) - {"phase"}
ACCESSORS: frozenset[str] = frozenset(
    {f"jass.Game.{name}" for name in _PROPERTIES}
    | {f"jass.engine._queries.GameQueries.{name}" for name in _PROPERTIES}
    | {f"jass.PlayerView.{name}" for name in VIEW_ACCESSORS}
)


def sample_states() -> list[Game]:
    """States of every phase: before the deal, choosing, in play, between hands, over."""
    game = Game.new(PLAIN.evolve(target=1000), seed=11, scores=(700, 880), hands_played=2)
    states = [game]
    rng = random.Random(3)
    while not game.is_over:
        game = game.deal()
        states.append(game)
        game = game.shove().choose(rng.choice(Contract.standard()))
        while game.phase is Phase.PLAY:
            states.append(game)
            game = game.play(rng.choice(game.legal_moves().cards()))
        states.append(game)
    return states


STATES = sample_states()


@pytest.mark.parametrize(
    ("kind", "name"),
    [("game", name) for name in GAME_ACCESSORS] + [("view", name) for name in VIEW_ACCESSORS],
)
def test_accessor(kind: str, name: str) -> None:
    table = GAME_ACCESSORS if kind == "game" else VIEW_ACCESSORS
    assert {g.phase for g in STATES} == set(Phase)
    for game in STATES:
        for seat in range(4):
            view = game.view(seat)
            subject = game if kind == "game" else view
            assert getattr(subject, name) == table[name](game, view), (name, game, seat)


def test_a_game_takes_a_preset_name() -> None:
    """Issue 18 point 9: Game.new reads a preset name as the CLI and the envs do."""
    assert Game.new("SCHIEBER", seed=1) == Game.new(rules.SCHIEBER, seed=1)
    assert Game.new("beginner", seed=1).ruleset is rules.BEGINNER
    with pytest.raises(ValueError, match="unknown rule set 'bridge'"):
        Game.new("bridge", seed=1)
    with pytest.raises(ValueError, match="a RuleSet or a preset name, got int 7"):
        Game.new(7, seed=1)  # type: ignore[arg-type]
