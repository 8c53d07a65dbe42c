"""jass-kit's issue #10 undertrumps, read leniently (``kit_undertrumps=True``) or refused.

jass-kit 2.0.5 judges the fourth card of a trick against the wrong trump: on a plain-suit lead
in a trump contract, when the second and third cards are both trumps, it compares the fourth
player's trump with the LOWER of those two in the natural order of ranks (6 7 8 9 10 J Q K A),
not with the best trump of the trick. So a player holding other cards may play a trump that
beats that lower one in the order of trumps (6 7 8 10 Q K A 9 J) and yet is under the trick's
best trump: an undertrump that the rules refuse. ``kit_undertrumps=True`` reads exactly such
cards of the OTHER players, and takes nothing from them about their player's hand.

The positions are found in seeded hands played with random legal cards, by the shape written
out here (with the two orders of ranks by hand), not by the library's own test of it. jass-kit
numbers its players the other way round: its player ``p`` is our seat ``-p mod 4``.
"""

from __future__ import annotations

import copy
import functools
import json
import pickle
import random
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from jass import (
    Card,
    CardSet,
    Contract,
    Game,
    InvalidInputError,
    Phase,
    Play,
    PlayerView,
    Seat,
    Suit,
    legal_cards,
    rules,
)
from jass.bots import Bot, MonteCarloBot, RuleBot
from jass.jasskit import PlayerServer
from jass.records import (
    from_jasskit,
    from_jasskit_observation,
    to_jasskit,
    to_jasskit_observation,
)
from tests.kit_helpers import decode, kit, post

JSON = Any  # a decoded JSON value

NATURAL = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")  # the ranks, low to high
TRUMP_ORDER = ("6", "7", "8", "10", "Q", "K", "A", "9", "J")  # the trumps, low to high
TRUMP_SUITS = {Suit.SPADES: "S", Suit.HEARTS: "H", Suit.DIAMONDS: "D", Suit.CLUBS: "C"}
TRUMP_LETTERS = {Contract.trump(suit): letter for suit, letter in TRUMP_SUITS.items()}
HANDS = 3000  # seeded hands searched at most (the rarest position, only_trumps, is in the 1541st)


# --- the shapes, by hand -----------------------------------------------------------------------


def rank(card: Card) -> str:
    return str(card)[:-1]


def suit(card: Card) -> str:
    return str(card)[-1]


def natural(card: Card) -> int:
    return NATURAL.index(rank(card))


def trump_order(card: Card) -> int:
    return TRUMP_ORDER.index(rank(card))


def kit_player(seat: Seat | int) -> int:
    """jass-kit's number of our seat ``seat`` (and the other way round)."""
    return -int(seat) % 4


@dataclass(frozen=True)
class Position:
    """A state of a seeded hand and a card of the player to move: the card it plays there,
    legal or not."""

    seed: int
    game: Game  # before the card
    card: Card

    @property
    def seat(self) -> Seat:
        assert self.game.to_move is not None
        return self.game.to_move

    @property
    def trump(self) -> str:
        assert self.game.contract is not None
        return TRUMP_LETTERS[self.game.contract]

    @property
    def trick_number(self) -> int:
        return len(self.game.tricks)

    @property
    def trick(self) -> tuple[Card, ...]:
        """The trick with the card."""
        return (*self.game.trick, self.card)

    @property
    def hand_after(self) -> CardSet:
        return self.game.hands[self.seat] - CardSet([self.card])

    def is_trump(self, card: Card) -> bool:
        return suit(card) == self.trump

    @property
    def holds_other_cards(self) -> bool:
        """Whether the player holds a card that is not a trump (so that it may not undertrump)."""
        return any(not self.is_trump(card) for card in self.game.hands[self.seat])

    @property
    def winner(self) -> Seat:
        """Who takes the trick, the card completing it, when it holds a trump: the best trump."""
        assert len(self.trick) == 4
        trumps = [card for card in self.trick if self.is_trump(card)]
        assert trumps
        best = max(trumps, key=trump_order)
        assert self.game.trick_leader is not None
        return Seat((self.game.trick_leader + self.trick.index(best)) % 4)

    def proven_to_hold_other_cards(self, viewer: Seat) -> bool:
        """Whether ``viewer`` sees that the player held more than trumps: fewer trumps are
        unseen (not in the viewer's hand, not played) than the cards the player has left."""
        seen = set(self.game.hands[viewer]) | {card for _, card in self.game.plays} | {self.card}
        unseen_trumps = 9 - sum(1 for card in seen if self.is_trump(card))
        return unseen_trumps < len(self.hand_after)

    def shown_voids(self) -> list[str]:
        """The plain suits the player showed it lacked earlier: led, and neither followed nor
        trumped."""
        voids = []
        for done in self.game.tricks:
            card = done.cards[(self.seat - done.leader) % 4]
            led = suit(done.cards[0])
            if led != self.trump and suit(card) not in (led, self.trump):
                voids.append(led)
        return voids


