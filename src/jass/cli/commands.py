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
import difflib
import json
import logging
import os
import random
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

from jass._version import __version__
from jass.bots import Bot, MonteCarloBot, RandomBot, RuleBot, SearchBot
from jass.bots.search import DEFAULT_SAMPLES
from jass.cli.options import HelpFormatter, bot_factory, count, seconds, shown, with_options
from jass.cli.screen import Style, narrate, symbols_fit
from jass.cli.terminal import TerminalGame
from jass.engine.game import Game
from jass.engine.hand import Phase
from jass.errors import InvalidInputError, JassError
from jass.jasskit import BOT_KINDS, PlayerServer, make_bot
from jass.jasskit.server import MAX_CONNECTIONS, REQUEST_TIMEOUT
from jass.matches import play_match
from jass.naming import Names, counted
from jass.records import dumps, from_jasskit, loads, unfinished
from jass.rules import PRESETS, SCHIEBER, find_ruleset, preset_name

__all__ = ["main", "narrate"]

_COMMANDS = ("watch", "play", "replay", "analyze", "rules", "simulate", "serve")
_BOTS = {
    "random": RandomBot, "rule": RuleBot, "montecarlo": MonteCarloBot, "search": SearchBot
}  # fmt: skip
# Deals per card for the MonteCarloBots of `jass play` and `jass watch`: about 0.2 s a card on
# the shared 2-core development machine (mean 0.23 s, 90% of cards under 0.45 s), unnoticed
# between the player's cards. A count, not a time limit, so that a seeded game replays the same.
PLAY_SAMPLES = 128
PLAY_BOTS = "search"  # the bots of `jass play`: the strongest (see docs/bots.rst)
_BOT_NAMES = {
    "random": "RandomBot", "rule": "RuleBot", "montecarlo": "MonteCarloBot",
    "search": "SearchBot",
}  # fmt: skip


def _bots(kind: str, seed: int, seats: Sequence[int]) -> dict[int, Bot]:
    """Seeded bots of ``kind`` at ``seats``: each seat's seed comes from the game's ``seed``."""
    made: dict[int, Bot] = {}
    for seat in seats:
        bot_seed = seed * 4 + seat
        if kind == "montecarlo":
            made[seat] = MonteCarloBot(bot_seed, samples=PLAY_SAMPLES, time_limit=None)
        else:
            made[seat] = _BOTS[kind](bot_seed)
    return made


def _bots_line(kind: str) -> str:
    """Which bots play, in one line."""
    budget = f" ({PLAY_SAMPLES} sampled deals a card)" if kind == "montecarlo" else ""
    if kind == "search":
        budget = f" ({DEFAULT_SAMPLES} sampled worlds a card)"
    return f"{_BOT_NAMES[kind]}{budget}"


def _watch(args: argparse.Namespace) -> int:
    ruleset = find_ruleset(args.rules)
    game = Game.new(ruleset, seed=args.seed)
    swiss = ruleset.suit_pairing if args.swiss else None
    print(f"jass {__version__}: Schieber, rules {preset_name(ruleset)}, seed {args.seed}")
    print(f"bots: {_bots_line(args.bots)} at every seat")
    bots = _bots(args.bots, args.seed, range(4))
    hands = 0
    while not game.is_over and (args.hands <= 0 or hands < args.hands):
        before = game
        game = game.deal()
        narrate(before, game.history[-1], game, swiss)
        while game.phase in (Phase.CHOOSE, Phase.PLAY):
            seat = game.to_move
            assert seat is not None  # noqa: S101
            action = bots[seat].choose_action(game.view(seat))
            before, game = game, game.apply(action)
            narrate(before, action, game, swiss)
        hands += 1
    if args.save:
        Path(args.save).write_text(dumps(game, indent=1), encoding="utf-8")
        print(f"\nsaved the game record to {args.save}")
    return 0


