"""Helpers shared by the tests: deals by seat, small game drivers, and rule-set tweaks.

Plain, typed functions (``mypy --strict`` reads the tests too); the hypothesis strategies
are in ``tests/strategies.py`` and the hypothesis profile in ``tests/conftest.py``.

A test that wants a chosen seat to lead the first hand names the dealer, the seat before it
(``Game.new(..., dealer=...)``, as :func:`new_game` and :func:`deal` do). The marker-card
rule (rule book R3.7) is a rule of its own, tested where it is the subject. A test of a game
near its end starts from a score sheet (``Game.new(..., scores=...)``) rather than playing
hands to get there.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from jass import Card, CardSet, Contract, Game, Phase, RuleSet, Seat, Thank, rules

#: Four hands, by seat, as card names.
FourHands = tuple[str, str, str, str]

#: One suit a seat: seat 0 the hearts, seat 1 the spades, seat 2 the diamonds, seat 3 the
#: clubs. With hearts trump seat 0 takes all nine tricks; under Obenabe the leader takes each.
ALL_HEARTS_DEAL: FourHands = (
    "6H 7H 8H 9H 10H JH QH KH AH",
    "6S 7S 8S 9S 10S JS QS KS AS",
    "6D 7D 8D 9D 10D JD QD KD AD",
    "6C 7C 8C 9C 10C JC QC KC AC",
)

#: A target that no game reaches: see :func:`endless`.
NEVER_REACHED = 10**9


# --- rule sets ------------------------------------------------------------------------------


def endless(ruleset: RuleSet) -> RuleSet:
    """``ruleset`` with a target no game reaches, so that hand after hand can be played.

    Only for tests that play more hands than a game to the target may last (the dealer's
    rotation over eight hands, running totals over five): there the end of the game is not
    the subject and must not cut the run short. A single hand needs no such target (no
    preset's target is within practical reach of one hand), and a test about the end of the
    game starts near it with ``Game.new(..., scores=...)`` or uses a small target on purpose.
    """
    return ruleset.evolve(target=NEVER_REACHED)


# --- deals ----------------------------------------------------------------------------------


def dealer_before(forehand: Seat | int) -> Seat:
    """The dealer that makes ``forehand`` lead: the seat before it (the forehand is dealer + 1)."""
    return Seat((int(forehand) - 1) % 4)


def new_game(
    ruleset: RuleSet = rules.SCHIEBER,
    *,
    forehand: Seat | int = 0,
    seed: int = 1,
    scores: tuple[int, int] = (0, 0),
    hands_played: int = 0,
) -> Game:
    """A new game whose first hand ``forehand`` leads (its dealer is the seat before)."""
    return Game.new(
        ruleset,
        seed=seed,
        scores=scores,
        dealer=dealer_before(forehand),
        hands_played=hands_played,
    )


def deal(
    ruleset: RuleSet,
    hands: Iterable[str | CardSet],
    *,
    forehand: Seat | int = 0,
    seed: int = 1,
    scores: tuple[int, int] = (0, 0),
    hands_played: int = 0,
) -> Game:
    """A new game with ``hands`` dealt by seat (``hands[s]`` to seat s) and ``forehand`` to move."""
    game = new_game(
        ruleset, forehand=forehand, seed=seed, scores=scores, hands_played=hands_played
    ).deal(hands=list(hands))
    assert game.hand_info is not None
    assert game.hand_info.forehand == forehand
    assert game.to_move == forehand
    return game


def start(
    ruleset: RuleSet,
    hands: Iterable[str | CardSet],
    contract: Contract | str,
    *,
    forehand: Seat | int = 0,
    seed: int = 1,
    scores: tuple[int, int] = (0, 0),
) -> Game:
    """:func:`deal`, then the forehand names ``contract``: the first card is due."""
    return deal(ruleset, hands, forehand=forehand, seed=seed, scores=scores).choose(contract)


def deal_in_playing_order(ruleset: RuleSet, seed: int, hands: Sequence[str | CardSet]) -> Game:
    """A game dealt ``hands`` in playing order: ``hands[0]`` to the forehand the seed draws."""
    probe = Game.new(ruleset, seed=seed).deal(hands=list(hands))
    assert probe.to_move is not None
    forehand = int(probe.to_move)
    game = Game.new(ruleset, seed=seed).deal(
        hands=[hands[(seat - forehand) % 4] for seat in range(4)]
    )
    assert game.to_move is not None
    assert int(game.to_move) == forehand
    return game


def rotated(hands: FourHands, steps: int) -> FourHands:
    """The deal with every hand moved ``steps`` seats on: seat s + steps gets ``hands[s]``."""
    return (
        hands[(0 - steps) % 4],
        hands[(1 - steps) % 4],
        hands[(2 - steps) % 4],
        hands[(3 - steps) % 4],
    )


# --- playing --------------------------------------------------------------------------------


def play_cards(game: Game, cards: Iterable[Card | str]) -> Game:
    """Play ``cards`` in order, whoever is to move."""
    for card in cards:
        game = game.play(card)
    return game


def play_lowest(
    game: Game,
    count: int | None = None,
    *,
    scripts: Mapping[int, Sequence[str]] | None = None,
) -> Game:
    """Play ``count`` cards, or until the hand (or the game) ends.

    Each card is the lowest legal one (by index: spades before hearts, diamonds, clubs, then
    by rank), except that a seat in ``scripts`` plays its listed cards in order while they
    last.
    """
    queues = {seat: [Card.parse(c) for c in cards] for seat, cards in (scripts or {}).items()}
    played = 0
    while game.phase is Phase.PLAY and (count is None or played < count):
        assert game.to_move is not None
        queue = queues.get(int(game.to_move))
        game = game.play(queue.pop(0) if queue else min(game.legal_moves()))
        played += 1
    return game


def play_random(game: Game, rng: random.Random, count: int | None = None) -> Game:
    """Play ``count`` random legal cards, or until the hand (or the game) ends."""
    played = 0
    while game.phase is Phase.PLAY and (count is None or played < count):
        game = game.play(rng.choice(game.legal_moves().cards()))
        played += 1
    return game


def random_step(game: Game, rng: random.Random, *, thank: bool = True) -> Game:
    """One move of a random table: deal when a deal is due, else a random legal action.

    With ``thank``, the team to move thanks as soon as it has the target; a random action is
    never a thank (a random thank would nearly always be false and end the game at once).
    """
    if game.phase is Phase.DEAL:
        return game.deal()
    actions = game.legal_actions()
    if thank:
        for action in actions:
            if isinstance(action, Thank) and game.scores[action.team] >= game.ruleset.target:
                return game.apply(action)
    return game.apply(rng.choice([a for a in actions if not isinstance(a, Thank)]))


def random_states(ruleset: RuleSet, seed: int, rng: random.Random, max_actions: int) -> list[Game]:
    """Every state of a game played by :func:`random_step`, for at most ``max_actions`` steps."""
    game = Game.new(ruleset, seed=seed)
    states = [game]
    for _ in range(max_actions):
        if game.is_over:
            break
        game = random_step(game, rng)
        states.append(game)
    return states


def random_game(ruleset: RuleSet, seed: int, *, max_hands: int = 200) -> Game:
    """A whole game played by :func:`random_step` with ``random.Random(seed)``.

    Fails if a hand beyond ``max_hands`` would be dealt: a game must end.
    """
    rng = random.Random(seed)
    game = Game.new(ruleset, seed=seed)
    while not game.is_over:
        if game.phase is Phase.DEAL:
            assert len(game.hand_results) < max_hands
        game = random_step(game, rng)
    return game


__all__ = [
    "ALL_HEARTS_DEAL",
    "NEVER_REACHED",
    "FourHands",
    "deal",
    "deal_in_playing_order",
    "dealer_before",
    "endless",
    "new_game",
    "play_cards",
    "play_lowest",
    "play_random",
    "random_game",
    "random_states",
    "random_step",
    "rotated",
    "start",
]
