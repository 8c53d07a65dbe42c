"""jass-kit observations read back as views: round trips, refusals, and no hidden card shown.

jass-kit numbers its players clockwise while play goes counterclockwise, so its player ``p``
is our seat ``-p mod 4``: kit 0 is seat 0, kit 1 is seat 3, kit 2 is seat 2, kit 3 is seat 1.
The observations written by hand below use jass-kit's numbers and say which seat each is.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from jass import (
    Card,
    CardSet,
    Choose,
    Contract,
    Game,
    IllegalActionError,
    InvalidInputError,
    Phase,
    PlayerView,
    Seat,
    rules,
)
from jass.records import from_jasskit_observation, to_jasskit_observation
from tests.strategies import play_hand, seeds

JSON = Any  # a decoded JSON value

KIT_CONTRACTS = Contract.standard()  # the four trumps, Obenabe and Undenufe: jass-kit's six


def through_json(data: JSON) -> JSON:
    """``data`` as a player service receives it: encoded and decoded again."""
    return json.loads(json.dumps(data))


def read_back(view: PlayerView) -> PlayerView:
    """The view that ``view``'s observation, sent as JSON, reads back as."""
    return from_jasskit_observation(through_json(to_jasskit_observation(view)))


def assert_same_view(back: PlayerView, view: PlayerView) -> None:
    assert back == view
    assert back.seat == view.seat
    assert back.hand == view.hand
    assert back.legal_actions() == view.legal_actions()
    assert back.excluded == view.excluded
    assert back.tricks == view.tricks
    assert back.trick == view.trick
    assert back.shoves == view.shoves
    assert back.chooser == view.chooser
    assert back.contract == view.contract
    assert back.to_move == view.to_move
    assert back.phase is view.phase
    assert back.hand_points == view.hand_points
    assert back.result == view.result


# --- round trips -------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=25)
@given(
    seed=seeds,
    rng=st.randoms(use_true_random=False),
    contract=st.sampled_from(KIT_CONTRACTS),
    shove=st.booleans(),
)
def test_every_stage_of_a_hand_reads_back_as_the_same_view_for_every_seat(
    seed: int, rng: random.Random, contract: Contract, shove: bool
) -> None:
    game = Game.new(rules.JASSKIT, seed=seed).deal()
    stages = play_hand(game, rng, contract, shove=shove)
    assert stages[-1].result is not None  # JASSKIT: one hand is the game
    for stage in stages:
        for seat in Seat:
            view = stage.view(seat)
            back = read_back(view)
            assert_same_view(back, view)
            assert back.hand == stage.hands[seat]


@pytest.mark.parametrize("seed", range(4))
def test_after_a_shove_trump_is_minus_one_forehand_zero_and_the_partner_chooses(seed: int) -> None:
    game = Game.new(rules.JASSKIT, seed=seed).deal()
    forehand = game.to_move
    assert forehand is not None
    shoved = game.shove()
    partner = Seat((int(forehand) + 2) % 4)
    assert shoved.to_move == partner
    for seat in Seat:
        obs = to_jasskit_observation(shoved.view(seat))
        assert (obs["trump"], obs["forehand"]) == (-1, 0)
        back = read_back(shoved.view(seat))
        assert_same_view(back, shoved.view(seat))
        assert back.shoves == 1
        assert back.phase is Phase.CHOOSE
        assert back.to_move == partner
        if seat == partner:  # the six contracts, and no shove back under JASSKIT
            assert set(back.legal_actions()) == {Choose(c) for c in KIT_CONTRACTS}
        else:
            assert back.legal_actions() == ()
    # Before the shove the forehand may shove or choose; "forehand" is -1 then.
    fresh = to_jasskit_observation(game.view(forehand))
    assert (fresh["trump"], fresh["forehand"]) == (-1, -1)
    assert read_back(game.view(forehand)).can_shove()


def test_the_last_card_ends_the_game_and_the_result_reads_back() -> None:
    game = Game.new(rules.JASSKIT, seed=5).deal().choose(Contract.OBENABE)
    rng = random.Random(5)
    while game.phase is Phase.PLAY:
        game = game.play(rng.choice(game.legal_moves().cards()))
    for seat in Seat:
        obs = to_jasskit_observation(game.view(seat))
        assert obs["currentPlayer"] == -1
        assert len(obs["tricks"]) == 9
        back = read_back(game.view(seat))
        assert_same_view(back, game.view(seat))
        assert back.result is not None
        assert sum(back.hand_points) == 157