def _play(args: argparse.Namespace) -> int:
    ruleset = with_options(find_ruleset(args.rules), args.option or [])
    if args.save is not None and not Path(args.save).parent.is_dir():
        raise InvalidInputError(f"--save {args.save}: the directory {Path(args.save).parent} "
                                "does not exist")  # fmt: skip
    # A short seed, easy to type again, when none is given.
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    game = Game.new(ruleset, seed=seed)
    symbols = symbols_fit(sys.stdout)
    color = args.color == "always" or (
        args.color == "auto"
        and _isatty(sys.stdout)
        and not os.environ.get("NO_COLOR")
        and os.environ.get("TERM") != "dumb"
    )
    TerminalGame(
        game,
        _bots(args.bots, seed, (1, 2, 3)),
        opponents=_bots_line(args.bots),
        names=Names(ruleset.suit_pairing if args.swiss else None, symbols=symbols),
        style=Style(color),
        save=args.save,
        echo=not _isatty(sys.stdin),  # answers from a pipe: show them in the transcript
        rerun=_rerun(args, seed),
        pause=_isatty(sys.stdin),  # a person at the keyboard reads each hand's score
    ).run()
    return 0


def _rerun(args: argparse.Namespace, seed: int) -> str:
    """The ``jass play`` command that deals the same cards to the same bots under the same rules.

    >>> _rerun(_parser().parse_args(["play", "--swiss", "--option", "target=1000"]), 63)
    'jass play --seed 63 --swiss --option target=1000'
    >>> _rerun(_parser().parse_args(["play", "--rules", "schieber_1000", "--bots", "rule"]), 5)
    'jass play --seed 5 --rules SCHIEBER_1000 --bots rule'
    """
    words = ["jass", "play", "--seed", str(seed)]
    rules = preset_name(find_ruleset(args.rules)) or args.rules  # as jass rules spells it
    if rules != "SCHIEBER":
        words += ["--rules", rules]
    if args.bots != PLAY_BOTS:
        words += ["--bots", args.bots]
    if args.swiss:
        words.append("--swiss")
    for option in args.option or []:
        words += ["--option", option]
    return shlex.join(words)


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):  # no stream, or a closed one
        return False


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
    print(f"\nthe record is valid: {counted(len(game.history), 'action')}")
    stopped = unfinished(game)
    # A jass-kit file holds one hand: only a hand stopped midway is unfinished there.
    if stopped is not None and (not kit or game.phase in (Phase.CHOOSE, Phase.PLAY)):
        print(f"the record is unfinished: it stops {stopped}")
    return 0


def _analyze(args: argparse.Namespace) -> int:
    from jass.cli.analysis import analyze_file  # noqa: PLC0415  (the solver, on demand)

    svg = Path(args.svg) if args.svg else None
    first = args.from_trick - 1
    print(analyze_file(Path(args.file), svg, first_trick=first, threads=args.threads))
    return 0


def _rules(args: argparse.Namespace) -> int:
    if args.preset:
        ruleset = find_ruleset(args.preset)
        print(f"{preset_name(ruleset)}:")
        for option, value in ruleset.options().items():
            print(f"  {option:<32} {shown(value)}")
        return 0
    print("Presets (their differences from SCHIEBER):")
    for name, preset in PRESETS.items():
        changes = preset.changes_from(SCHIEBER)
        text = ", ".join(f"{option}={shown(value)}" for option, value in changes.items())
        print(f"  {name:<14} {text or '(the defaults)'}")
    print("\nOptions (SCHIEBER's values); derive rules with preset.evolve(option=value):")
    for option, value in SCHIEBER.options().items():
        print(f"  {option:<32} {shown(value)}")
    return 0


def _progress(done: int, total: int) -> None:
    """A one-line progress display on standard error (redrawn in place on a terminal)."""
    end = "\r" if sys.stderr.isatty() and done < total else "\n"
    print(f"  {done}/{counted(total, 'deal')}", end=end, file=sys.stderr, flush=True)


