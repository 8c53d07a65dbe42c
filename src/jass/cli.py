"""The ``jass`` command (also ``python -m jass``).

- ``jass watch`` (the default): bots play a seeded hand or game, printed trick by trick;
  ``--save FILE`` writes the game record.
- ``jass play``: play against three bots in the terminal (seat 0; your partner is seat 2).
- ``jass replay FILE``: check a game record against the rules and print it.
- ``jass simulate``: a seeded duplicate match between two bots, with 95% intervals
  (``--jobs`` for a process pool, ``--json`` for machine-readable output).
- ``jass rules``: the presets and options of the rule sets.

>>> main(["--seed", "7", "--hands", "1"])  # doctest: +ELLIPSIS
jass ... Schieber, rules SCHIEBER, seed 7
...
Hand 1 score: ...
0
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

from jass._version import __version__
from jass.actions import Action, Choose, Deal, DeclareWeis, Play, Shove, Thank
from jass.bots import MonteCarloBot, RandomBot, RuleBot
from jass.cards import Card, CardSet, SuitPairing
from jass.errors import InvalidInputError, JassError
from jass.hand import Phase
from jass.jasskit import BOT_KINDS, PlayerServer, make_bot
from jass.matches import play_match
from jass.records import dumps, from_jasskit, loads, unfinished
from jass.rules import PRESETS, SCHIEBER, find_ruleset, preset_name
from jass.state import Game

__all__ = ["main", "narrate"]

_COMMANDS = ("watch", "play", "replay", "rules", "simulate", "serve")
_BOTS = {"random": RandomBot, "rule": RuleBot, "montecarlo": MonteCarloBot}


def _show(card: Card, swiss: SuitPairing | None) -> str:
    return card.swiss_name(swiss) if swiss is not None else str(card)


def _show_hand(hand: CardSet, swiss: SuitPairing | None) -> str:
    return " ".join(_show(card, swiss) for card in hand)


def narrate(before: Game, action: Action, after: Game, swiss: SuitPairing | None = None) -> None:
    """Print what ``action`` did, taking ``before`` to ``after``, in the words of the game.

    >>> import jass
    >>> g = jass.Game.new(seed=1)
    >>> narrate(g, jass.Deal(g.deal().hands), g.deal())  # doctest: +ELLIPSIS
    <BLANKLINE>
    Hand 1: seat ... deals, seat ... is forehand
    ...
    """
    hand = after.hand_info
    if isinstance(action, Deal) and hand is not None:
        print(
            f"\nHand {hand.number + 1}: seat {int(hand.dealer)} deals, "
            f"seat {int(hand.forehand)} is forehand"
        )
        for seat, cards in enumerate(after.hands):
            print(f"  seat {seat} (team {seat % 2}): {_show_hand(cards, swiss)}")
    elif isinstance(action, Shove):
        print(f"  seat {int(before.to_move or 0)} shoves")
    elif isinstance(action, Choose):
        times = after.ruleset.multiplier(action.contract)
        print(f"  seat {int(before.to_move or 0)} chooses {action.contract} (x{times})")
    elif isinstance(action, Thank):
        print(f"  team {int(action.team)} thanks")
    elif isinstance(action, Play):
        if after.stoeck is not None and before.stoeck is None:
            print(f"  seat {int(after.stoeck)} shows Stöck (20)")
        if not after.trick and len(after.tricks) > len(before.tricks):
            trick = after.tricks[-1]
            shown = "  ".join(_show(card, swiss) for card in trick.cards)
            print(
                f"  trick {len(after.tricks)}: seat {int(trick.leader)} leads  "
                f"{shown:<40} -> seat {int(trick.winner)} takes {trick.points}"
            )
            if len(after.tricks) == 1:
                _print_weis(after)
    if len(after.hand_results) > len(before.hand_results):
        _print_hand_score(after)
    if after.result is not None and before.result is None:
        winner = "a draw" if after.winner is None else f"team {int(after.winner)} wins"
        print(
            f"\nGame over after {after.result.hands_played} hands: {winner}"
            f" ({after.scores[0]} : {after.scores[1]}; {after.result.reason.value})"
        )


def _print_weis(game: Game) -> None:
    result = game.weis_result
    if result is None or result.winner is None:
        return
    declared = ", ".join(
        f"seat {seat}: {' + '.join(str(w.points) for w in weis)}"
        for seat, weis in enumerate(result.declared)
        if weis
    )
    shown = "; ".join(str(w) for w in game.shown_weis)
    team = int(result.winner.team)
    print(f"  Weis declared ({declared}); team {team} scores {result.points[team]}: {shown}")


def _print_hand_score(game: Game) -> None:
    score = game.hand_results[-1]
    match = f", match for team {int(score.match)}" if score.match is not None else ""
    extras = "".join(
        f", {name} {pair[0]} : {pair[1]}"
        for name, pair in (("Weis", score.weis), ("Stöck", score.stoeck))
        if any(pair)
    )
    print(
        f"Hand {len(game.hand_results)} score: card points {score.card_points[0]} : "
        f"{score.card_points[1]}{extras}{match}, x{score.multiplier} -> "
        f"{score.totals[0]} : {score.totals[1]}; totals {game.scores[0]} : {game.scores[1]}"
    )


def _watch(args: argparse.Namespace) -> int:
    ruleset = find_ruleset(args.rules)
    game = Game.new(ruleset, seed=args.seed)
    swiss = ruleset.suit_pairing if args.swiss else None
    print(f"jass {__version__}: Schieber, rules {preset_name(ruleset)}, seed {args.seed}")
    rng = random.Random(args.seed)
    bots = [RuleBot(seat) for seat in range(4)]
    hands = 0
    while not game.is_over and (args.hands <= 0 or hands < args.hands):
        before = game
        game = game.deal()
        narrate(before, game.history[-1], game, swiss)
        while game.phase in (Phase.CHOOSE, Phase.PLAY):
            seat = game.to_move
            assert seat is not None  # noqa: S101
            if game.phase is Phase.PLAY:  # random cards, so that every seed shows another game
                action: Action = Play(rng.choice(game.legal_moves().cards()))
            else:
                action = bots[seat].choose_action(game.view(seat))
            before, game = game, game.apply(action)
            narrate(before, action, game, swiss)
        hands += 1
    if args.save:
        Path(args.save).write_text(dumps(game, indent=1), encoding="utf-8")
        print(f"\nsaved the game record to {args.save}")
    return 0


class _Quit(Exception):  # noqa: N818  (control flow: the player left)
    pass


def _ask(question: str) -> str:
    try:
        answer = input(question)
    except EOFError:
        raise _Quit from None
    if answer.strip().lower() in ("q", "quit", "exit"):
        raise _Quit
    return answer.strip()


def _human_action(game: Game, swiss: SuitPairing | None, color: bool) -> Action:
    """Ask the player at seat 0 for an action until it is a legal one."""
    view = game.view(0)
    options = view.legal_actions()
    if game.phase is Phase.CHOOSE:
        choices = [a for a in options if isinstance(a, (Choose, Shove))]
        print(f"\nYour hand: {_show_hand(view.hand, swiss)}")
        for number, action in enumerate(choices, start=1):
            print(f"  [{number}] {action.contract if isinstance(action, Choose) else 'shove'}")
        while True:
            answer = _ask("Contract (number or name)? ")
            try:
                if answer.isdigit() and 1 <= int(answer) <= len(choices):
                    return choices[int(answer) - 1]
                if answer.lower() in ("shove", "schiebe", "s") and Shove() in choices:
                    return Shove()
                chosen = Choose(answer)
                if chosen in choices:
                    return chosen
                print(f"  {chosen.contract} is not allowed now")
            except JassError as exc:
                print(f"  {exc}")
    declarations = [a for a in options if isinstance(a, DeclareWeis)]
    if declarations and _ask("Declare all your Weis? [y/n] ").lower().startswith("y"):
        return max(declarations, key=lambda a: len(a.weis))
    hand = view.hand.cards()
    legal = view.legal_moves()
    marked = []
    for number, card in enumerate(hand, start=1):
        text = f"[{number}] {_show(card, swiss)}"
        if card in legal:
            text = f"\x1b[1;32m{text}*\x1b[0m" if color else f"{text}*"
        marked.append(text)
    trick = "  ".join(_show(card, swiss) for card in view.trick) or "(you lead)"
    print(f"\nScores {view.scores[0]} : {view.scores[1]}   trick: {trick}")
    print("Your hand (* = may be played): " + "  ".join(marked))
    while True:
        answer = _ask("Card (number or name, q to quit)? ")
        if answer.lower() == "thank" and view.can_thank():
            return Thank(view.team)
        try:
            if answer.isdigit() and not 1 <= int(answer) <= len(hand):
                print(f"  choose a card number from 1 to {len(hand)}, or a card's name")
                continue
            card = hand[int(answer) - 1] if answer.isdigit() else Card.parse(answer)
            game.play(card)  # the rules explain a refusal
            return Play(card)
        except JassError as exc:
            print(f"  {exc}")


def _play(args: argparse.Namespace) -> int:
    ruleset = find_ruleset(args.rules)
    game = Game.new(ruleset, seed=args.seed)
    swiss = ruleset.suit_pairing if args.swiss else None
    color = sys.stdout.isatty()
    print(f"jass {__version__}: you are seat 0, your partner seat 2 (rules {preset_name(ruleset)}, "
          f"seed {args.seed}); q quits")  # fmt: skip
    bots = [RuleBot(seat) for seat in range(4)]
    try:
        while not game.is_over:
            before = game
            game = game.deal()
            hand = game.hand_info
            assert hand is not None  # noqa: S101
            print(f"\nHand {hand.number + 1}: seat {int(hand.dealer)} deals, "
                  f"seat {int(hand.forehand)} is forehand")  # fmt: skip
            while game.phase in (Phase.CHOOSE, Phase.PLAY):
                seat = game.to_move
                assert seat is not None  # noqa: S101
                if seat == 0:
                    action = _human_action(game, swiss, color)
                else:
                    action = bots[seat].choose_action(game.view(seat))
                before, game = game, game.apply(action)
                if not isinstance(action, Deal):
                    narrate(before, action, game, swiss)
    except _Quit:
        print("\nbye")
    return 0


def _replay(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInputError(
            f"{args.file} is not UTF-8 text (byte {exc.start}), so not a game record"
        ) from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # bad JSON, too long an integer, too deep
        raise InvalidInputError(f"{args.file} is not JSON: {exc}") from None
    # A jass-kit / Swisslos hand is checked trick by trick; a record, action by action.
    kit = isinstance(data, dict) and "format" not in data and "tricks" in data
    game = from_jasskit(data) if kit else loads(text)
    swiss = game.ruleset.suit_pairing if args.swiss else None
    name = preset_name(game.ruleset) or "custom rules"
    print(f"jass {__version__}: replaying {args.file} ({name}, seed {game.seed})")
    current = game.initial_state()
    for action in game.history:
        before, current = current, current.apply(action)
        narrate(before, action, current, swiss)
    print(f"\nthe record is valid: {len(game.history)} actions")
    stopped = unfinished(game)
    # A jass-kit file holds one hand: only a hand stopped midway is unfinished there.
    if stopped is not None and (not kit or game.phase in (Phase.CHOOSE, Phase.PLAY)):
        print(f"the record is unfinished: it stops {stopped}")
    return 0


def _rules(args: argparse.Namespace) -> int:
    if args.preset:
        ruleset = find_ruleset(args.preset)
        print(f"{preset_name(ruleset)}:")
        for option, value in ruleset.options().items():
            print(f"  {option:<32} {_value(value)}")
        return 0
    print("Presets (their differences from SCHIEBER):")
    for name, preset in PRESETS.items():
        changes = preset.changes_from(SCHIEBER)
        text = ", ".join(f"{option}={_value(value)}" for option, value in changes.items())
        print(f"  {name:<14} {text or '(the defaults)'}")
    print("\nOptions (SCHIEBER's values); derive rules with preset.evolve(option=value):")
    for option, value in SCHIEBER.options().items():
        print(f"  {option:<32} {_value(value)}")
    return 0


def _progress(done: int, total: int) -> None:
    """A one-line progress display on standard error (redrawn in place on a terminal)."""
    end = "\r" if sys.stderr.isatty() and done < total else "\n"
    print(f"  {done}/{total} deals", end=end, file=sys.stderr, flush=True)


def _simulate(args: argparse.Namespace) -> int:
    ruleset = find_ruleset(args.rules)
    teams = []
    for name in (args.team_a, args.team_b):
        bot = _BOTS[name]
        # Monte Carlo with a fixed number of deals, so that the result does not depend on speed.
        teams.append(
            partial(bot, samples=args.samples, time_limit=None) if bot is MonteCarloBot else bot
        )
    start = time.perf_counter()
    show = None if args.json else _progress
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            result = play_match(teams[0], teams[1], args.deals, mode=args.mode, ruleset=ruleset,
                                seed=args.seed, executor=pool, progress=show)  # fmt: skip
    else:
        result = play_match(teams[0], teams[1], args.deals, mode=args.mode, ruleset=ruleset,
                            seed=args.seed, progress=show)  # fmt: skip
    seconds = time.perf_counter() - start
    points, wins = result.points, result.win_rate
    if args.json:
        print(json.dumps({
            "team_a": args.team_a, "team_b": args.team_b, "mode": args.mode,
            "deals": result.deals, "rules": preset_name(ruleset), "seed": args.seed,
            "margin": points.value, "margin_low": points.low, "margin_high": points.high,
            "win_rate": wins.value, "win_rate_low": wins.low, "win_rate_high": wins.high,
            "seconds": round(seconds, 3),
        }))  # fmt: skip
        return 0
    print(f"{args.team_a} against {args.team_b}: {result.deals} duplicate deals "
          f"({args.mode}), rules {preset_name(ruleset)}, seed {args.seed}")  # fmt: skip
    interval = f"[{points.low:+.1f}, {points.high:+.1f}]"
    print(f"  margin per {args.mode[:-1]}: {points.value:+.1f} {interval}")
    print(f"  win rate:        {wins.value:.3f} [{wins.low:.3f}, {wins.high:.3f}]")
    print(f"  {seconds:.1f} s")
    return 0


def _serve(args: argparse.Namespace) -> int:
    kinds: dict[str, str] = {}
    for spec in args.bot or [f"{kind}={kind}" for kind in BOT_KINDS]:
        name, _, kind = spec.rpartition("=")
        name = name or kind  # "--bot rule" serves a RuleBot named rule
        if kind not in BOT_KINDS:
            raise InvalidInputError(
                f"--bot {spec}: unknown bot kind {kind!r}; choose {', '.join(BOT_KINDS)}"
            )
        if name in kinds:
            raise InvalidInputError(f"--bot {spec}: the name {name!r} is taken")
        kinds[name] = kind
    bots = {name: partial(make_bot, kind, seconds=args.seconds) for name, kind in kinds.items()}
    server = PlayerServer(
        bots, args.host, args.port, seed=args.seed, kit_undertrumps=not args.strict
    )
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr
    )
    for name, kind in kinds.items():
        budget = f", {args.seconds:g} s per decision" if kind == "montecarlo" else ""
        print(f"{server.url}/{name}  ({kind}{budget})", flush=True)
    print("jass serve: jass-kit's player service; Ctrl-C stops it", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("jass serve: stopped", file=sys.stderr)
        return 130
    return 0


def _value(value: object) -> str:
    if isinstance(value, frozenset):
        return " ".join(sorted(str(contract) for contract in value))
    name = getattr(value, "name", None)
    return name if isinstance(name, str) else str(value)


def _count(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``low``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} is less than {low}")
        return value

    return parse


def _seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text}: seconds must be positive")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jass", description="Schieber, the Swiss card game: watch, replay, rules."
    )
    parser.add_argument("--version", action="version", version=f"jass {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    watch = commands.add_parser("watch", help="bots play a seeded hand or game (the default)")
    watch.add_argument("--seed", type=int, default=7, help="seed for the deal and the bots")
    watch.add_argument("--rules", default="SCHIEBER", help="preset name, e.g. SCHIEBER_1000")
    watch.add_argument(
        "--hands", type=_count(0), default=1, help="hands to play (0: the whole game)"
    )
    watch.add_argument("--swiss", action="store_true", help="Swiss-German card names")
    watch.add_argument("--save", metavar="FILE", help="write the game record (JSON) to FILE")
    play = commands.add_parser("play", help="play against three bots in the terminal")
    play.add_argument("--seed", type=int, default=None, help="seed of the deals")
    play.add_argument("--rules", default="SCHIEBER", help="preset name, e.g. SCHIEBER_1000")
    play.add_argument("--swiss", action="store_true", help="Swiss-German card names")
    replay = commands.add_parser("replay", help="check a game record and print it")
    replay.add_argument(
        "file", help="a game record (`jass watch --save`), or a jass-kit / Swisslos hand"
    )
    replay.add_argument("--swiss", action="store_true", help="Swiss-German card names")
    rules = commands.add_parser("rules", help="list the presets and the options")
    rules.add_argument("--preset", help="show every option of one preset")
    simulate = commands.add_parser("simulate", help="a duplicate match between two bots")
    simulate.add_argument("--team-a", choices=sorted(_BOTS), default="rule")
    simulate.add_argument("--team-b", choices=sorted(_BOTS), default="random")
    simulate.add_argument("--deals", type=_count(1), default=100, help="deals, each played twice")
    simulate.add_argument("--mode", choices=("hands", "games"), default="hands")
    simulate.add_argument("--rules", default="SCHIEBER", help="preset name")
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument(
        "--samples", type=_count(1), default=8, help="MonteCarloBot deals per card"
    )
    simulate.add_argument("--jobs", type=_count(1), default=1, help="worker processes")
    simulate.add_argument("--json", action="store_true", help="print one JSON object")
    serve = commands.add_parser("serve", help="serve bots over jass-kit's player-service protocol")
    serve.add_argument(
        "--bot", action="append", metavar="NAME=KIND",
        help=f"a player to serve, KIND one of {', '.join(BOT_KINDS)} (repeatable; "
        "default: one of each, named by its kind)",
    )  # fmt: skip
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: all)")
    serve.add_argument("--port", type=_count(0), default=8888, help="port (0: any free port)")
    serve.add_argument(
        "--seconds", type=_seconds, default=1.0, help="MonteCarloBot budget per move"
    )
    serve.add_argument("--seed", type=int, default=0, help="seed the bots' seeds come from")
    serve.add_argument(
        "--strict", action="store_true",
        help="refuse (400) other players' undertrumps that only jass-kit's issue #10 allows",
    )  # fmt: skip
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input, with the reason).

    >>> main(["--rules", "nonsense"])
    jass: unknown rule set 'nonsense'; presets: SCHIEBER, SCHIEBER_1000, ...
    2
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments or (
        arguments[0] not in _COMMANDS and arguments[0] not in ("-h", "--help", "--version")
    ):
        arguments.insert(0, "watch")
    args = _parser().parse_args(arguments)
    commands = {
        "watch": _watch,
        "play": _play,
        "replay": _replay,
        "rules": _rules,
        "simulate": _simulate,
        "serve": _serve,
    }
    run = commands[args.command]
    try:
        return run(args)
    except KeyboardInterrupt:  # Ctrl-C: stop quietly, with the shell's status for SIGINT
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:  # `jass rules | head`: the reader left; say nothing more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes stdout
        return 141  # the shell's status for SIGPIPE
    except (JassError, OSError) as exc:
        print(f"jass: {exc}")
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
