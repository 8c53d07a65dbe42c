"""Bot strength in duplicate matches, with 95% intervals: ``python benchmarks/strength.py``.

Every match plays the same seeded deals twice with the seats swapped (:func:`jass.play_match`
on a process pool), one hand per deal, and prints team A's mean margin per hand with its 95%
confidence interval. JASSKIT rules (one hand, no Weis, no multipliers: the lowest variance)
are the headline; SCHIEBER (multipliers, Weis, Stöck) is reported too.

The matches (``--matches``, comma-separated, or ``all``):

- ``rule-random``: RuleBot against RandomBot.
- ``mc-rule``: ``MonteCarloBot(samples=--samples, time_limit=None)`` against RuleBot.
- ``search-mc``: SearchBot (default budget) against ``MonteCarloBot(samples=16)``.
- ``search-mcn``: SearchBot against ``MonteCarloBot(samples=--samples)``; with
  ``--samples 128``, against the budget ``jass play`` gave MonteCarloBot.
- ``search-rule``: SearchBot against RuleBot.
- ``search-ismcts``: SearchBot against OpenSpiel's Python ISMCTS (the ``openspiel`` extra),
  given as many simulations per card as take it SearchBot's mean time per card (calibrated
  first, in this process).
- ``cheat-rule``: a cheating bot, which sees all four hands and plays SearchBot's evaluation
  on the one true world, against RuleBot: the ceiling that inference could still close.
- ``curve``: SearchBot at each budget of ``--curve`` worlds per card against RuleBot. Below
  each point but the first, a line gives its gain over the budget before it on the same
  deals: the mean and 95% interval of the deal-by-deal difference of the two margins, which
  is much tighter than the two margins' intervals.
- ``tail-mc``: SearchBot with ``solve_tail=5`` (rollouts hand over to the solver at five
  tricks left) against MonteCarloBot(16).
- ``inf-mc``: SearchBot with inference (``candidates=4, samples=16``, about the default's
  time) against MonteCarloBot(16).
- ``leaderboard``: every built-in bot against every other (RandomBot, RuleBot,
  MonteCarloBot(16), SearchBot): the table of ``docs/strength.rst``.

It also times SearchBot's decisions in ``--timing`` hands of self-play (median, p90 and
max CPU time per card, forced cards left out; CPU time, as the machine may be shared).

Command lines::

    python benchmarks/strength.py --deals 2 --samples 1 --workers 1 \
        --matches mc-rule,search-mc,cheat-rule,curve --curve 1,2 --timing 1  # the CI smoke run
    python benchmarks/strength.py --deals 100 --matches all              # a quick table
    python benchmarks/strength.py --deals 1000 --matches all --workers 8 # the release table
    python benchmarks/strength.py --deals 200 --matches curve --curve 8,16,32,64,128

The figures of the docs (bots page, leaderboard), each run alone, niced, on a shared
2-core machine (``--workers 1`` while other jobs ran)::

    nice -n 15 python benchmarks/strength.py --workers 2 --deals 1000 --matches search-mc \
        --rules JASSKIT --timing 10
    nice -n 15 python benchmarks/strength.py --workers 2 --deals 1000 --matches search-rule \
        --rules JASSKIT
    nice -n 15 python benchmarks/strength.py --workers 2 --deals 1000 --matches cheat-rule \
        --rules JASSKIT
    nice -n 15 python benchmarks/strength.py --workers 2 --deals 1000 --matches search-ismcts \
        --rules JASSKIT
    nice -n 15 python benchmarks/strength.py --workers 2 --deals 1000 --matches search-mc \
        --rules SCHIEBER --checkpoint runs
    nice -n 15 python benchmarks/strength.py --workers 2 --deals 200 --samples 128 \
        --matches search-mcn --rules JASSKIT
    nice -n 15 python benchmarks/strength.py --workers 2 --deals 1000 --matches curve \
        --curve 8,16,32,64 --rules JASSKIT --checkpoint runs

(the MonteCarloBot(128) line is short of 1,000 deals only for want of the session's time;
with ``--deals 1000`` it gives the release figure). ``--checkpoint DIR`` keeps each match's
deals in a file in ``DIR`` (:func:`jass.play_match`'s checkpoint), so that a long match cut
short goes on where it stopped when the same command is run again with the same code.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import jass
from jass.bots import MonteCarloBot, RandomBot, RuleBot, SearchBot
from jass.bots._evaluate import Position, make_evaluator, remaining
from jass.bots.search import _contract_value, _weis_found
from jass.engine.actions import PLAY_ACTIONS, Action, Choose, Shove, Thank
from jass.engine.game import Game
from jass.engine.hand import Phase
from jass.engine.view import PlayerView
from jass.matches import BotFactory, MatchResult, bot_seed, deal_seed, mean_interval, play_match
from jass.rules import RuleSet
from jass.search.sampling import DealSampler

try:  # the openspiel extra, for the ISMCTS match only
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from jass.envs.openspiel import make_resampler
except ImportError:
    pyspiel = None

DEFAULT_MATCHES = "rule-random,mc-rule,search-mc,search-rule"
ALL_MATCHES = (
    "rule-random,mc-rule,search-mc,search-rule,search-ismcts,cheat-rule,curve,inf-mc"
)
LEADERBOARD = "rule-random,mc-random,search-random,mc16-rule,search-rule,search-mc"


class CheatingBot:
    """Sees every hand: SearchBot's evaluation on the one true world.

    A benchmark device, not a player. A view holds no other seat's cards, so it deals the
    match's deal again: it is told the match's seed and size, and finds its deal from the
    seed :func:`jass.play_match` gave it (:func:`jass.matches.bot_seed`).
    """

    def __init__(
        self, seed: int, *, match_seed: int, deals: int, ruleset: RuleSet,
        solve_tricks: int | None = None,
    ) -> None:
        self.seed = seed
        deal_of = {
            bot_seed(match_seed, index, seat): index for index in range(deals) for seat in range(4)
        }
        dealt = Game.new(ruleset, seed=deal_seed(match_seed, deal_of[seed])).deal()
        self._dealt = [int(h) for h in dealt.hands]  # the same cards at the same seats
        # One world only: solved from 7 tricks left on the native core, 5 in pure Python.
        if solve_tricks is None:
            solve_tricks = 7 if make_evaluator("auto").name == "native" else 5
        self._evaluator = make_evaluator("auto", solve_tricks=solve_tricks)

    def choose_action(self, view: PlayerView) -> Action:
        """The best action if all hands are known."""
        actions = view.legal_actions()
        for action in actions:
            if isinstance(action, Thank) and view.scores[action.team] >= view.ruleset.target:
                return action
        hands = self._dealt  # cheating is the point
        if view.phase is Phase.CHOOSE:
            assert view.dealer is not None
            forehand = (int(view.dealer) + 1) & 3
            side = int(view.seat) & 1
            weis = _weis_found(hands, view.ruleset)
            options: list[tuple[float, int, Action]] = []
            for action in actions:
                if isinstance(action, Choose):
                    value = _contract_value(hands, weis, action.contract, view.ruleset,
                                            forehand, side)
                    options.append((value, -action.index, action))
            # Its partner sees everything too and would name the same: never shove.
            best = max(options, key=lambda o: o[:2])
            return best[2]
        plays = [a for a in actions if not isinstance(a, Thank)]
        if view.can_declare_weis():
            return RuleBot().choose_action(view)
        cards = [int(c) for c in view.legal_moves()]
        if len(cards) == 1:
            return PLAY_ACTIONS[cards[0]]
        world = remaining(hands, int(view.played))
        values = self._evaluator.card_values(Position.of(view), [world], cards)[0]
        best_card = max(range(len(cards)), key=lambda i: (values[i], -cards[i]))
        assert plays
        return PLAY_ACTIONS[cards[best_card]]


class IsmctsBot:
    """OpenSpiel's Python ISMCTS with random rollouts, on the project's OpenSpiel game."""

    def __init__(self, seed: int | None = None, *, simulations: int = 20, uct_c: float = 150.0,
                 preset: str = "JASSKIT") -> None:
        self.seed = seed or 0
        self.simulations = simulations
        self.uct_c = uct_c
        self.preset = preset
        self._games: dict[int, Any] = {}
        self._calls = 0

    def choose_action(self, view: PlayerView) -> Action:
        """ISMCTS's action, from a state rebuilt from the view (ISMCTS resamples the rest)."""
        if pyspiel is None:
            raise SystemExit("search-ismcts needs the openspiel extra (jass[openspiel])")
        actions = [a for a in view.legal_actions() if not isinstance(a, Thank)]
        if len(actions) == 1:
            return actions[0]
        assert view.dealer is not None
        dealer = int(view.dealer)
        if dealer not in self._games:
            self._games[dealer] = pyspiel.load_game(
                f"python_jass_schieber(ruleset={self.preset},dealer={dealer})"
            )
        game = self._games[dealer]
        self._calls += 1
        rng = random.Random(hash((self.seed, self._calls)))
        deal = DealSampler(view).sample(rng)
        queues = [iter(sorted(int(c) for c in deal[s])) for s in range(4)]
        state = game.new_initial_state()
        for k in range(36):
            state.apply_action(next(queues[(dealer + 1 + k // 3) & 3]))
        if view.shoves:
            state.apply_action(Shove().index)
        if view.contract is not None:
            state.apply_action(Choose(view.contract).index)
        for _, card in view.plays:
            state.apply_action(int(card))
        random_state = np.random.RandomState(rng.randrange(2**31))
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, random_state),
            self.uct_c,
            self.simulations,
            random_state=random_state,
        )
        bot.set_resampler(make_resampler(rng.randrange(2**31)))
        chosen = int(bot.step(state))
        return next(a for a in actions if a.index == chosen)


def time_per_card(factory: BotFactory, ruleset: RuleSet, hands: int) -> list[float]:
    """CPU seconds per card decision (forced cards left out) in self-play of ``hands`` hands."""
    times: list[float] = []
    for index in range(hands):
        game = jass.Game.new(ruleset, seed=1000 + index).deal()
        bots = [factory(seat + 10 * index) for seat in range(4)]
        while game.phase in (Phase.CHOOSE, Phase.PLAY):
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            forced = game.phase is Phase.PLAY and len(game.legal_moves()) == 1
            start = time.process_time()  # CPU time: the machine may be shared
            action = bots[seat].choose_action(view)
            elapsed = time.process_time() - start
            if game.phase is Phase.PLAY and not forced and not view.can_declare_weis():
                times.append(elapsed)
            game = game.apply(action)
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"median {statistics.median(ordered) * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms, "
            f"max {ordered[-1] * 1000:.1f} ms of CPU over {len(ordered)} cards")


def main(argv: list[str] | None = None) -> int:
    """Run the matches and print one table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--samples", type=int, default=16, help="MonteCarloBot deals per card")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--matches", default=DEFAULT_MATCHES, help=f"or all ({ALL_MATCHES}), or leaderboard"
    )
    parser.add_argument("--rules", default="JASSKIT,SCHIEBER", help="presets, comma-separated")
    parser.add_argument("--curve", default="8,16,32,64", help="SearchBot budgets for 'curve'")
    parser.add_argument("--timing", type=int, default=1, help="hands of self-play timed")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--checkpoint", metavar="DIR",
        help="keep each match's deals in a file in DIR: a run cut short resumes there",
    )  # fmt: skip
    args = parser.parse_args(argv)
    named = {"all": ALL_MATCHES, "leaderboard": LEADERBOARD}
    wanted = ",".join(named.get(key, key) for key in args.matches.split(",")).split(",")
    monte_carlo = partial(MonteCarloBot, samples=args.samples, time_limit=None)
    mc16 = partial(MonteCarloBot, samples=16, time_limit=None)
    search = partial(SearchBot)
    timed = time_per_card(search, jass.rules.JASSKIT, max(1, args.timing))
    print(f"SearchBot (default budget, backend {SearchBot().backend}): {summary(timed)}")
    search_seconds = statistics.fmean(timed)
    print(f"{'match':<34} {'rules':<9} {'deals':>6} {'margin/hand':>12} "
          f"{'95% interval':>18} {'seconds':>8}", flush=True)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for preset in args.rules.split(","):
            ruleset = jass.rules.PRESETS[preset]
            below: tuple[str, MatchResult] | None = None  # the curve's last point
            for name, team_a, team_b in matches(wanted, args, monte_carlo, mc16, search,
                                                search_seconds, preset):
                result = run(pool, name, preset, ruleset, team_a, team_b, args)
                if not name.startswith("SearchBot(") or not name.endswith(") vs RuleBot"):
                    continue
                if below is not None:
                    print_gain(below, result)
                below = (name, result)
    return 0


def print_gain(below: tuple[str, MatchResult], result: MatchResult) -> None:
    """The curve's step: the margin gained over the budget below, deal by deal (paired)."""
    gain = mean_interval(
        [high - low for high, low in zip(result.deal_margins, below[1].deal_margins, strict=True)]
    )
    step = f"  gain over {below[0].partition(' ')[0]}"
    print(f"{step:<34} {'paired':<9} {gain.n:>6} {gain.value:>+12.1f} "
          f"{f'[{gain.low:+.1f}, {gain.high:+.1f}]':>18}", flush=True)


def matches(wanted: list[str], args: argparse.Namespace, monte_carlo: BotFactory,
            mc16: BotFactory, search: BotFactory, search_seconds: float,
            preset: str) -> list[tuple[str, BotFactory, BotFactory]]:
    """The (name, team A, team B) of each wanted match."""
    chosen: list[tuple[str, BotFactory, BotFactory]] = []
    for key in wanted:
        if key == "rule-random":
            chosen.append(("RuleBot vs RandomBot", RuleBot, RandomBot))
        elif key == "mc-random":
            chosen.append(("MonteCarloBot(16) vs RandomBot", mc16, RandomBot))
        elif key == "search-random":
            chosen.append(("SearchBot vs RandomBot", search, RandomBot))
        elif key == "mc16-rule":
            chosen.append(("MonteCarloBot(16) vs RuleBot", mc16, RuleBot))
        elif key == "mc-rule":
            chosen.append((f"MonteCarloBot({args.samples}) vs RuleBot", monte_carlo, RuleBot))
        elif key == "search-mc":
            chosen.append(("SearchBot vs MonteCarloBot(16)", search, mc16))
        elif key == "search-mcn":
            chosen.append((f"SearchBot vs MonteCarloBot({args.samples})", search, monte_carlo))
        elif key == "search-rule":
            chosen.append(("SearchBot vs RuleBot", search, RuleBot))
        elif key == "tail-mc":
            chosen.append(("SearchBot(solve_tail=5) vs MC(16)",
                           partial(SearchBot, solve_tail=5), mc16))
        elif key == "inf-mc":
            chosen.append(("SearchBot(inference) vs MC(16)",
                           partial(SearchBot, candidates=4, samples=16), mc16))
        elif key == "cheat-rule":
            cheater = partial(CheatingBot, match_seed=args.seed, deals=args.deals,
                              ruleset=jass.rules.PRESETS[preset])
            chosen.append(("CheatingBot vs RuleBot", cheater, RuleBot))
        elif key == "search-ismcts":
            simulations = calibrate_ismcts(search_seconds, preset)
            chosen.append((f"SearchBot vs ISMCTS({simulations} sims)", search,
                           partial(IsmctsBot, simulations=simulations, preset=preset)))
        elif key == "curve":
            chosen.extend(
                (f"SearchBot({budget}) vs RuleBot", partial(SearchBot, samples=budget), RuleBot)
                for budget in (int(b) for b in args.curve.split(","))
            )
        else:
            raise SystemExit(f"unknown match {key!r}; the matches are {ALL_MATCHES}")
    return chosen


def calibrate_ismcts(seconds: float, preset: str) -> int:
    """Simulations per card that take ISMCTS ``seconds`` (measured on a few decisions)."""
    probe = IsmctsBot(0, simulations=20, preset=preset)
    times = time_per_card(lambda _seed: probe, jass.rules.PRESETS[preset], 1)
    per_simulation = statistics.fmean(times) / 20
    simulations = max(1, round(seconds / per_simulation))
    print(f"ISMCTS: {per_simulation * 1000:.2f} ms per simulation; {simulations} simulations "
          f"match SearchBot's {seconds * 1000:.0f} ms per card", flush=True)
    return simulations


def run(pool: Executor, name: str, preset: str, ruleset: RuleSet, team_a: BotFactory,
        team_b: BotFactory, args: argparse.Namespace) -> MatchResult:
    start = time.perf_counter()
    checkpoint = None
    if args.checkpoint is not None:
        slug = re.sub(r"[^A-Za-z0-9]+", "-", f"{name} {preset} {args.deals} {args.seed}")
        checkpoint = Path(args.checkpoint) / f"{slug.strip('-').lower()}.json"
    result = play_match(team_a, team_b, args.deals, ruleset=ruleset, seed=args.seed,
                        executor=pool, checkpoint=checkpoint)
    points = result.points
    interval = f"[{points.low:+.1f}, {points.high:+.1f}]"
    seconds = time.perf_counter() - start
    print(f"{name:<34} {preset:<9} {args.deals:>6} {points.value:>+12.1f} {interval:>18} "
          f"{seconds:>8.0f}", flush=True)
    return result


if __name__ == "__main__":
    sys.exit(main())
