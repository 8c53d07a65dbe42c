"""The Python side of the browser example: one game of Schieber, you at seat 0, three RuleBots.

worker.js runs this module in Pyodide and turns each result into a ``state`` message for the
page (see README.md for the protocol). Everything a state holds comes from ``game.view(0)``:
the page never learns a card that seat 0 may not see. The same module runs under CPython:
``python jass_table.py`` plays a game with a RuleBot in your seat through the same calls and
checks it, which is what build.py does before it builds the site.
"""

from __future__ import annotations

import sys
from typing import Any

from jass import Contract, Game, Phase, PlayerView, Seat
from jass.bots import RuleBot
from jass.engine.actions import Action, Choose, DeclareWeis, Play, Shove, Thank
from jass.errors import IllegalActionError, IllegalReason, InvalidInputError
from jass.naming import Names
from jass.rules import EndMode, find_ruleset
from jass.svg import table

HUMAN = Seat(0)
#: The rule sets the page offers, by preset name.
RULESETS = ("SCHIEBER_1000", "SCHIEBER", "BEGINNER", "TOURNAMENT_12", "JASSKIT")
#: The rule set the page starts with. ``jass play`` starts with SCHIEBER (to 2500); the page
#: labels its choice on screen (``state()["rules"]``).
DEFAULT_RULESET = "SCHIEBER_1000"
#: What a view calls each seat, by (seat - 0) % 4: the names jass.svg.table writes too.
NAMES = ("You", "Right", "Partner", "Left")


def _team_pair(pair: tuple[int, int]) -> dict[str, int]:
    """A per-team pair as the page reads it: seat 0's team is "us"."""
    return {"us": pair[0], "them": pair[1]}


def _goal(hands: int | None, target: int) -> str:
    """How the game ends, as the page says it after "Playing": "to 1000 points", "12 hands".

    >>> _goal(None, 1000), _goal(1, 2500), _goal(12, 2500)
    ('to 1000 points', 'one hand', '12 hands')
    """
    if hands is None:
        return f"to {target} points"
    return "one hand" if hands == 1 else f"{hands} hands"


