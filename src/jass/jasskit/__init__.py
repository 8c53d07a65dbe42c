"""jass-kit interoperability: its player-service protocol both ways, and its agents as bots.

jass-kit (PyPI ``jass-kit``) is the engine of a university course on Jass bots; its
tournament plays bots over HTTP, through its "player service" protocol. This package speaks
that protocol in both directions, under our rules:

- :class:`PlayerServer` (and ``jass serve``) answers as a player service with any of our
  bots;
- :class:`RemoteBot` is a player service, deployed anywhere, as one of our bots, so that
  :func:`jass.play_match` can evaluate it in a seeded duplicate match;
- :class:`KitAgentBot` and :func:`as_kit_agent` wrap a jass-kit ``Agent`` as our bot, and
  ours as one, in one process (with jass-kit installed).

The formats themselves are in :mod:`jass.records` (``to_jasskit``, ``from_jasskit``,
``to_jasskit_observation``, ``from_jasskit_observation``).

>>> from jass.jasskit import RemoteBot
>>> RemoteBot("http://127.0.0.1:8888/rule").url
'http://127.0.0.1:8888/rule'
"""

from jass.jasskit.adapters import KitAgentBot, as_kit_agent
from jass.jasskit.remote import RemoteBot, RemoteBotFactory
from jass.jasskit.server import BOT_KINDS, PlayerServer, make_bot

__all__ = [
    "BOT_KINDS",
    "KitAgentBot",
    "PlayerServer",
    "RemoteBot",
    "RemoteBotFactory",
    "as_kit_agent",
    "make_bot",
]
