"""A view is its seat's information set: nothing of another seat's hidden hand is in it.

Two checks, on random games under several rule sets:

- every object reachable from a view (slots, attributes, containers, closures, and what its
  pickle loads back as) is searched for a card that another seat holds unseen;
- two games that differ only in hidden cards give equal views of the same seat, which
  pickle to the same bytes.
"""

from __future__ import annotations

import pickle
import random
import types
from collections.abc import Iterator

import pytest

from jass import Card, CardSet, Contract, Game, Phase, PlayerView, RuleSet, Seat, rules
from jass.core.ruledata import RuleData
from jass.engine._context import GameFacts, HandContext, HandCredits
from jass.engine.hand import HandInfo
from jass.search.sampling import DealSampler

RULESETS = {
    "SCHIEBER": rules.SCHIEBER,
    "TRADITIONAL": rules.TRADITIONAL,
    "MANUAL": rules.SCHIEBER.evolve(weis_declaration="MANUAL", first_hand_rule="MARKER_CARD"),
    "PLAIN": rules.SCHIEBER.evolve(weis=False, stoeck=False),
}
#: Public values whose insides are rules, not cards of a deal (a rule set's marker card).
PUBLIC_LEAVES = (RuleSet, Contract, RuleData, type, types.ModuleType, str, bytes, float)
#: Records that hold the whole deal, or the seed: none may be reachable from a view.
PRIVATE = (Game, HandContext, HandCredits, GameFacts, HandInfo)


def reachable(root: object) -> Iterator[object]:
    """Every object reachable from ``root``, ``root`` included, each once."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        yield obj
        if isinstance(obj, PUBLIC_LEAVES) or type(obj) in (int, bool) or obj is None:
            continue
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, tuple | list | set | frozenset):
            stack.extend(obj)
        if isinstance(obj, types.FunctionType | types.MethodType):
            function = getattr(obj, "__func__", obj)
            stack.extend(cell.cell_contents for cell in function.__closure__ or ())
            stack.extend(function.__defaults__ or ())
            stack.append(getattr(obj, "__self__", None))
        for klass in type(obj).__mro__:
            for name in getattr(klass, "__slots__", ()):
                slot = getattr(klass, name, None)
                if slot is not None and hasattr(slot, "__get__"):
                    stack.append(getattr(obj, name, None))
        stack.extend(getattr(obj, "__dict__", {}).values())


def hidden_cards(game: Game, view: PlayerView) -> CardSet:
    """The cards the other seats hold that ``view``'s seat has not seen."""
    bits = 0
    for seat in Seat:
        if seat != view.seat:
            bits |= int(game.hands[seat]) & ~int(view.known_cards(seat))
    return CardSet(bits)


def assert_nothing_hidden(game: Game, view: PlayerView, root: object = None) -> None:
    """Nothing reachable from ``view`` (or ``root``) and its pickle holds a hidden card."""
    hidden = hidden_cards(game, view)
    subject = view if root is None else root
    for start in (subject, pickle.loads(pickle.dumps(subject))):
        for obj in reachable(start):
            assert not isinstance(obj, PRIVATE), f"a view reaches a {type(obj).__name__}"
            if isinstance(obj, Card):
                assert obj not in hidden, f"a view reaches hidden card {obj}"
            elif isinstance(obj, CardSet):
                assert not obj & hidden, f"a view reaches hidden cards {obj & hidden}"


def random_states(ruleset: RuleSet, seed: int) -> Iterator[Game]:
    rng = random.Random(seed)
    game = Game.new(ruleset, seed=seed)
    for _ in range(2):
        if game.phase is not Phase.DEAL:
            return
        game = game.deal()
        yield game
        if rng.random() < 0.4:
            game = game.shove()
        game = game.choose(rng.choice(sorted(ruleset.contracts, key=lambda c: c.index)))
        while game.phase is Phase.PLAY:
            yield game
            actions = game.legal_actions()
            game = game.apply(rng.choice([a for a in actions if type(a).__name__ != "Thank"]))
        yield game


@pytest.mark.parametrize("name", list(RULESETS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_object_reachable_from_a_view_holds_a_hidden_card(name: str, seed: int) -> None:
    for game in random_states(RULESETS[name], seed):
        for seat in Seat:
            assert_nothing_hidden(game, game.view(seat))


def test_the_walk_finds_a_hidden_card() -> None:
    """The check bites: the game itself, or its hand record, is found out."""
    game = Game.new(seed=5).deal()
    view = game.view(0)
    with pytest.raises(AssertionError, match="reaches a Game"):
        assert_nothing_hidden(game, view, (view, game))
    with pytest.raises(AssertionError, match="reaches hidden cards"):
        assert_nothing_hidden(game, view, (view, tuple(game.hands)))
    with pytest.raises(AssertionError, match="reaches hidden card "):
        assert_nothing_hidden(game, view, [view, game.hands[1].cards()[0]])


def same_public_play(game: Game, viewer: Seat, rng: random.Random) -> Game | None:
    """The game replayed on another deal that ``viewer`` cannot tell from this one.

    ``None`` once another seat declared Weis by hand: its choice does not carry over.
    """
    assert game.hand_info is not None
    dealt = DealSampler(game.view(viewer)).sample(rng)
    other = Game.new(game.ruleset, seed=game.seed, scores=game.setup.scores).deal(hands=dealt)
    deals = [i for i, a in enumerate(game.history) if type(a).__name__ == "Deal"]
    for action in game.history[deals[-1] + 1 :]:
        if type(action).__name__ == "DeclareWeis" and other.to_move != viewer:
            return None
        other = other.apply(action)
    return other


@pytest.mark.parametrize("name", list(RULESETS))
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_games_that_differ_only_in_hidden_cards_give_equal_views(name: str, seed: int) -> None:
    rng = random.Random(seed)
    compared = 0
    for game in random_states(RULESETS[name], seed):
        deals = sum(type(action).__name__ == "Deal" for action in game.history)
        if deals != 1:
            continue  # the first hand only: the later deals follow from the seed
        viewer = Seat(rng.randrange(4))
        other = same_public_play(game, viewer, rng)
        if other is None or other.hands == game.hands:
            continue
        compared += 1
        mine, theirs = game.view(viewer), other.view(viewer)
        assert mine == theirs
        assert hash(mine) == hash(theirs)
        assert pickle.dumps(mine) == pickle.dumps(theirs)
        assert mine.legal_actions() == theirs.legal_actions()
    assert compared > 3
