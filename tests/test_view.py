"""Player views (information sets) and determinization (sample_deals)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jass import (
    Card,
    CardSet,
    Contract,
    Deal,
    Game,
    IllegalActionError,
    InvalidInputError,
    Play,
    RuleSet,
    Seat,
    Suit,
    rules,
)
from jass.core.weis import WeisKind, find_weis
from jass.engine.view import excluded_cards
from jass.search.sampling import DealSampler, sample_deals
from tests.helpers import ALL_HEARTS_DEAL, play_cards, play_random, start
from tests.strategies import seeds

SPADES = Contract.trump(Suit.SPADES)


def random_position(
    ruleset: RuleSet, seed: int, rng: random.Random, contract: Contract, cards: int
) -> Game:
    return play_random(Game.new(ruleset, seed=seed).deal().choose(contract), rng, cards)


def replay_with(game: Game, dealt: tuple[CardSet, CardSet, CardSet, CardSet]) -> Game:
    """The same public history as ``game``'s current hand, on another deal."""
    history = game.history
    start = max(i for i, action in enumerate(history) if isinstance(action, Deal))
    other = game.initial_state()
    for action in history[:start]:
        other = other.apply(action)
    other = other.deal(hands=dealt)
    for action in history[start + 1 :]:
        other = other.apply(action)
    return other


@pytest.mark.slow
@settings(max_examples=60)
@given(
    seed=seeds,
    rng=st.randoms(use_true_random=False),
    contract=st.sampled_from(Contract.standard()),
    cards=st.integers(min_value=0, max_value=35),
    ruleset=st.sampled_from(
        [
            rules.SCHIEBER,
            rules.SCHIEBER.evolve(undertrump_only_trumps="ONLY_IF_NO_HIGHER"),
            rules.TRADITIONAL,
        ]
    ),
)
def test_views_of_indistinguishable_states_are_equal(
    seed: int, rng: random.Random, contract: Contract, cards: int, ruleset: RuleSet
) -> None:
    """Any deal a view considers possible replays the same history to the same view."""
    game = random_position(ruleset, seed, rng, contract, cards)
    seat = Seat(rng.randrange(4))
    view = game.view(seat)
    for dealt in sample_deals(view, 3, rng):
        other = replay_with(game, dealt)  # raises if a card played would have been illegal
        assert other.view(seat) == view
        assert other.hands[seat] == game.hands[seat]


@settings(max_examples=60)
@given(
    seed=seeds,
    rng=st.randoms(use_true_random=False),
    contract=st.sampled_from(Contract.standard()),
    cards=st.integers(min_value=0, max_value=35),
)
def test_a_view_holds_no_hidden_card_of_another_seat(
    seed: int, rng: random.Random, contract: Contract, cards: int
) -> None:
    game = random_position(rules.SCHIEBER, seed, rng, contract, cards)
    for seat in Seat:
        view = game.view(seat)
        # A card may be in two shown Weis (four Jacks and a run through the Jack).
        public = view.played | CardSet({w for _, weis in view.shown_weis for w in weis.cards})
        visible = view.hand | public
        assert view.hand == game.hands[seat]
        for other in Seat:
            if other != seat:
                hidden = game.hands[other] - public
                # Nothing in the view names a card another seat still hides.
                assert not (hidden & visible)
                assert view.known_cards(other) <= game.hands[other] | 0
                assert not (view.excluded[other] & game.hands[other])
        assert not hasattr(view, "hands")
        if game.to_move == seat:
            assert view.legal_moves() == game.legal_moves()
            assert view.legal_actions() == game.legal_actions()
        else:
            assert view.legal_moves() == CardSet(0)


def test_voids_follow_the_rules_with_the_buur_exception_and_trumping_in() -> None:
    s = Seat
    # Hearts led; seat 1 trumps with a spade (spades trump): no inference, it may trump
    # instead of following. Seat 2 discards a club: void in hearts. Seat 3 follows.
    plays = [
        (s(0), Card.parse("AH")),
        (s(1), Card.parse("6S")),
        (s(2), Card.parse("7C")),
        (s(3), Card.parse("KH")),
    ]
    excluded = excluded_cards(plays, SPADES, rules.SCHIEBER)
    assert excluded[1] == CardSet(0)
    assert excluded[2] == CardSet.parse("6H 7H 8H 9H 10H JH QH KH AH")
    assert excluded[3] == CardSet(0)
    # Spades led: seat 1 discards: it holds no trump but perhaps the Buur (JS).
    plays = [(s(0), Card.parse("AS")), (s(1), Card.parse("6H"))]
    excluded = excluded_cards(plays, SPADES, rules.SCHIEBER)
    assert excluded[1] == CardSet.parse("6S 7S 8S 9S 10S QS KS AS")
    # Hearts led, seat 1 trumps with the 9S, seat 2 undertrumps with the 6S: all trumps.
    plays = [(s(0), Card.parse("AH")), (s(1), Card.parse("9S")), (s(2), Card.parse("6S"))]
    excluded = excluded_cards(plays, SPADES, rules.SCHIEBER)
    assert excluded[2] == ~CardSet(0x1FF)
    strict = rules.SCHIEBER.evolve(undertrump_only_trumps="ONLY_IF_NO_HIGHER")
    assert excluded_cards(plays, SPADES, strict)[2] == ~CardSet(0x1FF) | CardSet.parse("JS")
    # Obenabe: no trumps, a discard means void.
    plays = [(s(0), Card.parse("AH")), (s(1), Card.parse("6S"))]
    excluded = excluded_cards(plays, Contract.OBENABE, rules.SCHIEBER)
    assert excluded[1] == CardSet.parse("6H 7H 8H 9H 10H JH QH KH AH")


