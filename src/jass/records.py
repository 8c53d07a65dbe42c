"""Game records: a versioned JSON format that saves a game and loads it back, checked.

A record holds the rule set (a preset's name plus the options that differ from it), the seed,
the set-up (the scores, the first dealer and the hands played before, as given to
:meth:`jass.Game.new`), and every action since the game began, the deals included. Loading
replays every action through the rules, so a record that breaks a rule, or is malformed, is
refused with an :class:`~jass.InvalidInputError` that names the field or the action and the
reason; nothing is half-loaded.

>>> import jass
>>> g = jass.Game.new(jass.rules.SCHIEBER_1000, seed=3).deal().shove().choose("hearts")
>>> g = g.play(g.legal_moves().cards()[0])
>>> text = dumps(g)
>>> loads(text) == g, loads(text).history == g.history
(True, True)
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from typing import Any, Final

from jass.actions import Action, Choose, Deal, DeclareWeis, Play, Shove, Thank
from jass.cards import Card, CardSet
from jass.contracts import Contract
from jass.errors import InvalidInputError, JassError
from jass.hand import Trick
from jass.rules import PRESETS, SCHIEBER, RuleSet, preset_name
from jass.seats import Seat, Team
from jass.state import Game
from jass.view import PlayerView
from jass.weis import find_weis

__all__ = [
    "FORMAT",
    "VERSION",
    "action_from_json",
    "action_to_json",
    "dumps",
    "from_jasskit",
    "loads",
    "record",
    "replay",
    "to_jasskit",
    "to_jasskit_observation",
]

#: The value of the record's ``format`` field.
FORMAT: Final = "jass-record"
#: The version of the format this module writes; version 1 (no ``setup``) is still read.
VERSION: Final = 2
_READABLE: Final = (1, 2)


def record(game: Game) -> dict[str, Any]:
    """The record of ``game`` as plain JSON values.

    >>> import jass
    >>> r = record(jass.Game.new(seed=5, scores=(800, 650)).deal().choose("obenabe"))
    >>> r["format"], r["version"], r["rules"], r["seed"], r["actions"][1]
    ('jass-record', 2, {'preset': 'SCHIEBER', 'changes': {}}, 5, {'choose': 'OBENABE'})
    >>> r["setup"]
    {'scores': [800, 650], 'dealer': None, 'hands_played': 0}
    """
    ruleset = game.ruleset
    base_name = preset_name(ruleset) or _closest_preset(ruleset)
    changes = ruleset.changes_from(PRESETS[base_name])
    setup = game.setup
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": {
            "preset": base_name,
            "changes": {name: _option_value(value) for name, value in changes.items()},
        },
        "seed": game.seed,
        "setup": {
            "scores": list(setup.scores),
            "dealer": None if setup.dealer is None else int(setup.dealer),
            "hands_played": setup.hands_played,
        },
        "actions": [action_to_json(action) for action in game.history],
    }


def dumps(game: Game, *, indent: int | None = None) -> str:
    """The record of ``game`` as JSON text.

    >>> import jass
    >>> dumps(jass.Game.new(seed=5))
    '{"format": "jass-record", "version": 2, "rules": {"preset": "SCHIEBER", ...}'
    """
    return json.dumps(record(game), indent=indent, ensure_ascii=False)


def loads(text: str) -> Game:
    """Load a game from JSON text, replaying and checking every action.

    >>> loads('{"format": "jass-record", "version": 1, "seed": 1}')
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: record field 'rules' is missing
    """
    if not isinstance(text, str):
        raise InvalidInputError(f"a record is JSON text, got {type(text).__name__}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"the record is not valid JSON: {exc}") from None
    return replay(data)


def replay(data: Mapping[str, Any]) -> Game:
    """The game a record (as plain JSON values) describes, every action replayed and checked.

    >>> import jass
    >>> g = jass.Game.new(seed=2).deal().choose("spades")
    >>> replay(record(g)) == g
    True
    """
    if not isinstance(data, Mapping):
        raise InvalidInputError("a record is a JSON object")
    for field in ("format", "version", "rules", "seed", "actions"):
        if field not in data:
            raise InvalidInputError(f"record field {field!r} is missing")
    if data["format"] != FORMAT:
        raise InvalidInputError(f"record field 'format' must be {FORMAT!r}, got {data['format']!r}")
    version = data["version"]
    if isinstance(version, bool) or version not in _READABLE:
        raise InvalidInputError(
            f"record field 'version' must be one of {list(_READABLE)}, got {version!r}"
        )
    ruleset = _ruleset(data["rules"])
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidInputError(f"record field 'seed' must be an integer, got {seed!r}")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise InvalidInputError("record field 'actions' must be a list")
    game = _new_game(ruleset, seed, data.get("setup") if version >= 2 else None)
    index = 0
    try:
        for index, value in enumerate(actions):  # noqa: B007  (named in the error)
            game = game.apply(action_from_json(value, game))
    except JassError as exc:
        raise InvalidInputError(f"record action {index} ({actions[index]!r}): {exc}") from None
    return game


def _new_game(ruleset: RuleSet, seed: int, setup: object) -> Game:
    """The game a record starts from: its rules, seed and set-up (``None``: a fresh start)."""
    if setup is None:
        return Game.new(ruleset, seed=seed)
    if not isinstance(setup, Mapping):
        raise InvalidInputError(f"record field 'setup' must be an object, got {setup!r}")
    unknown = sorted(str(key) for key in setup if key not in ("scores", "dealer", "hands_played"))
    if unknown:
        raise InvalidInputError(f"record field 'setup' has unknown keys: {', '.join(unknown)}")
    scores = setup.get("scores", [0, 0])
    if not isinstance(scores, list):
        raise InvalidInputError(f"record field 'setup.scores' must be a list, got {scores!r}")
    try:
        return Game.new(
            ruleset,
            seed=seed,
            scores=scores,
            dealer=setup.get("dealer"),
            hands_played=setup.get("hands_played", 0),
        )
    except JassError as exc:
        raise InvalidInputError(f"record field 'setup': {exc}") from None


def _closest_preset(ruleset: RuleSet) -> str:
    """The preset from which ``ruleset`` differs in the fewest options."""
    return min(PRESETS, key=lambda name: len(ruleset.changes_from(PRESETS[name])))


def _option_value(value: object) -> object:
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, frozenset):
        return sorted(contract.name for contract in value)
    if isinstance(value, tuple):
        return list(value)
    return value


def _ruleset(rules: object) -> RuleSet:
    if not isinstance(rules, Mapping):
        raise InvalidInputError("record field 'rules' must be an object")
    name = rules.get("preset")
    if name not in PRESETS:
        raise InvalidInputError(f"record field 'rules.preset' names no preset: {name!r}")
    changes = rules.get("changes", {})
    if not isinstance(changes, Mapping):
        raise InvalidInputError("record field 'rules.changes' must be an object")
    options: dict[str, Any] = dict(changes)
    if isinstance(options.get("multipliers"), list):
        options["multipliers"] = tuple(options["multipliers"])
    try:
        return PRESETS[name].evolve(**options)
    except JassError as exc:
        raise InvalidInputError(f"record field 'rules.changes': {exc}") from None


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as a JSON object with one key, as records store it.

    >>> from jass import Play, Card
    >>> action_to_json(Play(Card.parse("JH")))
    {'play': 'JH'}
    """
    if isinstance(action, Play):
        return {"play": str(action.card)}
    if isinstance(action, Choose):
        return {"choose": action.contract.name}
    if isinstance(action, Shove):
        return {"shove": True}
    if isinstance(action, DeclareWeis):
        return {"declare": [str(w.cards) for w in action.weis]}
    if isinstance(action, Thank):
        return {"thank": int(action.team)}
    return {"deal": [str(hand) for hand in action.hands]}


