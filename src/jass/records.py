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

from jass._kitformat import (
    from_jasskit,
    from_jasskit_observation,
    to_jasskit,
    to_jasskit_observation,
)
from jass.actions import Action, Choose, Deal, DeclareWeis, Play, Shove, Thank
from jass.cards import Card, CardSet
from jass.contracts import Contract
from jass.errors import InvalidInputError, JassError
from jass.rules import PRESETS, RuleSet, preset_name
from jass.seats import Team
from jass.state import Game
from jass.weis import find_weis

__all__ = [
    "FORMAT",
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
