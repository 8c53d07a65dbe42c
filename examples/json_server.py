"""A multi-client Jass table: newline-delimited JSON over TCP, four seats, bots in the empty ones.

Run it with no arguments for a short demo: it starts a table on a free local port, connects two
scripted clients in-process, plays one seeded hand against two bots and prints a transcript.
``--serve`` keeps a table open until Ctrl-C; then play with any line-based tool, such as
``nc 127.0.0.1 8765``, and type ``{"join": null}``.

Why asyncio streams and JSON lines: it is all standard library; one event loop owns the one
game state, so there are no locks; the server can push a new state to every client the moment
anyone moves (plain HTTP would need polling); and a line of JSON is easy to write from any
language, or by hand.

The protocol. Every message is one JSON object on one line. A client sends:

- ``{"join": 2}`` to claim seat 2, or ``{"join": null}`` to be given a free seat;
- ``{"play": "<card>"}``, ``{"choose": "hearts"}``, ``{"shove": true}``,
  ``{"declare": ["<cards of a Weis>", ...]}`` (under ``weis_declaration=MANUAL``), or
  ``{"thank": true}`` (for its own team, at any time the rules allow);
- ``{"state": true}`` for its current state again, ``{"leave": true}`` to give its seat back
  to a bot, ``{"record": true}`` for the game record (only once the game is over), and
  ``{"new": true}`` to start a new game once the game is over.

Any request may carry ``"id"`` (echoed in the answer) and ``"seat"`` (refused unless it is the
connection's own seat). The server sends ``{"type": "state", ...}`` to every seated client
after every change, built from that client's own view; ``{"type": "ok", "id": ...}`` after a
request it carried out; and ``{"type": "error", "code": ..., "error": ...}`` to the sender
only, when it refuses one. Every message has ``"step"``, the number of actions in the game so
far, so that a client can tell old news from new.

How it keeps cards secret (see "Embedding jass in an app" in the docs):

- every state message is built from the recipient's :class:`jass.PlayerView`, nothing else;
- each connection is bound to one seat for good: it may leave and come back to that seat,
  never take another; a seat played by a bot cannot be joined in the middle of a hand (its
  hand would be shown at once), only between hands;
- a move is checked against the connection's seat before the engine sees it, so the engine
  never explains another seat's hand to anybody;
- the engine's refusals are rewritten from their reason code, quoting only what the sender
  sent, and are sent to the sender only;
- the record (every hand) and the seed (every deal) are sent only once the game is over;
- and a last check refuses to send any card the recipient cannot see, in case of a bug.

A connection here is anonymous: one person with two connections can still play two seats,
joined between hands. A real app binds each seat to a signed-in user instead (see the docs).
Requests whose strings are not valid Unicode (a lone surrogate such as ``"\ud800"``) are
refused with ``BAD_TEXT``, and every message is encoded so that no text can fail to encode.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import sys
from collections.abc import AsyncIterator, Callable
from typing import Any, Final

from jass import (
    Card,
    CardSet,
    Contract,
    Game,
    IllegalActionError,
    JassError,
    Phase,
    PlayerView,
    RuleSet,
    Seat,
    Team,
    find_ruleset,
    find_weis,
    rules,
)
from jass.bots import Bot, RandomBot, RuleBot
from jass.engine.actions import Action, Choose, DeclareWeis, Play, Shove, Thank
from jass.records import action_to_json, record

#: Longest request line, in bytes; a real request is well under 300.
MAX_LINE: Final = 4096
#: Bytes waiting to go to a client that does not read; past this the client is dropped.
MAX_BACKLOG: Final = 1 << 20
#: A card as the server writes it: rank (6-10, J, Q, K, A) and suit letter, on its own.
CARD_TOKEN: Final = re.compile(r"(?<![0-9A-Za-z])(?:10|[6-9JQKA])[SHDC](?![0-9A-Za-z])")
VERBS: Final = (
    "join",
    "leave",
    "state",
    "record",
    "new",
    "play",
    "choose",
    "shove",
    "declare",
    "thank",
)
HELP: Final = (
    'one JSON object a line: {"join": null} or {"join": 0-3} first; then {"play": "<card>"}, '
    '{"choose": "<contract>"}, {"shove": true}, {"declare": ["<cards>"]}, {"thank": true}, '
    '{"state": true}, {"leave": true}, {"record": true} (after the game), {"new": true}'
)


class RefusedError(Exception):
    """A request the table will not carry out. The text quotes only what the sender sent."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def quote(value: object) -> str:
    """The sender's own value, shortened, for an error message."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


# --- what a seat may be told --------------------------------------------------------------


def state_message(view: PlayerView, step: int, players: list[str]) -> dict[str, Any]:
    """The state as one seat sees it, built from its view alone (never from the game)."""
    contract, trick_leader = view.contract, view.trick_leader
    phase = view.phase
    return {
        "type": "state",
        "step": step,
        "seat": int(view.seat),
        "players": players,  # "client" or "bot", by seat
        "phase": phase.name,
        "to_move": None if view.to_move is None else int(view.to_move),
        "your_turn": view.to_move == view.seat and phase in (Phase.CHOOSE, Phase.PLAY),
        "hand_number": view.hand_number,
        "dealer": None if view.dealer is None else int(view.dealer),
        "contract": None if contract is None else contract.name,
        "chooser": None if view.chooser is None else int(view.chooser),
        "shoves": view.shoves,
        "hand": str(view.hand),
        "legal": [action_to_json(action) for action in view.legal_actions()],
        "can_thank": view.can_thank(),
        "tricks": [
            {
                "leader": int(t.leader),
                "cards": [str(card) for card in t.cards],
                "winner": int(t.winner),
                "points": t.points,
            }
            for t in view.tricks
        ],
        "trick": {
            "leader": None if trick_leader is None else int(trick_leader),
            "cards": [str(card) for card in view.trick],
        },
        # Others' Weis: their points only, until the winning team's are shown after trick 1.
        "declared_points": [None if p is None else list(p) for p in view.declared_points],
        "own_weis": None if view.own_weis is None else [str(w.cards) for w in view.own_weis],
        "shown_weis": [
            {"seat": int(holder), "cards": str(weis.cards), "points": weis.points}
            for holder, weis in view.shown_weis
        ],
        "weis_winner": None if view.weis_winner is None else int(view.weis_winner),
        "stoeck": None if view.stoeck is None else int(view.stoeck),
        "scores": list(view.scores),
        "hand_points": list(view.hand_points),
        "hand_results": [
            {"contract": r.contract.name, "totals": list(r.totals)} for r in view.hand_results
        ],
        "result": None
        if view.result is None
        else {
            "winner": None if view.result.winner is None else int(view.result.winner),
            "reason": view.result.reason.name,
            "scores": list(view.result.scores),
        },
    }


def visible_cards(view: PlayerView) -> CardSet:
    """The cards ``view``'s seat may see now: its hand, the cards played, the Weis shown."""
    cards = view.hand | view.played
    for _, weis in view.shown_weis:
        cards |= weis.cards
    return cards


