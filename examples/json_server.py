"""Embed the engine in an app: a JSON-over-stdin game server that a GUI could drive.

Each line of input is a JSON request; each answer is one JSON line. Requests:

- ``{"new": {"rules": "SCHIEBER", "seed": 7}}`` starts a game;
- ``{"deal": true}`` deals the next hand;
- ``{"view": 0}`` returns what seat 0 may see and do;
- ``{"act": {"play": "JH"}}`` (or ``{"choose": "hearts"}``, ``{"shove": true}``,
  ``{"thank": 0}``) applies an action of the player to move;
- ``{"bot": true}`` lets a RuleBot take the move;
- ``{"record": true}`` returns the game record.

An illegal request gets ``{"ok": false, "error": ...}`` with the reason; the game is unchanged.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from jass import Game, JassError, Phase, find_ruleset
from jass.bots import RuleBot
from jass.records import action_from_json, action_to_json, record


def describe(game: Game, seat: int) -> dict[str, Any]:
    view = game.view(seat)
    return {
        "phase": view.phase.name,
        "to_move": None if view.to_move is None else int(view.to_move),
        "hand": str(view.hand),
        "contract": None if view.contract is None else view.contract.name,
        "trick": [str(card) for card in view.trick],
        "scores": list(view.scores),
        "legal": [action_to_json(action) for action in view.legal_actions()],
        "over": game.is_over,
    }


def answer(game: Game | None, request: dict[str, Any]) -> tuple[Game | None, dict[str, Any]]:
    if "new" in request:
        options = request["new"]
        game = Game.new(find_ruleset(options.get("rules", "SCHIEBER")), seed=options.get("seed"))
        return game, {"ok": True, "seed": game.seed}
    if game is None:
        return None, {"ok": False, "error": 'start a game first: {"new": {}}'}
    if "deal" in request:
        game = game.deal()
    elif "act" in request:
        game = game.apply(action_from_json(request["act"], game))
    elif "bot" in request:
        seat = game.to_move
        if seat is None or game.phase not in (Phase.CHOOSE, Phase.PLAY):
            return game, {"ok": False, "error": "nobody is to move"}
        game = game.apply(RuleBot().choose_action(game.view(seat)))
    elif "record" in request:
        return game, {"ok": True, "record": record(game)}
    elif "view" not in request:
        return game, {"ok": False, "error": f"unknown request {sorted(request)}"}
    seat = int(request.get("view", game.to_move or 0))
    return game, {"ok": True, "state": describe(game, seat)}


def main() -> None:
    game: Game | None = None
    if sys.stdin is None:  # no standard input at all
        return
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            game, reply = answer(game, request)
        except (JassError, ValueError, TypeError, AttributeError) as exc:
            reply = {"ok": False, "error": str(exc)}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
