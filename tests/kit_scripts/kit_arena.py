"""jass-kit's own Arena plays network players (``AgentByNetwork``) for a number of hands.

Run in the jass-kit environment: ``python kit_arena.py HANDS SEED URL_N URL_E URL_S URL_W``;
a seat given as ``random`` is jass-kit's own random agent (seeded) instead of a network
player. The Arena checks every card with jass-kit's rules (``check_move_validity=True``).
The last line of output is JSON: hands played, the fallbacks (``AgentByNetwork`` only logs
an error when it answers for a silent player at random, so the errors on its logger are
counted), and each network seat's requests, seconds and cards jass-kit's rules refuse.
"""

from __future__ import annotations

import importlib
import json
import logging
import sys
import time
from collections.abc import Callable
from typing import Any


class Counter(logging.Handler):
    """Counts the records of ERROR or above."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def timed(
    seat: dict[str, Any], ask: Callable[[Any], int], check: Callable[[Any], Any] | None
) -> Any:
    """``ask`` timed into ``seat``; its cards checked with ``check`` (jass-kit's valid cards).

    The Arena itself refuses a trump that is not 0-5 or 10 (push).
    """

    def answer(obs: Any) -> int:
        started = time.perf_counter()
        card = ask(obs)
        seat["seconds"] += time.perf_counter() - started
        seat["requests"] += 1
        if check is not None and not check(obs)[card]:
            seat["illegal"] += 1
        return card

    return answer


def play(hands: int, seed: int, urls: list[str]) -> dict[str, Any]:
    """Play ``hands`` hands of jass-kit's Arena with the players at ``urls``."""
    np: Any = importlib.import_module("numpy")
    network: Any = importlib.import_module("jass.agents.agent_by_network")
    random_agent: Any = importlib.import_module("jass.agents.agent_random_schieber")
    arena_module: Any = importlib.import_module("jass.arena.arena")
    schieber: Any = importlib.import_module("jass.game.rule_schieber")
    fallbacks = Counter()
    logging.getLogger(network.__name__).addHandler(fallbacks)
    np.random.seed(seed)  # the Arena deals from numpy's global generator
    rule = schieber.RuleSchieber()
    seats: list[dict[str, Any]] = []
    agents = []
    for number, url in enumerate(urls):
        if url == "random":
            agent = random_agent.AgentRandomSchieber()
            agent._rng = np.random.default_rng(seed + number)  # its own is unseeded
            agents.append(agent)
            continue
        seat = {"url": url, "requests": 0, "seconds": 0.0, "illegal": 0}
        agent = network.AgentByNetwork(url)
        agent.action_play_card = timed(seat, agent.action_play_card, rule.get_valid_cards_from_obs)
        agent.action_trump = timed(seat, agent.action_trump, None)
        seats.append(seat)
        agents.append(agent)
    arena = arena_module.Arena(hands, check_move_validity=True, print_every_x_games=hands)
    arena.set_players(*agents)
    arena.play_all_games()
    return {
        "hands": arena.nr_games_played,
        "fallbacks": fallbacks.count,
        "points": [float(arena.points_team_0.sum()), float(arena.points_team_1.sum())],
        "seats": seats,
    }


if __name__ == "__main__":
    print(json.dumps(play(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:7])))