def issue_10_shape(position: Position) -> bool:
    """jass-kit's issue #10: a trump contract, a plain lead, the 2nd and 3rd cards trumps, and
    the 4th a trump above the natural-order lower of those two but under the best of them."""
    if position.game.contract not in TRUMP_LETTERS or len(position.trick) != 4:
        return False
    lead, second, third, card = position.trick
    if position.is_trump(lead) or not all(map(position.is_trump, (second, third, card))):
        return False
    lower = min(second, third, key=natural)
    best = max(second, third, key=trump_order)
    return trump_order(lower) < trump_order(card) < trump_order(best)


def issue_10_undertrump(position: Position) -> bool:
    """The shape, by a player that holds other cards: jass-kit allows it, the rules do not."""
    return issue_10_shape(position) and position.holds_other_cards


def plain_lead_undertrump(position: Position) -> bool:
    """A trump under the trick's best trump on a plain lead, by a player holding other cards."""
    if position.game.contract not in TRUMP_LETTERS or len(position.trick) < 2:
        return False
    lead, *between, card = position.trick
    trumps = [c for c in between if position.is_trump(c)]
    return (
        not position.is_trump(lead)
        and position.is_trump(card)
        and bool(trumps)
        and trump_order(card) < max(map(trump_order, trumps))
        and position.holds_other_cards
    )


def disproving_viewers(position: Position) -> list[Seat]:
    return [
        viewer
        for viewer in Seat
        if viewer != position.seat and position.proven_to_hold_other_cards(viewer)
    ]


# --- the positions -----------------------------------------------------------------------------


def seeded_positions() -> Iterator[Position]:
    """Every card in the hand of the player to move, at every state of seeded hands in trump
    contracts played on with random legal cards."""
    contracts = sorted(TRUMP_LETTERS, key=str)
    for seed in range(HANDS):
        rng = random.Random(seed)
        game = Game.new(rules.JASSKIT, seed=seed).deal().choose(rng.choice(contracts))
        while game.phase is Phase.PLAY:
            seat = game.to_move
            assert seat is not None
            for card in game.hands[seat]:
                yield Position(seed, game, card)
            game = game.play(rng.choice(game.legal_moves().cards()))


@functools.cache
def find(shape: Callable[[Position], bool]) -> Position:
    found = next((position for position in seeded_positions() if shape(position)), None)
    assert found is not None, f"no {shape.__name__} position in {HANDS} seeded hands"
    return found


def main_case(position: Position) -> bool:
    """An issue #10 undertrump before the last trick, by a player that showed a void earlier,
    that each other player can tell is one."""
    return (
        issue_10_undertrump(position)
        and position.trick_number < 8
        and bool(position.shown_voids())
        and len(disproving_viewers(position)) == 3
    )


def one_trump_before(position: Position) -> bool:
    """A fourth card undertrumping the only trump of the trick (not issue #10)."""
    return (
        len(position.trick) == 4
        and sum(map(position.is_trump, position.trick[1:3])) == 1
        and plain_lead_undertrump(position)
        and bool(disproving_viewers(position))
    )


def third_card(position: Position) -> bool:
    """A third card undertrumping the second (not issue #10)."""
    return (
        len(position.trick) == 3
        and plain_lead_undertrump(position)
        and bool(disproving_viewers(position))
    )


