"""A jass-kit player service, deployed anywhere, as one of our bots.

:class:`RemoteBot` sends the jass-kit observation of its view to a player service (jass-kit's
own, a tournament entry, or ``jass serve``) and plays what it answers, under our rules. An
answer that is missing, late, malformed or illegal raises
:class:`~jass.errors.RemotePlayerError`; it is never replaced by a random move unless a
``fallback`` bot was given, and then :attr:`RemoteBot.fallbacks` counts it (and
:attr:`jass.matches.MatchResult.fallbacks` sums it over a match).

>>> from jass.bots import RandomBot
>>> bot = RemoteBot("http://127.0.0.1:8888/rule", fallback=RandomBot(seed=1))
>>> bot.url, bot.timeout, bot.fallbacks
('http://127.0.0.1:8888/rule', 10.0, 0)
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import urllib.parse
from collections.abc import Callable
from typing import Any, Final

import attrs

from jass._kitformat import to_jasskit_observation
from jass.bots import Bot
from jass.core.cards import Card
from jass.core.play import explain_illegal
from jass.engine.actions import Action
from jass.engine.view import PlayerView
from jass.errors import InvalidInputError, JassError, RemotePlayerError
from jass.jasskit._protocol import OutsidePlayer, read_answer

__all__ = ["RemoteBot", "RemoteBotFactory"]

_MAX_ANSWER: Final = 1 << 16  # bytes; an answer is a few dozen


class RemoteBot(OutsidePlayer[RemotePlayerError]):
    """A bot that asks a jass-kit player service at ``url`` for its trump and its cards.

    Args:
        url: the player's address, as jass-kit's ``AgentByNetwork`` takes it: the service
            and the player's name, like ``"http://127.0.0.1:8888/rule"``. The routes
            ``/action_trump`` and ``/action_play_card`` are added to it.
        timeout: seconds the whole answer may take, from connecting to its last byte
            (jass-kit's client waits 10); a later answer raises
            :class:`~jass.errors.RemotePlayerError`.
        fallback: a bot that answers instead when the service fails or answers illegally;
            ``None`` (the default) raises :class:`~jass.errors.RemotePlayerError` instead.

    The decisions that jass-kit's protocol has no route for (declaring Weis by hand,
    thanking) are taken by a :class:`~jass.bots.RuleBot`. The view must be one that the
    jass-kit format can write: the contracts of jass-kit (four trumps, Obenabe, Undenufe)
    and no shove back.

    Attributes:
        fallbacks: how many answers the fallback bot gave.
        requests: how many requests were sent.
        refusals: the errors that the fallback answered for, oldest first.

    >>> bot = RemoteBot("http://127.0.0.1:8888/rule", timeout=2.5)
    >>> bot.timeout, bot.requests
    (2.5, 0)
    """

    def __init__(self, url: str, timeout: float = 10.0, fallback: Bot | None = None) -> None:
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise InvalidInputError(f"url must be an http:// or https:// address, got {url!r}")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            raise InvalidInputError(f"timeout must be a positive number of seconds: {timeout!r}")
        super().__init__(RemotePlayerError, fallback)
        self.url = url.rstrip("/")
        self.timeout = float(timeout)
        self.requests = 0

    def __repr__(self) -> str:
        """The bot's address and its settings.

        >>> RemoteBot("http://127.0.0.1:8888/rule")
        RemoteBot('http://127.0.0.1:8888/rule', timeout=10.0, fallback=None)
        """
        return f"RemoteBot({self.url!r}, timeout={self.timeout}, fallback={self.fallback!r})"

    @classmethod
    def factory(
        cls,
        url: str,
        *,
        timeout: float = 10.0,
        fallback: Callable[[int], Bot] | None = None,
    ) -> RemoteBotFactory:
        """A picklable bot factory for :func:`jass.play_match`: each bot asks ``url``.

        ``fallback`` is a bot factory too (such as :class:`~jass.bots.RandomBot`); each
        RemoteBot gets a fallback bot made with the seed the match gives it.

        >>> from jass.bots import RandomBot
        >>> make = RemoteBot.factory("http://127.0.0.1:8888/rule", fallback=RandomBot)
        >>> bot = make(7)
        >>> bot.url, type(bot.fallback).__name__
        ('http://127.0.0.1:8888/rule', 'RandomBot')
        """
        cls(url, timeout)  # refuses a bad url or timeout now, not in the middle of a match
        if fallback is not None and not callable(fallback):
            raise InvalidInputError(f"fallback must be a bot factory or None, got {fallback!r}")
        return RemoteBotFactory(url, float(timeout), fallback)

    def choose_action(self, view: PlayerView) -> Action:
        """Ask the service for the trump or the card, and check its answer against the rules.

        >>> bot = RemoteBot("http://127.0.0.1:9/nobody", timeout=0.5)
        >>> import jass
        >>> g = jass.Game.new(jass.rules.JASSKIT, seed=1).deal()
        >>> try:
        ...     bot.choose_action(g.view(g.to_move))
        ... except jass.errors.RemotePlayerError as exc:
        ...     print(exc.url)
        http://127.0.0.1:9/nobody
        """
        return super().choose_action(view)

    def _ask(self, view: PlayerView, route: str) -> Action:
        url = f"{self.url}/{route}"
        body = json.dumps({**to_jasskit_observation(view), "gameId": 0}).encode()
        self.requests += 1
        answer: Any = None
        try:
            status, raw = _post(url, body, self.timeout)
        except TimeoutError:
            raise RemotePlayerError(
                f"the player service at {url} did not answer within {self.timeout:g} s",
                url=self.url,
                view=view,
            ) from None
        except (OSError, http.client.HTTPException, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else repr(exc)
            raise RemotePlayerError(
                f"the player service at {url} cannot be reached: {reason}",
                url=self.url,
                view=view,
            ) from None
        if not 200 <= status < 300:
            detail = raw.decode("utf-8", "replace").strip()
            raise RemotePlayerError(
                f"the player service at {url} answered HTTP {status}: {detail[:200]}",
                url=self.url,
                view=view,
            )
        try:
            answer = json.loads(raw)
            action = read_answer(route, answer)
        except (ValueError, RecursionError, JassError) as exc:
            # RecursionError: "[" * 60000 is valid JSON's prefix, and too deep to read.
            why = "it is nested too deeply" if isinstance(exc, RecursionError) else exc
            raise RemotePlayerError(
                f"the player service at {url} answered {raw[:200]!r}: {why}",
                url=self.url,
                answer=answer,
                view=view,
            ) from None
        if not view.is_legal(action):
            raise RemotePlayerError(
                f"the player service at {url} answered {answer!r}, which the rules do not "
                f"allow: {_why_illegal(view, action)}",
                url=self.url,
                answer=answer,
                action=action,
                view=view,
            )
        return action


def _post(url: str, body: bytes, timeout: float) -> tuple[int, bytes]:
    """POST ``body`` to ``url``; the status and at most 64 KiB of the answer, within ``timeout``.

    ``timeout`` bounds the whole exchange, not each read: a service that drips its answer a
    byte at a time is cut off when the time is up (its socket is shut from a timer thread),
    and :class:`TimeoutError` is raised.
    """
    parts = urllib.parse.urlsplit(url)
    if parts.hostname is None:
        raise ValueError(f"no host in {url!r}")
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(parts.hostname, parts.port, timeout=timeout)
    expired = threading.Event()

    def cut() -> None:
        expired.set()
        sock = connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    timer = threading.Timer(timeout, cut)
    timer.daemon = True
    timer.start()
    try:
        connection.connect()
        if expired.is_set():
            raise TimeoutError
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        connection.request("POST", path, body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        raw = response.read(_MAX_ANSWER)
    except (OSError, http.client.HTTPException):
        if expired.is_set():
            raise TimeoutError from None
        raise
    finally:
        timer.cancel()
        connection.close()
    if expired.is_set():
        raise TimeoutError
    return response.status, raw


def _why_illegal(view: PlayerView, action: Action) -> str:
    """The rules' reason, in their words, for an action the view does not allow."""
    card = getattr(action, "card", None)
    if isinstance(card, Card) and view.contract is not None:
        found = explain_illegal(view.hand, view.trick, view.contract, card, view.ruleset)
        if found is not None:
            return found[1].replace("you hold", "the player holds")
    return f"{action} is not one of the legal actions {list(map(str, view.legal_actions()))}"


@attrs.frozen
class RemoteBotFactory:
    """Makes a :class:`RemoteBot` for a seed: what :meth:`RemoteBot.factory` returns.

    >>> make = RemoteBotFactory("http://127.0.0.1:8888/rule", 10.0, None)
    >>> make(1).fallback is None
    True
    """

    url: str
    timeout: float
    fallback: Callable[[int], Bot] | None

    @property
    def label(self) -> str:
        """The name a match result gives the team: the service's address.

        >>> RemoteBotFactory("http://127.0.0.1:8888/rule", 10.0, None).label
        'RemoteBot(http://127.0.0.1:8888/rule)'
        """
        return f"RemoteBot({self.url})"

    def __call__(self, seed: int) -> RemoteBot:
        """A fresh bot; its fallback bot, if any, is made with ``seed``.

        >>> RemoteBotFactory("http://127.0.0.1:8888/rule", 10.0, None)(3).url
        'http://127.0.0.1:8888/rule'
        """
        fallback = self.fallback(seed) if self.fallback is not None else None
        return RemoteBot(self.url, self.timeout, fallback)