def hidden_cards_in(text: str, view: PlayerView, sent: str = "") -> set[str]:
    """The cards named in ``text`` that ``view``'s seat may not see (and did not send itself)."""
    named = set(CARD_TOKEN.findall(text))
    if not named:
        return named
    allowed = {str(card) for card in visible_cards(view)} | set(CARD_TOKEN.findall(sent.upper()))
    return named - allowed


# --- reading requests ---------------------------------------------------------------------


async def read_lines(reader: asyncio.StreamReader, limit: int) -> AsyncIterator[bytes | None]:
    """The lines a client sends; ``None`` stands for a line longer than ``limit`` (skipped)."""
    buffer = bytearray()
    skipping = False  # inside an over-long line: drop bytes up to the next newline
    while chunk := await reader.read(65536):
        buffer += chunk
        while (end := buffer.find(b"\n")) >= 0:
            line = bytes(buffer[:end])
            del buffer[: end + 1]
            if skipping:
                skipping = False
            elif len(line) > limit:
                yield None
            else:
                yield line
        if len(buffer) > limit:
            if not skipping:
                yield None
                skipping = True
            buffer.clear()


def valid_text(value: object) -> bool:
    """Whether every string in a JSON value (keys too) is valid Unicode: no lone surrogate."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(valid_text(key) and valid_text(item) for key, item in value.items())
    if isinstance(value, list):
        return all(valid_text(item) for item in value)
    return True


def parse_action(verb: str, value: object, view: PlayerView) -> Action:
    """The action a request names, read against the sender's own view only."""
    if verb == "play":
        if not isinstance(value, str):
            raise RefusedError("BAD_CARD", f"play takes a card as a string, got {quote(value)}")
        try:
            return Play(Card.parse(value))
        except JassError:
            raise RefusedError(
                "BAD_CARD",
                f"{quote(value)} is not a card: a rank (6-10, J, Q, K, A) and a suit letter "
                "(S, H, D, C)",
            ) from None
    if verb == "choose":
        if not isinstance(value, str):
            raise RefusedError("BAD_CONTRACT", f"choose takes a contract name, got {quote(value)}")
        try:
            return Choose(Contract.parse(value))
        except JassError:
            raise RefusedError(
                "BAD_CONTRACT",
                f"{quote(value)} is not a contract: a suit, obenabe or undenufe",
            ) from None
    if verb == "shove":
        if value is not True:
            raise RefusedError("BAD_REQUEST", 'shove is written {"shove": true}')
        return Shove()
    if verb == "thank":
        if value is True:
            return Thank(view.team)
        if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
            raise RefusedError("BAD_REQUEST", 'thank is written {"thank": true}')
        return Thank(Team(value))
    # declare: each Weis by its cards, matched against the sender's own hand.
    if not isinstance(value, list) or not all(isinstance(cards, str) for cards in value):
        raise RefusedError("BAD_REQUEST", "declare takes a list of Weis, each as its cards")
    held = {str(w.cards): w for w in find_weis(view.hand, view.ruleset)}
    chosen = []
    for cards in value:
        try:
            key = str(CardSet.parse(cards))
        except JassError:
            key = ""
        if key not in held:
            raise RefusedError("WEIS_NOT_HELD", f"{quote(cards)} is not a Weis you hold")
        chosen.append(held[key])
    return DeclareWeis(tuple(chosen))


