"""SearchBot: legal and honest in every rule set, reproducible anywhere, sane contracts.

The evaluation is checked against a brute-force minimax over the state machine, and the
inference against hands built to make one world likelier than another.
"""

from __future__ import annotations

import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

import pytest

from jass import Card, CardSet, Contract, Game, Phase, Seat, Thank, rules
from jass.bots import Bot, MonteCarloBot, RuleBot, SearchBot, play_hand
from jass.bots._evaluate import (
    Evaluator,
    NativeEvaluator,
    Position,
    PythonEvaluator,
    declaring_team,
    heuristic_policy,
    make_evaluator,
    misere_card,
    remaining,
    tail_value,
    tally,
)
from jass.bots._inference import InferenceModel, log_likelihood, resample
from jass.bots.search import DEFAULT_SAMPLES
from jass.cli.commands import main
from jass.engine.actions import DeclareWeis, Play, Shove
from jass.engine.hand import HandInfo
from jass.engine.view import PlayerView
from jass.errors import InvalidInputError
from jass.jasskit import BOT_KINDS, make_bot
from jass.matches import play_match
from jass.solver import NATIVE, Solver, solve

MISERE_RULES = rules.SCHIEBER_1000.evolve(contracts=[*Contract.standard(), Contract.MISERE])
RULESETS = [
    rules.JASSKIT,
    rules.SCHIEBER_1000,
    rules.SCHIEBER_1000.evolve(weis_declaration="MANUAL", end_mode="THANK"),
    MISERE_RULES,
]


def mover(game: Game) -> Seat:
    """The seat to move (there is one)."""
    seat = game.to_move
    assert seat is not None
    return seat


class CheckedBot:
    """Wraps a bot: each action must be legal, and a thank true by the game's own scores."""

    def __init__(self, inner: Bot, game_of: list[Game]) -> None:
        self.inner = inner
        self.game_of = game_of
        self.thanks = 0
        self.kinds: set[str] = set()

    def choose_action(self, view: PlayerView) -> Any:
        action = self.inner.choose_action(view)
        assert action in view.legal_actions()
        self.kinds.add(type(action).__name__)
        if isinstance(action, Thank):
            game = self.game_of[0]
            assert game.scores[action.team] >= game.ruleset.target
            self.thanks += 1
        return action


def play_checked(ruleset: rules.RuleSet, seed: int, **budget: Any) -> tuple[Game, list[CheckedBot]]:
    current: list[Game] = [Game.new(ruleset, seed=seed)]
    bots = [
        CheckedBot(SearchBot(seat, samples=2, contract_samples=3, **budget), current)
        for seat in range(4)
    ]
    game = current[0]
    for _ in range(40):
        if game.is_over:
            break
        if game.phase is Phase.DEAL:
            game = game.deal()
        while game.phase in (Phase.CHOOSE, Phase.PLAY):
            current[0] = game
            seat = game.to_move
            assert seat is not None
            game = game.apply(bots[seat].choose_action(game.view(seat)))
        if ruleset.hands == 1:
            break
    return game, bots


@pytest.mark.parametrize("candidates", [1, 3], ids=["uniform", "inference"])
@pytest.mark.parametrize("ruleset", RULESETS, ids=["jasskit", "schieber1000", "manual", "misere"])
def test_search_bot_plays_whole_games_legally_and_never_thanks_falsely(
    ruleset: rules.RuleSet, candidates: int
) -> None:
    game, bots = play_checked(ruleset, seed=3, candidates=candidates)
    assert game.phase in (Phase.DEAL, Phase.OVER)
    if ruleset.hands is None:
        assert game.is_over
        assert game.result is not None
        assert game.result.reason.name != "FALSE_THANK"
    if ruleset.end_mode.name == "THANK":
        # Only a thank ends this game, so the bots thanked, truly.
        assert sum(bot.thanks for bot in bots) >= 1
        assert game.result is not None
        assert game.result.reason.name == "THANKED"


def test_search_bot_never_thanks_before_the_target_is_proven() -> None:
    ruleset = rules.SCHIEBER_1000.evolve(end_mode="THANK")
    game = Game.new(ruleset, seed=4).deal()
    view = game.view(mover(game))
    assert any(isinstance(a, Thank) for a in view.legal_actions())
    assert max(view.scores) < ruleset.target
    assert not isinstance(SearchBot(1, samples=1, contract_samples=2).choose_action(view), Thank)


