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

import attrs

from jass._budgets import is_int
from jass._kitformat import (
    from_jasskit,
    from_jasskit_observation,
    to_jasskit,
    to_jasskit_observation,
)
from jass.core.cards import Card, CardSet
from jass.core.contracts import Contract
from jass.core.dealing import seeded_deal
from jass.core.seats import Team
from jass.core.weis import find_weis
from jass.engine.actions import Action, Choose, Deal, DeclareWeis, Play, Shove, Thank
from jass.engine.game import Game
from jass.engine.hand import HandInfo, Phase
from jass.errors import InvalidInputError, JassError, describe
from jass.rules import PRESETS, FirstHandRule, RuleSet, preset_name

__all__ = [
    "FORMAT",
    "MAX_ACTIONS",
    "MAX_BYTES",
    "VERSION",
    "action_from_json",
    "action_to_json",
    "dumps",
    "from_jasskit",
    "from_jasskit_observation",
    "loads",
    "record",
    "replay",
    "to_jasskit",
    "to_jasskit_observation",
    "unfinished",
]

#: The value of the record's ``format`` field.
FORMAT: Final = "jass-record"
#: The version of the format this module writes; version 1 (no ``setup``) is still read.
VERSION: Final = 2
#: The most actions :func:`loads` and :func:`replay` read by default: 1,000 hands' worth (a
#: hand is at most 45: its deal, a shove, the contract, four declarations, 36 cards, thanks).
MAX_ACTIONS: Final = 50_000
#: The longest record text :func:`loads` reads by default, in UTF-8 bytes: 1,000 hands
#: written with ``indent=2`` take about 1.4 MB. Reading costs about 0.5 s per MB.
MAX_BYTES: Final = 4_000_000


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


def loads(
    text: str, *, max_bytes: int | None = MAX_BYTES, max_actions: int | None = MAX_ACTIONS
) -> Game:
    """Load a game from JSON text, replaying and checking every action.

    The text must be one JSON object with no key repeated in any object (a repeated key is
    refused, not resolved silently). See :func:`replay` for what is checked.

    A record from outside is bounded, so that reading it cannot take minutes: a text over
    ``max_bytes`` UTF-8 bytes (:data:`MAX_BYTES`, 4 MB) is refused before it is parsed, and
    a record of more than ``max_actions`` actions (:data:`MAX_ACTIONS`, 1,000 hands' worth)
    before any is replayed. Raise them, or pass ``None``, for longer records you trust.

    >>> loads('{"format": "jass-record", "version": 1, "seed": 1}')
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: record.rules is missing
    >>> loads(" " * 101, max_bytes=100)
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: the record is 101 bytes, over the limit of 100 (max_bytes=100)...
    """
    if not isinstance(text, str):
        raise InvalidInputError(f"a record is JSON text, got {type(text).__name__}")
    _check_limit("max_bytes", max_bytes)
    _check_limit("max_actions", max_actions)
    if max_bytes is not None and len(text) * 4 > max_bytes:  # else it fits, whatever it holds
        size = len(text) if len(text) > max_bytes else len(text.encode("utf-8", "surrogatepass"))
        if size > max_bytes:
            raise InvalidInputError(
                f"the record is {size} bytes, over the limit of {max_bytes} "
                f"(max_bytes={max_bytes}); pass a larger max_bytes to read it"
            )
    try:
        data = json.loads(text, object_pairs_hook=_object, parse_constant=_no_constant)
    except InvalidInputError:
        raise
    except RecursionError:
        raise InvalidInputError("the record is not valid JSON: it is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, or an integer too long to read
        raise InvalidInputError(f"the record is not valid JSON: {exc}") from None
    return replay(data, max_actions=max_actions)


def _check_limit(name: str, value: object) -> None:
    if value is not None and (not is_int(value) or value < 1):
        raise InvalidInputError(f"{name} must be a positive int or None, got {describe(value)}")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (JSON leaves the meaning open)."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise InvalidInputError(
                f"the record is not valid: the key {describe(key, typed=False)} appears twice "
                "in one object"
            )
        result[key] = value
    return result


def _no_constant(name: str) -> Any:
    raise InvalidInputError(f"the record is not valid JSON: {name} is not a JSON number")