# --- nothing hidden is shown, nothing hidden is needed -----------------------------------------


def swap_hidden_cards(game: Game, viewer: Seat) -> Game | None:
    """The same hand (contract, shoves, every card played) with two other seats' unplayed cards
    swapped, or ``None`` if no swap keeps every card played legal."""
    info = game.hand_info
    assert info is not None
    others = [seat for seat in Seat if seat != viewer]
    for first, second in itertools.combinations(others, 2):
        for a, b in itertools.product(game.hands[first].cards(), game.hands[second].cards()):
            hands = _dealt_hands(game)
            hands[first] = (hands[first] - CardSet([a])) | CardSet([b])
            hands[second] = (hands[second] - CardSet([b])) | CardSet([a])
            try:
                other = Game.new(rules.JASSKIT, seed=0, dealer=info.dealer).deal(hands=hands)
                for _ in range(info.shoves):
                    other = other.shove()
                if game.contract is not None:
                    other = other.choose(game.contract)
                for _, card in game.plays:
                    other = other.play(card)
            except IllegalActionError:
                continue
            return other
    return None


def _dealt_hands(game: Game) -> list[CardSet]:
    """What each seat was dealt: what it holds now and what it played."""
    hands = [CardSet(game.hands[seat]) for seat in Seat]
    for seat, card in game.plays:
        hands[seat] = hands[seat] | CardSet([card])
    return hands


@settings(max_examples=25)
@given(
    seed=seeds,
    rng=st.randoms(use_true_random=False),
    contract=st.sampled_from(KIT_CONTRACTS),
    cards=st.integers(0, 32),
    viewer=st.sampled_from(list(Seat)),
)
def test_two_deals_with_the_same_public_play_give_the_same_observation_and_view(
    seed: int, rng: random.Random, contract: Contract, cards: int, viewer: Seat
) -> None:
    game = Game.new(rules.JASSKIT, seed=seed).deal().choose(contract)
    for _ in range(cards):
        game = game.play(rng.choice(game.legal_moves().cards()))
    other = swap_hidden_cards(game, viewer)
    assume(other is not None)
    assert other is not None
    assert other.hands != game.hands
    assert other.hands[viewer] == game.hands[viewer]
    assert other.plays == game.plays
    obs = to_jasskit_observation(game.view(viewer))
    assert to_jasskit_observation(other.view(viewer)) == obs
    shown = [card for player in obs["player"] for card in player["hand"]]
    assert len(shown) == len(game.hands[viewer])  # the viewer's cards, and no one else's
    back = read_back(game.view(viewer))
    assert back == read_back(other.view(viewer)) == game.view(viewer) == other.view(viewer)
    assert back.hand == game.hands[viewer]
    assert back.unknown() == game.view(viewer).unknown()
    for seat in Seat:
        assert back.cards_left(seat) == len(game.hands[seat])


# --- refusals ----------------------------------------------------------------------------------

# Seat 0 (kit 0) is forehand (the dealer is seat 3, kit 1) under Obenabe (trump 4) and leads
# the aces. Seat 1 (kit 3) throws diamonds on spades, hearts and clubs: a seat that held only
# diamonds. Seat 2 (kit 2) and seat 3 (kit 1) follow suit.
VIEWER_DEALT = ["SA", "HA", "CA", "DA", "DK", "DQ", "CK", "CQ", "CJ"]


def obenabe_observation(tricks: list[dict[str, Any]], held: list[str]) -> dict[str, Any]:
    """Seat 0's observation, holding ``held``, after ``tricks`` (all led by seat 0)."""
    return {
        "version": "V0.2",
        "trump": 4,
        "dealer": 1,
        "currentPlayer": 0,
        "forehand": 1,
        "playerView": 0,
        "tricks": [*copy.deepcopy(tricks), {"first": 0}],
        "player": [{"hand": held}, {"hand": []}, {"hand": []}, {"hand": []}],
        "jassTyp": "SCHIEBER",
    }


TRICK_0 = {"cards": ["SA", "D6", "SK", "SQ"], "first": 0}
TRICK_1 = {"cards": ["HA", "D7", "HK", "HQ"], "first": 0}
TRICK_2 = {"cards": ["CA", "D8", "C10", "C9"], "first": 0}