@pytest.mark.parametrize("candidates", [1, 3])
def test_search_bot_repeats_itself_and_differs_with_the_seed(candidates: int) -> None:
    def history(seed: int) -> tuple[Any, ...]:
        bots = [
            SearchBot(seed + seat, samples=3, contract_samples=3, candidates=candidates)
            for seat in range(4)
        ]
        return play_hand(Game.new(rules.SCHIEBER, seed=5), bots).history

    assert history(0) == history(0)
    assert history(0) != history(100)


def test_search_bot_matches_agree_across_executors() -> None:
    team = partial(SearchBot, samples=2, contract_samples=3)
    serial = play_match(team, RuleBot, 3, ruleset=rules.JASSKIT, seed=9)
    with ProcessPoolExecutor(max_workers=2) as pool:
        pooled = play_match(team, RuleBot, 3, ruleset=rules.JASSKIT, seed=9, executor=pool,
                            chunk_size=1)
    assert serial.margins == pooled.margins
    assert serial.outcomes == pooled.outcomes


BAD_COUNTS: list[Any] = [0, -1, "x", 2.5, True, math.inf]
BAD_SECONDS: list[Any] = [0, -1, "1", True, math.nan, math.inf]


@pytest.mark.parametrize("samples", BAD_COUNTS)
def test_search_bot_refuses_a_bad_sample_count(samples: Any) -> None:
    with pytest.raises(InvalidInputError, match=r"^samples must be a positive whole number"):
        SearchBot(samples=samples)