def action_from_json(value: object, game: Game) -> Action:
    """The action a JSON object stands for, read in ``game`` (for Weis to declare).

    >>> import jass
    >>> action_from_json({"choose": "hearts"}, jass.Game.new(seed=1).deal())
    Choose(contract=Contract.trump(Suit.HEARTS))
    """
    if not isinstance(value, Mapping) or len(value) != 1:
        raise InvalidInputError("an action is an object with one key")
    kind, argument = next(iter(value.items()))
    if kind == "play":
        return Play(Card.parse(argument))
    if kind == "choose":
        return Choose(Contract.parse(argument))
    if kind == "shove":
        return Shove()
    if kind == "thank":
        return Thank(Team(argument))
    if kind == "deal":
        if not isinstance(argument, list):
            raise InvalidInputError("a deal is a list of four hands")
        return Deal(argument)
    if kind == "declare":
        if not isinstance(argument, list):
            raise InvalidInputError("a declaration is a list of Weis, each as its cards")
        seat = game.to_move
        held = find_weis(game.hands[seat], game.ruleset) if seat is not None else ()
        by_cards = {str(w.cards): w for w in held}
        chosen = []
        for cards in argument:
            if not isinstance(cards, str) or str(CardSet.parse(cards)) not in by_cards:
                raise InvalidInputError(f"{cards!r} is not a Weis the player to move holds")
            chosen.append(by_cards[str(CardSet.parse(cards))])
        return DeclareWeis(tuple(chosen))
    raise InvalidInputError(f"unknown action {kind!r}")