def test_the_hand_built_observations_are_accepted_while_a_deal_explains_them() -> None:
    view = from_jasskit_observation(obenabe_observation([TRICK_0, TRICK_1], VIEWER_DEALT[2:]))
    assert view.seat == Seat(0)
    assert view.hand == CardSet.parse("AC AD KD QD KC QC JC")
    assert view.contract is Contract.OBENABE
    assert view.to_move == Seat(0)
    assert [trick.winner for trick in view.tricks] == [Seat(0), Seat(0)]
    # Seat 1 (kit 3) showed it holds no spade and no heart.
    spades_and_hearts = "6S 7S 8S 9S 10S JS QS KS AS 6H 7H 8H 9H 10H JH QH KH AH"
    assert view.excluded[1] == CardSet.parse(spades_and_hearts)


def test_exclusions_that_leave_too_few_cards_name_the_trick_and_the_card() -> None:
    # After trick 2 seat 1 (kit 3) may hold diamonds only: six more of them, but only JD, 10D
    # and 9D are not seen by the viewer. No deal explains the 8 of diamonds on the clubs.
    data = obenabe_observation([TRICK_0, TRICK_1, TRICK_2], VIEWER_DEALT[3:])
    with pytest.raises(InvalidInputError, match=r"trick 2, card D8: player 3 could not have"):
        from_jasskit_observation(data)
    # The same trick with seat 1 following clubs is fine.
    fine = copy.deepcopy(data)
    fine["tricks"][2]["cards"][1] = "C6"
    assert from_jasskit_observation(fine).tricks[2].cards == tuple(
        Card.parse(c) for c in ("AC", "6C", "10C", "9C")
    )


def test_a_suit_shown_void_and_played_later_is_refused_at_the_card_that_broke_the_rule() -> None:
    # Trick 0: seat 2 (kit 2) throws the 7 of diamonds on the hearts; in trick 1 it plays
    # the 7 of hearts, which it held in trick 0 and did not play.
    tricks = [
        {"cards": ["HA", "H6", "D7", "H8"], "first": 0},
        {"cards": ["SA", "S6", "H7", "S7"], "first": 0},
    ]
    data = obenabe_observation(tricks, VIEWER_DEALT[2:])
    with pytest.raises(InvalidInputError, match=r"trick 0, card D7 of player 2: .*hearts"):
        from_jasskit_observation(data)
    fine = copy.deepcopy(data)
    fine["tricks"][1]["cards"][2] = "D8"  # a diamond instead: a deal explains it
    assert from_jasskit_observation(fine).excluded[2] >= CardSet.parse("6H 7H 8H 9H")


def test_the_viewers_own_illegal_card_is_named_with_trick_card_and_player() -> None:
    # Seat 1 (kit 3) holds spades and hearts. Seat 0 leads the ace of spades; seat 1 must
    # follow suit. Its observation says it played the 6 of hearts and still holds the 6 of
    # spades.
    hands = [
        "AS KS QS JS 10S AH KH QH JH",
        "9S 8S 7S 6S 10H 9H 8H 7H 6H",
        "AD KD QD JD 10D 9D 8D 7D 6D",
        "AC KC QC JC 10C 9C 8C 7C 6C",
    ]
    game = Game.new(rules.JASSKIT, seed=0, dealer=Seat(3)).deal(hands=hands).choose("obenabe")
    for card in ("AS", "6S", "6D", "6C"):
        game = game.play(card)
    data = to_jasskit_observation(game.view(Seat(1)))
    assert data["playerView"] == 3
    assert from_jasskit_observation(data) == game.view(Seat(1))
    assert data["tricks"][0]["cards"] == ["SA", "S6", "D6", "C6"]
    data["tricks"][0]["cards"][1] = "H6"
    data["player"][3]["hand"] = [c if c != "H6" else "S6" for c in data["player"][3]["hand"]]
    with pytest.raises(InvalidInputError, match=r"trick 0, card H6 of player 3: .*spades"):
        from_jasskit_observation(data)


def mid_hand_observation(viewer: Seat) -> tuple[Game, dict[str, Any]]:
    """A hand in its third trick, under hearts, and ``viewer``'s observation of it."""
    rng = random.Random(11)
    game = Game.new(rules.JASSKIT, seed=11).deal().choose(Contract.parse("hearts"))
    for _ in range(9):
        game = game.play(rng.choice(game.legal_moves().cards()))
    return game, to_jasskit_observation(game.view(viewer))