def test_view_voids_and_unknown_cards() -> None:
    game = start(rules.SCHIEBER, ALL_HEARTS_DEAL, "obenabe")
    game = game.play("AH").play("6S").play("6D").play("6C")
    view = game.view(Seat(0))
    assert view.voids(1) == (Suit.HEARTS,)
    assert view.voids(2) == (Suit.HEARTS,)
    assert len(view.unknown()) == 24
    assert view.cards_left(1) == 8
    assert view.hand_points == game.hand_points
    assert [seat for seat, _ in view.plays] == [Seat(0), Seat(1), Seat(2), Seat(3)]


def test_shown_weis_cards_are_known_after_trick_one() -> None:
    table = [
        "6H 7H 8H 9H 6S 7S 8D 9D 6C",  # seat 0: 6-7-8-9 of hearts (50) and 6-7 of spades
        "10S JS QS KS AS 10H JH QH KH",  # seat 1: 10-A of spades (100), 10-K of hearts (50)
        "6D 7D 10D JD QD KD AD 7C 8C",  # seat 2: 10-A of diamonds (100)
        "8S 9S AH 9C 10C JC QC KC AC",  # seat 3: 9-A of clubs (150)
    ]
    game = play_cards(start(rules.SCHIEBER, table, "obenabe"), ["6H", "10H", "10D", "AH"])
    view = game.view(Seat(0))
    assert view.weis_winner == Seat(3)
    assert [(seat, w.points) for seat, w in view.shown_weis] == [
        (Seat(1), 100),
        (Seat(1), 50),
        (Seat(3), 150),
    ]
    assert view.known_cards(3) == CardSet.parse("9C 10C JC QC KC AC")
    assert view.known_cards(1) == CardSet.parse("JS QS KS AS JH QH KH") | CardSet.parse("10S")
    assert view.declared_points[2] == (100,)
    # Every sampled deal keeps the shown cards where they are and gives seat 2 its 100.
    for dealt in sample_deals(view, 20, random.Random(3)):
        assert CardSet.parse("9C 10C JC QC KC AC") <= dealt[3]
        assert [w.points for w in replay_with(game, dealt).declared_weis[2] or ()] == [100]


def test_the_marker_card_is_known_only_when_it_chose_the_forehand() -> None:
    # R3.7: under MARKER_CARD the first forehand holds the marker card; a dealer given to
    # Game.new overrides the rule, and then nothing is known of the marker card.
    marker = rules.TRADITIONAL.first_hand_marker
    drawn = Game.new(rules.TRADITIONAL, seed=2).deal()
    forehand = drawn.to_move
    assert forehand is not None
    assert marker in drawn.hands[forehand]
    assert marker in drawn.view(forehand.partner).known_cards(forehand)
    for seed in range(12):
        given = Game.new(rules.TRADITIONAL, seed=seed, dealer=Seat(3)).deal()
        holder = next(seat for seat in Seat if marker in given.hands[seat])
        for seat in Seat:
            view = given.view(seat)
            for other in Seat:
                if other != seat:
                    assert marker not in view.known_cards(other)
            DealSampler(view)  # consistent: the holder need not be the forehand
        if holder != Seat(0):
            break
    else:
        pytest.fail("no seed dealt the marker card away from the forehand")


