"""The multi-client server example: seats, refusals, bad input, and no card a client may not see.

The example is loaded from its path. Every test talks to a real table over real sockets on
127.0.0.1 (port 0). The leak check works out what each seat may see from the game record alone:
its hand as dealt, the cards played in the hand so far, and the Weis shown after trick 1 (from
the rule functions ``find_weis`` and ``resolve_declared_weis``). It never asks the server or
:class:`jass.PlayerView`.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import random
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import pytest

import jass
from jass import CardSet, Contract, IllegalReason, RuleSet, Weis, rules
from jass.records import replay
from jass.rules import WeisDeclaration

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "json_server.py"
# A card as text: rank and suit letter, standing alone (upper case, as the server writes).
CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[6-9JQKA])[SHDC](?![0-9A-Za-z])")
T = TypeVar("T")


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("json_server_example", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


server: Any = _load()


def run(main: Callable[[], Awaitable[T]], timeout: float = 60.0) -> T:
    """Run one async test body, failing (not hanging) if the table stalls."""

    async def bounded() -> T:
        return await asyncio.wait_for(main(), timeout)

    return asyncio.run(bounded())


def cards(text: str) -> set[str]:
    return set(CARD.findall(text))


# --- what each seat may see, from the record alone -------------------------------------------


class Visibility:
    """Replays a record's actions by hand: per step, per seat, the cards that seat may know.

    ``seen[step][seat]``: its hand as dealt, every card played in the hand so far, and the Weis
    shown once trick 1 is complete. ``on_table[step]``: the cards played in the current hand.
    """

    def __init__(self, actions: Sequence[dict[str, Any]], ruleset: RuleSet) -> None:
        none: frozenset[str] = frozenset()
        self.seen: list[tuple[frozenset[str], ...]] = [(none, none, none, none)]
        self.on_table: list[frozenset[str]] = [none]
        dealt: list[CardSet] = [CardSet.parse("")] * 4
        played: list[str] = []
        shown: set[str] = set()
        declared: list[tuple[Weis, ...]] = [(), (), (), ()]
        chosen: list[CardSet] = []  # a manual declaration, made before the seat's first card
        contract: Contract | None = None
        forehand = jass.Seat(0)
        for action in actions:
            ((kind, argument),) = action.items()
            if kind == "deal":
                dealt = [CardSet.parse(hand) for hand in argument]
                played, shown, declared, contract = [], set(), [(), (), (), ()], None
            elif kind == "choose":
                contract = Contract.parse(argument)
            elif kind == "declare":
                chosen = [CardSet.parse(weis) for weis in argument]
            elif kind == "play":
                seat = next(s for s in jass.Seat if jass.Card.parse(argument) in dealt[s])
                if not played:
                    forehand = seat
                if len(played) < 4 and ruleset.weis:
                    held = jass.find_weis(dealt[seat], ruleset)
                    if ruleset.weis_declaration is WeisDeclaration.MANUAL:
                        held = tuple(w for w in held if w.cards in chosen)
                    declared[seat], chosen = held, []
                played.append(argument)
                if len(played) == 4 and ruleset.weis:
                    assert contract is not None
                    result = jass.resolve_declared_weis(declared, contract, forehand, ruleset)
                    if result.winner is not None:
                        for holder in result.winner.team.seats:
                            shown |= {str(c) for w in declared[holder] for c in w.cards}
            table = frozenset(played)
            self.seen.append(tuple(frozenset(map(str, dealt[s])) | table | shown for s in range(4)))
            self.on_table.append(table)


def problems(
    lines: Sequence[str],
    sent: dict[int, str],
    seat: int,
    seeing: Visibility,
    game_over_step: int,
) -> list[str]:
    """Everything wrong with the messages one client received (empty: nothing leaked).

    A message may name the client's own cards, those on the table and the Weis shown, as of
    its step, and in an answer what the client itself sent. Before the client's first state it
    has no seat and may hear only its own words. The record comes only at the end.
    """
    found: list[str] = []
    step, seated = 0, False
    for line in lines:
        message = json.loads(line)
        if message["step"] < step:
            found.append(f"step went back from {step} to {message['step']}")
        step = message["step"]
        if message["type"] == "state":
            seated = True
            if message["seat"] != seat:
                found.append(f"a state for seat {message['seat']} sent to seat {seat}")
            table = {c for t in message["tricks"] for c in t["cards"]} | set(
                message["trick"]["cards"]
            )
            if table != seeing.on_table[step]:
                found.append(f"state of step {step} shows {sorted(table)} on the table")
        if "record" in message:
            if step != game_over_step:
                found.append(f"the record was sent at step {step}, before the game was over")
            continue
        allowed = set(seeing.seen[step][seat]) if seated else set()
        if message.get("id") is not None:
            allowed |= cards(sent[message["id"]].upper())
        if cards(line) - allowed:
            found.append(f"step {step}: {message['type']} names {sorted(cards(line) - allowed)}")
    return found


# --- helpers --------------------------------------------------------------------------------


async def play_to_turn(movers: dict[int, Any], wanted: int) -> dict[str, Any]:
    """Let the clients in ``movers`` (seat -> client) make their first legal move until seat
    ``wanted`` is to move (the bots move by themselves); return that client's current state."""
    watcher: Any = movers[wanted]
    floor = 0
    while True:
        state: dict[str, Any] = await watcher.next_state(
            lambda s, floor=floor: s["step"] >= floor and s["to_move"] in movers
        )
        if state is not watcher.state:
            continue  # a newer state is queued
        if state["to_move"] == wanted:
            return dict(state)
        mover = movers[state["to_move"]]
        await mover.ask({"state": True})  # then mover.state is current
        answer = await mover.ask(next(a for a in mover.state["legal"] if "thank" not in a))
        assert answer["type"] == "ok", answer
        floor = int(answer["step"])


