"""jass-kit's player-service protocol against the real jass-kit 2.0.5, both ways.

Our ``jass serve`` answers jass-kit's own ``Arena`` and ``AgentByNetwork`` client; our
``RemoteBot`` plays jass-kit's own ``PlayerServiceApp`` serving its random agent, whose
undertrumps of jass-kit's issue #10 (see ``test_kit_legal_cards.py``) it must refuse.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jass import Game, Play, play_match, rules
from jass.bots import Bot, RandomBot, RuleBot, play_hand
from jass.errors import RemotePlayerError
from jass.jasskit import RemoteBot
from tests import kitenv
from tests.kitenv import ISSUE_10, issue_10_extra, kit_card

pytestmark = pytest.mark.jasskit

ARENA_HANDS = 200
REMOTE_HANDS = 160  # enough for jass-kit's random agent to undertrump as in its issue #10
KINDS = {"rule": "rule", "random": "random", "mc": "montecarlo"}


def test_jass_serve_answers_jasskits_arena(kit_python: Path, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "jass", "serve", "--port", "0", "--seconds", "0.005",
               "--seed", "3"]  # fmt: skip
    for name, kind in KINDS.items():
        command += ["--bot", f"{name}={kind}"]
    with kitenv.serving(command, len(KINDS), tmp_path) as urls:
        seats = [urls["mc"], urls["rule"], urls["random"], urls["rule"]]  # N E S W
        report = kitenv.run_script(kit_python, "kit_arena.py", ARENA_HANDS, 5, *seats)
    requests: dict[str, int] = defaultdict(int)
    seconds: dict[str, float] = defaultdict(float)
    for seat in report["seats"]:
        name = seat["url"].rsplit("/", 1)[1]
        requests[name] += seat["requests"]
        seconds[name] += seat["seconds"]
    illegal = sum(seat["illegal"] for seat in report["seats"])
    print(f"\njass serve vs jass-kit's Arena: {report['hands']} hands, {illegal} cards jass-kit "
          f"refuses, {report['fallbacks']} random stand-in answers")  # fmt: skip
    for name, kind in KINDS.items():
        mean = seconds[name] / requests[name] * 1000
        print(f"  {kind}: {requests[name]} requests, {mean:.1f} ms each")
    assert report["hands"] == ARENA_HANDS
    assert illegal == 0
    assert report["fallbacks"] == 0, "AgentByNetwork had to answer for our service at random"
    # Every card of every hand was asked of our service, plus at least one trump per hand.
    assert sum(requests.values()) >= ARENA_HANDS * 37
    assert sum(report["points"]) == 157 * ARENA_HANDS


@pytest.mark.parametrize("strict", [False, True])
def test_jass_serve_plays_on_after_a_jasskit_agents_issue_10_undertrump(
    kit_python: Path, tmp_path: Path, strict: bool
) -> None:
    # jass-kit's referee lets its random agents undertrump as its issue #10 allows. By
    # default jass serve reads such a card and plays on; --strict refuses the observation
    # (400), and AgentByNetwork then plays the rest of the hand for us at random.
    command = [sys.executable, "-m", "jass", "serve", "--port", "0", "--bot", "rule=rule"]
    with kitenv.serving([*command, "--strict"] if strict else command, 1, tmp_path) as urls:
        seats = [urls["rule"], "random", urls["rule"], "random"]  # N E S W
        report = kitenv.run_script(kit_python, "kit_arena.py", 80, 4, *seats)
    print(f"\njass serve{' --strict' if strict else ''} with jass-kit's random agents: "
          f"{report['hands']} hands, {report['fallbacks']} random stand-in answers")  # fmt: skip
    assert report["hands"] == 80
    if strict:  # the same seeded hands hold issue #10 undertrumps
        assert report["fallbacks"] > 0
    else:
        assert report["fallbacks"] == 0, "AgentByNetwork had to answer for our service at random"


@pytest.fixture
def kit_service(kit_python: Path, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """jass-kit's own service with its random agent (seeded): its url and its answer log."""
    log = tmp_path / "answers.jsonl"
    log.touch()
    command = [str(kit_python), "-I", str(kitenv.SCRIPTS / "kit_server.py"), "7", str(log)]
    with (
        kitenv.locked(kit_python.parent.parent, exclusive=False),
        kitenv.serving(command, 1, tmp_path) as urls,
    ):
        yield urls["random"], log


def issue_10_answers(log: Path) -> list[dict[str, Any]]:
    """The answers in ``log`` that only jass-kit's issue #10 allows."""
    answers = [json.loads(line) for line in log.read_text().splitlines()]
    return [a for a in answers if a["card"] in issue_10_extra(a["obs"])]


def test_remote_bot_refuses_jasskits_issue_10_undertrumps(kit_service: tuple[str, Path]) -> None:
    url, log = kit_service
    refused: list[RemotePlayerError] = []
    for seed in range(REMOTE_HANDS):
        bots: list[Bot] = [RemoteBot(url), RuleBot(seed), RemoteBot(url), RuleBot(seed)]
        try:
            play_hand(Game.new(rules.JASSKIT, seed=seed), bots)
        except RemotePlayerError as exc:  # no fallback: the hand stops here
            refused.append(exc)
    answered = len(log.read_text().splitlines())
    expected = issue_10_answers(log)
    print(f"\nRemoteBot vs jass-kit's service: {REMOTE_HANDS} hands, {answered} cards "
          f"answered, {len(refused)} refused; {len(expected)} of the issue #10 shape")  # fmt: skip
    assert expected, f"jass-kit's random agent never answered in the {ISSUE_10}"
    assert len(refused) == len(expected)
    for error, answer in zip(refused, expected, strict=True):
        assert error.url == url
        assert error.answer == {"card": answer["card"]}
        assert error.action == Play(kit_card(answer["card"]))
        assert "undertrump" in str(error), str(error)


def test_play_match_counts_the_fallbacks_for_issue_10(kit_service: tuple[str, Path]) -> None:
    url, log = kit_service
    remote = RemoteBot.factory(url, fallback=RandomBot)
    result = play_match(remote, RuleBot, REMOTE_HANDS // 2, ruleset=rules.JASSKIT, seed=1)
    expected = issue_10_answers(log)
    print(f"\nplay_match vs jass-kit's service: {result.deals} deals, fallbacks "
          f"{result.fallbacks}, {len(expected)} answers of the issue #10 shape")  # fmt: skip
    assert expected, f"jass-kit's random agent never answered in the {ISSUE_10}"
    assert result.fallbacks == (len(expected), 0)
