"""The jass-kit / Swisslos JSON formats: a hand, and what a player service receives.

:mod:`jass.records` re-exports these; :mod:`jass.jasskit` builds its bots and its server on
them. Players there are numbered clockwise with play going counterclockwise (the next player
of 0 is 3), so their player ``p`` is our seat ``-p mod 4``, and the other way round. Cards are
written suit first (``"DA"``, ``"H10"``); trumps are 0-5 for diamonds, hearts, spades, clubs,
Obenabe, Undenufe; ``"forehand"`` is 1 if the forehand chose, 0 once the choice was shoved
(also while the partner chooses), -1 before.

>>> import jass
>>> g = jass.Game.new(jass.rules.JASSKIT, seed=3).deal().shove()
>>> data = to_jasskit(g)
>>> back = from_jasskit(data, jass.rules.JASSKIT)
>>> data["trump"], data["forehand"], back.hand_info.shoves, back.hands == g.hands
(-1, 0, 1, True)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final

from jass._budgets import is_int
from jass.core.cards import Card, CardSet
from jass.core.contracts import Contract
from jass.core.seats import Seat
from jass.engine.game import Game, play_unchecked
from jass.engine.hand import Trick
from jass.engine.view import PlayerView, excluded_cards
from jass.errors import InvalidInputError, JassError, describe
from jass.rules import JASSKIT, SCHIEBER, RuleSet

__all__ = ["from_jasskit", "from_jasskit_observation", "to_jasskit", "to_jasskit_observation"]

_KIT_SUITS: Final = {"D": "D", "H": "H", "S": "S", "C": "C"}
KIT_TRUMPS: Final = ("TRUMP_DIAMONDS", "TRUMP_HEARTS", "TRUMP_SPADES", "TRUMP_CLUBS",
                      "OBENABE", "UNDENUFE")  # fmt: skip
KIT_VERSION: Final = "V0.2"
KIT_PUSH: Final = 10  # the Swisslos code for a shove


def kit_seat(player: int) -> int:
    """Our seat of jass-kit's player ``player``, and the other way round.

    >>> kit_seat(1), kit_seat(3), kit_seat(kit_seat(1))
    (3, 1, 1)
    """
    return (-player) & 3  # the mapping is its own inverse


def kit_card(text: object) -> Card:
    """The card written ``text`` in jass-kit's notation (suit first).

    >>> kit_card("H10"), kit_card("DA")
    (Card.parse('10H'), Card.parse('AD'))
    """
    if not isinstance(text, str) or len(text) < 2 or text[0] not in _KIT_SUITS:
        raise InvalidInputError(
            f"{describe(text, typed=False)} is not a card in jass-kit notation (like 'DA', 'H10')"
        )
    return Card.parse(text[1:] + text[0])


def to_kit_card(card: Card) -> str:
    """``card`` in jass-kit's notation (suit first).

    >>> to_kit_card(Card.parse("10H"))
    'H10'
    """
    text = str(card)
    return text[-1] + text[:-1]


def to_jasskit(game: Game) -> dict[str, Any]:
    """The current (or just finished) hand of ``game`` in the jass-kit / Swisslos JSON format.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("hearts")
    >>> kit = to_jasskit(g.play(g.legal_moves().cards()[0]))
    >>> kit["trump"], len(kit["tricks"][0]["cards"]), kit["version"]
    (1, 1, 'V0.2')
    """
    hand = game.hand_info
    if hand is None:
        raise InvalidInputError("the game has no hand yet: deal first")
    return _kit_hand(
        hand.dealer,
        hand.contract,
        hand.shoves,
        game.tricks,
        game.trick,
        game.trick_leader,
        game.is_over,
        game.to_move,
        game.hands,
    )


def to_jasskit_observation(view: PlayerView) -> dict[str, Any]:
    """What a jass-kit player service receives for ``view``: its ``GameObservation`` JSON.

    The format of :func:`to_jasskit`, with ``playerView`` (the viewer, as a jass-kit player)
    and the viewer's cards only; the other players' hands are empty.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal()
    >>> obs = to_jasskit_observation(g.view(g.to_move))
    >>> obs["playerView"] == obs["currentPlayer"], sorted(len(p["hand"]) for p in obs["player"])
    (True, [0, 0, 0, 9])
    """
    dealer = view.dealer
    if dealer is None:
        raise InvalidInputError("the game has no hand yet: deal first")
    empty = CardSet()
    hands = tuple(view.hand if seat == view.seat else empty for seat in Seat)
    data = _kit_hand(
        dealer,
        view.contract,
        view.shoves,
        view.tricks,
        view.trick,
        view.trick_leader,
        view.result is not None,
        view.to_move,
        (hands[0], hands[1], hands[2], hands[3]),
    )
    return {**data, "playerView": kit_seat(view.seat)}


def _kit_hand(
    dealer: Seat,
    contract: Contract | None,
    shoves: int,
    tricks_done: tuple[Trick, ...],
    trick: tuple[Card, ...],
    leader: Seat | None,
    is_over: bool,
    mover: Seat | None,
    hands: tuple[CardSet, CardSet, CardSet, CardSet],
) -> dict[str, Any]:
    """A hand in the jass-kit JSON format, from what a game or a view tells of it."""
    if contract is not None and contract.name not in KIT_TRUMPS:
        raise InvalidInputError(f"the jass-kit format has no {contract.name}")
    if shoves > 1:
        raise InvalidInputError("the jass-kit format has no shove back (allow_shove_back)")
    tricks: list[dict[str, Any]] = [
        {
            "cards": [to_kit_card(card) for card in done.cards],
            "points": done.points,
            "win": kit_seat(done.winner),
            "first": kit_seat(done.leader),
        }
        for done in tricks_done
    ]
    if trick or (contract is not None and len(tricks) < 9 and not is_over):
        current: dict[str, Any] = {"cards": [to_kit_card(card) for card in trick]}
        if leader is not None:
            current["first"] = kit_seat(leader)
        if not current["cards"]:
            del current["cards"]
        tricks.append(current)
    return {
        "version": KIT_VERSION,
        "trump": KIT_TRUMPS.index(contract.name) if contract is not None else -1,
        "dealer": kit_seat(dealer),
        "currentPlayer": kit_seat(mover) if mover is not None else -1,
        # jass-kit: -1 before the choice, 0 once shoved (also while the partner chooses), 1 if
        # the forehand chose.
        "forehand": 0 if shoves else (-1 if contract is None else 1),
        "tricks": tricks,
        "player": [{"hand": [to_kit_card(c) for c in hands[kit_seat(p)]]} for p in range(4)],
        "jassTyp": "SCHIEBER",
    }


def from_jasskit(
    data: Mapping[str, Any], ruleset: RuleSet | None = None, *, kit_undertrumps: bool = False
) -> Game:
    """Replay a hand in the jass-kit / Swisslos JSON format through the rules, checking it.

    The result is a :class:`~jass.Game` whose first hand is that hand (its dealer is the
    record's). Every card must be legal, and each complete trick's ``first``, ``win`` and
    ``points`` must be what the rules give; otherwise :class:`~jass.InvalidInputError` names
    the trick, the card and the reason. ``ruleset`` (default ``SCHIEBER``) gives the scoring
    options; the game starts from no points, with the record's dealer.

    ``kit_undertrumps=True`` lets through the undertrumps that jass-kit allows and the rules
    do not (its open issue #10, see :func:`from_jasskit_observation`), to read jass-kit's logs
    whole; the game then holds a card that broke a rule, and its record cannot be replayed.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("hearts")
    >>> from_jasskit(to_jasskit(g)).hands == g.hands
    True
    """
    if ruleset is not None and not isinstance(ruleset, RuleSet):
        raise InvalidInputError(f"ruleset must be a RuleSet, got {describe(ruleset)}")
    dealer, held, tricks = _read_hand(data, "hand")
    dealt = _dealt(held, tricks)
    plays = _plays(tricks)
    contract = _kit_contract(data.get("trump"))
    unchecked: set[int] = set()
    while True:
        try:
            return _replay(data, ruleset or SCHIEBER, dealer, dealt, tricks, unchecked)
        except _CardRefusedError as exc:  # noqa: PERF203  (at most one retry per card)
            if not (kit_undertrumps and contract is not None and exc.index not in unchecked):
                raise
            if not _kit_allows(plays, exc.index, contract):
                raise
            unchecked.add(exc.index)


def from_jasskit_observation(
    data: Mapping[str, Any], ruleset: RuleSet | None = None, *, kit_undertrumps: bool = False
) -> PlayerView:
    """Read a jass-kit ``GameObservation`` JSON (what a player service receives) as a view.

    The result is the :class:`~jass.PlayerView` of the observation's ``playerView``, in a
    hand played under ``ruleset`` (default :data:`jass.rules.JASSKIT`). Every card played is
    checked against the rules, as :func:`from_jasskit` does. The cards the viewer has not
    seen are given to the other players in some deal that agrees with every card played (who
    could not follow suit, who undertrumped); the view hides them, so a bot cannot tell which.
    An observation that no deal explains raises :class:`~jass.InvalidInputError` naming the
    trick and the card, and so does a wrong ``currentPlayer``.

    ``kit_undertrumps=True`` accepts, from the other players only, the undertrumps that
    jass-kit allows and the rules do not (its open issue #10: on a plain lead with two
    trumps in the trick, a trump above the lower of the two in natural order but below the
    higher). jass-kit's referee lets them through, so a player service in its tournament
    meets them; such a card tells nothing about its player's hand.

    >>> import jass
    >>> g = jass.Game.new(jass.rules.JASSKIT, seed=3).deal().choose("hearts")
    >>> g = g.play(g.legal_moves().cards()[0])
    >>> view = from_jasskit_observation(to_jasskit_observation(g.view(g.to_move)))
    >>> view == g.view(g.to_move), view.legal_moves() == g.legal_moves()
    (True, True)
    """
    if ruleset is not None and not isinstance(ruleset, RuleSet):
        raise InvalidInputError(f"ruleset must be a RuleSet, got {describe(ruleset)}")
    ruleset = ruleset or JASSKIT
    dealer, held, tricks = _read_hand(data, "observation")
    if "playerView" not in data:
        raise InvalidInputError("jass-kit field 'playerView' is missing")
    seat = Seat(kit_seat(_kit_player(data["playerView"], "playerView")))
    for other in Seat:
        if other != seat and held[other]:
            raise InvalidInputError(
                f"jass-kit observation: player {kit_seat(other)}'s hand is shown to player "
                f"{kit_seat(seat)}; an observation holds the viewer's cards only"
            )
    dealt = _dealt(held, tricks)
    played = [dealt[s] & ~held[s] for s in Seat]
    if dealt[seat].bit_count() != 9:
        raise InvalidInputError(
            f"jass-kit observation: player {kit_seat(seat)} holds {held[seat].bit_count()} cards "
            f"and played {played[seat].bit_count()}; that makes {dealt[seat].bit_count()}, not 9"
        )
    plays = _plays(tricks)
    contract = _kit_contract(data.get("trump"))
    # The other players' cards that jass-kit allows and the rules may not: read unchecked,
    # so that they tell nothing about their players' hands (the viewer cannot tell whether
    # such a card broke a rule).
    unchecked = {
        index
        for index, (player, _) in enumerate(plays)
        if kit_undertrumps
        and player != seat
        and contract is not None
        and _kit_allows(plays, index, contract)
    }
    deal = _fill(dealt, seat, plays, contract, ruleset, unchecked)
    view = _replay(data, ruleset, dealer, deal, tricks, unchecked).view(seat)
    mover = data.get("currentPlayer", -1)
    expected = kit_seat(view.to_move) if view.to_move is not None else -1
    if isinstance(mover, bool) or mover != expected:
        raise InvalidInputError(
            f"jass-kit field 'currentPlayer' is {describe(mover, typed=False)}, but the rules "
            f"have player {expected} "
            "to move"
        )
    return view


# --- reading -----------------------------------------------------------------------------

_Tricks = list[tuple[int | None, list[Card]]]  # (the leader's seat, the cards) per trick


class _CardRefusedError(InvalidInputError):
    """A card of the hand that the rules refuse; ``index`` numbers it among the plays."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index


def _plays(tricks: _Tricks) -> list[tuple[Seat, Card]]:
    return [
        (Seat((first + position) & 3), card)
        for first, cards in tricks
        for position, card in enumerate(cards)
        if first is not None
    ]


def _kit_allows(plays: Sequence[tuple[Seat, Card]], index: int, contract: Contract) -> bool:
    """Whether play ``index`` is a trump that jass-kit allows on a plain lead (its issue #10).

    That is the fourth card, after two trumps, above the lower of the two in the natural
    order of ranks (jass-kit compares them so), though perhaps below the higher.
    """
    trumps = contract.trump_mask
    if not trumps or index % 4 != 3:
        return False
    lead, second, third, card = (c for _, c in plays[index - 3 : index + 1])
    if 1 << lead & trumps or not (1 << second & trumps and 1 << third & trumps):
        return False
    if not 1 << card & trumps:
        return False
    lower = min(second, third, key=lambda c: c.rank)  # natural order: 6 low, A high
    return bool(contract.above[lower] >> card & 1)


def _kit_player(value: object, field: str) -> int:
    if not is_int(value) or not 0 <= value <= 3:
        raise InvalidInputError(
            f"jass-kit field {field!r} must be a player 0-3, got {describe(value)}"
        )
    return value


def _kit_cards(value: object, field: str) -> list[Card]:
    if not isinstance(value, list):
        raise InvalidInputError(
            f"jass-kit field {field!r} must be a list of cards, got {describe(value)}"
        )
    cards = []
    for position, text in enumerate(value):
        try:
            cards.append(kit_card(text))
        except InvalidInputError as exc:  # noqa: PERF203  (raised once, to name the card)
            raise InvalidInputError(f"jass-kit field '{field}[{position}]': {exc}") from None
    return cards


def _kit_contract(trump: object) -> Contract | None:
    if isinstance(trump, int) and not isinstance(trump, bool) and 0 <= trump < len(KIT_TRUMPS):
        return Contract.parse(KIT_TRUMPS[trump])
    return None


def _read_hand(data: object, what: str) -> tuple[int, list[int], _Tricks]:
    """The dealer (our seat), the cards each seat holds now, and the tricks, checked for form."""
    if not isinstance(data, Mapping):
        raise InvalidInputError(f"a jass-kit {what} is a JSON object, got {type(data).__name__}")
    for field in ("trump", "dealer", "tricks", "player"):
        if field not in data:
            raise InvalidInputError(f"jass-kit field {field!r} is missing")
    version = data.get("version", KIT_VERSION)
    if version != KIT_VERSION:
        raise InvalidInputError(
            f"jass-kit field 'version' must be {KIT_VERSION!r}, got {describe(version)}"
        )
    dealer = kit_seat(_kit_player(data["dealer"], "dealer"))
    _check_choice(data)
    players = data["player"]
    if not isinstance(players, list) or len(players) != 4:
        raise InvalidInputError("jass-kit field 'player' must list four players")
    held = [0, 0, 0, 0]
    seen = 0
    for player, entry in enumerate(players):
        if not isinstance(entry, Mapping):
            raise InvalidInputError(f"jass-kit player {player} must be an object with a 'hand'")
        for card in _kit_cards(entry.get("hand", []), f"player[{player}].hand"):
            if seen >> card & 1:
                raise InvalidInputError(f"jass-kit hands: card {to_kit_card(card)} is held twice")
            seen |= 1 << card
            held[kit_seat(player)] |= 1 << card
    tricks = data["tricks"]
    if not isinstance(tricks, list) or len(tricks) > 9:
        raise InvalidInputError("jass-kit field 'tricks' must be a list of at most nine tricks")
    read: _Tricks = []
    for index, trick in enumerate(tricks):
        if not isinstance(trick, Mapping):
            raise InvalidInputError(f"jass-kit trick {index} is not an object")
        cards = _kit_cards(trick.get("cards", []), f"tricks[{index}].cards")
        if len(cards) > 4:
            raise InvalidInputError(f"jass-kit trick {index} has {len(cards)} cards, not at most 4")
        if read and len(read[-1][1]) != 4:
            raise InvalidInputError(
                f"jass-kit trick {index} follows trick {index - 1}, which is not complete"
            )
        if "first" in trick:
            first: int | None = kit_seat(_kit_player(trick["first"], f"tricks[{index}].first"))
        elif cards:
            raise InvalidInputError(f"jass-kit trick {index} has cards but no 'first' player")
        else:
            first = None
        read.append((first, cards))
    return dealer, held, read


def _check_choice(data: Mapping[str, Any]) -> None:
    """Check the form of ``trump`` and ``forehand``, and that they agree."""
    trump = data["trump"]
    is_int = isinstance(trump, int) and not isinstance(trump, bool)
    if trump is not None and not (is_int and (0 <= trump < len(KIT_TRUMPS) or trump in (-1, 10))):
        raise InvalidInputError(
            f"jass-kit field 'trump' must be 0-5, 10 or -1, got {describe(trump)}"
        )
    if "forehand" not in data:
        return
    forehand = data["forehand"]
    if isinstance(forehand, bool) or forehand not in (-1, 0, 1):
        raise InvalidInputError(
            f"jass-kit field 'forehand' must be -1, 0 or 1, got {describe(forehand)}"
        )
    if forehand == -1 and is_int and 0 <= trump < len(KIT_TRUMPS):
        raise InvalidInputError(
            f"jass-kit fields 'forehand' and 'trump' disagree: 'forehand' is -1 (no choice "
            f"yet), but 'trump' is {trump}; 'forehand' is 0 once shoved, 1 if the forehand chose"
        )


def _dealt(held: Sequence[int], tricks: _Tricks) -> list[int]:
    """The cards each seat was dealt, as far as they are shown: held now, or played."""
    dealt = list(held)
    for index, (first, cards) in enumerate(tricks):
        for position, card in enumerate(cards):
            seat = ((first or 0) + position) & 3
            holder = next((s for s in range(4) if dealt[s] >> card & 1), None)
            if holder is not None:
                where = "holds it still" if holder != seat else "played it twice or holds it"
                raise InvalidInputError(
                    f"jass-kit trick {index}, card {to_kit_card(card)}: player "
                    f"{kit_seat(seat)} plays it, but player {kit_seat(holder)} {where}"
                )
            dealt[seat] |= 1 << card
    return dealt


def _fill(
    dealt: list[int],
    viewer: Seat,
    plays: list[tuple[Seat, Card]],
    contract: Contract | None,
    ruleset: RuleSet,
    unchecked: set[int],
) -> list[int]:
    """The dealt hands, with the unseen cards given out so that every card played stays legal.

    If no such deal exists, the error names the first card after which none does.
    """
    unseen = _ALL & ~(dealt[0] | dealt[1] | dealt[2] | dealt[3])
    room = [0 if seat == viewer else 9 - dealt[seat].bit_count() for seat in Seat]
    if contract is None or not plays:
        filled = _share(unseen, room, [0, 0, 0, 0])
    else:
        shown = excluded_cards(plays, contract, ruleset, unchecked=unchecked)
        filled = _share(unseen, room, [int(c) for c in shown])
        if filled is None:
            for count in range(1, len(plays) + 1):
                shown = excluded_cards(plays[:count], contract, ruleset, unchecked=unchecked)
                if _share(unseen, room, [int(c) for c in shown]) is None:
                    seat, card = plays[count - 1]
                    raise _CardRefusedError(
                        count - 1,
                        f"jass-kit trick {(count - 1) // 4}, card {to_kit_card(card)}: player "
                        f"{kit_seat(seat)} could not have played it; the cards it shows player "
                        f"{kit_seat(seat)} did not hold leave too few for its hand"
                    )
    if filled is None:
        raise InvalidInputError("jass-kit observation: the unseen cards do not fit the hands")
    return [dealt[seat] | filled[seat] for seat in Seat]


_ALL: Final = (1 << 36) - 1


def _share(cards: int, room: list[int], excluded: list[int]) -> list[int] | None:
    """Each card to a seat that may hold it, each seat's room filled; ``None`` if impossible.

    A bipartite matching by augmenting paths: a full seat passes one of its cards on.
    """
    owner: dict[int, int] = {}
    load = [0, 0, 0, 0]

    def place(card: int, tried: set[int]) -> bool:
        for seat in range(4):
            if seat in tried or not room[seat] or excluded[seat] >> card & 1:
                continue
            tried.add(seat)
            if load[seat] < room[seat]:
                owner[card] = seat
                load[seat] += 1
                return True
            for other in [c for c, s in owner.items() if s == seat]:
                if place(other, tried):  # moved elsewhere: its place is free
                    owner[card] = seat
                    return True
        return False

    for card in range(36):
        if cards >> card & 1 and not place(card, set()):
            return None
    if load != room:
        return None
    hands = [0, 0, 0, 0]
    for card, seat in owner.items():
        hands[seat] |= 1 << card
    return hands


def _replay(
    data: Mapping[str, Any],
    ruleset: RuleSet,
    dealer: int,
    dealt: list[int],
    tricks: _Tricks,
    unchecked: Collection[int] = (),
) -> Game:
    """Deal ``dealt`` and play the hand's contract and cards through the rules.

    The plays numbered in ``unchecked`` (which jass-kit allowed) are not checked.
    """
    if not dealt[(dealer + 1) & 3]:
        raise InvalidInputError("jass-kit hands: the forehand holds no card")
    game = Game.new(ruleset, seed=0, dealer=dealer)
    try:
        game = game.deal(hands=[CardSet(bits) for bits in dealt])
    except JassError as exc:
        raise InvalidInputError(f"jass-kit hands: {exc}") from None
    trump = data["trump"]
    # Older records mark a shoved choice with "tss": 1 instead of "forehand": 0.
    shoved = data.get("forehand", 0 if data.get("tss") == 1 else 1) == 0
    if trump in (KIT_PUSH, -1, None) and not isinstance(trump, bool):
        if any(cards for _, cards in tricks):
            raise InvalidInputError("jass-kit trick 0 has cards, but no trump was chosen")
        # 10: shoved, the partner has not chosen yet (Swisslos logs); -1: "forehand" tells.
        return game.shove() if trump == KIT_PUSH or shoved else game
    contract = _kit_contract(trump)
    if contract is None:
        raise InvalidInputError(
            f"jass-kit field 'trump' must be 0-5, 10 or -1, got {describe(trump)}"
        )
    try:
        if shoved:
            game = game.shove()
        game = game.choose(contract)
    except JassError as exc:
        raise InvalidInputError(f"jass-kit field 'trump': {exc}") from None
    raw = data["tricks"]
    number = 0  # of the play in the hand
    for index, (first, cards) in enumerate(tricks):
        if cards and first != game.trick_leader:
            raise InvalidInputError(
                f"jass-kit trick {index}: 'first' is player {kit_seat(int(first or 0))}, but "
                f"the rules have player {kit_seat(int(game.trick_leader or 0))} lead"
            )
        for card in cards:
            try:
                game = play_unchecked(game, card) if number in unchecked else game.play(card)
            except JassError as exc:
                player = f"player {kit_seat(int(game.to_move or 0))}"
                why = str(exc).replace("you hold", f"{player} holds")
                raise _CardRefusedError(
                    number, f"jass-kit trick {index}, card {to_kit_card(card)} of {player}: {why}"
                ) from None
            number += 1
        if len(cards) == 4:
            done = game.tricks[index]
            for field, expected in (("win", kit_seat(done.winner)), ("points", done.points)):
                if field in raw[index] and raw[index][field] != expected:
                    raise InvalidInputError(
                        f"jass-kit trick {index}: {field!r} is "
                        f"{describe(raw[index][field], typed=False)}, the rules "
                        f"give {expected!r}"
                    )
    return game