def replay(data: Mapping[str, Any], *, max_actions: int | None = MAX_ACTIONS) -> Game:
    """The game a record (as plain JSON values) describes, every action replayed and checked.

    The record's form is checked first, field by field: a wrong or missing field raises
    :class:`~jass.InvalidInputError` naming its path (``record.rules.preset``) and what it
    should be, and a record of more than ``max_actions`` actions is refused (see
    :func:`loads`). Then the actions are read and replayed through the rules one by one, and
    the first that is malformed (``record.actions[3].play``) or that the rules refuse (named
    by its index and its hand) stops the replay. When the rules refuse one because the
    record's seed does not deal the recorded game (the seed draws the first dealer), the
    error says that the seed and the recorded deal disagree. Nothing is half-loaded. A record
    may stop anywhere, in the middle of a hand too; :func:`unfinished` tells where it stopped.

    >>> import jass
    >>> g = jass.Game.new(seed=2).deal().choose("spades")
    >>> g = g.play(g.legal_moves().cards()[0])
    >>> replay(record(g)) == g
    True
    >>> replay({**record(g), "seed": 7})
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: record.seed: the seed 7 and the recorded deal disagree: ...
    """
    _check_limit("max_actions", max_actions)
    form = _read_record(data, max_actions)
    game = _new_game(form.ruleset, form.seed, form.setup)
    start = game
    read: list[Action | _Declaration] = []
    for index, value in enumerate(form.raw):
        path = f"record.actions[{index}]"
        item = _read_action(value, path)  # a malformed action stops the replay here
        read.append(item)
        try:
            game = game.apply(_resolve(item, game, path))
        except JassError as exc:
            form = attrs.evolve(form, actions=tuple(read))
            raise _replay_error(form, start, game, index, exc) from None
    return game


def unfinished(game: Game) -> str | None:
    """Where an unfinished game stops, as a phrase; ``None`` once the game is over.

    A record may stop anywhere: in the middle of a hand (the contract still to choose, or
    tricks still to play), or between the hands of a game that is not over. :func:`loads`
    loads such a record, so that a game can be saved and resumed; this says that it is
    unfinished and where, and ``jass replay`` prints it.

    >>> import jass
    >>> g = jass.Game.new(seed=3).deal().choose("hearts")
    >>> unfinished(g.play(g.legal_moves().cards()[0]))
    'in hand 1, in trick 1 after 1 card (seat 3 to play)'
    >>> unfinished(jass.Game.new(seed=3).deal())
    'in hand 1, before the contract is chosen (seat 2 to choose)'
    >>> unfinished(jass.Game.new(seed=3))
    'before the first deal'
    >>> from jass.bots import RandomBot, play_game
    >>> print(unfinished(play_game(jass.Game.new(jass.rules.JASSKIT, seed=3), [RandomBot()] * 4)))
    None
    """
    if game.is_over:
        return None
    hand = game.hand_info
    seat = int(game.to_move) if game.to_move is not None else None
    if game.phase is Phase.CHOOSE and hand is not None:
        return f"in hand {hand.number + 1}, before the contract is chosen (seat {seat} to choose)"
    if game.phase is Phase.PLAY and hand is not None:
        cards, trick = len(game.trick), len(game.tricks) + 1
        if not cards:
            return f"in hand {hand.number + 1}, before trick {trick} (seat {seat} to lead)"
        played = f"{cards} card{'' if cards == 1 else 's'}"
        return f"in hand {hand.number + 1}, in trick {trick} after {played} (seat {seat} to play)"
    if hand is None:
        return "before the first deal"
    return (
        f"after hand {hand.number + 1}, with the game not over "
        f"(scores {game.scores[0]} : {game.scores[1]})"
    )


# --- reading a record's form -------------------------------------------------------------


@attrs.frozen
class _Record:
    """A record whose form was checked: its rules, seed, set-up and actions, read."""

    ruleset: RuleSet
    seed: int
    setup: tuple[list[int], int | None, int] | None
    actions: tuple[Action | _Declaration, ...]  # read so far: up to the one refused
    raw: tuple[object, ...]  # the actions as recorded


@attrs.frozen
class _Declaration:
    """A recorded declaration of Weis, as card sets; the game it is made in reads it."""

    cards: tuple[CardSet, ...]


_FIELDS: Final = {
    1: ("format", "version", "rules", "seed", "actions"),
    2: ("format", "version", "rules", "seed", "setup", "actions"),
}
_KINDS: Final = ("play", "choose", "shove", "declare", "thank", "deal")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(path: str, expected: str, value: object) -> InvalidInputError:
    return InvalidInputError(f"{path}: expected {expected}, got {describe(value)}")


def _keys(value: object, path: str, required: tuple[str, ...]) -> Mapping[str, Any]:
    """``value`` as an object with exactly the keys ``required``."""
    if not isinstance(value, Mapping):
        raise _bad(path, "an object", value)
    for key in required:
        if key not in value:
            raise InvalidInputError(f"{path}.{key} is missing")
    unknown = sorted(describe(key, typed=False) for key in value if key not in required)
    if unknown:
        raise InvalidInputError(
            f"{path} has unknown keys: {', '.join(unknown[:5])}; it holds {', '.join(required)}"
        )
    return value


