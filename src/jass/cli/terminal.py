"""``jass play``: a game of Schieber in the terminal, you and a bot partner against two bots.

:class:`TerminalGame` shows the table from one seat (the contract, who chose it, both teams'
scores and the target, the trick with who played what, your hand by suit) and asks for each
decision: the contract or a shove, your Weis (``weis_declaration=MANUAL``), a card, a thank
(*bedanken*), with the reason whenever an answer is refused. ``q`` quits, with an offer to save
the game record, which ``jass replay`` reads.

>>> import io, jass
>>> from jass.bots import RuleBot
>>> answers = iter(["q", "n"])
>>> game = TerminalGame(
...     jass.Game.new(seed=3), {s: RuleBot(s) for s in (1, 2, 3)},
...     ask=lambda question: next(answers), out=io.StringIO(),
... ).run()
>>> game.phase.name
'PLAY'
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

from jass._version import __version__
from jass.bots import Bot
from jass.cli.screen import Labels, Style, describe, hand_lines, status_lines, trick_line
from jass.core.cards import Card
from jass.core.contracts import Contract
from jass.core.play import explain_illegal, trick_winner
from jass.core.seats import Seat
from jass.core.weis import find_weis
from jass.engine.actions import Action, Choose, DeclareWeis, Play, Shove, Thank
from jass.engine.game import Game
from jass.engine.hand import Phase
from jass.engine.view import PlayerView
from jass.errors import IllegalActionError, IllegalReason, InvalidInputError, JassError
from jass.naming import Names, counted, parse_contract
from jass.records import dumps
from jass.rules import PRESETS, RuleSet, preset_name
from jass.rules.options import WeisDeclaration

__all__ = ["TerminalGame"]

_QUIT = ("q", "quit", "exit")
_HELP = ("?", "help", "hilfe")
_THANK = ("bedanke", "bedanken", "thank")
_SHOVE = ("schiebe", "schieben", "shove")
_YES = ("y", "yes", "j", "ja")
_NO = ("n", "no", "nein")


class _Quit(Exception):  # noqa: N818  (control flow: the player left)
    """The player quit; ``eof``: the input ended, so nothing more can be asked."""

    def __init__(self, *, eof: bool = False) -> None:
        super().__init__("quit")
        self.eof = eof


class _Thanked(Exception):  # noqa: N818  (control flow: the player's team thanked)
    pass


class TerminalGame:
    """One game at the terminal: the player at ``seat`` against ``bots`` at the other seats.

    ``ask`` asks one question and returns the answer (``input`` by default; ``EOFError`` ends
    the game as a quit, ``KeyboardInterrupt`` passes through); ``out`` receives the screen.
    ``save`` is where the game record goes at the end or on quitting; without it, the player
    is offered to save. ``echo`` repeats each answer, for a transcript when the answers do not
    come from a keyboard. ``opponents`` says at the start which bots play (e.g. ``RuleBot``).
    ``rerun`` is the command shown at the start as the way to play the same deals again
    (``jass play --seed N`` by default; ``jass play`` passes its own options). ``pause`` waits
    for Enter after each hand's score, so that the next hand's first moves do not scroll it
    away: ``jass play`` pauses when a person types the answers.

    >>> import io, jass
    >>> from jass.bots import RuleBot
    >>> out = io.StringIO()
    >>> _ = TerminalGame(jass.Game.new(seed=3), {s: RuleBot(s) for s in (1, 2, 3)},
    ...                  ask=lambda question: "q", out=out, save=None).run()
    >>> "seed 3" in out.getvalue(), "Us (you + partner) 0" in out.getvalue()
    (True, True)
    """

    def __init__(
        self,
        game: Game,
        bots: Mapping[int, Bot],
        *,
        names: Names | None = None,
        style: Style | None = None,
        ask: Callable[[str], str] | None = None,
        out: TextIO | None = None,
        save: str | Path | None = None,
        echo: bool = False,
        seat: Seat | int = Seat.S0,
        opponents: str | None = None,
        rerun: str | None = None,
        pause: bool = False,
    ) -> None:
        """Set up the game; :meth:`run` plays it."""
        self.game = game
        self.seat = Seat(seat)
        missing = [s for s in Seat if s != self.seat and s not in bots]
        if missing:
            raise InvalidInputError(f"TerminalGame needs a bot for every other seat: {missing}")
        self.bots = bots
        self.names = names if names is not None else Names()
        self.style = style if style is not None else Style()
        self._ask_function = ask if ask is not None else input
        self.out = out if out is not None else sys.stdout
        self.save = Path(save) if save is not None else None
        self.echo = echo
        self.labels = Labels(self.seat)
        self.opponents = opponents
        self.rerun = rerun if rerun is not None else f"jass play --seed {game.seed}"
        self.pause = pause
        self._weis_asked = -1  # the hand in which the player was asked for Weis

    # --- the game -----------------------------------------------------------------------

    def run(self) -> Game:
        """Play until the game is over or the player quits; returns the last state.

        >>> import io, jass
        >>> from jass.bots import RuleBot
        >>> answers = iter(["bedanke", "y", "n"])  # thank at once, and lose; no saving
        >>> out = io.StringIO()
        >>> game = TerminalGame(jass.Game.new(seed=3), {s: RuleBot(s) for s in (1, 2, 3)},
        ...                     ask=lambda question: next(answers), out=out).run()
        >>> game.is_over, game.result.reason.name, "they win" in out.getvalue()
        (True, 'FALSE_THANK', True)
        """
        self._header()
        try:
            while not self.game.is_over:
                self._apply_deal()
                while self.game.phase in (Phase.CHOOSE, Phase.PLAY):
                    mover = self.game.to_move
                    assert mover is not None  # noqa: S101
                    if mover != self.seat:
                        self._apply(self.bots[mover].choose_action(self.game.view(mover)))
                        continue
                    action = self._decide()
                    if action is not None:  # None: the player thanked, which was applied
                        self._apply(action)
                if self.pause and not self.game.is_over:
                    self._ask("Press Enter for the next hand (q quits) ")
        except _Quit as leaving:
            self._say("\nYou leave the table.")
            self._offer_save(asking=not leaving.eof)
            self._say("bye")
            return self.game
        self._offer_save(asking=True)
        return self.game

    def _header(self) -> None:
        game = self.game
        rules = game.ruleset
        name = preset_name(rules) or _described(rules)
        goal = counted(rules.hands, "hand") if rules.hands is not None else f"target {rules.target}"
        self._say(
            f"jass {__version__} · Schieber against three bots · rules {name} ({goal}) · "
            f"seed {game.seed}",
            f"  ({self.rerun} deals the same cards again)",
            "You and your partner play against right and left; play goes to the right.",
            *([f"Your partner and opponents: {self.opponents}"] if self.opponents else []),
            "Answer with a number or a name. ? shows help, q quits.",
        )

    def _apply_deal(self) -> None:
        self.game = self.game.deal()
        hand = self.game.hand_info
        assert hand is not None  # noqa: S101
        bar = "═══" if self.names.symbols else "==="
        self._say(
            f"\n{bar} Hand {hand.number + 1} · {self.labels.does(hand.dealer, 'deals')} · "
            f"{self.labels.seat(hand.forehand)} {'are' if hand.forehand == self.seat else 'is'}"
            f" forehand {bar}"
        )

    def _apply(self, action: Action) -> None:
        before, self.game = self.game, self.game.apply(action)
        lines = describe(before, action, self.game, self.names, self.labels)
        self._say(*lines)

    def _decide(self) -> Action | None:
        """Ask the player until the answer is a legal action (``None``: a thank, applied)."""
        view = self.game.view(self.seat)
        try:
            if view.phase is Phase.CHOOSE:
                return self._choose(view)
            order = self._screen(view)
            hand_number = view.hand_number or 0
            if self._weis_asked != hand_number and view.can_declare_weis():
                self._weis_asked = hand_number  # asked once a hand; "weis" asks again
                if find_weis(view.hand, view.ruleset):
                    self._declare(view)
            return self._card(order)
        except _Thanked:
            return None

    # --- the screen ---------------------------------------------------------------------

    def _screen(self, view: PlayerView) -> tuple[Card, ...]:
        rule = ("─" if self.names.symbols else "-") * 64
        lines, order = hand_lines(view, self.names, self.style)
        self._say("", rule, *status_lines(view, self.names, self.style))
        if view.phase is Phase.PLAY:
            self._say(trick_line(view, self.names, self.style))
            weis = self._weis_note(view)
            if weis:
                self._say(weis)
            self._say("Your hand (* = may be played):")
        else:
            self._say("Your hand:")
        self._say(*lines)
        return order

    def _weis_note(self, view: PlayerView) -> str:
        if view.tricks or not view.ruleset.weis:
            return ""
        own = view.own_weis
        if own is not None:
            return "Your Weis: " + (", ".join(self.names.weis(w) for w in own) or "none declared")
        found = find_weis(view.hand, view.ruleset)
        if not found:
            return ""
        shown = ", ".join(self.names.weis(w) for w in found)
        if view.ruleset.weis_declaration is WeisDeclaration.AUTO:
            return f"Your Weis: {shown} (declared with your first card)"
        return f"Your Weis: {shown} (not declared; 'weis' declares them)"

    # --- questions ----------------------------------------------------------------------

    def _choose(self, view: PlayerView) -> Action:
        self._screen(view)
        options: list[Action] = [Choose(c) for c in Contract.all() if view.ruleset.allows(c)]
        if view.can_shove():
            options.append(Shove())
        self._say("Choose the trumps:")
        for number, action in enumerate(options, start=1):
            text = (
                self.names.contract(action.contract, view.ruleset)
                if isinstance(action, Choose)
                else "schiebe (shove: your partner chooses)"
            )
            self._say(f"  [{number}] {text}")
        hint = ", or schiebe" if view.can_shove() else ""
        while True:
            answer = self._ask(f"Trumpf? (number or name{hint}) ", view)
            if not answer:  # Enter alone: ask again, as a shell does
                continue
            picked = _number(answer)
            if picked is not None and 1 <= picked <= len(options):
                return options[picked - 1]
            chosen = self._contract(view, answer, len(options))
            if chosen is not None:
                return chosen

    def _contract(self, view: PlayerView, answer: str, count: int) -> Action | None:
        """The contract or shove ``answer`` names, or ``None`` after saying why not."""
        if _number(answer) is not None:
            self._say(f"  choose a number from 1 to {count}")
            return None
        examples = "Rose, Eichel" if self.names.swiss else "Herz, Kreuz"
        if answer.casefold() in _SHOVE:
            try:
                self.game.shove()  # the rules explain a refusal
            except IllegalActionError as exc:
                self._say(f"  {exc}; choose a contract")
                return None
            return Shove()
        if len(answer) == 1:  # "s": spades or schiebe? Refuse rather than guess.
            self._say(
                f"  {answer!r} is too short to be sure: type the number, or the whole name "
                f"({examples}, Obenabe, schiebe)"
            )
            return None
        try:
            contract = parse_contract(answer, view.ruleset)
        except InvalidInputError:
            self._say(
                f"  {answer!r} is not a contract: type the number, or a name "
                f"({examples}, Obenabe, Undenufe, schiebe)"
            )
            return None
        if not view.ruleset.allows(contract):
            self._say(f"  {self.names.contract(contract)} is not allowed by these rules")
            return None
        return Choose(contract)

    def _declare(self, view: PlayerView) -> None:
        """Ask which Weis to declare (``MANUAL``), and declare them."""
        weis = find_weis(view.hand, view.ruleset)
        listed = "  ".join(f"[{i}] {self.names.weis(w)}" for i, w in enumerate(weis, start=1))
        self._say(f"You may declare Weis: {listed}")
        while True:
            answer = self._ask(
                "Declare which? (numbers like 1 2, all, or none; undeclared Weis never score) ",
                view,
            ).casefold()
            if answer in ("all", "alle"):
                chosen = list(weis)
                break
            if answer in ("none", "keine", "", "0"):
                self._say("  no Weis declared; 'weis' still declares them before your first card")
                return
            chosen = []
            for part in answer.replace(",", " ").split():
                number = _number(part)
                if number is None or not 1 <= number <= len(weis):
                    self._say(f"  {part!r}: give numbers from 1 to {len(weis)}, all or none")
                    break
                if weis[number - 1] not in chosen:
                    chosen.append(weis[number - 1])
            else:
                break
        self._apply(DeclareWeis(tuple(chosen)))
        shown = ", ".join(self.names.weis(w) for w in chosen)
        self._say(f"  you declare {shown}; the others hear the points with your first card")

    def _card(self, order: tuple[Card, ...]) -> Action:
        while True:
            view = self.game.view(self.seat)
            answer = self._ask("Your card? (number or name; ? for help) ", view)
            if not answer:  # Enter alone: ask again, as a shell does
                continue
            if answer.casefold() == "weis":
                if view.can_declare_weis() and find_weis(view.hand, view.ruleset):
                    self._declare(view)
                else:
                    self._say("  you have no Weis to declare now")
                continue
            number = _number(answer)
            if number is not None:
                if not 1 <= number <= len(order):
                    self._say(f"  choose a card number from 1 to {len(order)}, or a card's name")
                    continue
                card = order[number - 1]
            else:
                try:
                    card = Card.parse(answer, view.ruleset.suit_pairing)
                except InvalidInputError:
                    example = "Rosen Under" if self.names.swiss else "♥J, JH or Herz Bube"
                    self._say(
                        f"  {answer!r} is not a card: type its number, or its name like {example}"
                    )
                    continue
            refusal = self._refusal(view, card)
            if refusal is None:
                return Play(card)
            self._say(f"  {refusal}")

    def _refusal(self, view: PlayerView, card: Card) -> str | None:
        """Why ``card`` may not be played, in the names on screen, or ``None``."""
        contract = view.contract
        assert contract is not None  # noqa: S101
        name = self.names.card(card)
        found = explain_illegal(view.hand, view.trick, contract, card, view.ruleset)
        if found is None:
            return None
        reason = found[0]
        if reason is IllegalReason.NOT_IN_HAND:
            return f"{name} is not in your hand"
        led = view.trick[0]
        top = view.trick[trick_winner(view.trick, contract)]
        legal = self.names.cards(contract.by_strength(view.legal_moves()))
        if reason is IllegalReason.MUST_FOLLOW_TRUMP:
            why = "trumps were led and you hold trumps (only a lone Buur is exempt)"
        elif reason is IllegalReason.UNDERTRUMP:
            why = f"it would undertrump {self.names.card(top)}, and you hold other cards"
        elif reason is IllegalReason.MUST_OVERTRUMP:
            why = f"you hold only trumps and can overtrump {self.names.card(top)}"
        else:
            trump = " (or a trump)" if contract.is_trump else ""
            why = f"{self.names.card(led)} was led and you hold {self.names.suit(led.suit)}{trump}"
        return f"{name} is not allowed: {why}; you may play {legal}"

    def _ask(self, question: str, view: PlayerView | None = None) -> str:
        """One answer; quit, help and thank are handled here, for every question."""
        while True:
            try:
                answer = self._ask_function(question).strip()
            except EOFError:
                self._say("")
                raise _Quit(eof=True) from None
            if self.echo:
                self._say(answer)
            key = answer.casefold()
            if key in _QUIT:
                raise _Quit
            if key in _HELP:
                self._help()
            elif key in _THANK and view is not None:
                if self._thank(view):
                    raise _Thanked
            else:
                return answer

    def _yes(self, question: str) -> bool:
        while True:
            try:
                answer = self._ask_function(question).strip().casefold()
            except EOFError:
                raise _Quit(eof=True) from None
            if self.echo:
                self._say(answer)
            if answer in _YES or answer in _NO or answer in _QUIT:
                return answer in _YES
            self._say("  please answer y (yes) or n (no)")

    def _help(self) -> None:
        if self.names.swiss:
            cards, suits = "Rosen Under, Eichel 9, Schelle Banner", "Rose, Trumpf Eichel"
        else:
            cards, suits = "♥J, JH, 10d, Herz Bube", "Herz, Trumpf Kreuz"
        self._say(
            "Answer with the number in brackets, or a name:",
            f"  cards: {cards}",
            f"  contracts: {suits}, Obenabe, Undenufe; schiebe shoves to your partner",
            "At every question:",
            "  ?        this help",
            "  bedanke  thank (bedanken): say your team has reached the target",
            "  weis     declare your Weis, before your first card (weis_declaration=MANUAL)",
            "  q        quit (you may save the game first)",
        )

    def _thank(self, view: PlayerView) -> bool:
        """Explain thanking and ask for confirmation; whether the team thanked."""
        if not view.can_thank():
            try:
                self.game.thank(view.team)
            except JassError as exc:
                self._say(f"  {exc}")
            return False
        target = view.ruleset.target
        has = view.scores[view.team]
        self._say(
            "Bedanken: your team says it has reached the target, and the game stops at once.",
            "  Counted are the tricks completed so far, the Weis once trick 1 is complete, and",
            "  Stöck, all multiplied; the cards of an unfinished trick do not count.",
            f"  If your team has reached {target}, you win; if not, you lose, whatever the score.",
            f"  Your team has {has} of {target}.",
        )
        if self._yes("Thank now? [y/n] "):
            self._apply(Thank(view.team))
            return True
        self._say("  play on")
        return False

    # --- saving -------------------------------------------------------------------------

    def _offer_save(self, *, asking: bool) -> None:
        if self.save is not None:
            self._write(self.save)
            return
        if not asking:
            return
        try:
            if not self._yes("Save the game to replay it later? [y/n] "):
                return
            default = f"jass-{self.game.seed}.json"
            while True:
                name = self._ask_function(f"File name [{default}]: ").strip() or default
                if self.echo:
                    self._say(name)
                try:
                    self._write(Path(name))
                except OSError as exc:
                    self._say(f"  cannot write {name}: {exc.strerror or exc}")
                    continue
                return
        except (EOFError, _Quit):
            return

    def _write(self, path: Path) -> None:
        path.write_text(dumps(self.game, indent=1), encoding="utf-8")
        self._say(f"Saved the game to {path}; replay it with: jass replay {path}")

    def _say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)


def _number(text: str) -> int | None:
    """The number ``text`` is (0 when it is too long to be an option), or ``None``."""
    if not text.isdecimal():  # not isdigit: "²" is a digit that int() refuses
        return None
    return int(text) if len(text) <= 6 else 0


def _described(ruleset: RuleSet) -> str:
    """A rule set as the preset nearest to it and the options changed from it."""
    changes = min(
        ((name, ruleset.changes_from(preset)) for name, preset in PRESETS.items()),
        key=lambda item: len(item[1]),
    )
    shown = ", ".join(f"{option}={_option(value)}" for option, value in changes[1].items())
    return f"{changes[0]} with {shown}"


def _option(value: object) -> str:
    if isinstance(value, frozenset):
        return ",".join(sorted(str(contract) for contract in value))
    name = getattr(value, "name", None)
    return name if isinstance(name, str) else str(value)