def _simulate(args: argparse.Namespace) -> int:
    ruleset = find_ruleset(args.rules)
    teams = []
    for flag, name in (("--team-a", args.team_a), ("--team-b", args.team_b)):
        try:
            bot = bot_factory(name, _BOTS)
        except InvalidInputError as exc:
            raise InvalidInputError(f"{flag}: {exc}") from None
        # Monte Carlo with a fixed number of deals, so that the result does not depend on speed.
        teams.append(
            partial(bot, samples=args.samples, time_limit=None) if bot is MonteCarloBot else bot
        )
    start = time.perf_counter()
    show = None if args.json else _progress
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            result = play_match(teams[0], teams[1], args.deals, mode=args.mode, ruleset=ruleset,
                                seed=args.seed, executor=pool, progress=show,
                                checkpoint=args.checkpoint)  # fmt: skip
    else:
        result = play_match(teams[0], teams[1], args.deals, mode=args.mode, ruleset=ruleset,
                            seed=args.seed, progress=show, checkpoint=args.checkpoint)  # fmt: skip
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
    print(f"{args.team_a} against {args.team_b}: {counted(result.deals, 'duplicate deal')} "
          f"({args.mode}), rules {preset_name(ruleset)}, seed {args.seed}")  # fmt: skip
    interval = f"[{points.low:+.1f}, {points.high:+.1f}]"
    print(f"  margin per {args.mode[:-1]}: {points.value:+.1f} {interval}")
    print(f"  win rate:        {wins.value:.3f} [{wins.low:.3f}, {wins.high:.3f}]")
    print(f"  {seconds:.1f} s")
    return 0


