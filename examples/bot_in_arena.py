"""Write a small bot and measure it against RuleBot in a duplicate arena."""

from __future__ import annotations

from jass import Play, PlayerView, rules
from jass.bots import RuleBot
from jass.engine.actions import Action
from jass.matches import play_match


class GreedyBot:
    """Plays its highest-scoring legal card; everything else (contracts, thanks) as RuleBot."""

    def __init__(self, seed: int | None = None) -> None:
        self.fallback = RuleBot(seed)

    def choose_action(self, view: PlayerView) -> Action:
        cards = view.legal_moves().cards()
        if not cards or view.contract is None:
            return self.fallback.choose_action(view)
        points = view.contract.card_points(old_undenufe=view.ruleset.old_undenufe)
        return Play(max(cards, key=lambda card: points[card]))


def main() -> None:
    result = play_match(GreedyBot, RuleBot, 100, ruleset=rules.SCHIEBER, seed=1)
    print(result)
    points = result.points
    print(f"GreedyBot's margin per hand against RuleBot: {points.value:+.1f} "
          f"[{points.low:+.1f}, {points.high:+.1f}]")  # fmt: skip


if __name__ == "__main__":
    main()
