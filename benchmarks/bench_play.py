"""Benchmarks of card play: run ``python benchmarks/bench_play.py`` and read the table.

It measures the pure rule function ``legal_cards`` on positions from real hands; complete
random hands through the checked, immutable public API (the seeded deal, a contract, then 36
times ``legal_moves()`` and ``play()`` of a random legal card, and the score, with Weis, Stöck
and multipliers under ``SCHIEBER``); complete games to 1000 under ``SCHIEBER_1000``; and the
path every bot takes: four ``RandomBot``s through ``play_hand`` (a ``PlayerView`` per
decision) against the same hands played on the ``Game`` directly with ``legal_actions()`` and
``apply()`` and the same random policy, and their ratio (target: at least 0.6); and hands of
RuleBot against RuleBot through ``play_match``.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable

import jass
from jass import CardSet, Contract, Game, Phase, RuleSet, Thank, rules
from jass.bots import RandomBot, RuleBot, play_hand
from jass.matches import play_match


def _positions(count: int) -> list[tuple[CardSet, tuple[jass.Card, ...], Contract]]:
    """Positions from random play: (hand to move, trick so far, contract)."""
    rng = random.Random(2026)
    positions: list[tuple[CardSet, tuple[jass.Card, ...], Contract]] = []
    contracts = Contract.standard()
    while len(positions) < count:
        game = Game.new(seed=len(positions)).deal().choose(rng.choice(contracts))
        stop = rng.randrange(36)
        for _ in range(stop):
            game = game.play(rng.choice(game.legal_moves().cards()))
        assert game.to_move is not None
        assert game.contract is not None
        positions.append((game.hands[game.to_move], game.trick, game.contract))
    return positions


def bench_legal_cards(seconds: float) -> tuple[float, int]:
    """``legal_cards`` calls per second over 2,000 positions."""
    positions = _positions(2000)
    ruleset = rules.SCHIEBER
    legal_cards = jass.legal_cards
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for hand, trick, contract in positions:
            legal_cards(hand, trick, contract, ruleset)
        calls += len(positions)
    return calls / (time.perf_counter() - start), calls


def bench_random_hands(seconds: float, ruleset: RuleSet = rules.SCHIEBER) -> tuple[float, int]:
    """Complete random hands per second through the immutable, checked API.

    Games under ``ruleset`` (by default ``SCHIEBER``: Weis, Stöck, multipliers, the end at
    2500): each hand is dealt, a random contract chosen, and random legal cards played until it
    is scored. A hand cut short by the end of the game is played but not counted.
    """
    rng = random.Random(7)
    uniform = rng.random  # a random index as int(uniform() * n): cheaper than rng.choice
    contracts = Contract.standard()
    hands = 0
    games = 0
    game = Game.new(ruleset, seed=games)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            if game.is_over:
                games += 1
                game = Game.new(ruleset, seed=games)
            game = game.deal().choose(rng.choice(contracts))
            while game.phase is Phase.PLAY:
                legal = game.legal_moves().cards()
                game = game.play(legal[int(uniform() * len(legal))])
            if game.phase is Phase.DEAL:
                assert sum(game.hand_results[-1].card_points) == 157
                hands += 1
    return hands / (time.perf_counter() - start), hands


def bench_complete_games(seconds: float) -> tuple[float, int]:
    """Complete games to 1000 under ``SCHIEBER_1000`` per second, random legal play."""
    rng = random.Random(11)
    uniform = rng.random
    contracts = Contract.standard()
    ruleset = rules.SCHIEBER_1000
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game.new(ruleset, seed=games)
        while not game.is_over:
            game = game.deal().choose(rng.choice(contracts))
            while game.phase is Phase.PLAY:
                legal = game.legal_moves().cards()
                game = game.play(legal[int(uniform() * len(legal))])
        assert max(game.scores) >= 1000
        games += 1
    return games / (time.perf_counter() - start), games


def bench_card_play_hands(seconds: float) -> tuple[float, int]:
    """As :func:`bench_random_hands`, with card play and its scoring only (no Weis, Stöck)."""
    return bench_random_hands(seconds, rules.SCHIEBER.evolve(weis=False, stoeck=False))


def _bot_path_hands(seconds: float) -> tuple[float, int]:
    """Hands per second of four RandomBots through ``play_hand``: a view per decision."""
    bots = [RandomBot(seed=seat) for seat in range(4)]
    hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for seed in range(hands, hands + 50):
            play_hand(Game.new(rules.SCHIEBER, seed=seed), bots)
        hands += 50
    return hands / (time.perf_counter() - start), hands


def _direct_hands(seconds: float) -> tuple[float, int]:
    """The same hands and random policy as RandomBot, on the Game with legal_actions/apply."""
    rng = random.Random(0)
    choice = rng.choice
    hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for seed in range(hands, hands + 50):
            game = Game.new(rules.SCHIEBER, seed=seed).deal()
            while game.phase is Phase.CHOOSE or game.phase is Phase.PLAY:
                actions = [a for a in game.legal_actions() if not isinstance(a, Thank)]
                game = game.apply(choice(actions))
        hands += 50
    return hands / (time.perf_counter() - start), hands


_PATHS: dict[str, float] = {}


def bench_direct_loop(seconds: float) -> tuple[float, int]:
    """Random hands on the Game directly (the reference for the bot path)."""
    rate, runs = _direct_hands(seconds)
    _PATHS["direct"] = rate
    return rate, runs


def bench_bot_path(seconds: float) -> tuple[float, int]:
    """Random hands through RandomBots and views."""
    rate, runs = _bot_path_hands(seconds)
    _PATHS["bots"] = rate
    return rate, runs


def bench_bot_path_ratio(seconds: float) -> tuple[float, int]:
    """The bot path's rate over the direct loop's, from the two rows above (x 100)."""
    del seconds
    return 100 * _PATHS["bots"] / _PATHS["direct"], 1


def bench_rulebot_match(seconds: float) -> tuple[float, int]:
    """Hands per second of RuleBot against RuleBot through ``play_match`` (duplicate)."""
    hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        result = play_match(RuleBot, RuleBot, 20, seed=hands)
        hands += result.hands_played
    return hands / (time.perf_counter() - start), hands


BENCHMARKS: dict[str, tuple[Callable[[float], tuple[float, int]], str, float]] = {
    "legal_cards": (bench_legal_cards, "calls/s", 3_000_000),
    "random hands, card play only": (bench_card_play_hands, "hands/s", 8_000),
    "random hands, SCHIEBER": (bench_random_hands, "hands/s", 0),
    "complete games to 1000": (bench_complete_games, "games/s", 0),
    "direct loop, legal_actions/apply": (bench_direct_loop, "hands/s", 0),
    "bot path, 4 RandomBots + views": (bench_bot_path, "hands/s", 0),
    "bot path / direct loop": (bench_bot_path_ratio, "%", 60),
    "play_match RuleBot vs RuleBot": (bench_rulebot_match, "hands/s", 0),
}


def main(argv: list[str] | None = None) -> int:
    """Run every benchmark and print one table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per benchmark")
    args = parser.parse_args(argv)
    print(f"jass {jass.__version__}, Python {platform.python_version()}, {platform.machine()}")
    print(f"{'benchmark':<32} {'rate':>14} {'unit':<8} {'target':>12} {'runs':>10}")
    print("-" * 80)
    for name, (function, unit, target) in BENCHMARKS.items():
        rate, runs = function(args.seconds)
        goal = f"{target:,.0f}" if target else "-"
        print(f"{name:<32} {rate:>14,.0f} {unit:<8} {goal:>12} {runs:>10,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