def under_both(position: Position) -> bool:
    """After two trumps, a trump that does not beat even the natural-order lower of them:
    jass-kit refuses it too."""
    if len(position.trick) != 4 or not plain_lead_undertrump(position):
        return False
    second, third = position.trick[1:3]
    lower = min(second, third, key=natural)
    return (
        position.is_trump(second)
        and position.is_trump(third)
        and trump_order(position.card) < trump_order(lower)
        and bool(disproving_viewers(position))
    )


def under_the_natural_lower(position: Position) -> bool:
    """After two trumps whose natural-order lower is the best (a Buur or a Nell with a trump
    above it in natural order), a trump between them in the order of trumps: jass-kit judges
    it against that best trump, so it refuses it too."""
    if len(position.trick) != 4 or not plain_lead_undertrump(position):
        return False
    second, third = position.trick[1:3]
    lower = min(second, third, key=natural)
    other = max(second, third, key=natural)
    return (
        position.is_trump(second)
        and position.is_trump(third)
        and trump_order(other) < trump_order(position.card) < trump_order(lower)
        and bool(disproving_viewers(position))
    )


def only_trumps(position: Position) -> bool:
    """The issue #10 shape by a player that holds only trumps, which the rules allow too."""
    return issue_10_shape(position) and not position.holds_other_cards


def unproven(position: Position) -> bool:
    """An issue #10 undertrump that some other player cannot tell from a legal undertrump:
    a deal giving the player only trumps explains every card it sees."""
    return issue_10_undertrump(position) and bool(reading_viewers(position))


def reading_viewers(position: Position) -> list[Seat]:
    """The other players whose observation the rules read (strictly) after the card."""
    readers = []
    for viewer in Seat:
        if viewer == position.seat:
            continue
        try:
            from_jasskit_observation(observation(kit_hand(position), viewer))
        except InvalidInputError:
            continue
        readers.append(viewer)
    return readers


# --- jass-kit JSON, by hand --------------------------------------------------------------------


def kit_hand(position: Position) -> JSON:
    """The jass-kit JSON of the whole hand, the card played: ``to_jasskit`` of the game before
    it, the card moved from the player's hand to the trick, and who is to move next."""
    data = json.loads(json.dumps(to_jasskit(position.game)))
    data["tricks"][-1]["cards"].append(kit(position.card))
    data["player"][kit_player(position.seat)]["hand"].remove(kit(position.card))
    if len(position.trick) < 4:
        data["currentPlayer"] = kit_player((position.seat + 1) % 4)
        return data
    winner = kit_player(position.winner)
    data["tricks"][-1]["win"] = winner
    if position.trick_number < 8:
        data["tricks"].append({"first": winner})
        data["currentPlayer"] = winner
    else:
        data["currentPlayer"] = -1
    return data


def observation(data: JSON, viewer: Seat) -> JSON:
    """What player ``viewer`` receives of the hand ``data``: its own cards only."""
    seen = copy.deepcopy(data)
    for player, entry in enumerate(seen["player"]):
        if player != kit_player(viewer):
            entry["hand"] = []
    seen["playerView"] = kit_player(viewer)
    return seen


def assert_names(message: str, position: Position) -> None:
    """``message`` names the trick and the card."""
    assert re.search(rf"\btrick {position.trick_number}\b", message), message
    assert re.search(rf"\b{kit(position.card)}\b", message), message


def assert_refused(
    position: Position, read: Callable[..., object], *args: Any, **options: Any
) -> None:
    """``read(*args, **options)`` refuses the card, naming the trick and the card."""
    with pytest.raises(InvalidInputError) as caught:
        read(*args, **options)
    assert_names(str(caught.value), position)


def assert_sound(view: PlayerView, hands: tuple[CardSet, ...]) -> None:
    """What the view says the other players do not hold, they do not hold."""
    for seat in Seat:
        if seat != view.seat:
            assert not view.excluded[seat] & hands[seat], (seat, view.excluded[seat])


def legal_by_the_rules(view: PlayerView) -> CardSet:
    """``jass.legal_cards`` of the view's hand on its trick."""
    assert view.contract is not None
    return legal_cards(view.hand, view.trick, view.contract, view.ruleset)