def _read_record(data: object, max_actions: int | None) -> _Record:
    if not isinstance(data, Mapping):
        raise _bad("record", "a JSON object", data)
    if "version" not in data:
        raise InvalidInputError("record.version is missing")
    version = data["version"]
    if not _is_int(version) or version not in _FIELDS:
        raise _bad("record.version", f"one of {list(_FIELDS)}", version)
    _keys(data, "record", _FIELDS[version])
    if data["format"] != FORMAT:
        raise _bad("record.format", repr(FORMAT), data["format"])
    ruleset = _ruleset(data["rules"])
    seed = data["seed"]
    if not _is_int(seed):
        raise _bad("record.seed", "an integer", seed)
    try:
        str(seed)  # the deals are drawn from its digits
    except ValueError:
        raise _bad("record.seed", "an integer Python can write out", seed) from None
    setup = _setup(data["setup"]) if version >= 2 else None
    actions = data["actions"]
    if not isinstance(actions, list):
        raise _bad("record.actions", "a list of actions", actions)
    if max_actions is not None and len(actions) > max_actions:
        raise InvalidInputError(
            f"record.actions holds {len(actions)} actions, over the limit of {max_actions} "
            f"(max_actions={max_actions}); pass a larger max_actions to read it"
        )
    return _Record(ruleset, seed, setup, (), tuple(actions))


def _ruleset(rules: object) -> RuleSet:
    rules = _keys(rules, "record.rules", ("preset", "changes"))
    name = rules["preset"]
    if not isinstance(name, str) or name not in PRESETS:
        raise _bad("record.rules.preset", f"the name of a preset ({', '.join(PRESETS)})", name)
    changes = rules["changes"]
    if not isinstance(changes, Mapping):
        raise _bad("record.rules.changes", "an object of options", changes)
    options: dict[str, Any] = {}
    for option, value in changes.items():
        if not isinstance(option, str):
            raise _bad("record.rules.changes", "option names as keys", option)
        # JSON has no tuples: a custom multiplier table is written as a list.
        listed = option == "multipliers" and isinstance(value, list)
        options[option] = tuple(value) if listed else value
    try:
        return PRESETS[name].evolve(**options)
    except JassError as exc:
        raise InvalidInputError(f"record.rules.changes: {exc}") from None


def _setup(setup: object) -> tuple[list[int], int | None, int]:
    setup = _keys(setup, "record.setup", ("scores", "dealer", "hands_played"))
    scores = setup["scores"]
    if not isinstance(scores, list) or len(scores) != 2 or not all(map(_is_int, scores)):
        raise _bad("record.setup.scores", "a list of two integers (team 0, team 1)", scores)
    dealer = setup["dealer"]
    if dealer is not None and not (_is_int(dealer) and 0 <= dealer <= 3):
        raise _bad("record.setup.dealer", "a seat 0-3, or null", dealer)
    played = setup["hands_played"]
    if not _is_int(played) or played < 0:
        raise _bad("record.setup.hands_played", "a whole number of hands", played)
    return scores, dealer, played


def _read_action(value: object, path: str) -> Action | _Declaration:
    """The action a recorded JSON action stands for; a declaration is read in its game."""
    if not isinstance(value, Mapping) or len(value) != 1:
        raise _bad(path, f"an object with one key ({', '.join(_KINDS)})", value)
    kind, argument = next(iter(value.items()))
    if kind not in _KINDS:
        raise InvalidInputError(
            f"{path}: unknown action {describe(kind, typed=False)}; actions are {', '.join(_KINDS)}"
        )
    path = f"{path}.{kind}"
    try:
        if kind == "play":
            if not isinstance(argument, str):
                raise _bad(path, "a card name such as 'JH'", argument)
            return Play(Card.parse(argument))
        if kind == "choose":
            if not isinstance(argument, str):
                raise _bad(path, "a contract name such as 'TRUMP_HEARTS'", argument)
            return Choose(Contract.parse(argument))
        if kind == "shove":
            if argument is not True:
                raise _bad(path, "true", argument)
            return Shove()
        if kind == "thank":
            if not _is_int(argument) or argument not in (0, 1):
                raise _bad(path, "a team, 0 or 1", argument)
            return Thank(Team(argument))
        if kind == "deal":
            if not isinstance(argument, list) or not all(isinstance(h, str) for h in argument):
                raise _bad(path, "a list of four hands, each a string of card names", argument)
            return Deal(argument)
        if not isinstance(argument, list) or not all(isinstance(w, str) for w in argument):
            raise _bad(path, "a list of Weis, each a string of its cards", argument)
        return _Declaration(tuple(CardSet.parse(cards) for cards in argument))
    except InvalidInputError as exc:
        if str(exc).startswith(path):
            raise
        raise InvalidInputError(f"{path}: {exc}") from None