class Table:
    """One game between the person at seat 0 and three bots, driven one move at a time.

    >>> t = Table(seed=11)
    >>> state = t.state()
    >>> state["svg"].startswith("<svg"), state["scores"]
    (True, {'us': 0, 'them': 0})
    """

    def __init__(self, seed: int, ruleset: str = DEFAULT_RULESET, *, swiss: bool = False) -> None:
        if ruleset not in RULESETS:
            choices = ", ".join(RULESETS)
            raise InvalidInputError(f"ruleset must be one of {choices}, got {ruleset!r}")
        self.seed = seed
        self.swiss = swiss
        self.ruleset = ruleset
        self.game = Game.new(find_ruleset(ruleset), seed=seed).deal()
        # Cards, contracts and Weis in the words jass play uses (jass.naming).
        self.names = Names(self.game.ruleset.suit_pairing if swiss else None)
        self.bots = {seat: RuleBot(seed=seed + seat) for seat in (1, 2, 3)}
        self.moves = 0
        self._log: list[str] = []
        self._offered: list[tuple[str, Action | None]] = []  # the buttons of the last state
        self._seen = self.game.view(HUMAN)

    # --- what the page may do -----------------------------------------------------------

    def bot_to_move(self) -> bool:
        """Whether a bot is to move (the worker then calls :meth:`bot_step` after a pause)."""
        game = self.game
        return game.phase in (Phase.CHOOSE, Phase.PLAY) and game.to_move != HUMAN

    def bot_step(self) -> dict[str, Any]:
        """Let the bot to move make one move; the new state."""
        seat = self.game.to_move
        if not self.bot_to_move() or seat is None:
            raise IllegalActionError("no bot is to move", IllegalReason.WRONG_PHASE)
        self._apply(self.bots[int(seat)].choose_action(self.game.view(seat)))
        return self.state()

    def act(self, index: int | None = None, card: str | None = None) -> dict[str, Any]:
        """Your move: the button ``index`` of the last state's ``actions``, or a legal ``card``.

        Anything else raises (jass.errors), and nothing changes.
        """
        if card is not None:
            if self.game.to_move != HUMAN:
                message = f"card {card!r}: it is not your turn"
                raise IllegalActionError(message, IllegalReason.WRONG_PHASE, Play(card))
            self._apply(Play(card))  # the game refuses an illegal card, changing nothing
        elif index is not None and 0 <= index < len(self._offered):
            kind, action = self._offered[index]
            if kind == "deal":
                self.game = self.game.deal()
                self._log.append(f"Hand {len(self.game.hand_results) + 1} is dealt")
                self._seen = self.game.view(HUMAN)
            elif action is not None:
                self._apply(action)
        else:
            message = f"action {index!r} is not offered now"
            raise IllegalActionError(message, IllegalReason.WRONG_PHASE)
        return self.state()

    # --- the game moves -----------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        seat = self.game.to_move
        assert seat is not None
        self.game = self.game.apply(action)
        self.moves += 1
        self._log.append(f"{NAMES[int(seat)]}: {self._describe(action, self.game.view(HUMAN))}")
        self._note_news(self.game.view(HUMAN))

    def _describe(self, action: Action, view: PlayerView) -> str:
        if isinstance(action, Play):
            return f"plays {self.names.card(action.card)}"
        if isinstance(action, Choose):
            return f"chooses {self._contract(action.contract, view)}"
        if isinstance(action, Shove):
            return "shoves"
        if isinstance(action, Thank):
            return "thanks"
        if isinstance(action, DeclareWeis):  # what is declared is shown after the first trick
            return "declares Weis" if action.weis else "declares no Weis"
        return str(action)

    def _note_news(self, view: PlayerView) -> None:
        """Log what became public with the last move: a trick, Weis, Stöck, a hand's score."""
        seen = self._seen
        for trick in view.tricks[len(seen.tricks) :]:
            self._log.append(f"Trick to {NAMES[int(trick.winner)]}, {trick.points} points")
        if view.shown_weis and not seen.shown_weis:
            for seat, weis in view.shown_weis:
                self._log.append(f"Weis: {NAMES[int(seat)]} shows {self.names.weis(weis)}")
        if view.stoeck is not None and seen.stoeck is None:
            self._log.append(f"Stöck: {NAMES[int(view.stoeck)]}, 20 points")
        if len(view.hand_results) > len(seen.hand_results):
            score = view.hand_results[-1]
            match = " (match)" if score.match is not None else ""
            self._log.append(
                f"Hand {len(view.hand_results)}{match}: us +{score.totals[0]}, "
                f"them +{score.totals[1]}"
            )
        if view.result is not None and seen.result is None:
            self._log.append(self._result_text(view))
        self._seen = view

    # --- the state the page shows -------------------------------------------------------

    def _contract(self, contract: Contract, view: PlayerView) -> str:
        """The contract as jass play names it, a French suit with its symbol: "♥ Trumpf Herz"."""
        words = self.names.contract(contract, view.ruleset)
        suit = contract.trump_suit
        mark = "" if suit is None else self.names.suit_mark(suit)  # no ♥ among Swiss cards
        return f"{mark} {words}" if mark else words

    def _result_text(self, view: PlayerView) -> str:
        result = view.result
        assert result is not None
        us, them = view.scores
        if result.winner is None:
            return f"Game over: a draw, {us} : {them}"
        won = "We won" if int(result.winner) == 0 else "They won"
        return f"Game over: {won}, {us} : {them}"

    def _offer(self, view: PlayerView) -> list[tuple[str, Action | None]]:
        """The buttons for seat 0 now: contracts and shove, Weis, thanks, or the next deal."""
        if view.phase is Phase.DEAL:
            return [("deal", None)]
        if view.to_move != HUMAN:
            return []
        offered: list[tuple[str, Action | None]] = []
        for action in view.legal_actions():
            if isinstance(action, Play):
                continue  # cards are clicked on the table
            if isinstance(action, Thank) and view.ruleset.end_mode is not EndMode.THANK:
                continue  # with automatic ends a thank can only be false
            offered.append((type(action).__name__.lower(), action))
        return offered

    def _label(self, kind: str, action: Action | None, view: PlayerView) -> str:
        if kind == "deal":
            return "Next hand"
        if isinstance(action, Choose):
            return self._contract(action.contract, view)
        if isinstance(action, Shove):
            return "Shove to partner"
        if isinstance(action, Thank):
            return "Thank (we are out)" if int(action.team) == 0 else "Thank for them"
        if isinstance(action, DeclareWeis):
            if not action.weis:
                return "No Weis"
            return "Declare " + ", ".join(self.names.weis(weis) for weis in action.weis)
        return str(action)

    def _prompt(self, view: PlayerView) -> str:
        if view.result is not None:
            return self._result_text(view)
        if view.phase is Phase.DEAL:
            return f"Hand {len(view.hand_results)} is over: on to the next hand"
        mover = view.to_move
        if mover == HUMAN:
            if view.phase is Phase.CHOOSE:
                return "Your turn: choose the contract" + (" or shove" if view.can_shove() else "")
            return "Your turn: play a highlighted card"
        who = NAMES[int(mover)] if mover is not None else "Nobody"
        return f"{who} is thinking…"

    def _last_hand(self, view: PlayerView) -> dict[str, Any] | None:
        """The score of the last complete hand, unmultiplied parts and totals, or ``None``."""
        if not view.hand_results:
            return None
        last = view.hand_results[-1]
        return {
            "number": len(view.hand_results),
            "contract": self._contract(last.contract, view),
            "multiplier": last.multiplier,
            "match": None if last.match is None else ("us" if int(last.match) == 0 else "them"),
            "cardPoints": _team_pair(last.card_points),
            "bonus": _team_pair(last.bonus),
            "weis": _team_pair(last.weis),
            "stoeck": _team_pair(last.stoeck),
            "totals": _team_pair(last.totals),
        }

    def state(self) -> dict[str, Any]:
        """What the page shows now, from seat 0's view only; takes the log lines since the last.

        >>> t = Table(seed=3)
        >>> s = t.state()
        >>> sorted(s) == sorted(
        ...     ["svg", "phase", "prompt", "yourTurn", "cards", "actions", "hand", "trick",
        ...      "contract", "scores", "target", "weis", "stoeck", "lastHand", "result",
        ...      "log", "moves", "seed", "handNumber", "rules"])
        True
        >>> s["rules"], s["target"]
        ('SCHIEBER_1000', 'to 1000 points')
        """
        view = self.game.view(HUMAN)
        self._offered = self._offer(view)
        your_turn = view.to_move == HUMAN or view.phase is Phase.DEAL
        lead = 0 if view.trick_leader is None else int(view.trick_leader)
        trick = [{"seat": (lead + i) % 4, "card": str(c)} for i, c in enumerate(view.trick)]
        log, self._log = self._log, []
        ruleset = view.ruleset
        return {
            "svg": str(table(view, last_trick=True, swiss=self.swiss)),
            "phase": view.phase.name,
            "prompt": self._prompt(view),
            "yourTurn": your_turn and view.result is None,
            "cards": [str(c) for c in view.legal_moves()] if view.to_move == HUMAN else [],
            "actions": [
                {"index": i, "kind": kind, "label": self._label(kind, action, view)}
                for i, (kind, action) in enumerate(self._offered)
            ],
            "hand": [str(c) for c in view.hand],
            "trick": trick,
            "contract": None if view.contract is None else self._contract(view.contract, view),
            "scores": _team_pair(view.scores),
            "target": _goal(ruleset.hands, ruleset.target),
            "rules": self.ruleset,
            "weis": [
                {
                    "seat": int(s),
                    "name": NAMES[int(s)],
                    "text": self.names.weis(w),
                    "points": w.points,
                }
                for s, w in view.shown_weis
            ],
            "stoeck": None if view.stoeck is None else NAMES[int(view.stoeck)],
            "lastHand": self._last_hand(view),
            "result": None if view.result is None else self._result_text(view),
            "log": log,
            "moves": self.moves,
            "seed": self.seed,
            "handNumber": len(view.hand_results) + (0 if view.phase is Phase.DEAL else 1),
        }