def mc_bot(seed: int = 0) -> MonteCarloBot:
    return MonteCarloBot(seed, samples=2, time_limit=None)


def assert_bots_answer(view: PlayerView) -> None:
    bots: list[Bot] = [mc_bot(), RuleBot(0)]
    for bot in bots:
        action = bot.choose_action(view)
        assert isinstance(action, Play)
        assert action.card in view.legal_moves(), (bot, action)


# --- the search itself -------------------------------------------------------------------------


@pytest.mark.slow
def test_the_positions_are_the_shapes_they_are_named_for() -> None:
    position = find(main_case)
    card = position.card
    assert card in position.game.hands[position.seat]
    assert card not in position.game.legal_moves()  # the rules refuse it
    contract = position.game.contract
    assert contract is not None
    hand = position.game.hands[position.seat]
    assert card not in legal_cards(hand, position.game.trick, contract, rules.JASSKIT)
    for refused in (one_trump_before, third_card, under_both, under_the_natural_lower):
        other = find(refused)
        assert other.card not in other.game.legal_moves(), refused.__name__
        assert not issue_10_shape(other), refused.__name__
    allowed = find(only_trumps)
    assert allowed.card in allowed.game.legal_moves()


@pytest.mark.parametrize(
    ("second", "third", "shaped"),
    [
        ("7H", "KH", "8H 10H QH"),  # the orders agree: between 7 and K in either
        ("10H", "AH", "QH KH"),
        ("6H", "JH", "7H 8H 10H QH KH AH 9H"),  # the Buur best, the 6 lower in both
        ("AH", "9H", ""),  # the natural lower (the Nell) is the best trump: none between
        ("QH", "JH", ""),  # the same with the Buur
    ],
)
def test_the_shape_as_written_here(second: str, third: str, shaped: str) -> None:
    # Seat 0 leads the ace of spades; seats 1 and 2 have no spade and trump (hearts); seat 3
    # holds the other seven trumps and two clubs.
    others = [
        c for c in CardSet.parse("6H 7H 8H 9H 10H JH QH KH AH") if str(c) not in (second, third)
    ]
    hands = [
        "AS KS QS JS 10S 9S 8S 7S 6S",
        f"{second} 6D 7D 8D 9D 10D JD QD KD",
        f"{third} AD 6C 7C 8C 9C 10C JC QC",
        " ".join([*map(str, others), "KC", "AC"]),
    ]
    game = Game.new(rules.JASSKIT, seed=0, dealer=Seat(3)).deal(hands=hands)
    game = game.choose(Contract.trump(Suit.HEARTS)).play("AS").play(second).play(third)
    assert game.to_move == Seat(3)
    found = [c for c in game.hands[Seat(3)] if issue_10_shape(Position(0, game, c))]
    assert found == list(CardSet.parse(shaped))
    assert all(issue_10_undertrump(Position(0, game, c)) for c in found)
    assert not set(found) & set(game.legal_moves())  # all undertrumps to the rules


# --- an issue #10 undertrump by another player -------------------------------------------------


def test_strict_reading_refuses_it_naming_the_trick_and_the_card() -> None:
    position = find(main_case)
    data = kit_hand(position)
    assert_refused(position, from_jasskit, data, rules.JASSKIT)
    for viewer in Seat:
        if viewer != position.seat:
            seen = observation(data, viewer)
            assert_refused(position, from_jasskit_observation, seen)
            assert_refused(position, from_jasskit_observation, seen, kit_undertrumps=False)