@pytest.mark.parametrize("viewer", list(Seat))
def test_another_players_hand_in_an_observation_is_refused(viewer: Seat) -> None:
    game, data = mid_hand_observation(viewer)
    me = data["playerView"]
    other = (me + 1) % 4
    unseen = game.view(viewer).unknown().cards()[0]
    data["player"][other]["hand"] = [str(unseen)[-1] + str(unseen)[:-1]]
    with pytest.raises(InvalidInputError, match=rf"player {other}'s hand is shown to player {me}"):
        from_jasskit_observation(data)


@pytest.mark.parametrize("viewer", list(Seat))
def test_the_viewer_must_hold_its_cards_and_no_more(viewer: Seat) -> None:
    game, data = mid_hand_observation(viewer)
    held = data["player"][data["playerView"]]["hand"]
    assert len(held) == len(game.hands[viewer])
    played = 9 - len(held)
    short = copy.deepcopy(data)
    short["player"][data["playerView"]]["hand"] = held[1:]
    with pytest.raises(
        InvalidInputError,
        match=rf"holds {len(held) - 1} cards and played {played}; that makes 8, not 9",
    ):
        from_jasskit_observation(short)
    unseen = game.view(viewer).unknown().cards()[0]
    extra = copy.deepcopy(data)
    extra["player"][data["playerView"]]["hand"] = [*held, str(unseen)[-1] + str(unseen)[:-1]]
    with pytest.raises(InvalidInputError, match="that makes 10, not 9"):
        from_jasskit_observation(extra)


@pytest.mark.parametrize("viewer", list(Seat))
def test_a_wrong_current_player_is_refused(viewer: Seat) -> None:
    game, data = mid_hand_observation(viewer)
    assert game.to_move is not None
    mover = (-int(game.to_move)) % 4  # in jass-kit's numbers
    assert data["currentPlayer"] == mover
    for wrong in {*range(4), -1} - {mover}:
        with pytest.raises(
            InvalidInputError,
            match=rf"'currentPlayer' is {wrong}, but the rules have player {mover} to move",
        ):
            from_jasskit_observation({**data, "currentPlayer": wrong})
    with pytest.raises(InvalidInputError, match="'currentPlayer'"):
        from_jasskit_observation({key: v for key, v in data.items() if key != "currentPlayer"})


def test_a_boolean_current_player_is_refused_like_the_other_player_fields() -> None:
    for seed in range(40):  # a deal whose forehand is jass-kit's player 1 (our seat 3)
        game = Game.new(rules.JASSKIT, seed=seed).deal()
        if game.to_move == Seat(3):
            break
    data = to_jasskit_observation(game.view(Seat(3)))
    assert data["currentPlayer"] == 1
    with pytest.raises(InvalidInputError, match="'currentPlayer'"):
        from_jasskit_observation({**data, "currentPlayer": True})


def test_cards_in_a_trick_before_a_trump_is_chosen_are_refused() -> None:
    _, data = mid_hand_observation(Seat(0))
    for trump in (-1, 10):
        with pytest.raises(InvalidInputError, match="trick 0 has cards, but no trump"):
            from_jasskit_observation({**data, "trump": trump})


def test_an_illegal_lead_player_and_a_wrong_trick_winner_are_refused() -> None:
    _, data = mid_hand_observation(Seat(0))
    leader = data["tricks"][1]["first"]
    moved = copy.deepcopy(data)
    moved["tricks"][1]["first"] = (leader + 1) % 4
    with pytest.raises(InvalidInputError, match=r"trick 1"):
        from_jasskit_observation(moved)
    won = copy.deepcopy(data)
    won["tricks"][0]["win"] = (won["tricks"][0]["win"] + 1) % 4
    with pytest.raises(InvalidInputError, match=r"trick 0: 'win'"):
        from_jasskit_observation(won)


# --- malformed input: InvalidInputError, and nothing else ---------------------------------------


def _set(path: tuple[Any, ...], value: JSON) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        node: Any = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        del data[key]

    return change