def enumerate_consistent(game: Game, seat: Seat) -> Counter[tuple[int, ...]]:
    """Every deal consistent with ``seat``'s view, by brute force over the unseen cards."""
    view = game.view(seat)
    others = [s for s in Seat if s != seat]
    unseen = view.unknown().cards()
    need = [view.cards_left(s) for s in others]
    found: Counter[tuple[int, ...]] = Counter()
    for first in itertools.combinations(unseen, need[0]):
        rest = [c for c in unseen if c not in first]
        for second in itertools.combinations(rest, need[1]):
            third = [c for c in rest if c not in second]
            holdings = {others[0]: first, others[1]: second, others[2]: tuple(third)}
            played = [sum(1 << c for p, c in view.plays if p == s) for s in Seat]
            dealt = [
                CardSet(
                    played[s] | (int(view.hand) if s == seat else sum(1 << c for c in holdings[s]))
                )
                for s in Seat
            ]
            try:
                other = replay_with(game, (dealt[0], dealt[1], dealt[2], dealt[3]))
            except IllegalActionError:
                continue
            if other.view(seat) == view:
                found[tuple(int(h) for h in dealt)] += 1
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "cards"), [(3, 24), (8, 25), (21, 26)])
def test_sampled_deals_are_uniform_among_the_consistent_deals(seed: int, cards: int) -> None:
    rng = random.Random(seed)
    game = random_position(rules.SCHIEBER, seed, rng, SPADES, cards)
    seat = game.to_move
    assert seat is not None
    consistent = enumerate_consistent(game, seat)
    sampler = DealSampler(game.view(seat))
    assert sampler.count() >= len(consistent) > 1
    draws = 200 * len(consistent)
    counts = Counter(tuple(int(h) for h in sampler.sample(rng)) for _ in range(draws))
    assert set(counts) <= set(consistent), "a sampled deal is not consistent with the view"
    expected = draws / len(consistent)
    chi2 = sum((counts[deal] - expected) ** 2 / expected for deal in consistent)
    df = len(consistent) - 1
    # A chi-square statistic this far above its mean has probability far below 1e-6.
    assert chi2 < df + 8 * (2 * df) ** 0.5


def test_sample_deals_checks_its_input() -> None:
    game = Game.new(seed=1)
    with pytest.raises(InvalidInputError):
        sample_deals(game.view(Seat(0)), 1, random.Random(1))
    dealt = game.deal()
    with pytest.raises(InvalidInputError):
        sample_deals(dealt.view(Seat(0)), -1, random.Random(1))
    assert sample_deals(dealt.view(Seat(0)), 0, random.Random(1)) == []
    assert Play(Card.parse("6S")) in [Play(c) for c in CardSet.parse("6S")]


def test_rare_declared_weis_fall_back_to_the_best_draw() -> None:
    # Seat 0 declares four Jacks and a three-card sequence: deals that explain it are so rare
    # that rejection gives up, and the sampler returns its best draw instead of failing.
    table = [
        "JS JH JD JC 6S 7S 8S AH KH",
        "6H 8H 10H 7D QD AD 6C 7C 9C",
        "9S 10S QS 7H 9H 6D 8D 9D 8C",
        "KS AS QH 10D KD 10C QC KC AC",
    ]
    game = start(rules.SCHIEBER, table, "spades").play("JD")
    view = game.view(Seat(1))
    assert view.declared_points[0] == (200, 20)
    sampler = DealSampler(view)
    for _ in range(3):
        dealt = sampler.sample(random.Random(7))
        assert dealt[1] == game.hands[1]
        assert Card.parse("JD") in dealt[0]
        assert sorted(c for hand in dealt for c in hand) == list(range(36))
    assert sampler.fallbacks <= 3


@pytest.mark.slow
def test_manual_declarations_keep_the_weis_winner_in_every_sample() -> None:
    # Seat 0 shows four Aces (100) and wins; seat 1 declared 100 too. Under MANUAL, seat 1
    # may hold other Weis, but never only a 100-point sequence, which would have won.
    manual = rules.SCHIEBER.evolve(weis_declaration="MANUAL")
    hands = [
        "AS AH AD AC 6S 8H 10D QC 7S",
        "KS KH KD KC 6H 8D 10C 7H 9S",
        "QS QH 6D 8C 10S 9H 7D JC 8S",
        "JS JH JD 6C 7C 9D 9C 10H QD",
    ]
    game = Game.new(manual, seed=1).deal(hands=hands).choose("obenabe")
    while game.tricks_won == (0, 0):
        seat = game.to_move
        assert seat is not None
        if game.view(seat).can_declare_weis():
            game = game.declare_weis(find_weis(game.hands[seat], manual))
        game = game.play(min(game.legal_moves()))
    view = game.view(Seat(2))
    assert view.weis_winner == Seat(0)
    assert view.declared_points[1] == (100,)
    rng = random.Random(0)
    for dealt in sample_deals(view, 100, rng):
        hundreds = [w for w in find_weis(dealt[1], manual) if w.points == 100]
        assert any(w.kind is WeisKind.QUARTET for w in hundreds)


def test_stoeck_shown_to_finish_stay_with_their_holder_in_samples() -> None:
    # Both teams 20 short of the target: shown Stöck (20) finish the game at once.
    ruleset = rules.SCHIEBER.evolve(multipliers="FLAT")
    for seed in range(200):
        game = Game.new(ruleset, seed=seed, scores=(2480, 2480)).deal().choose("hearts")
        if game.is_over and game.stoeck is not None:
            break
    else:
        pytest.fail("no seed where the Stöck finish at once")
    holder = game.stoeck
    assert holder is not None
    view = game.view(holder.next)
    pair = CardSet.parse("KH QH")
    assert pair <= view.known_cards(holder)
    for dealt in sample_deals(view, 30, random.Random(1)):
        assert pair <= dealt[holder]