async def steady(table: Any, client: Any) -> dict[str, Any]:
    """The client's state once it is current, with the table waiting for a client to move."""
    answer = await client.ask({"state": True})
    assert answer["type"] == "ok"
    assert client.state["step"] == len(table.game.history)
    return dict(client.state)


# --- the demo ---------------------------------------------------------------------------------


def test_demo_runs_as_ci_runs_it() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "NOT_SEATED" in out
    assert "NOT_YOUR_TURN" in out
    assert "WRONG_SEAT" in out
    assert "trick 9:" in out
    assert "Weis shown after trick 1: " in out
    assert "wins" in out
    assert "record" in out
    assert done.stderr == ""


# --- seats and turns ----------------------------------------------------------------------------


def test_out_of_turn_and_for_another_seat_are_refused_and_change_nothing() -> None:
    async def main() -> None:
        table = server.Table(rules.SCHIEBER, seed=3, start_with=2)
        async with server.serving(table) as port:
            alice, bob, stranger = [await server.Client.connect(port) for _ in range(3)]
            assert await alice.join(0) == 0
            assert await bob.join(1) == 1
            state = await play_to_turn({0: alice, 1: bob}, wanted=0)
            game = table.game
            assert game.to_move == 0
            before = await steady(table, bob)
            seen_by_alice = len(alice.received)

            mine = bob.state["hand"].split()[0]
            theirs = alice.state["legal"][0]  # a move that is legal for seat 0
            own_move = {"play": mine} if state["phase"] == "PLAY" else {"choose": "obenabe"}
            for request, code in [
                (own_move, "NOT_YOUR_TURN"),  # seat 1 acts on seat 0's turn
                (theirs, "NOT_YOUR_TURN"),  # even with seat 0's legal move
                ({**theirs, "seat": 0}, "WRONG_SEAT"),  # or claiming to be seat 0
                ({"shove": True, "seat": 0}, "WRONG_SEAT"),
                ({"state": True, "seat": 0}, "WRONG_SEAT"),  # nor may it ask for seat 0's view
                ({"thank": 0}, "WRONG_TEAM"),  # a thank for the other team
            ]:
                answer = await bob.ask(request)
                assert answer["type"] == "error", (request, answer)
                assert answer["code"] == code, (request, answer)
                assert cards(answer["error"]) <= cards(json.dumps(request)), answer
                assert table.game is game
            answer = await stranger.ask(theirs)  # a connection without a seat
            assert (answer["type"], answer["code"]) == ("error", "NOT_SEATED")
            assert cards(json.dumps(answer)) <= cards(json.dumps(theirs))

            assert table.game is game
            after = await steady(table, bob)
            assert after == before
            assert len(alice.received) == seen_by_alice  # nothing happened at the table
            assert (await alice.ask(theirs))["type"] == "ok"  # the right seat may
            assert table.game is not game
            for client in (alice, bob, stranger):
                await client.close()

    run(main)