def test_lenient_reading_gives_the_view_and_takes_nothing_from_the_card() -> None:
    position = find(main_case)
    data = kit_hand(position)
    before = position.game
    hands = tuple(
        position.hand_after if seat == position.seat else before.hands[seat] for seat in Seat
    )
    for viewer in Seat:
        if viewer == position.seat:
            continue
        view = from_jasskit_observation(observation(data, viewer), kit_undertrumps=True)
        assert view.seat == viewer
        assert view.hand == before.hands[viewer]
        assert view.tricks[-1].cards == position.trick
        assert view.tricks[-1].winner == position.winner
        assert view.trick == ()
        assert view.to_move == position.winner
        assert view.contract == before.contract
        if viewer == position.winner:
            assert view.legal_moves() == legal_by_the_rules(view)
            assert view.legal_moves() == view.hand  # it leads
            assert {a.card for a in view.legal_actions() if isinstance(a, Play)} == set(view.hand)
        else:
            assert view.legal_actions() == ()
        # No "held only trumps" from the card: the player's other cards are not excluded...
        excluded = view.excluded[position.seat]
        assert not excluded & position.hand_after
        assert not CardSet(c for c in view.unknown() if not position.is_trump(c)) <= excluded
        # ... while every legal card before it tells what it told (a void shown earlier).
        assert view.excluded == before.view(viewer).excluded
        for void in position.shown_voids():
            assert CardSet(c for c in CardSet.full() if suit(c) == void) <= excluded
        assert_sound(view, hands)


def test_the_hand_plays_on_and_every_later_observation_reads() -> None:
    position = find(main_case)
    game = from_jasskit(kit_hand(position), rules.JASSKIT, kit_undertrumps=True)
    rng = random.Random(position.seed)
    answered = 0
    while game.phase is Phase.PLAY:
        mover = game.to_move
        assert mover is not None
        for viewer in Seat:
            if viewer == position.seat:
                continue  # its own undertrump, which it reads as refused (tested below)
            seen = to_jasskit_observation(game.view(viewer))
            view = from_jasskit_observation(json.loads(json.dumps(seen)), kit_undertrumps=True)
            assert view.hand == game.hands[viewer]
            assert view.plays == game.plays
            assert view.to_move == mover
            assert_sound(view, game.hands)
            if viewer == mover:
                assert view.legal_moves() == game.legal_moves()
                assert view.legal_moves() == legal_by_the_rules(view)
                assert_bots_answer(view)  # MonteCarloBot samples deals from view.excluded
                answered += 1
        game = game.play(rng.choice(game.legal_moves().cards()))
    assert game.result is not None
    assert answered == 3 * (8 - position.trick_number)  # every card after it but its player's


def test_from_jasskit_reads_the_hand_only_when_lenient() -> None:
    position = find(main_case)
    data = kit_hand(position)
    assert_refused(position, from_jasskit, data)
    assert_refused(position, from_jasskit, data, kit_undertrumps=False)
    game = from_jasskit(data, rules.JASSKIT, kit_undertrumps=True)
    assert game.plays == (*position.game.plays, (position.seat, position.card))
    assert game.tricks[-1].cards == position.trick
    assert game.tricks[-1].winner == position.winner
    assert game.to_move == position.winner
    assert game.hands[position.seat] == position.hand_after
    back = from_jasskit(to_jasskit(game), rules.JASSKIT, kit_undertrumps=True)
    assert back.plays == game.plays
    assert back.hands == game.hands
    # The card is listed as unchecked, also after pickling and after more cards.
    index = len(position.game.plays)
    assert game.unchecked_plays == frozenset({index})
    copied = pickle.loads(pickle.dumps(game))
    assert copied == game
    assert copied.unchecked_plays == frozenset({index})
    later = game.play(game.legal_moves().cards()[0])
    assert later.unchecked_plays == frozenset({index})
    assert position.game.unchecked_plays == frozenset()


# --- what stays refused ------------------------------------------------------------------------


def test_the_viewers_own_issue_10_undertrump_is_refused_even_when_lenient() -> None:
    position = find(main_case)
    seen = observation(kit_hand(position), position.seat)
    assert seen["player"][kit_player(position.seat)]["hand"] == [
        kit(card) for card in position.hand_after
    ]
    assert_refused(position, from_jasskit_observation, seen)
    assert_refused(position, from_jasskit_observation, seen, kit_undertrumps=True)


@pytest.mark.parametrize(
    "shape", [one_trump_before, third_card, under_both, under_the_natural_lower]
)
def test_other_undertrumps_are_refused_even_when_lenient(
    shape: Callable[[Position], bool],
) -> None:
    position = find(shape)
    data = kit_hand(position)
    for lenient in (False, True):
        assert_refused(position, from_jasskit, data, kit_undertrumps=lenient)
        for viewer in disproving_viewers(position):
            seen = observation(data, viewer)
            assert_refused(position, from_jasskit_observation, seen, kit_undertrumps=lenient)