# --- the table ----------------------------------------------------------------------------


class Connection:
    """One client: its stream and the seat it is bound to, if any."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.seat: Seat | None = None
        self.home: Seat | None = None  # the one seat this connection may ever play

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message; drop a client that lets too much pile up unread."""
        if self.writer.is_closing():
            return
        # backslashreplace: a lone surrogate becomes its JSON escape instead of an error.
        data = json.dumps(message, ensure_ascii=False).encode("utf-8", "backslashreplace")
        self.writer.write(data + b"\n")
        if self.writer.transport.get_write_buffer_size() > MAX_BACKLOG:
            self.writer.transport.abort()


class Table:
    """One game, four seats: clients in some, bots in the others.

    The first deal waits for ``start_with`` clients. A seat whose client leaves goes back to
    its bot, and when a client does not move within ``turn_timeout`` seconds, its seat's bot
    makes that move. ``bot_delay`` slows the bots down for human eyes.
    """

    def __init__(
        self,
        ruleset: RuleSet = rules.SCHIEBER,
        *,
        seed: int | None = None,
        start_with: int = 1,
        bot: Callable[[int], Bot] = RuleBot,
        bot_delay: float = 0.0,
        turn_timeout: float | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.game = Game.new(ruleset, seed=seed)
        self.start_with = start_with
        self.bots = {seat: bot(int(seat)) for seat in Seat}
        self.bot_delay = bot_delay
        self.turn_timeout = turn_timeout
        self.seated: dict[Seat, Connection] = {}
        self.connections: set[Connection] = set()
        self.started = False
        self._changed = asyncio.Event()

    # --- sending --------------------------------------------------------------------------

    def send(
        self, conn: Connection, message: dict[str, Any], sent: str = "", *, public: bool = False
    ) -> None:
        """Send ``message`` to ``conn``, unless it names a card the client may not see.

        ``sent`` is the request being answered: the client may hear its own words back.
        ``public`` skips the check, for the record of a finished game.
        """
        message["step"] = len(self.game.history)
        if conn.seat is not None and not public:
            text = json.dumps(message, ensure_ascii=False)
            leaked = hidden_cards_in(text, self.game.view(conn.seat), sent)
            if leaked:  # a bug in this server: say so here, and tell the client nothing
                print(
                    f"not sent to seat {int(conn.seat)}: a {message['type']} message naming "
                    f"{' '.join(sorted(leaked))}",
                    file=sys.stderr,
                )
                message = {
                    "type": "error",
                    "id": message.get("id"),
                    "step": message["step"],
                    "code": "INTERNAL",
                    "error": "the server could not answer",
                }
        conn.send(message)

    def send_state(self, conn: Connection) -> None:
        """Send ``conn`` its own seat's view of the game."""
        assert conn.seat is not None
        players = ["client" if seat in self.seated else "bot" for seat in Seat]
        view = self.game.view(conn.seat)
        self.send(conn, state_message(view, len(self.game.history), players))

    def commit(self, game: Game) -> None:
        """Make ``game`` the table's state and tell every seated client."""
        self.game = game
        for conn in list(self.seated.values()):
            self.send_state(conn)
        self._changed.set()

    # --- requests -------------------------------------------------------------------------

    async def serve_client(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        """Talk to one client until it goes (the ``asyncio.start_server`` callback)."""
        conn = Connection(writer)
        self.connections.add(conn)
        free = [int(seat) for seat in Seat if seat not in self.seated]
        self.send(conn, {"type": "welcome", "free_seats": free, "help": HELP})
        try:
            async for line in read_lines(reader, MAX_LINE):
                self.handle_line(conn, line)
        except ConnectionError:
            pass
        finally:
            self.unseat(conn)
            self.connections.discard(conn)
            writer.close()

    def handle_line(self, conn: Connection, line: bytes | None) -> None:
        """Answer one request line with ``ok`` or ``error``; a bad one changes nothing."""
        request_id: object = None
        sent = ""
        try:
            if line is None:
                raise RefusedError("TOO_LONG", f"a request is at most {MAX_LINE} bytes")
            if not line.strip():
                return
            sent = line.decode("utf-8", "replace")
            try:
                request = json.loads(line)
            except (ValueError, RecursionError):
                raise RefusedError("BAD_JSON", "a request is one JSON object on one line") from None
            if not isinstance(request, dict):
                raise RefusedError("BAD_REQUEST", "a request is a JSON object")
            if not valid_text(request):
                raise RefusedError("BAD_TEXT", "text must be valid Unicode: no lone surrogate")
            request_id = request.pop("id", None)
            if (
                isinstance(request_id, bool)
                or not isinstance(request_id, int | str | None)
                or (isinstance(request_id, str) and len(request_id) > 64)
            ):
                request_id = None
                raise RefusedError("BAD_REQUEST", "an id is a number or a string of 64 characters")
            answer = self.handle(conn, request)
            public = "record" in answer  # only ever sent once the game is over
            self.send(conn, {"type": "ok", "id": request_id, **answer}, sent, public=public)
        except RefusedError as refusal:
            message = {
                "type": "error",
                "id": request_id,
                "code": refusal.code,
                "error": str(refusal),
            }
            self.send(conn, message, sent)

    def handle(self, conn: Connection, request: dict[str, Any]) -> dict[str, Any]:
        """Carry out one request and return what to add to its ``ok``; or raise RefusedError."""
        claimed = request.pop("seat", None)
        verbs = [key for key in request if key in VERBS]
        if len(verbs) != 1 or len(request) != 1:
            unknown = sorted(key for key in request if key not in VERBS)
            if unknown:
                raise RefusedError(
                    "UNKNOWN_ACTION",
                    f"unknown request {quote(unknown[0])}; known: {', '.join(VERBS)}",
                )
            raise RefusedError("BAD_REQUEST", "one request a line")
        verb = verbs[0]
        value = request[verb]
        if verb == "join":
            return {"seat": int(self.join(conn, value))}
        seat = conn.seat
        if seat is None:
            raise RefusedError("NOT_SEATED", 'join a seat first: {"join": null}')
        if claimed is not None and (isinstance(claimed, bool) or claimed != seat):
            # The gate: a connection acts for its own seat, whatever it claims.
            raise RefusedError(
                "WRONG_SEAT", f"this connection plays seat {int(seat)}, not {quote(claimed)}"
            )
        if verb == "leave":
            self.unseat(conn)
        elif verb == "state":
            self.send_state(conn)
        elif verb == "record":
            if not self.game.is_over:  # it holds every hand, and the seed every deal
                raise RefusedError("NOT_OVER", "the record is sent once the game is over")
            return {"record": record(self.game)}
        elif verb == "new":
            if not self.game.is_over:
                raise RefusedError("NOT_OVER", "a new game starts once this one is over")
            self.commit(Game.new(self.ruleset))
        else:
            self.act(seat, verb, value)
        return {}

    def act(self, seat: Seat, verb: str, value: object) -> None:
        """Apply a move of ``seat``, checked against that seat before the engine sees it."""
        game = self.game
        action = parse_action(verb, value, game.view(seat))
        if game.is_over:
            raise RefusedError("GAME_OVER", "the game is over")
        if isinstance(action, Thank):
            if action.team != seat.team:  # either team may thank at any time, but only itself
                raise RefusedError(
                    "WRONG_TEAM", f"seat {int(seat)} thanks for team {int(seat.team)}"
                )
        elif game.to_move != seat or game.phase not in (Phase.CHOOSE, Phase.PLAY):
            whose = "nobody's" if game.to_move is None else f"seat {int(game.to_move)}'s"
            raise RefusedError("NOT_YOUR_TURN", f"it is {whose} turn, not seat {int(seat)}'s")
        try:
            after = game.apply(action)
        except IllegalActionError as exc:
            # The engine's text may name cards (the mover's hand): write ours from the reason,
            # quoting the request as sent.
            raise RefusedError(
                exc.reason.name, f"{verb} {quote(value)}: {exc.reason.value}"
            ) from None
        except JassError:
            raise RefusedError("ILLEGAL", f"{verb} {quote(value)} is not allowed now") from None
        self.commit(after)

    def join(self, conn: Connection, value: object) -> Seat:
        """Bind ``conn`` to the seat it asks for, or to a free one.

        A connection is bound to its first seat for good: it may come back to that seat
        after leaving, never take another (it would read a second hand). A seat that a bot
        plays may not be joined in the middle of a hand, whose cards it would show at once.
        """
        if conn.seat is not None:
            raise RefusedError("ALREADY_SEATED", f"this connection plays seat {int(conn.seat)}")
        if value is None:
            free = [seat for seat in Seat if seat not in self.seated]
            if conn.home is not None:
                seat = conn.home
            elif not free:
                raise RefusedError("TABLE_FULL", "every seat has a client")
            else:
                seat = free[0]
        elif isinstance(value, bool) or not isinstance(value, int) or value not in range(4):
            raise RefusedError("BAD_REQUEST", f"a seat is 0, 1, 2 or 3, got {quote(value)}")
        else:
            seat = Seat(value)
        if conn.home is not None and seat != conn.home:
            raise RefusedError(
                "SEAT_BOUND",
                f"this connection played seat {int(conn.home)}; it may come back to that seat only",
            )
        if seat in self.seated:
            raise RefusedError("SEAT_TAKEN", f"seat {int(seat)} has a client")
        if seat != conn.home and self.game.phase in (Phase.CHOOSE, Phase.PLAY):
            raise RefusedError(
                "MID_HAND",
                f"seat {int(seat)} is in the middle of a hand, played by its bot: join it "
                "between hands",
            )
        conn.seat = conn.home = seat
        self.seated[seat] = conn
        self.commit(self.game)  # everybody learns who plays where
        return seat

    def unseat(self, conn: Connection) -> None:
        """Give ``conn``'s seat back to its bot."""
        if conn.seat is not None and self.seated.get(conn.seat) is conn:
            del self.seated[conn.seat]
            conn.seat = None
            self.commit(self.game)

    # --- the bots and the dealer ----------------------------------------------------------

    async def wait_for_change(self, timeout: float | None = None) -> bool:
        """Wait until the game or the seating changes; ``False`` if ``timeout`` ran out."""
        self._changed.clear()
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except asyncio.TimeoutError:
            return False
        return True

    async def run(self) -> None:
        """Deal, and move for the seats without a client, for as long as the table is open."""
        while True:
            game = self.game
            self.started = self.started or len(self.seated) >= self.start_with
            if game.is_over or not self.started or not self.seated:
                await self.wait_for_change()
                continue
            if game.phase is Phase.DEAL:
                await asyncio.sleep(self.bot_delay)  # let people see the last trick
                if self.game is game:
                    self.commit(game.deal())
                continue
            seat = game.to_move
            assert seat is not None
            if seat in self.seated and await self.wait_for_change(self.turn_timeout):
                continue
            # A bot's turn, or a client's that timed out. The state is immutable, so the bot
            # may think in another thread; its answer counts only if nothing changed meanwhile.
            await asyncio.sleep(self.bot_delay)
            if self.game is not game:
                continue
            action = await asyncio.to_thread(self.bots[seat].choose_action, game.view(seat))
            if self.game is game:
                self.commit(game.apply(action))


@contextlib.asynccontextmanager
async def serving(table: Table, host: str = "127.0.0.1", port: int = 0) -> AsyncIterator[int]:
    """Open ``table`` to clients on ``host``:``port`` (0: a free port); yields the port."""
    server = await asyncio.start_server(table.serve_client, host, port)
    runner = asyncio.create_task(table.run())
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        runner.cancel()
        server.close()
        for conn in list(table.connections):
            conn.writer.close()
        with contextlib.suppress(asyncio.CancelledError):
            await runner  # a bug in run() surfaces here
        await server.wait_closed()


# --- a client, for the demo and the tests -------------------------------------------------


class Client:
    """A scripted client: sends requests, and keeps every message it receives, in order."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.lines: list[str] = []  # every line received, exactly as it came
        self.received: list[dict[str, Any]] = []
        self.sent: dict[int, str] = {}  # request id -> the line sent
        self.state: dict[str, Any] = {}  # the latest state
        self._states: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._answers: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._last_id = 0
        self._reading = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, port: int, host: str = "127.0.0.1") -> Client:
        """Connect to a table."""
        reader, writer = await asyncio.open_connection(host, port, limit=1 << 22)
        return cls(reader, writer)

    async def _read(self) -> None:
        while line := await self.reader.readline():
            self.lines.append(line.decode())
            message = json.loads(line)
            self.received.append(message)
            if message["type"] == "state":
                self.state = message
                self._states.put_nowait(message)
            elif message["type"] in ("ok", "error"):
                self._answers.put_nowait(message)

    async def send_line(self, line: bytes) -> dict[str, Any]:
        """Send raw bytes (one line, or part of one) and return the next answer."""
        self.writer.write(line)
        await self.writer.drain()
        return await self._answers.get()

    async def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send a request with a fresh id and return its answer, ``ok`` or ``error``."""
        self._last_id += 1
        line = json.dumps({**request, "id": self._last_id})
        self.sent[self._last_id] = line
        self.writer.write(line.encode() + b"\n")
        await self.writer.drain()
        while True:
            answer = await self._answers.get()
            if answer["id"] == self._last_id:
                return answer

    async def next_state(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The next state received that ``wanted`` accepts."""
        while not wanted(state := await self._states.get()):
            pass
        return state

    async def join(self, seat: int | None = None) -> int:
        """Take a seat; returns it."""
        answer = await self.ask({"join": seat})
        assert answer["type"] == "ok", answer
        return int(answer["seat"])

    async def play(self, rng: random.Random) -> dict[str, Any]:
        """Make a random legal move (never a thank) on each turn; return the final state."""
        acted = -1
        while True:
            state = await self.next_state(lambda s: s["result"] is not None or s["your_turn"])
            if state["result"] is not None:
                return state
            if state["step"] > acted:
                acted = state["step"]
                answer = await self.ask(rng.choice([a for a in state["legal"] if "thank" not in a]))
                assert answer["type"] == "ok", answer

    async def close(self) -> None:
        """Hang up."""
        self.writer.close()
        with contextlib.suppress(ConnectionError):
            await self.writer.wait_closed()
        await self._reading


# --- the demo and the command line ---------------------------------------------------------


def transcript(states: list[dict[str, Any]]) -> list[str]:
    """The contract and the tricks of each hand, from one client's state messages."""
    lines: list[str] = []
    shown: dict[int, int] = {}  # hand number -> tricks already in the transcript
    weis_shown: set[int] = set()  # hands whose Weis are in the transcript
    for state in states:
        number = state["hand_number"]
        if number is None or state["contract"] is None:
            continue
        if number not in shown:
            shoved = " (shoved to it)" if state["shoves"] else ""
            lines.append(
                f"hand {number + 1}: seat {state['chooser']}{shoved} chose {state['contract']}"
            )
            shown[number] = 0
        for index, trick in enumerate(state["tricks"][shown[number] :], shown[number] + 1):
            cards = "  ".join(
                f"S{(trick['leader'] + i) % 4} {card:<3}" for i, card in enumerate(trick["cards"])
            )
            lines.append(
                f"  trick {index}: {cards}  seat {trick['winner']} takes {trick['points']}"
            )
        shown[number] = len(state["tricks"])
        if state["shown_weis"] and number not in weis_shown:
            weis_shown.add(number)
            weis = "; ".join(
                f"seat {w['seat']} {w['cards']} ({w['points']})" for w in state["shown_weis"]
            )
            lines.append(f"  Weis shown after trick 1: {weis}")
    return lines


async def demo() -> None:
    """Two scripted clients and two bots play one seeded hand."""
    table = Table(rules.SCHIEBER.evolve(hands=1), seed=7, start_with=2)
    async with serving(table) as port:
        print(f"table on 127.0.0.1:{port}: one hand, seed 7, bots in the free seats")
        alice, bob = await Client.connect(port), await Client.connect(port)
        answer = await alice.ask({"shove": True})
        print(f"alice, not seated, shoves: refused, {answer['code']}: {answer['error']}")
        print(
            f"alice claims seat {await alice.join(0)}; bob asks for any seat and gets "
            f"{await bob.join()}"
        )
        # The table waits for a client to move; the other client tries to move instead.
        state = await alice.next_state(lambda s: s["to_move"] in (0, 1))
        names = {0: ("alice", alice), 1: ("bob", bob)}
        (name, other), mover = names[1 - state["to_move"]], state["to_move"]
        move = (
            {"choose": "obenabe"}
            if state["phase"] == "CHOOSE"
            else {"play": other.state["hand"].split()[0]}
        )
        answer = await other.ask(move)
        print(
            f"{names[mover][0]}'s turn; {name} sends {json.dumps(move)}: refused, "
            f"{answer['code']}: {answer['error']}"
        )
        answer = await other.ask({**move, "seat": mover})
        print(f"{name} sends it for seat {mover}: refused, {answer['code']}: {answer['error']}")
        finals = await asyncio.gather(alice.play(random.Random(1)), bob.play(random.Random(2)))
        print("\n".join(transcript([m for m in alice.received if m["type"] == "state"])))
        result = finals[0]["result"]
        print(
            f"team {result['winner']} wins, {result['scores'][0]} : {result['scores'][1]} "
            f"({result['reason']})"
        )
        answer = await alice.ask({"record": True})
        print(
            f"only now is the record sent: seed {answer['record']['seed']}, "
            f"{len(answer['record']['actions'])} actions"
        )
        print(f"messages received: alice {len(alice.received)}, bob {len(bob.received)}")
        await alice.close()
        await bob.close()


async def serve(args: argparse.Namespace) -> None:
    """Keep a table open until interrupted."""
    bot: Callable[[int], Bot] = RuleBot if args.bot == "rule" else RandomBot
    table = Table(
        find_ruleset(args.rules),
        seed=args.seed,
        start_with=args.start_with,
        bot=bot,
        bot_delay=args.bot_delay,
        turn_timeout=args.turn_timeout,
    )
    async with serving(table, args.host, args.port) as port:
        print(f"serving {args.rules} on {args.host}:{port}; try: nc {args.host} {port}", flush=True)
        await asyncio.Event().wait()


def main(argv: list[str] | None = None) -> None:
    """Run the demo, or serve with ``--serve``."""
    parser = argparse.ArgumentParser(description="A multi-client Jass table over JSON lines.")
    parser.add_argument("--serve", action="store_true", help="serve until Ctrl-C")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8765, help="port (0: any free port)")
    parser.add_argument("--rules", default="SCHIEBER", help="preset name")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deals")
    parser.add_argument(
        "--start-with",
        type=int,
        default=1,
        choices=range(1, 5),
        help="clients to wait for before the first deal",
    )
    parser.add_argument("--bot", choices=("rule", "random"), default="rule")
    parser.add_argument("--bot-delay", type=float, default=0.8, help="seconds per bot move")
    parser.add_argument(
        "--turn-timeout",
        type=float,
        default=120.0,
        help="seconds a client may think before its bot moves",
    )
    args = parser.parse_args(argv)
    if not args.serve:
        asyncio.run(demo())
        return
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args))


if __name__ == "__main__":
    main()