def test_the_engine_refusal_goes_to_the_mover_in_our_words() -> None:
    async def main() -> None:
        table = server.Table(rules.SCHIEBER, seed=5, start_with=2)
        async with server.serving(table) as port:
            alice, bob = [await server.Client.connect(port) for _ in range(2)]
            await alice.join(0)
            await bob.join(2)
            movers = {0: alice, 2: bob}
            reasons: set[str] = set()
            while len(reasons) < 2:
                state = await play_to_turn(movers, wanted=0)
                if state["phase"] != "PLAY":
                    await alice.ask(state["legal"][0])
                    continue
                game = table.game
                hand = set(state["hand"].split())
                legal = {a["play"] for a in state["legal"] if "play" in a}
                illegal = sorted(hand - legal)
                elsewhere = sorted({str(c) for c in jass.CARDS} - hand - cards(json.dumps(state)))
                for card in illegal[:1] + elsewhere[:1]:
                    with pytest.raises(jass.IllegalActionError) as engine:
                        game.play(card)
                    other_bob = len(bob.received)
                    answer = await alice.ask({"play": card})
                    assert answer["type"] == "error"
                    assert answer["code"] == engine.value.reason.name
                    assert answer["code"] in IllegalReason.__members__
                    assert cards(json.dumps(answer)) == {card}  # ours names the card sent only
                    assert table.game is game
                    assert len(bob.received) == other_bob  # the refusal went to alice alone
                    if engine.value.reason is IllegalReason.NOT_IN_HAND:
                        # The engine's own words would have listed alice's hand: never forwarded.
                        assert cards(str(engine.value)) > {card}
                    reasons.add(answer["code"])
                await alice.ask(state["legal"][0])
            assert "NOT_IN_HAND" in reasons
            await alice.close()
            await bob.close()

    run(main)


def test_seats_are_claimed_given_and_given_back() -> None:
    async def main() -> None:
        table = server.Table(rules.SCHIEBER, seed=9, start_with=4)
        async with server.serving(table) as port:
            clients = [await server.Client.connect(port) for _ in range(5)]
            assert await clients[0].join(2) == 2
            answer = await clients[1].ask({"join": 2})
            assert (answer["type"], answer["code"]) == ("error", "SEAT_TAKEN")
            assert [await c.join() for c in clients[1:4]] == [0, 1, 3]  # the free seats
            answer = await clients[4].ask({"join": None})
            assert (answer["type"], answer["code"]) == ("error", "TABLE_FULL")
            answer = await clients[0].ask({"join": 1})
            assert (answer["type"], answer["code"]) == ("error", "ALREADY_SEATED")
            state = await clients[0].next_state(lambda s: s["phase"] == "CHOOSE")
            assert state["players"] == ["client"] * 4
            # Seat 2 leaves: its bot takes over. In the middle of the hand a newcomer may not
            # take the seat (it would see the hand at once); the one who left may come back.
            assert (await clients[0].ask({"leave": True}))["type"] == "ok"
            state = await clients[1].next_state(lambda s: s["players"][2] == "bot")
            answer = await clients[0].ask({"play": "6S"})
            assert (answer["type"], answer["code"]) == ("error", "NOT_SEATED")
            answer = await clients[4].ask({"join": None})
            assert (answer["type"], answer["code"]) == ("error", "MID_HAND")
            assert await clients[0].join() == 2
            for client in clients:
                await client.close()
            for _ in range(200):  # the server notices the hang-ups soon
                if not table.seated:
                    break
                await asyncio.sleep(0.01)
            assert table.seated == {}

    run(main)


def test_a_client_that_does_not_move_is_replaced_by_its_bot_for_that_move() -> None:
    async def main() -> None:
        table = server.Table(rules.SCHIEBER.evolve(hands=1), seed=4, turn_timeout=0.02)
        async with server.serving(table) as port:
            idle = await server.Client.connect(port)
            await idle.join(1)
            final = await idle.next_state(lambda s: s["result"] is not None)
            assert final["players"][1] == "client"
            assert table.game.is_over
            await idle.close()

    run(main)


# --- full games, and the leak check over every message --------------------------------------------