# --- jass-kit / Swisslos hand format ------------------------------------------------------
#
# Players there are numbered clockwise with play going counterclockwise (the next player of
# 0 is 3), so their player p is our seat -p mod 4, and the other way round. Cards are written
# suit first ("DA", "H10"); trumps are 0-5 for diamonds, hearts, spades, clubs, Obenabe,
# Undenufe; "forehand" is 1 if the forehand chose, 0 if the choice was shoved.

_KIT_SUITS: Final = {"D": "D", "H": "H", "S": "S", "C": "C"}
_KIT_TRUMPS: Final = ("TRUMP_DIAMONDS", "TRUMP_HEARTS", "TRUMP_SPADES", "TRUMP_CLUBS",
                      "OBENABE", "UNDENUFE")  # fmt: skip
_KIT_VERSION: Final = "V0.2"
_KIT_PUSH: Final = 10  # the Swisslos code for a shove


def _kit_seat(player: int) -> int:
    return (-player) & 3  # the mapping is its own inverse


def _kit_card(text: object) -> Card:
    if not isinstance(text, str) or len(text) < 2 or text[0] not in _KIT_SUITS:
        raise InvalidInputError(f"{text!r} is not a card in jass-kit notation (like 'DA', 'H10')")
    return Card.parse(text[1:] + text[0])


def _to_kit_card(card: Card) -> str:
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
    return {**data, "playerView": _kit_seat(view.seat)}


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
    if contract is not None and contract.name not in _KIT_TRUMPS:
        raise InvalidInputError(f"the jass-kit format has no {contract.name}")
    if shoves > 1:
        raise InvalidInputError("the jass-kit format has no shove back (allow_shove_back)")
    tricks: list[dict[str, Any]] = [
        {
            "cards": [_to_kit_card(card) for card in done.cards],
            "points": done.points,
            "win": _kit_seat(done.winner),
            "first": _kit_seat(done.leader),
        }
        for done in tricks_done
    ]
    if trick or (contract is not None and len(tricks) < 9 and not is_over):
        current: dict[str, Any] = {"cards": [_to_kit_card(card) for card in trick]}
        if leader is not None:
            current["first"] = _kit_seat(leader)
        if not current["cards"]:
            del current["cards"]
        tricks.append(current)
    return {
        "version": _KIT_VERSION,
        "trump": _KIT_TRUMPS.index(contract.name) if contract is not None else -1,
        "dealer": _kit_seat(dealer),
        "currentPlayer": _kit_seat(mover) if mover is not None else -1,
        # jass-kit: -1 before the choice, 0 once shoved (also while the partner chooses), 1 if
        # the forehand chose.
        "forehand": 0 if shoves else (-1 if contract is None else 1),
        "tricks": tricks,
        "player": [{"hand": [_to_kit_card(c) for c in hands[_kit_seat(p)]]} for p in range(4)],
        "jassTyp": "SCHIEBER",
    }


