"""Our bots and jass-kit's agents in one process: needs our wheel and jass-kit installed.

Run in the jass-kit environment: ``python kit_adapters.py arena HANDS SEED`` plays jass-kit's
Arena (checking every card) with ``as_kit_agent(RuleBot)`` as North and South against its
random agent; ``python kit_adapters.py bot HANDS SEED`` plays our ``play_hand`` with
``KitAgentBot(AgentRandomSchieber())`` at seats 0 and 2 against our RuleBot, and a
``play_match`` with a fallback. The random agents draw from generators seeded with SEED, and
every card they answer is reported with its observation. The last line of output is JSON.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any


def random_agent(seed: int, log: list[dict[str, Any]] | None = None) -> Any:
    """jass-kit's random agent, seeded (its own generator is unseeded); cards logged to ``log``."""
    np: Any = importlib.import_module("numpy")
    agents: Any = importlib.import_module("jass.agents.agent_random_schieber")
    const: Any = importlib.import_module("jass.game.const")
    agent = agents.AgentRandomSchieber()
    agent._rng = np.random.default_rng(seed)  # its own generator is unseeded
    if log is not None:
        ask = agent.action_play_card

        def action_play_card(obs: Any) -> int:
            card = int(ask(obs))
            log.append({"obs": obs.to_json(), "card": str(const.card_strings[card])})
            return card

        agent.action_play_card = action_play_card
    return agent


def arena(hands: int, seed: int) -> list[dict[str, Any]]:
    """jass-kit's Arena, one per hand: our RuleBot (North, South) against its random agent.

    A hand stops at an error of ours (a JassError); any other error, such as the Arena's
    own check refusing a card, stops the script.
    """
    np: Any = importlib.import_module("numpy")
    jass: Any = importlib.import_module("jass")
    arena_module: Any = importlib.import_module("jass.arena.arena")
    bots: Any = importlib.import_module("jass.bots")
    jasskit: Any = importlib.import_module("jass.jasskit")
    ours = [jasskit.as_kit_agent(bots.RuleBot(seed + i)) for i in range(2)]
    answers: list[dict[str, Any]] = []
    theirs = [random_agent(seed, answers), random_agent(seed + 1, answers)]
    played = []
    for number in range(hands):
        np.random.seed(seed + number)  # the Arena deals from numpy's global generator
        play = arena_module.Arena(1, check_move_validity=True, print_every_x_games=1)
        play.set_players(ours[0], theirs[0], ours[1], theirs[1])
        answers.clear()
        error = None
        try:
            play.play_all_games()
        except jass.JassError as exc:
            error = {"type": type(exc).__name__, "message": str(exc)}
        played.append({
            "error": error,
            "points": [float(play.points_team_0[0]), float(play.points_team_1[0])],
            "answers": list(answers),
        })  # fmt: skip
    return played


def bot(hands: int, seed: int) -> dict[str, Any]:
    """Our play_hand and play_match with jass-kit's random agent as KitAgentBot."""
    jass: Any = importlib.import_module("jass")
    bots: Any = importlib.import_module("jass.bots")
    jasskit: Any = importlib.import_module("jass.jasskit")
    hand_answers: list[dict[str, Any]] = []
    kit = jasskit.KitAgentBot(random_agent(seed, hand_answers))
    partner = jasskit.KitAgentBot(random_agent(seed + 1, hand_answers))
    finished, errors = 0, []
    for number in range(hands):
        players = [kit, bots.RuleBot(number), partner, bots.RuleBot(number)]
        try:
            bots.play_hand(jass.Game.new(jass.rules.JASSKIT, seed=number), players)
            finished += 1
        except jass.JassError as exc:  # the hand stops at a refused answer
            errors.append({
                "type": type(exc).__name__,
                "message": str(exc),
                "answer": {"card": str(exc.answer["card"])} if exc.answer else None,
            })  # fmt: skip

    answers: list[dict[str, Any]] = []

    def fallback_kit(match_seed: int) -> Any:
        agent = random_agent(match_seed, answers)
        return jasskit.KitAgentBot(agent, fallback=bots.RandomBot(match_seed))

    match = jass.play_match(fallback_kit, bots.RuleBot, hands // 2, ruleset=jass.rules.JASSKIT)
    return {
        "finished": finished,
        "errors": errors,
        "hand_answers": hand_answers,
        "fallbacks": list(match.fallbacks),
        "match_answers": answers,
    }


if __name__ == "__main__":
    mode, count, start = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    print(json.dumps({"arena": arena, "bot": bot}[mode](count, start)))