MANUAL = rules.SCHIEBER.evolve(weis_declaration="MANUAL")
MANUAL_1000 = rules.SCHIEBER_1000.evolve(weis_declaration="MANUAL")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seats", "ruleset", "seed"),
    [
        ((2,), rules.SCHIEBER_1000, 11),
        ((0, 3), MANUAL_1000, 12),
        ((0, 1, 3), rules.SCHIEBER_1000, 13),
        ((0, 1, 2, 3), rules.SCHIEBER, 14),
        ((1, 2, 3), MANUAL, 15),
    ],
)
def test_full_game_and_no_message_names_a_card_its_recipient_may_not_see(
    seats: tuple[int, ...], ruleset: RuleSet, seed: int
) -> None:
    async def main() -> None:
        table = server.Table(ruleset, seed=seed, start_with=len(seats))
        async with server.serving(table) as port:
            clients = [await server.Client.connect(port) for _ in seats]
            for seat, client in zip(seats, clients, strict=True):
                assert await client.join(seat) == seat
            answer = await clients[0].ask({"record": True})  # not before the end
            assert (answer["type"], answer["code"]) == ("error", "NOT_OVER")
            finals = await asyncio.gather(
                *(c.play(random.Random(seed * 10 + i)) for i, c in enumerate(clients))
            )
            game = table.game
            assert game.is_over
            answers = [await c.ask({"record": True}) for c in clients]
            for client in clients:
                await client.close()

        assert game.hands_played >= 1
        for final in finals:
            assert final["result"]["winner"] == game.winner
            assert final["result"]["scores"] == list(game.scores)
            assert [final["players"][s] == "client" for s in range(4)] == [
                s in seats for s in range(4)
            ]
        record = answers[0]["record"]
        assert all(a["record"] == record for a in answers)
        assert replay(record) == game  # the record is the game, whole
        if ruleset.weis_declaration is WeisDeclaration.MANUAL:
            assert any("declare" in a for a in record["actions"])

        seeing = Visibility(record["actions"], ruleset)
        states = 0
        for seat, client in zip(seats, clients, strict=True):
            assert problems(client.lines, client.sent, seat, seeing, len(record["actions"])) == []
            states += sum(m["type"] == "state" for m in client.received)
        assert states >= len(seats) * len(record["actions"])  # a state for every action
        shown = [m for c in clients for m in c.received if m["type"] == "state" and m["shown_weis"]]
        assert shown  # the check above saw Weis shown, and allowed them

    run(main)


def test_the_leak_check_finds_a_card_the_recipient_may_not_see() -> None:
    """The check above must fail when a message leaks: forge a few from a real game."""

    async def main() -> tuple[Any, dict[str, Any]]:
        table = server.Table(rules.SCHIEBER.evolve(hands=1), seed=21)
        async with server.serving(table) as port:
            client = await server.Client.connect(port)
            await client.join(0)
            await client.play(random.Random(1))
            answer = await client.ask({"record": True})
            await client.close()
        return client, answer["record"]

    client, record = run(main)
    seeing = Visibility(record["actions"], rules.SCHIEBER)
    end = len(record["actions"])
    lines, sent = list(client.lines), dict(client.sent)
    assert problems(lines, sent, 0, seeing, end) == []
    index, first = next(
        (i, json.loads(line))
        for i, line in enumerate(lines)
        if '"state"' in line and json.loads(line)["phase"] == "PLAY"
    )
    other = min(seeing.seen[first["step"]][1] - seeing.seen[first["step"]][0])
    forged = [
        {**first, "hand": first["hand"] + " " + other},  # another seat's card
        {**first, "seat": 1},  # another seat's state
        {**first, "step": end},  # a state that lies about its moment
        {"type": "ok", "id": None, "step": 3, "record": record},  # the record, too early
        {"type": "error", "id": 1, "step": first["step"], "code": "X", "error": other},
    ]
    for message in forged:
        leaky = [*lines[:index], json.dumps(message) + "\n", *lines[index:]]
        assert problems(leaky, sent, 0, seeing, end) != [], message


