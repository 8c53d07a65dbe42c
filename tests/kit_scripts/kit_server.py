"""jass-kit's own ``PlayerServiceApp`` serves its ``AgentRandomSchieber`` as player ``random``.

Run in the jass-kit environment: ``python kit_server.py SEED LOG``. It prints the player's url
(on a free port), then serves until stopped. The agent draws from a generator seeded with
SEED (its own is unseeded), so the same requests get the same answers; every card it answers
is appended to LOG as a JSON line ``{"obs": observation JSON, "card": "H10"}``.
"""

from __future__ import annotations

import importlib
import json
import logging
import sys
from typing import Any


def serve(seed: int, log: str) -> None:
    """Serve until stopped."""
    np: Any = importlib.import_module("numpy")
    const: Any = importlib.import_module("jass.game.const")
    random_agent: Any = importlib.import_module("jass.agents.agent_random_schieber")
    service: Any = importlib.import_module("jass.service.player_service_app")
    serving: Any = importlib.import_module("werkzeug.serving")
    agent = random_agent.AgentRandomSchieber()
    agent._rng = np.random.default_rng(seed)  # its own generator is unseeded
    ask = agent.action_play_card

    def action_play_card(obs: Any) -> int:
        card = int(ask(obs))
        with open(log, "a") as out:
            out.write(json.dumps({"obs": obs.to_json(), "card": str(const.card_strings[card])}))
            out.write("\n")
        return card

    agent.action_play_card = action_play_card
    app = service.PlayerServiceApp("kit_server")
    app.add_player("random", agent)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    server = serving.make_server("127.0.0.1", 0, app)
    print(f"http://127.0.0.1:{server.server_port}/random", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    serve(int(sys.argv[1]), sys.argv[2])