def _resolve(item: Action | _Declaration, game: Game, path: str) -> Action:
    """The action ``item`` stands for in ``game``: a declaration names Weis the player holds."""
    if not isinstance(item, _Declaration):
        return item
    seat = game.to_move
    held = find_weis(game.hands[seat], game.ruleset) if seat is not None else ()
    by_cards = {w.cards: w for w in held}
    chosen = []
    for cards in item.cards:
        if cards not in by_cards:
            raise InvalidInputError(
                f"{path}.declare: {str(cards)!r} is not a Weis the player to move holds"
            )
        chosen.append(by_cards[cards])
    return DeclareWeis(tuple(chosen))


def _new_game(ruleset: RuleSet, seed: int, setup: tuple[list[int], int | None, int] | None) -> Game:
    """The game a record starts from: its rules, seed and set-up (``None``: a fresh start)."""
    if setup is None:
        return Game.new(ruleset, seed=seed)
    scores, dealer, played = setup
    try:
        return Game.new(ruleset, seed=seed, scores=scores, dealer=dealer, hands_played=played)
    except JassError as exc:
        raise InvalidInputError(f"record.setup: {exc}") from None


# --- an action the rules refuse ----------------------------------------------------------


def _replay_error(
    form: _Record, start: Game, game: Game, index: int, exc: JassError
) -> InvalidInputError:
    """The error for action ``index``, refused in ``game``: blames the seed if it is to blame."""
    hand = game.hand_info
    number = game.hands_played + 1 if game.phase is Phase.DEAL or hand is None else hand.number + 1
    action = f"action {index} ({describe(form.raw[index], typed=False)}) in hand {number}"
    blame = _seed_to_blame(form, start, index)
    if blame is not None:
        drawn, other = blame
        return InvalidInputError(
            f"record.seed: the seed {form.seed} and the recorded deal disagree: seed "
            f"{form.seed} has seat {int(drawn.dealer)} deal hand {drawn.number + 1} and deals "
            f"other cards, while the recorded actions fit seat {other} dealing it (was the "
            f"seed changed?); the first action that does not fit is {action}: {exc}"
        )
    return InvalidInputError(f"record {action}: {exc}")


def _seed_to_blame(form: _Record, start: Game, index: int) -> tuple[HandInfo, int] | None:
    """Whether the seed, not the actions, is wrong, and if so how the seed deals the first hand.

    The answer is that hand and another first dealer under which the actions replay past
    ``index``, or ``None``. Only when the seed drew the first dealer (no set-up dealer, no
    marker card) and does not deal the recorded first hand: recorded deals need not be the
    seed's (a deal may be given), so a deal alone proves nothing.
    """
    first = form.actions[0] if form.actions else None
    if not isinstance(first, Deal) or start.setup.dealer is not None:
        return None
    if start.ruleset.first_hand_rule is FirstHandRule.MARKER_CARD:
        return None  # the marker card, not the seed, chose the dealer
    try:
        dealt = start.deal(first.hands).hand_info
    except JassError:
        return None
    assert dealt is not None  # noqa: S101
    if seeded_deal(form.seed, dealt.number, int(dealt.forehand)) == first.hands:
        return None  # the seed deals the recorded hand: it is not to blame
    setup = start.setup
    for dealer in range(4):
        if dealer == dealt.dealer:
            continue
        game = Game.new(
            start.ruleset,
            seed=form.seed,
            scores=setup.scores,
            dealer=dealer,
            hands_played=setup.hands_played,
        )
        try:
            for step, item in enumerate(form.actions[: index + 1]):
                game = game.apply(_resolve(item, game, f"record.actions[{step}]"))
        except JassError:
            continue
        return dealt, dealer
    return None


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

    The object has one key, the kind of action, as :func:`action_to_json` writes it; a wrong
    one raises :class:`~jass.InvalidInputError` saying what was expected.

    >>> import jass
    >>> action_from_json({"choose": "hearts"}, jass.Game.new(seed=1).deal())
    Choose(contract=Contract.trump(Suit.HEARTS))
    >>> action_from_json({"play": 5}, jass.Game.new(seed=1).deal())
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: action.play: expected a card name such as 'JH', got int 5
    """
    return _resolve(_read_action(value, "action"), game, "action")