MALFORMED: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (_set(("player",), None), "'player'"),
    (_set(("player",), 3), "'player'"),
    (_set(("player",), [{"hand": []}] * 3), "'player'"),
    (_set(("player", 0), None), "player 0"),
    (_set(("player", 0), ["HA"]), "player 0"),
    (_set(("player", 0, "hand"), None), r"player\[0\]\.hand"),
    (_set(("player", 0, "hand"), "HA"), r"player\[0\]\.hand"),
    (_set(("player", 0, "hand"), [None]), "jass-kit notation"),
    (_set(("player", 0, "hand"), [7]), "jass-kit notation"),
    (_set(("player", 0, "hand"), ["X9"]), "jass-kit notation"),
    (_set(("player", 0, "hand"), ["H1"]), "1H"),
    (_set(("player", 0, "hand"), ["H"]), "jass-kit notation"),
    (_set(("player", 0, "hand"), ["10H"]), "."),
    (_set(("tricks",), None), "'tricks'"),
    (_set(("tricks",), 4), "'tricks'"),
    (_set(("tricks",), [{"first": 0}] * 10), "'tricks'"),
    (_set(("tricks", 0), "SA"), "trick 0"),
    (_set(("tricks", 0, "cards"), None), r"tricks\[0\]\.cards"),
    (_set(("tricks", 0, "cards"), ["SA", "SK", "SQ", "SJ", "S10"]), "trick 0 has 5 cards"),
    (_set(("tricks", 0, "first"), True), r"tricks\[0\]\.first"),
    (_set(("tricks", 0, "first"), None), r"tricks\[0\]\.first"),
    (_set(("tricks", 0, "first"), 4), r"tricks\[0\]\.first"),
    (_set(("playerView",), 7), "'playerView'"),
    (_set(("playerView",), True), "'playerView'"),
    (_set(("playerView",), "0"), "'playerView'"),
    (_set(("playerView",), None), "'playerView'"),
    (_drop("playerView"), "'playerView' is missing"),
    (_set(("dealer",), False), "'dealer'"),
    (_set(("dealer",), -1), "'dealer'"),
    (_set(("trump",), True), "'trump'"),
    (_set(("trump",), 6), "'trump'"),
    (_set(("trump",), "4"), "'trump'"),
    (_set(("trump",), [4]), "'trump'"),
    (_drop("trump"), "'trump' is missing"),
    (_drop("tricks"), "'tricks' is missing"),
    (_set(("version",), "V0.3"), "'version'"),
    (_set(("version",), None), "'version'"),
]


@pytest.mark.parametrize(("change", "message"), MALFORMED)
def test_malformed_observations_are_refused_saying_which_field(
    change: Callable[[dict[str, Any]], None], message: str
) -> None:
    _, data = mid_hand_observation(Seat(0))
    data = through_json(data)
    change(data)
    with pytest.raises(InvalidInputError, match=message):
        from_jasskit_observation(data)


@pytest.mark.parametrize("data", [None, [], "observation", 3, True, [{"trump": 1}]])
def test_an_observation_that_is_not_an_object_is_refused(data: JSON) -> None:
    with pytest.raises(InvalidInputError, match="JSON object"):
        from_jasskit_observation(data)


def test_the_ruleset_argument_must_be_a_ruleset() -> None:
    _, data = mid_hand_observation(Seat(0))
    with pytest.raises(InvalidInputError, match="RuleSet"):
        from_jasskit_observation(data, "JASSKIT")  # type: ignore[arg-type]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 12)
    | st.floats(allow_nan=False)
    | st.sampled_from(["", "HA", "H10", "D6", "S", "10H", "X9", "H1", "V0.2", "cards"])
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["hand", "cards", "first", "win", "points"]), inner)
    ),
    max_leaves=8,
)


def _paths(node: JSON, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


@settings(max_examples=150)
@given(
    seed=seeds,
    cards=st.integers(0, 36),
    viewer=st.sampled_from(list(Seat)),
    where=st.integers(0, 10**6),
    value=json_values,
)
def test_any_value_anywhere_gives_a_view_or_an_invalid_input_error(
    seed: int, cards: int, viewer: Seat, where: int, value: JSON
) -> None:
    rng = random.Random(seed)
    game = Game.new(rules.JASSKIT, seed=seed).deal().choose(rng.choice(KIT_CONTRACTS))
    for _ in range(cards):
        game = game.play(rng.choice(game.legal_moves().cards()))
    data = through_json(to_jasskit_observation(game.view(viewer)))
    paths = _paths(data)
    _set(paths[where % len(paths)], value)(data)
    try:
        view = from_jasskit_observation(data)
    except InvalidInputError:
        return
    assert isinstance(view, PlayerView)