def self_check(seed: int = 1, ruleset: str = DEFAULT_RULESET) -> str:
    """Play a whole game through the page's calls, a RuleBot clicking for seat 0; check it.

    >>> self_check(seed=2).startswith("Game over")
    True
    """
    t = Table(seed, ruleset)
    me = RuleBot()
    state = t.state()
    hands = 0
    while state["result"] is None:
        if t.bot_to_move():
            state = t.bot_step()
            continue
        if state["phase"] == "DEAL":
            last = state["lastHand"]
            points = last["cardPoints"]["us"] + last["cardPoints"]["them"]
            bonus = last["bonus"]["us"] + last["bonus"]["them"]
            assert points + bonus in (157, 257), last
            hands += 1
            state = t.act(index=0)
            continue
        illegal = sorted(set(state["hand"]) - set(state["cards"]))
        if illegal:  # a card that is not legal is refused, and nothing changes
            moves = t.moves
            try:
                t.act(card=illegal[0])
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{illegal[0]} was accepted")
            assert t.moves == moves
        action = me.choose_action(t.game.view(HUMAN))
        if isinstance(action, Play):
            assert str(action.card) in state["cards"]
            state = t.act(card=str(action.card))
        else:
            offered = [a for _, a in t._offered]
            assert action in offered, action
            state = t.act(index=offered.index(action))
    assert hands >= 1
    return f"{state['result']} after {t.moves} moves"


if __name__ == "__main__":
    print(self_check(int(sys.argv[1]) if len(sys.argv) > 1 else 1))
