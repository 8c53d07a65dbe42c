"""Write the fixture vectors of the observation encoding: ``tests/fixtures/encoding_v1.json``.

Run ``python -m tests.encoding_fixtures`` from the project root to write them again, only when
the encoding itself changes (and then under a new version name, in a new file). The tests
never run this: they load the file and compare, so a change of the encoder that changes a
single bit fails them.

Each case is a game record (the format of :mod:`jass.records`), a seat, and the encoding of
that seat's view as a string of ``0`` and ``1``, so that another implementation can check
itself byte for byte.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy", reason="needs the rl extra")
from jass import Contract, Game, Phase, Seat, Thank, find_weis, rules
from jass.envs.encoding import ENCODING, FIELDS, OBSERVATION_SIZE, encode
from jass.records import record

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "encoding_v1.json"


def drive(
    game: Game,
    rng: random.Random,
    until: Callable[[Game], bool],
    *,
    contract: Contract | None = None,
    shove: bool = False,
    limit: int = 5000,
) -> Game:
    """Random legal play (never thanking) from ``game`` until ``until(game)`` holds."""
    for _ in range(limit):
        if until(game):
            return game
        if game.is_over:
            break
        if game.phase is Phase.DEAL:
            game = game.deal()
            continue
        actions = [a for a in game.legal_actions() if not isinstance(a, Thank)]
        if game.phase is Phase.CHOOSE:
            if shove and game.can_shove():
                game = game.shove()
                continue
            if contract is not None and game.can_choose(contract):
                game = game.choose(contract)
                continue
        game = game.apply(rng.choice(actions))
    raise AssertionError("the state sought was not reached")


def _cases() -> list[tuple[str, Game, int]]:
    cases: list[tuple[str, Game, int]] = []

    def add(name: str, game: Game, viewer: int) -> None:
        cases.append((name, game, viewer))

    rng = random.Random(11)
    manual = rules.SCHIEBER.evolve(weis_declaration="MANUAL")
    shove_back = rules.SCHIEBER.evolve(allow_shove_back=True)
    strict = rules.SCHIEBER.evolve(undertrump_only_trumps="ONLY_IF_NO_HIGHER")
    endless = rules.SCHIEBER.evolve(target=10**6)

    g = Game.new(rules.SCHIEBER, seed=1)
    add("before the first deal", g, 0)
    g = g.deal()
    add("dealt: the forehand chooses", g, int(g.to_move or 0))
    add("dealt: a seat not to move", g, (int(g.to_move or 0) + 1) % 4)
    shoved = g.shove()
    add("shoved: the partner chooses", shoved, int(shoved.to_move or 0))
    g = Game.new(shove_back, seed=2).deal().shove().shove()
    add("shoved back (allow_shove_back)", g, 3)

    def first_weis_played(game: Game) -> bool:
        return game.phase is Phase.PLAY and len(game.trick) == 2 and game.tricks_won == (0, 0)

    for seed in range(100):
        g = drive(Game.new(rules.SCHIEBER, seed=seed).deal(), rng, first_weis_played)
        after = drive(g, rng, lambda x: x.weis_result is not None)
        result = after.weis_result
        if any(g.view(0).declared_points[:2]) and result is not None and result.winner is not None:
            add("trick 1: Weis declared (AUTO)", g, 2)
            add("after trick 1: the best Weis shown", after, (int(result.winner) + 1) % 4)
            break
    for seed in range(200):
        g = Game.new(rules.SCHIEBER, seed=seed).deal()
        g = drive(g, rng, lambda x: x.phase is not Phase.CHOOSE)
        g = drive(g, rng, lambda x: x.stoeck is not None or x.phase is not Phase.PLAY)
        if g.stoeck is not None and g.phase is Phase.PLAY:
            add("Stöck scored", g, (int(g.stoeck) + 1) % 4)
            break
    for seed in range(200):
        g = drive(
            Game.new(strict, seed=seed).deal(),
            rng,
            lambda x: (
                x.phase is not Phase.CHOOSE
                and (x.phase is not Phase.PLAY or any(x.view(0).excluded[s] for s in (1, 3)))
            ),
            contract=Contract.parse("hearts"),
        )
        if g.phase is Phase.PLAY:
            add("a void shown (ONLY_IF_NO_HIGHER)", g, 0)
            break
    no_weis = rules.SCHIEBER.evolve(weis=False, stoeck_claim_anytime_to_finish=False)
    g = Game.new(no_weis, seed=15, scores=(2481, 1000), dealer=Seat(0)).deal(
        hands=[
            "KH QH 6H 7H 6S 7S 8S 9S 10S",
            "JH 9H AH 10H 8H JS QS KS AS",
            "6D 7D 8D 9D 10D JD QD KD AD",
            "6C 7C 8C 9C 10C JC QC KC AC",
        ]
    )
    g = g.choose("hearts")
    for card in ("JH", "6D", "6C", "KH", "9H", "7D", "7C", "QH"):
        g = g.play(card)
    add("Stöck end the game with a trick's fourth card", g, 3)
    g = drive(Game.new(rules.SCHIEBER, seed=5), rng, lambda x: len(x.hand_results) == 1)
    add("between hands", g, 1)
    g = drive(g, rng, lambda x: x.phase is Phase.PLAY and len(x.plays) == 13)
    add("hand 2, trick 4", g, 3)
    g = drive(Game.new(rules.SCHIEBER_1000, seed=6), rng, lambda x: x.is_over)
    add("SCHIEBER_1000: the game is over", g, 2)
    g = drive(
        Game.new(rules.TRADITIONAL, seed=7),
        rng,
        lambda x: x.phase is Phase.PLAY and len(x.plays) == 10,
        contract=Contract.MISERE,
    )
    add("TRADITIONAL: Misère, marker card", g, 1)
    g = drive(
        Game.new(rules.TRADITIONAL, seed=8),
        rng,
        lambda x: x.phase is Phase.PLAY and len(x.plays) == 21,
        contract=Contract.UNDENUFE,
    )
    add("TRADITIONAL: Undenufe x4", g, 0)
    g = drive(
        Game.new(rules.BEGINNER, seed=9), rng, lambda x: x.phase is Phase.PLAY and len(x.plays) == 6
    )
    add("BEGINNER: trumps", g, 2)
    g = drive(
        Game.new(rules.TOURNAMENT_12, seed=10),
        rng,
        lambda x: x.hands_played == 5 and x.phase is Phase.PLAY and len(x.plays) == 30,
    )
    add("TOURNAMENT_12: hand 6", g, 3)
    g = drive(Game.new(rules.JASSKIT, seed=11), rng, lambda x: x.is_over)
    add("JASSKIT: one hand played", g, 1)
    for seed in range(100):
        g = drive(
            Game.new(manual, seed=seed).deal(),
            rng,
            lambda x: x.phase is Phase.PLAY,
            contract=Contract.OBENABE,
        )
        if g.can_declare_weis():
            found = find_weis(g.hands[g.to_move or 0], manual)
            g = g.declare_weis(found[:1])
            add("MANUAL: a Weis declared by hand", g, int(g.to_move or 0) ^ 1)
            break
    g = Game.new(rules.SCHIEBER, seed=12).deal().choose("clubs")
    g = g.play(g.legal_moves().cards()[0]).thank(1)
    add("a false thank ends the game", g, 0)
    g = Game.new(endless, seed=13, scores=(9000, 120), dealer=Seat(2), hands_played=70)
    g = drive(g.deal(), rng, lambda x: x.phase is Phase.PLAY and len(x.plays) == 5)
    add("clipped: scores over 8191, hand 70", g, 1)
    g = Game.new(rules.SCHIEBER, seed=14, scores=(2150, 2200), dealer=Seat(0))
    g = drive(g, rng, lambda x: x.phase is Phase.PLAY and len(x.plays) == 14)
    add("a score sheet near the target", g, 2)
    return cases


def build() -> dict[str, Any]:
    """The fixture file's content."""
    cases = []
    for name, game, viewer in _cases():
        vector = encode(game.view(viewer))
        cases.append(
            {
                "name": name,
                "viewer": viewer,
                "record": record(game),
                "observation": "".join(str(int(bit)) for bit in vector),
            }
        )
    return {
        "encoding": ENCODING,
        "size": OBSERVATION_SIZE,
        "fields": {name: [part.start, part.stop] for name, part in FIELDS.items()},
        "cases": cases,
    }


def main() -> None:
    """Write the fixtures."""
    FIXTURES.parent.mkdir(exist_ok=True)
    text = json.dumps(build(), indent=1, ensure_ascii=False)
    FIXTURES.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {len(json.loads(text)['cases'])} cases to {FIXTURES}")


if __name__ == "__main__":
    main()