def test_the_last_check_stops_a_message_that_would_leak(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bug that puts other seats' cards into a state: the message is not sent."""
    honest = server.state_message

    def leaky(view: jass.PlayerView, step: int, players: list[str]) -> dict[str, Any]:
        message: dict[str, Any] = honest(view, step, players)
        message["peek"] = str(view.unknown())  # the cards the other three hold
        return message

    monkeypatch.setattr(server, "state_message", leaky)

    async def main() -> Any:
        table = server.Table(rules.SCHIEBER, seed=2)
        async with server.serving(table) as port:
            client = await server.Client.connect(port)
            await client.join(0)
            for _ in range(500):
                if any(m.get("code") == "INTERNAL" for m in client.received):
                    break
                await asyncio.sleep(0.01)
            await client.close()
        return client

    client = run(main)
    assert [m["phase"] for m in client.received if m["type"] == "state"] == ["DEAL"]  # no deal
    assert any(m.get("code") == "INTERNAL" for m in client.received)
    assert not [line for line in client.lines if cards(line)]
    assert "not sent to seat 0: a state message naming" in capsys.readouterr().err


# --- bad input ------------------------------------------------------------------------------------


BAD_LINES: list[tuple[bytes, str]] = [
    (b"not json\n", "BAD_JSON"),
    (b"\xff\xfe\x00garbage\n", "BAD_JSON"),
    (b"[" * 3000 + b"\n", "BAD_JSON"),  # nested too deep for the parser
    (b"[1, 2]\n", "BAD_REQUEST"),
    (b'"play"\n', "BAD_REQUEST"),
    (b"{}\n", "BAD_REQUEST"),
    (b'{"dance": true}\n', "UNKNOWN_ACTION"),
    (b'{"play": "KS", "shove": true}\n', "BAD_REQUEST"),
    (b'{"play": "ZZ"}\n', "BAD_CARD"),
    (b'{"play": 7}\n', "BAD_CARD"),
    (b'{"play": null}\n', "BAD_CARD"),
    (b'{"choose": "spadez"}\n', "BAD_CONTRACT"),
    (b'{"choose": ["hearts"]}\n', "BAD_CONTRACT"),
    (b'{"shove": "yes"}\n', "BAD_REQUEST"),
    (b'{"thank": 2}\n', "BAD_REQUEST"),
    (b'{"thank": 1.0}\n', "BAD_REQUEST"),
    (b'{"declare": "6S 7S 8S"}\n', "BAD_REQUEST"),
    (b'{"declare": ["6S 7S"]}\n', "WEIS_NOT_HELD"),
    (b'{"declare": [{"x": 1}]}\n', "BAD_REQUEST"),
    (b'{"join": null}\n', "ALREADY_SEATED"),
    (b'{"state": true, "seat": "2"}\n', "WRONG_SEAT"),
    (b'{"state": true, "seat": true}\n', "WRONG_SEAT"),
    (b'{"state": true, "id": [1]}\n', "BAD_REQUEST"),
    (b'{"state": true, "id": "' + b"x" * 100 + b'"}\n', "BAD_REQUEST"),
    (b'{"play": "' + b"9" * 3000 + b'"}\n', "BAD_CARD"),
    (b"x" * 1_000_000 + b"\n", "TOO_LONG"),  # one answer for the whole line
    (b'{"new": true}\n', "NOT_OVER"),
    (b"\n", ""),  # a blank line gets no answer: the next line's comes next
    (b'{"bye": 1}\n', "UNKNOWN_ACTION"),
    (b'{"record": true}\n', "NOT_OVER"),
]


def test_bad_input_gets_an_error_and_hurts_nobody() -> None:
    async def main() -> None:
        table = server.Table(rules.SCHIEBER_1000, seed=31, start_with=2)
        async with server.serving(table) as port:
            good, bad = await server.Client.connect(port), await server.Client.connect(port)
            await good.join(0)
            await bad.join(2)
            playing = asyncio.create_task(good.play(random.Random(1)))
            for line, code in BAD_LINES:
                if not code:
                    bad.writer.write(line)
                    continue
                answer = await bad.send_line(line)
                assert (answer["type"], answer.get("code")) == ("error", code), (line[:60], answer)
                assert cards(json.dumps(answer)) <= cards(line.decode("utf-8", "replace").upper())
            assert (await bad.ask({"state": True}))["type"] == "ok"  # still connected
            stranger = await server.Client.connect(port)  # the server still takes clients
            for request in [{"join": 7}, {"join": 1.0}, {"join": "0"}, {"join": True}]:
                answer = await stranger.ask(request)
                assert (answer["type"], answer["code"]) == ("error", "BAD_REQUEST"), request
            assert (await stranger.ask({"state": True}))["code"] == "NOT_SEATED"

            # Random requests: each gets exactly one answer, and the table plays on.
            rng = random.Random(5)
            values: list[Any] = [None, True, False, 0, 3, -1, 10**30, 1.5, "", "hearts", "7H"]
            values += ["x" * 50, [], ["6S 7S 8S"], [None], {}, {"a": [1]}]
            verbs = ["play", "choose", "shove", "declare", "state", "join", "seat", "x"]
            for _ in range(300):
                request = {rng.choice(verbs): rng.choice(values)}
                if rng.random() < 0.3:
                    request["seat"] = rng.choice(values)
                answer = await bad.ask(request)
                assert answer["type"] in ("ok", "error"), answer
            finished, _ = await asyncio.gather(playing, bad.play(random.Random(2)))
            assert finished["result"] is not None
            assert table.game.is_over
            assert not [m for m in good.received if m["type"] == "error"]
            for client in (good, bad, stranger):
                await client.close()

    run(main)


# --- seat hopping and bad text (issue 23, items 6 and 7) ---------------------------------------


def test_a_bot_played_seat_cannot_be_joined_mid_hand_and_a_connection_keeps_its_seat() -> None:
    async def main() -> None:
        table = server.Table(rules.SCHIEBER, seed=21, start_with=1, bot_delay=0.0)
        async with server.serving(table) as port:
            player, spy = await server.Client.connect(port), await server.Client.connect(port)
            assert await player.join(0) == 0
            state = await player.next_state(lambda s: s["phase"] in ("CHOOSE", "PLAY"))
            hand_of_2 = str(table.game.hands[2])
            # A newcomer may not take seat 2, which a bot plays, in the middle of the hand.
            answer = await spy.ask({"join": 2})
            assert (answer["type"], answer["code"]) == ("error", "MID_HAND")
            answer = await spy.ask({"join": None})
            assert (answer["type"], answer["code"]) == ("error", "MID_HAND")
            # The seated player leaves, and may not sit at the partner's seat to read its hand.
            assert (await player.ask({"leave": True}))["type"] == "ok"
            answer = await player.ask({"join": 2})
            assert (answer["type"], answer["code"]) == ("error", "SEAT_BOUND")
            assert not any(
                m["type"] == "state" and m["seat"] == 2 for m in player.received + spy.received
            )
            assert not cards(json.dumps(spy.received)) & cards(hand_of_2)
            # It may come back to its own seat, at once.
            assert await player.join(0) == 0
            answer = await player.ask({"state": True})
            assert (answer["type"], player.state["seat"]) == ("ok", 0)
            assert state["hand_number"] == player.state["hand_number"]
            for client in (player, spy):
                await client.close()

    run(main)


def test_between_hands_a_free_seat_may_be_joined() -> None:
    async def main() -> None:
        table = server.Table(rules.SCHIEBER, seed=22, start_with=2)
        async with server.serving(table) as port:
            first, second = await server.Client.connect(port), await server.Client.connect(port)
            assert await first.join(1) == 1
            assert await second.join(3) == 3  # before the first deal: no hand to see
            for client in (first, second):
                await client.close()

    run(main)


@pytest.mark.parametrize(
    "line",
    [
        b'{"play": "\\ud800"}\n',
        b'{"choose": "\\udfff hearts"}\n',
        b'{"id": "\\ud800", "state": true}\n',
        b'{"\\ud800": 1}\n',
        b'{"declare": ["\\udc00"]}\n',
    ],
)
def test_a_lone_surrogate_gets_an_error_code_and_the_seat_is_kept(line: bytes) -> None:
    async def main() -> None:
        table = server.Table(rules.SCHIEBER, seed=23, start_with=1)
        async with server.serving(table) as port:
            client = await server.Client.connect(port)
            assert await client.join(0) == 0
            answer = await client.send_line(line)
            assert (answer["type"], answer["code"], answer["id"]) == ("error", "BAD_TEXT", None)
            assert table.seated[jass.Seat(0)] is not None  # still seated, not given to a bot
            assert (await client.ask({"state": True}))["type"] == "ok"
            await client.close()

    run(main)


def test_a_message_holding_a_lone_surrogate_is_still_sent_as_json() -> None:
    async def main() -> None:
        table = server.Table(rules.SCHIEBER, seed=24, start_with=1)
        async with server.serving(table) as port:
            client = await server.Client.connect(port)
            assert await client.join(0) == 0
            conn = table.seated[jass.Seat(0)]
            conn.send({"type": "ok", "id": "\ud800", "step": 0})  # as a bug might
            answer = await client.ask({"state": True})
            assert answer["type"] == "ok"
            assert any('"id": "\\ud800"' in line for line in client.lines)  # the JSON escape
            await client.close()

    run(main)
