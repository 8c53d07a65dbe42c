"""Bots: every action legal in every phase and rule set; seeded bots repeat themselves."""

from __future__ import annotations

import pytest

from jass import Game, Phase, Thank, rules
from jass.bots import Bot, MonteCarloBot, RandomBot, RuleBot, play_game, play_hand
from jass.bots.rule import contract_rating, heuristic_card
from jass.core.cards import CardSet
from jass.core.contracts import Contract
from jass.core.seats import Seat
from jass.errors import InvalidInputError

RULESETS = [
    rules.SCHIEBER_1000,
    rules.TRADITIONAL.evolve(target=1000),
    rules.BEGINNER,
    rules.TOURNAMENT_12.evolve(hands=3),
    rules.SCHIEBER_1000.evolve(weis_declaration="MANUAL", end_mode="THANK"),
]


class CheckedBot:
    """Wraps a bot and checks that each action it picks is legal in the view it got."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.decisions = 0

    def choose_action(self, view):  # type: ignore[no-untyped-def]
        action = self.inner.choose_action(view)
        assert action in view.legal_actions()
        self.decisions += 1
        return action


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: rules.preset_name(r) or "custom")
@pytest.mark.parametrize("kind", ["random", "rule"])
def test_bots_play_whole_games_legally(ruleset: rules.RuleSet, kind: str) -> None:
    bots = [CheckedBot(RandomBot(seat) if kind == "random" else RuleBot(seat)) for seat in range(4)]
    game = play_game(Game.new(ruleset, seed=11), bots)
    assert game.is_over
    assert game.result is not None
    assert all(bot.decisions > 0 for bot in bots)
    if ruleset.hands is None and game.result.winner is not None:
        # Nobody ever thanks falsely: a thank wins, or the game ended otherwise.
        assert game.result.reason.name != "FALSE_THANK"


def test_monte_carlo_bot_plays_legal_hands_and_repeats_itself() -> None:
    ruleset = rules.SCHIEBER
    first = play_hand(
        Game.new(ruleset, seed=5),
        [CheckedBot(MonteCarloBot(seat, samples=3, time_limit=None)) for seat in range(4)],
    )
    again = play_hand(
        Game.new(ruleset, seed=5),
        [MonteCarloBot(seat, samples=3, time_limit=None) for seat in range(4)],
    )
    assert first.phase is Phase.DEAL
    assert first.history == again.history


def test_rule_bot_thanks_as_soon_as_its_team_reached_the_target() -> None:
    ruleset = rules.SCHIEBER.evolve(end_mode="THANK", target=100)
    game = Game.new(ruleset, seed=3)
    bots = [RuleBot(seat) for seat in range(4)]
    thanked = False
    for _ in range(400):
        if game.is_over:
            break
        if game.phase is Phase.DEAL:
            game = game.deal()
            continue
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        action = bots[seat].choose_action(view)
        if game.scores[seat.team] >= ruleset.target:
            assert action == Thank(seat.team)
            thanked = True
        game = game.apply(action)
    assert thanked
    assert game.result is not None
    assert game.result.reason.name == "THANKED"


def test_rule_bot_shoves_a_weak_hand_and_names_its_strong_suit() -> None:
    strong = CardSet.parse("JH 9H AH KH 10H 6S AD AC 7C")
    weak = CardSet.parse("6S 7S 8H 7D 8D 6C 7C 9C 10D")
    hearts = Contract.parse("hearts")
    assert max(Contract.standard(), key=lambda c: contract_rating(strong, c)) is hearts
    assert max(contract_rating(weak, c) for c in Contract.standard()) < RuleBot().shove_below


def test_heuristic_card_smears_onto_a_partners_sure_trick_and_wins_cheaply() -> None:
    obenabe = Contract.OBENABE
    full = (1 << 36) - 1
    # Partner (two seats back) leads the AH, the boss: smear the 10S, the most points.
    hand = CardSet.parse("10S 6C 7C")
    trick = [CardSet.parse("AH").cards()[0], CardSet.parse("6H").cards()[0]]
    unplayed = full & ~sum(1 << c for c in trick)
    assert heuristic_card(hand, hand, trick, obenabe, unplayed) == CardSet.parse("10S").cards()[0]
    # The opponents hold the trick with the KH: win it with the cheapest winner, the AH.
    hand = CardSet.parse("AH 6H 7C")
    trick = [CardSet.parse("KH").cards()[0]]
    legal = CardSet.parse("AH 6H")
    card = heuristic_card(hand, legal, trick, obenabe, full & ~(1 << trick[0]))
    assert card == CardSet.parse("AH").cards()[0]


def test_bots_need_four_and_a_move() -> None:
    with pytest.raises(InvalidInputError):
        play_hand(Game.new(seed=1), [RandomBot()] * 3)
    with pytest.raises(InvalidInputError):
        RandomBot().choose_action(Game.new(seed=1).view(Seat(0)))
    assert isinstance(RuleBot(), Bot)
    assert isinstance(MonteCarloBot(), Bot)


@pytest.mark.parametrize(
    "ruleset",
    [
        rules.SCHIEBER.evolve(end_mode="THANK", target=300),
        rules.SCHIEBER.evolve(end_mode="THANK", target=300, weis_declaration="MANUAL"),
    ],
)
def test_the_thank_is_listed_last_and_thanked_only_when_true(ruleset: rules.RuleSet) -> None:
    # true_thank and RandomBot read the thank from the end of legal_actions().
    from jass.bots.base import true_thank  # noqa: PLC0415

    offered = thanked = 0
    for seed in range(6):
        game = Game.new(ruleset, seed=seed)
        bots = [RandomBot(seed=seed * 4 + seat) for seat in range(4)]
        while not game.is_over:
            if game.phase is Phase.DEAL:
                game = game.deal()
                continue
            mover = game.to_move
            assert mover is not None
            actions = game.legal_actions()
            thanks = [i for i, a in enumerate(actions) if isinstance(a, Thank)]
            assert thanks in ([], [len(actions) - 1])
            offered += bool(thanks)
            view = game.view(mover)
            true = [a for a in actions if isinstance(a, Thank)
                    and game.scores[a.team] >= ruleset.target]  # fmt: skip
            assert true_thank(view, actions) == (true[0] if true else None)
            action = bots[int(mover)].choose_action(view)
            assert not isinstance(action, Thank) or action in true
            thanked += isinstance(action, Thank)
            game = game.apply(action)
    assert offered > 0
    assert thanked > 0