def test_the_issue_10_shape_by_a_player_holding_only_trumps_reads_either_way() -> None:
    position = find(only_trumps)
    data = kit_hand(position)
    after = position.game.play(position.card)  # legal under the rules
    for lenient in (False, True):
        assert from_jasskit(data, kit_undertrumps=lenient).plays == after.plays
        for viewer in Seat:
            view = from_jasskit_observation(observation(data, viewer), kit_undertrumps=lenient)
            truth = after.view(viewer)
            assert view.hand == truth.hand
            assert view.plays == truth.plays
            assert view.legal_moves() == truth.legal_moves()
            assert_sound(view, after.hands)
            if not lenient:
                assert view == truth
                assert view.excluded == truth.excluded


# --- bugs found --------------------------------------------------------------------------------


def test_lenient_reading_takes_nothing_from_an_issue_10_card_it_cannot_disprove() -> None:
    position = find(unproven)
    data = kit_hand(position)
    hands = tuple(
        position.hand_after if seat == position.seat else position.game.hands[seat] for seat in Seat
    )
    for viewer in reading_viewers(position):
        view = from_jasskit_observation(observation(data, viewer), kit_undertrumps=True)
        assert_sound(view, hands)


def test_the_views_of_a_game_read_leniently_take_nothing_from_the_card() -> None:
    position = find(main_case)
    game = from_jasskit(kit_hand(position), rules.JASSKIT, kit_undertrumps=True)
    view = game.view(position.winner)
    assert_sound(view, game.hands)
    assert_bots_answer(view)


# --- the player service ------------------------------------------------------------------------


def service_observations() -> list[JSON]:
    """The observation of the player to move just after the card (it leads), and a later one
    where the player to move follows, not the undertrumping player."""
    position = find(main_case)
    first = observation(kit_hand(position), position.winner)
    game = from_jasskit(kit_hand(position), rules.JASSKIT, kit_undertrumps=True)
    rng = random.Random(position.seed)
    while not game.trick or game.to_move == position.seat:
        game = game.play(rng.choice(game.legal_moves().cards()))
    assert game.to_move is not None
    return [first, to_jasskit_observation(game.view(game.to_move))]


def test_the_player_service_answers_by_default_and_refuses_when_strict() -> None:
    position = find(main_case)
    cases = service_observations()
    bots: dict[str, Bot | Callable[[int], Bot]] = {"rule": RuleBot, "mc": mc_bot}
    with PlayerServer(bots, port=0) as server:
        assert server.kit_undertrumps
        for name in bots:
            for seen in cases:
                status, answer = post(f"{server.url}/{name}/action_play_card", seen)
                assert status == 200, answer
                view = from_jasskit_observation(seen, kit_undertrumps=True)
                assert decode("action_play_card", answer) in view.legal_actions()
    with PlayerServer(bots, port=0, kit_undertrumps=False) as server:
        for seen in cases:
            status, answer = post(f"{server.url}/rule/action_play_card", seen)
            assert status == 400, answer
            assert_names(answer["error"], position)


@pytest.mark.parametrize("strict", [False, True])
def test_jass_serve_reads_it_unless_strict(strict: bool) -> None:
    position = find(main_case)
    seen = service_observations()[0]
    command = [sys.executable, "-m", "jass", "serve", "--port", "0", "--bot", "r=rule"]
    command += ["--strict"] if strict else []
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(60, process.kill)  # a server that never starts fails the test
    watchdog.start()
    try:
        assert process.stdout is not None
        url = process.stdout.readline().split()[0]
        status, answer = post(url + "/action_play_card", seen)
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=20)
    finally:
        watchdog.cancel()
        if process.poll() is None:
            process.kill()
            process.communicate()
    if strict:
        assert status == 400, answer
        assert_names(answer["error"], position)
    else:
        assert status == 200, answer
        view = from_jasskit_observation(seen, kit_undertrumps=True)
        assert decode("action_play_card", answer) in view.legal_actions()