@pytest.mark.parametrize("time_limit", BAD_SECONDS)
def test_search_bot_refuses_a_bad_time_limit(time_limit: Any) -> None:
    with pytest.raises(InvalidInputError, match=r"^time_limit must be a positive number"):
        SearchBot(time_limit=time_limit)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"samples": None, "time_limit": None}, "needs a budget"),
        ({"candidates": 0}, "^candidates must be a positive whole number"),
        ({"contract_samples": 1.5}, "^contract_samples must be a positive whole number"),
        ({"solve_tricks": 10}, "solve_tricks must be 0-9 or None"),
        ({"solve_tail": 10}, "solve_tail must be 0-9 or None"),
        ({"solve_tail": True}, "solve_tail must be 0-9 or None"),
        ({"backend": "gpu"}, "backend must be 'auto', 'native' or 'python'"),
    ],
)
def test_search_bot_refuses_bad_settings(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        SearchBot(**kwargs)


def test_search_bot_keeps_to_a_time_limit() -> None:
    game = Game.new(rules.JASSKIT, seed=2).deal().choose("obenabe")
    bot = SearchBot(1, samples=None, time_limit=0.05)
    start = time.perf_counter()
    action = bot.choose_action(game.view(mover(game)))
    assert time.perf_counter() - start < 1.0
    assert isinstance(action, Play)


def test_the_default_budget_is_documented_and_small() -> None:
    bot = SearchBot()
    assert bot.samples == DEFAULT_SAMPLES == 32
    assert bot.candidates == 1
    assert bot.time_limit is None
    assert bot.backend in ("python", "native")
    assert bot.solve_tail == (5 if bot.backend == "native" else None)
    assert SearchBot(solve_tail=0).solve_tail is None


def deal_with(forehand_hand: str, seed: int = 1) -> Game:
    """A game whose forehand holds ``forehand_hand``; the other cards dealt in order."""
    probe = Game.new(rules.JASSKIT, seed=seed).deal()
    forehand = int(mover(probe))
    mine = CardSet.parse(forehand_hand)
    rest = [c for c in range(36) if not int(mine) >> c & 1]
    hands: list[CardSet] = []
    for seat in range(4):
        if seat == forehand:
            hands.append(mine)
        else:
            hands.append(CardSet(sum(1 << c for c in rest[:9])))
            rest = rest[9:]
    return Game.new(rules.JASSKIT, seed=seed).deal(hands=tuple(hands))


def test_search_bot_names_its_long_strong_trumps() -> None:
    game = deal_with("JH 9H AH KH 10H 6S AD AC 7C")
    choice = SearchBot(1, contract_samples=16).choose_action(game.view(mover(game)))
    assert choice.contract == Contract.parse("hearts")  # type: ignore[union-attr]


def test_search_bot_shoves_a_hopeless_hand() -> None:
    game = deal_with("9S 10S 8H 9H 10D 9D 10C 8C QD")
    choice = SearchBot(1, contract_samples=16).choose_action(game.view(mover(game)))
    assert isinstance(choice, Shove)


def test_search_bot_names_obenabe_with_the_aces_and_kings() -> None:
    game = deal_with("AS KS QS AH KH AD KD AC 6C")
    choice = SearchBot(1, contract_samples=16).choose_action(game.view(mover(game)))
    assert choice.contract == Contract.OBENABE  # type: ignore[union-attr]


def test_contract_values_are_only_for_the_choice() -> None:
    game = Game.new(rules.JASSKIT, seed=2).deal().choose("obenabe")
    with pytest.raises(InvalidInputError, match="contract values are for the contract choice"):
        SearchBot().contract_values(game.view(mover(game)))


def test_manual_weis_declares_the_unbeatable_four_jacks() -> None:
    ruleset = rules.SCHIEBER.evolve(weis_declaration="MANUAL")
    probe = Game.new(ruleset, seed=1).deal()
    forehand = int(mover(probe))
    mine = CardSet.parse("JS JH JD JC 6S 7S 8S AH KH")
    rest = [c for c in range(36) if not int(mine) >> c & 1]
    hands = []
    for seat in range(4):
        hands.append(mine if seat == forehand else CardSet(sum(1 << c for c in rest[:9])))
        if seat != forehand:
            rest = rest[9:]
    game = Game.new(ruleset, seed=1).deal(hands=tuple(hands)).choose("hearts")
    view = game.view(mover(game))
    options = [a for a in view.legal_actions() if isinstance(a, DeclareWeis)]
    assert len(options) > 2
    choice = SearchBot(1, contract_samples=6).choose_action(view)
    assert isinstance(choice, DeclareWeis)
    assert sum(w.points for w in choice.weis) == max(
        sum(w.points for w in o.weis) for o in options
    )


def minimax(game: Game, side: int) -> int:
    """``side``'s hand total minus the opponents' with best play, by the state machine."""
    if game.phase is not Phase.PLAY:
        totals = game.hand_results[-1].totals
        return totals[side] - totals[side ^ 1]
    seat = game.to_move
    assert seat is not None
    values = [minimax(game.play(card), side) for card in game.legal_moves()]
    return max(values) if int(seat) & 1 == side else min(values)


@pytest.mark.parametrize(
    "engine",
    [
        "python",
        pytest.param(
            "native", marks=pytest.mark.skipif(not NATIVE, reason="the native core is not built")
        ),
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 3, 8])
@pytest.mark.parametrize("contract", ["spades", "undenufe", "misère"])
def test_exact_card_values_agree_with_a_brute_force_minimax(
    seed: int, contract: str, engine: str
) -> None:
    ruleset = rules.JASSKIT.evolve(contracts=[*Contract.standard(), Contract.MISERE])
    game = Game.new(ruleset, seed=seed).deal().choose(contract)
    rng = random.Random(seed)
    # Two or three tricks left, mid-trick for some seeds; seed 8: the hand's last card.
    for _ in range(27 + seed):
        game = game.play(rng.choice(game.legal_moves().cards()))
    view = game.view(mover(game))
    side = int(mover(game)) & 1
    cards = [int(c) for c in game.legal_moves()]
    world = remaining(game.hands, int(view.played))
    evaluator: Evaluator = (
        PythonEvaluator(solve_tricks=9) if engine == "python" else NativeEvaluator(solve_tricks=9)
    )
    values = evaluator.card_values(Position.of(view), [world], cards)[0]
    expected = [minimax(game.play(card), side) for card in game.legal_moves()]
    assert values == expected


def make_view(chooser_hand: str, contract: str) -> tuple[PlayerView, list[int], list[int]]:
    """A view of the seat after the forehand, who named ``contract`` with ``chooser_hand``.

    Returns the view and two deals: the true one, and one where the chooser's and its
    partner's hands are swapped.
    """
    game = deal_with(chooser_hand).choose(contract)
    forehand = int(mover(game))
    watcher = (forehand + 1) & 3
    true = [int(h) for h in game.hands]
    swapped = list(true)
    partner = (forehand + 2) & 3
    swapped[forehand], swapped[partner] = true[partner], true[forehand]
    return game.view(watcher), true, swapped


def test_inference_believes_the_chooser_holds_its_trumps() -> None:
    view, true, swapped = make_view("JH 9H AH KH 10H 6S AD AC 7C", "hearts")
    assert log_likelihood(view, true) > log_likelihood(view, swapped) + 3
    off = InferenceModel(contract=False)
    assert log_likelihood(view, true, off) == log_likelihood(view, swapped, off) == 0.0


def test_inference_finds_a_surprising_card_unlikely() -> None:
    game = Game.new(rules.JASSKIT, seed=6).deal().choose("obenabe")
    leader = int(mover(game))
    view_before = game.view(leader)
    hand = int(game.hands[leader])
    legal = int(game.legal_moves())
    expected = RuleBot().choose_action(view_before)
    assert isinstance(expected, Play)
    other = next(c for c in range(36) if legal >> c & 1 and c != int(expected.card))
    watcher = (leader + 1) & 3
    deal = [int(h) for h in game.hands]
    likely = game.play(expected.card).view(watcher)
    unlikely = game.play(Card(other)).view(watcher)
    model = InferenceModel(contract=False)
    options = legal.bit_count()
    assert hand & legal
    assert log_likelihood(likely, deal, model) == pytest.approx(math.log(0.6 + 0.4 / options))
    assert log_likelihood(unlikely, deal, model) == pytest.approx(math.log(0.4 / options))


def test_resampling_keeps_the_count_and_follows_the_weights() -> None:
    rng = random.Random(5)
    drawn = resample([0.0, math.log(3.0), -100.0], 400, rng)
    counts = dict(drawn)
    assert sum(counts.values()) == 400
    assert 2 not in counts
    assert counts[1] == pytest.approx(300, abs=2)


def test_misere_card_ducks_and_sheds_points() -> None:
    misere = Contract.MISERE
    hand = int(CardSet.parse("AS 10S 6S"))
    assert misere_card(hand, [int(CardSet.parse("QS").cards()[0])], misere) == int(
        CardSet.parse("10S").cards()[0]
    )
    assert misere_card(hand, [], misere) == int(CardSet.parse("6S").cards()[0])


def test_native_backend_is_refused_without_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JASS_PURE", "1")
    with pytest.raises(InvalidInputError, match="needs the native search core"):
        make_evaluator("native", solve_tricks=4)
    assert make_evaluator("auto", solve_tricks=4).name == "python"
    assert SearchBot().backend == "python"
    assert SearchBot().solve_tricks == 4


def test_the_command_line_knows_the_search_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--team-a", "search", "--team-b", "rule", "--deals", "1",
                 "--rules", "JASSKIT", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"team_a": "search"' in out
    assert main(["watch", "--bots", "search", "--rules", "JASSKIT", "--seed", "2"]) == 0
    assert "SearchBot (32 sampled worlds a card)" in capsys.readouterr().out
    assert "search" in BOT_KINDS
    served = make_bot("search", 3, seconds=0.05)
    assert isinstance(served, SearchBot)
    assert served.time_limit == 0.05
    assert served.samples == DEFAULT_SAMPLES


def hand_of(game: Game) -> HandInfo:
    """The game's current hand (there is one)."""
    info = game.hand_info
    assert info is not None
    return info


def shoved_game(ruleset: rules.RuleSet, seed: int) -> Game:
    """A dealt hand whose forehand shoved and whose forehand's partner named hearts."""
    game = Game.new(ruleset, seed=seed).deal()
    while game.phase is not Phase.CHOOSE:  # a rule set that declares Weis first
        game = game.apply(RuleBot().choose_action(game.view(mover(game))))
    forehand = mover(game)
    game = game.apply(Shove())
    assert mover(game) == forehand.partner
    return game.choose("hearts")


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_tally_and_declaring_team_follow_the_engine_after_a_shove(seed: int) -> None:
    game = shoved_game(rules.JASSKIT, seed)
    dealer = hand_of(game).dealer
    expected_team = (int(dealer) + 1) % 4 % 2  # the forehand's team (rule book R4.4)
    for _ in range(13):
        game = game.apply(RuleBot().choose_action(game.view(mover(game))))
    for seat in range(4):
        view = game.view(seat)
        assert tally(view) == (view.hand_points, view.tricks_won)
        assert sum(tally(view)[1]) == 3
        assert declaring_team(view) == expected_team == int(hand_of(game).declaring_team)
        chooser = view.chooser
        assert chooser is not None
        assert declaring_team(view) == int(chooser) % 2  # the chooser is its partner
    assert Position.of(game.view(mover(game))).declaring == expected_team


COUNTER_MATCH = rules.SCHIEBER.evolve(weis=False, stoeck=False,
                                     counter_match="DOUBLE_TRICK_POINTS")


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_the_last_card_is_valued_as_the_engine_scores_it_after_a_shove(seed: int) -> None:
    """A match after a shove: the declaring team's bonus (rule book R8.4), as the engine has it.

    The forehand's team holds every heart and the aces, kings and queens: it takes all nine
    tricks. Were the other team taken for the declaring one, the value would be a
    counter-match's 314 instead of 157 + 100.
    """
    forehand = int(hand_of(Game.new(COUNTER_MATCH, seed=seed).deal()).forehand)
    strong = ["6H 7H 8H 9H 10H JH QH KH AH", "AS KS QS AD KD QD AC KC QC"]
    weak = ["JS 10S 9S 8S 7S 6S JD 10D 9D", "8D 7D 6D JC 10C 9C 8C 7C 6C"]
    hands = [""] * 4
    for k in range(4):
        hands[(forehand + k) % 4] = (strong if k % 2 == 0 else weak)[k // 2]
    game = Game.new(COUNTER_MATCH, seed=seed).deal(hands=hands)
    assert int(hand_of(game).forehand) == forehand
    game = game.apply(Shove()).choose("hearts")
    dealt = [int(h) for h in game.hands]
    while len(game.tricks) < 8 or len(game.trick) < 3:
        game = game.apply(RuleBot().choose_action(game.view(mover(game))))
    view = game.view(mover(game))
    (card,) = view.legal_moves().cards()
    side = int(view.seat) % 2
    score = game.play(card).hand_results[-1]
    assert score.match is not None
    assert int(score.match) == forehand % 2
    expected = (score.card_points[side] + score.bonus[side]
                - score.card_points[1 - side] - score.bonus[1 - side])
    assert abs(expected) == 257
    monte_carlo = MonteCarloBot(samples=1, time_limit=None)._evaluate(view, dealt, int(card))
    assert monte_carlo == expected
    world = remaining(dealt, int(view.played))
    python = PythonEvaluator(solve_tricks=4).card_values(Position.of(view), [world], [int(card)])
    assert python == [[float(expected)]]


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_tail_values_agree_with_the_engine_rollouts_and_the_solver(seed: int) -> None:
    """``tail_value``: the heuristic on the state machine down to the tail, then ``solve``."""
    game = Game.new(rules.JASSKIT, seed=seed).deal().choose("hearts")
    game = game.play(min(game.legal_moves()))  # a trick under way
    view = game.view(mover(game))
    position = Position.of(view)
    world = remaining(game.hands, 0)
    side = int(view.seat) % 2
    contract = game.contract
    assert contract is not None
    policy = heuristic_policy(contract)
    cards = [int(c) for c in view.legal_moves()]
    rolled = PythonEvaluator(solve_tricks=0).card_values(position, [world], cards)[0]
    for card, rollout in zip(cards, rolled, strict=True):
        solver = Solver(contract, game.ruleset)
        assert tail_value(position, world, card, solver, 1) == rollout  # the last trick forced
        after = game.play(Card(card))
        while after.trick or 9 - len(after.tricks) > 5:
            seat = int(mover(after))
            held = [int(h) for h in after.hands]
            legal = int(after.legal_moves())
            trick = [int(c) for c in after.trick]
            after = after.play(Card(policy(held[seat], legal, trick, seat, sum(held))))
        points = after.view(0).hand_points
        sign = 1 if int(mover(after)) % 2 == side else -1
        expected = points[side] - points[1 - side] + sign * solve(after).lower
        assert tail_value(position, world, card, solver, 5) == expected


def test_search_bot_with_a_solved_tail_plays_legally() -> None:
    game, bots = play_checked(rules.SCHIEBER_1000, 4, solve_tail=4)
    assert game.phase is not Phase.CHOOSE
    assert all("Play" in bot.kinds for bot in bots)