def _serve(args: argparse.Namespace) -> int:
    kinds: dict[str, str] = {}
    bots: dict[str, Callable[..., Bot]] = {}
    for spec in args.bot or [f"{kind}={kind}" for kind in BOT_KINDS]:
        name, _, kind = spec.rpartition("=")
        # "--bot rule" serves a RuleBot named rule, "--bot mybots:MyBot" a MyBot named MyBot
        name = name or kind.rpartition(":")[2].rpartition(".")[2]
        if name in kinds:
            raise InvalidInputError(f"--bot {spec}: the name {name!r} is taken")
        if kind in BOT_KINDS:
            bots[name] = partial(make_bot, kind, seconds=args.seconds)
        elif ":" in kind:
            try:
                bots[name] = bot_factory(kind, {})
            except InvalidInputError as exc:
                raise InvalidInputError(f"--bot {spec}: {exc}") from None
        else:
            raise InvalidInputError(
                f"--bot {spec}: unknown bot kind {kind!r}; choose {', '.join(BOT_KINDS)} "
                "or MODULE:NAME"
            )
        kinds[name] = kind
    # The deadline leaves a Monte Carlo bot its thinking time, and some to spare.
    deadline = args.request_timeout or max(REQUEST_TIMEOUT, args.seconds + 10)
    server = PlayerServer(
        bots, args.host, args.port, seed=args.seed, kit_undertrumps=not args.strict,
        max_connections=args.max_connections, request_timeout=deadline,
    )  # fmt: skip
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr
    )
    for name, kind in kinds.items():
        budget = f", {args.seconds:g} s per decision" if kind in ("montecarlo", "search") else ""
        print(f"{server.url}/{name}  ({kind}{budget})", flush=True)
    print("jass serve: jass-kit's player service; Ctrl-C stops it", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("jass serve: stopped", file=sys.stderr)
        return 130
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jass",
        description="Schieber, the Swiss card game: play it, watch bots play it, replay a "
        "record, list the rules, measure bots against each other, serve bots.",
        epilog="`jass COMMAND --help` shows a command's options; with no command, jass watch.",
        formatter_class=HelpFormatter,
    )  # fmt: skip
    parser.add_argument("--version", action="version", version=f"jass {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, summary: str, description: str) -> argparse.ArgumentParser:
        return commands.add_parser(
            name, help=summary, description=description, formatter_class=HelpFormatter
        )

    watch = command(
        "watch", "bots play a seeded hand or game (the default)",
        "Bots play a seeded hand (or a whole game), printed trick by trick.",
    )  # fmt: skip
    watch.add_argument("--seed", type=int, default=7, help="seed for the deal and the bots")
    watch.add_argument("--rules", default="SCHIEBER", help="preset name, e.g. SCHIEBER_1000")
    watch.add_argument(
        "--hands", type=count(0), default=1, help="hands to play (0: the whole game)"
    )
    watch.add_argument(
        "--bots", choices=sorted(_BOTS), default="rule",
        help=f"the bots at the four seats (montecarlo: {PLAY_SAMPLES} deals a card; "
        f"search: {DEFAULT_SAMPLES} sampled worlds)",
    )  # fmt: skip
    watch.add_argument("--swiss", action="store_true", help="Swiss-German card names")
    watch.add_argument("--save", metavar="FILE", help="write the game record (JSON) to FILE")
    play = command(
        "play", "play against three bots in the terminal",
        "Play Schieber in the terminal: you and a bot partner against two bots.",
    )  # fmt: skip
    play.add_argument(
        "--seed", type=int, default=None, help="seed of the deals (default: a new one, shown)"
    )
    play.add_argument("--rules", default="SCHIEBER", help="preset name, e.g. SCHIEBER_1000")
    play.add_argument(
        "--option", action="append", metavar="NAME=VALUE",
        help="change one rule option (repeatable), e.g. weis_declaration=MANUAL; "
        "`jass rules` lists them",
    )  # fmt: skip
    play.add_argument(
        "--bots", choices=sorted(_BOTS), default=PLAY_BOTS,
        help=f"your partner and opponents (search: {DEFAULT_SAMPLES} worlds a card, the "
        f"strongest; montecarlo: {PLAY_SAMPLES} deals a card, about 0.2 s; rule: instant)",
    )  # fmt: skip
    play.add_argument(
        "--swiss", action="store_true",
        help="Swiss cards (Rosen, Eicheln, Schellen, Schilten; Under, Ober, Banner), "
        "paired with the French suits as the rules' suit_pairing says",
    )  # fmt: skip
    play.add_argument(
        "--save", metavar="FILE", help="write the game record to FILE at the end or on quitting"
    )
    play.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto",
        help="colour: auto (a terminal without NO_COLOR), always or never",
    )  # fmt: skip
    replay = command(
        "replay", "check a game record and print it",
        "Check a game record against the rules and print it, trick by trick.",
    )  # fmt: skip
    replay.add_argument(
        "file", help="a game record (`jass watch --save`), or a jass-kit / Swisslos hand"
    )
    replay.add_argument("--swiss", action="store_true", help="Swiss-German card names")
    analyze = command(
        "analyze", "double-dummy analysis of a game record",
        "For every card played, all hands known: the best card(s) and the points the card "
        "played gave away (the exact solver).",
    )  # fmt: skip
    analyze.add_argument("file", help="a game record (`jass watch --save`)")
    analyze.add_argument("--svg", help="also draw the key positions into this SVG file")
    analyze.add_argument(
        "--from-trick", type=int, default=1, choices=range(1, 10), metavar="N",
        help="analyze each hand from its Nth trick on (the first tricks take longest)",
    )  # fmt: skip
    analyze.add_argument(
        "--threads", type=count(1), default=None, metavar="N",
        help="threads: hands at once, the rest split each hand's card values "
        "(default: every usable core, with the native core)",
    )  # fmt: skip
    rules = command(
        "rules", "list the presets and the options",
        "List the rule presets and the rule options.",
    )  # fmt: skip
    rules.add_argument("--preset", help="show every option of one preset")
    simulate = command(
        "simulate", "a duplicate match between two bots",
        "A seeded duplicate match between two bots, with 95% intervals.",
    )  # fmt: skip
    kinds = ", ".join(sorted(_BOTS))
    simulate.add_argument(
        "--team-a", default="rule", metavar="BOT",
        help=f"first team: {kinds}, or MODULE:NAME, a bot factory of your own",
    )  # fmt: skip
    simulate.add_argument("--team-b", default="random", metavar="BOT", help="second team, the same")
    simulate.add_argument("--deals", type=count(1), default=100, help="deals, each played twice")
    simulate.add_argument(
        "--mode", choices=("hands", "games"), default="hands",
        help="each deal starts a hand, or a whole game",
    )  # fmt: skip
    simulate.add_argument("--rules", default="SCHIEBER", help="preset name")
    simulate.add_argument("--seed", type=int, default=0, help="seed of the deals and the bots")
    simulate.add_argument(
        "--samples", type=count(1), default=8, help="MonteCarloBot deals per card"
    )
    simulate.add_argument("--jobs", type=count(1), default=1, help="worker processes")
    simulate.add_argument("--json", action="store_true", help="print one JSON object")
    simulate.add_argument(
        "--checkpoint", metavar="FILE", type=Path, default=None,
        help="keep the deals played in FILE; run the same command again to resume",
    )  # fmt: skip
    serve = command(
        "serve", "serve bots over jass-kit's player-service protocol",
        "Serve bots over HTTP as a jass-kit player service.",
    )  # fmt: skip
    serve.add_argument(
        "--bot", action="append", metavar="NAME=KIND",
        help=f"a player to serve, KIND one of {', '.join(BOT_KINDS)} or MODULE:NAME, a bot "
        "factory of your own (repeatable; default: one of each, named by its kind)",
    )  # fmt: skip
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: all)")
    serve.add_argument("--port", type=count(0), default=8888, help="port (0: any free port)")
    serve.add_argument(
        "--seconds", type=seconds, default=1.0,
        help="MonteCarloBot budget per move, and SearchBot's most",
    )
    serve.add_argument("--seed", type=int, default=0, help="seed the bots' seeds come from")
    serve.add_argument(
        "--strict", action="store_true",
        help="refuse (400) other players' undertrumps that only jass-kit's issue #10 allows",
    )  # fmt: skip
    serve.add_argument(
        "--max-connections", type=count(1), default=MAX_CONNECTIONS,
        help="connections served at once; one more is answered 503",
    )  # fmt: skip
    serve.add_argument(
        "--request-timeout", type=seconds, default=None, metavar="SECONDS",
        help=f"seconds a request may take, from its first byte (default {REQUEST_TIMEOUT:g}, "
        "or the Monte Carlo budget plus 10)",
    )  # fmt: skip
    return parser


def _unknown_command(word: str) -> str:
    """The message for a first argument that is no command (and no option).

    >>> _unknown_command("paly")
    "jass: unknown command 'paly' (did you mean play?); commands: watch, play, ..."
    """
    close = difflib.get_close_matches(word, _COMMANDS, n=1)
    guess = f" (did you mean {close[0]}?)" if close else ""
    return (
        f"jass: unknown command {word!r}{guess}; commands: {', '.join(_COMMANDS)}"
        " (jass --help describes them)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input, with the reason).

    >>> main(["--rules", "nonsense"])
    jass: unknown rule set 'nonsense'; presets: SCHIEBER, SCHIEBER_1000, ...
    2
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and not arguments[0].startswith("-") and arguments[0] not in _COMMANDS:
        print(_unknown_command(arguments[0]), file=sys.stderr)
        return 2
    if not arguments or (
        arguments[0] not in _COMMANDS and arguments[0] not in ("-h", "--help", "--version")
    ):
        arguments.insert(0, "watch")
    args = _parser().parse_args(arguments)
    commands = {
        "watch": _watch,
        "play": _play,
        "replay": _replay,
        "analyze": _analyze,
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
