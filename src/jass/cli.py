"""The ``jass`` command: watch a seeded game of Schieber played by simple bots, trick by trick.

>>> main(["--seed", "7", "--hands", "1"])  # doctest: +ELLIPSIS
jass ... Schieber, rules SCHIEBER, seed 7
...
Hand 1 score: ...
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from jass._version import __version__
from jass.cards import Card, CardSet, SuitPairing
from jass.contracts import Contract
from jass.errors import JassError
from jass.hand import Phase
from jass.rules import find_ruleset, preset_name
from jass.state import Game

__all__ = ["choose_contract", "main"]


def choose_contract(
    hand: CardSet, allowed: Sequence[Contract], *, may_shove: bool
) -> Contract | None:
    """A simple trump choice: the contract where the hand is strongest, or ``None`` to shove.

    Each contract is rated by the card points and the number of cards that would rank highest;
    a weak hand shoves while it may.

    >>> hand = CardSet.parse("JH 9H AH KH 6H 7S 8S 6D 7C")
    >>> choose_contract(hand, Contract.standard(), may_shove=True)
    Contract.trump(Suit.HEARTS)
    """

    def rating(contract: Contract) -> int:
        table = contract.card_points()
        rating = 0
        for card in hand:
            order = contract.rank_order(card.suit)
            height = 8 - order.index(card.rank)
            trump = contract.trump_suit is card.suit
            rating += table[card] + (3 * height if trump else height if height >= 7 else 0)
        return rating

    best = max(allowed, key=rating)
    if may_shove and rating(best) < 75:
        return None
    return best


def _show_hand(hand: CardSet, swiss: SuitPairing | None) -> str:
    return " ".join(_show(card, swiss) for card in hand)


def _show(card: Card, swiss: SuitPairing | None) -> str:
    return card.swiss_name(swiss) if swiss is not None else str(card)


def _play_hand(game: Game, rng: random.Random, swiss: SuitPairing | None) -> Game:
    hand = game.hand
    assert hand is not None  # noqa: S101
    number = hand.number + 1
    print(f"\nHand {number}: seat {int(hand.dealer)} deals, seat {int(hand.forehand)} is forehand")
    for seat, cards in enumerate(game.hands):
        print(f"  seat {seat} (team {seat % 2}): {_show_hand(cards, swiss)}")
    allowed = [c for c in Contract.standard() if c in game.ruleset.contracts]
    while game.phase is Phase.CHOOSE:
        mover = game.to_move
        assert mover is not None  # noqa: S101
        may_shove = game.hand is not None and game.hand.shoves == 0
        contract = choose_contract(game.hands[mover], allowed, may_shove=may_shove)
        if contract is None:
            print(f"  seat {int(mover)} shoves")
            game = game.shove()
        else:
            times = game.ruleset.multiplier(contract)
            print(f"  seat {int(mover)} chooses {contract} (x{times})")
            game = game.choose(contract)
    shown: list[str] = []
    while game.phase is Phase.PLAY:
        card = rng.choice(game.legal_moves().cards())
        shown.append(_show(card, swiss))
        before = game
        game = game.play(card)
        if game.stoeck is not None and before.stoeck is None:
            print(f"  seat {int(game.stoeck)} shows Stöck (20)")
        if not game.trick and game.tricks:  # the trick is complete
            trick = game.tricks[-1]
            print(
                f"  trick {len(game.tricks)}: seat {int(trick.leader)} leads  "
                f"{'  '.join(shown):<40} -> seat {int(trick.winner)} takes {trick.points}"
            )
            shown = []
            if len(game.tricks) == 1:
                _print_weis(game)
    if game.hand_results and len(game.hand_results) == number:
        score = game.hand_results[-1]
        match = f", match for team {int(score.match)}" if score.match is not None else ""
        extras = "".join(
            f", {name} {pair[0]} : {pair[1]}"
            for name, pair in (("Weis", score.weis), ("Stöck", score.stoeck))
            if any(pair)
        )
        print(
            f"Hand {number} score: card points {score.card_points[0]} : {score.card_points[1]}"
            f"{extras}{match}, x{score.multiplier} -> {score.totals[0]} : {score.totals[1]};"
            f" totals {game.scores[0]} : {game.scores[1]}"
        )
    return game


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
    points = result.points[team]
    print(f"  Weis declared ({declared}); team {team} scores {points}: {shown}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    >>> main(["--rules", "nonsense"])
    jass: unknown rule set 'nonsense'; presets: SCHIEBER, SCHIEBER_1000, ...
    2
    """
    parser = argparse.ArgumentParser(
        prog="jass", description="Watch bots play Schieber, the Swiss card game, trick by trick."
    )
    parser.add_argument("--seed", type=int, default=7, help="seed for the deal and the bots")
    parser.add_argument("--rules", default="SCHIEBER", help="preset name, e.g. SCHIEBER_1000")
    parser.add_argument(
        "--hands", type=int, default=1, help="hands to play (0: play the game to its end)"
    )
    parser.add_argument("--swiss", action="store_true", help="Swiss-German card names")
    parser.add_argument("--version", action="version", version=f"jass {__version__}")
    args = parser.parse_args(argv)
    try:
        ruleset = find_ruleset(args.rules)
        game = Game.new(ruleset, seed=args.seed)
    except JassError as exc:
        print(f"jass: {exc}")
        return 2
    swiss = ruleset.suit_pairing if args.swiss else None
    print(f"jass {__version__}: Schieber, rules {preset_name(ruleset)}, seed {args.seed}")
    rng = random.Random(args.seed)
    hands = 0
    while not game.is_over and (args.hands <= 0 or hands < args.hands):
        game = _play_hand(game.deal(), rng, swiss)
        hands += 1
    if game.result is not None:
        winner = "a draw" if game.winner is None else f"team {int(game.winner)} wins"
        print(
            f"\nGame over after {game.result.hands_played} hands: {winner}"
            f" ({game.scores[0]} : {game.scores[1]}; {game.result.reason.value})"
        )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