def from_jasskit(data: Mapping[str, Any], ruleset: RuleSet | None = None) -> Game:
    """Replay a hand in the jass-kit / Swisslos JSON format through the rules, checking it.

    The result is a :class:`~jass.Game` whose first hand is that hand (its dealer is the
    record's). Every card must be legal, and each complete trick's ``first``, ``win`` and
    ``points`` must be what the rules give; otherwise :class:`~jass.InvalidInputError` names
    the trick, the card and the reason. ``ruleset`` (default ``SCHIEBER``) gives the scoring
    options; the game starts from no points, with the record's dealer.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("hearts")
    >>> from_jasskit(to_jasskit(g)).hands == g.hands
    True
    """
    if not isinstance(data, Mapping):
        raise InvalidInputError("a jass-kit hand is a JSON object")
    for field in ("trump", "dealer", "tricks", "player"):
        if field not in data:
            raise InvalidInputError(f"jass-kit field {field!r} is missing")
    version = data.get("version", _KIT_VERSION)
    if version != _KIT_VERSION:
        raise InvalidInputError(
            f"jass-kit field 'version' must be {_KIT_VERSION!r}, got {version!r}"
        )
    dealer = data["dealer"]
    if isinstance(dealer, bool) or dealer not in (0, 1, 2, 3):
        raise InvalidInputError(f"jass-kit field 'dealer' must be a player 0-3, got {dealer!r}")
    players = data["player"]
    tricks = data["tricks"]
    if not isinstance(players, list) or len(players) != 4:
        raise InvalidInputError("jass-kit field 'player' must list four players")
    if not isinstance(tricks, list) or len(tricks) > 9:
        raise InvalidInputError("jass-kit field 'tricks' must be a list of at most nine tricks")
    # The hands as dealt: what each player holds now, and what it played.
    dealt = [0, 0, 0, 0]
    for player, entry in enumerate(players):
        for text in entry.get("hand", []) if isinstance(entry, Mapping) else ():
            dealt[_kit_seat(player)] |= 1 << _kit_card(text)
    plays: list[list[Card]] = []
    for index, trick in enumerate(tricks):
        if not isinstance(trick, Mapping):
            raise InvalidInputError(f"jass-kit trick {index} is not an object")
        cards = [_kit_card(text) for text in trick.get("cards", [])]
        if cards and "first" not in trick:
            raise InvalidInputError(f"jass-kit trick {index} has cards but no 'first' player")
        first = _kit_seat(trick["first"]) if cards else 0
        for position, card in enumerate(cards):
            seat = (first + position) & 3
            holder = next((s for s in range(4) if dealt[s] >> card & 1), None)
            if holder is not None:
                where = "holds it still" if holder != seat else "played it twice or holds it"
                raise InvalidInputError(
                    f"jass-kit trick {index}, card {_to_kit_card(card)}: player "
                    f"{_kit_seat(seat)} plays it, but player {_kit_seat(holder)} {where}"
                )
            dealt[seat] |= 1 << card
        plays.append(cards)
    forehand = (_kit_seat(dealer) + 1) & 3
    if not dealt[forehand]:
        raise InvalidInputError("jass-kit hands: the forehand holds no card")
    if ruleset is not None and not isinstance(ruleset, RuleSet):
        raise InvalidInputError(f"ruleset must be a RuleSet, got {ruleset!r}")
    game = Game.new(ruleset or SCHIEBER, seed=0, dealer=_kit_seat(dealer))
    game = game.deal(hands=[CardSet(bits) for bits in dealt])
    trump = data["trump"]
    # Older records mark a shoved choice with "tss": 1 instead of "forehand": 0.
    shoved = data.get("forehand", 0 if data.get("tss") == 1 else 1) == 0
    if trump == _KIT_PUSH:  # shoved, and the partner has not chosen yet (Swisslos logs)
        return game.shove()
    if trump == -1 or trump is None:  # no trump yet: "forehand": 0 says it was shoved
        return game.shove() if shoved else game
    if isinstance(trump, bool) or trump not in range(6):
        raise InvalidInputError(f"jass-kit field 'trump' must be 0-5, 10 or -1, got {trump!r}")
    if shoved:
        game = game.shove()
    game = game.choose(_KIT_TRUMPS[trump])
    for index, (trick, cards) in enumerate(zip(tricks, plays, strict=True)):
        if cards and _kit_seat(trick["first"]) != game.trick_leader:
            raise InvalidInputError(
                f"jass-kit trick {index}: 'first' is player {trick['first']}, but the rules "
                f"have player {_kit_seat(int(game.trick_leader or 0))} lead"
            )
        for card in cards:
            try:
                game = game.play(card)
            except JassError as exc:  # noqa: PERF203  (the error path names the trick and card)
                raise InvalidInputError(
                    f"jass-kit trick {index}, card {_to_kit_card(card)}: {exc}"
                ) from None
        if len(cards) == 4:
            done = game.tricks[index]
            for field, expected in (("win", _kit_seat(done.winner)), ("points", done.points)):
                if field in trick and trick[field] != expected:
                    raise InvalidInputError(
                        f"jass-kit trick {index}: {field!r} is {trick[field]!r}, the rules give "
                        f"{expected!r}"
                    )
    return game
