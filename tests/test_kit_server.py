"""PlayerServer and ``jass serve``: jass-kit's player-service protocol over real HTTP.

Every answer is read with the protocol's own text (``tests/kit_helpers.py``) and checked
against the game the test plays, which holds every hand: the server sees one observation.
"""

from __future__ import annotations

import concurrent.futures
import http.client
import json
import logging
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest

from jass import Action, Contract, Game, InvalidInputError, Phase, PlayerView, Seat, rules
from jass.bots import Bot, RandomBot, RuleBot
from jass.jasskit import PlayerServer, make_bot
from jass.records import to_jasskit_observation
from tests.kit_helpers import decode, follow_suit_game, get, post, raw, route_of

JSON_TYPE = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def server() -> Iterator[PlayerServer]:
    with PlayerServer({"random": RandomBot, "rule": RuleBot}, seed=3) as running:
        yield running


def play_through(url: str, game: Game, *, decisions: int | None = None) -> Game:
    """Let the service at ``url`` (a player's address) take every decision of the hand, or the
    first ``decisions`` of them; each answer must be one of the game's legal actions."""
    taken = 0
    while game.phase in (Phase.CHOOSE, Phase.PLAY) and (decisions is None or taken < decisions):
        seat = game.to_move
        assert seat is not None
        route = route_of(game)
        status, answer = post(f"{url}/{route}", to_jasskit_observation(game.view(seat)))
        assert status == 200, answer
        action = decode(route, answer)
        assert action in game.legal_actions(), (action, game.legal_actions())
        game = game.apply(action)
        taken += 1
    return game


def observations(count: int) -> list[tuple[Game, dict[str, Any]]]:
    """``count`` decisions from seeded hands: the game and the observation of the seat to move."""
    found: list[tuple[Game, dict[str, Any]]] = []
    seed = 0
    while len(found) < count:
        game = Game.new(rules.JASSKIT, seed=seed).deal()
        bots = [RandomBot(seed * 4 + s) for s in range(4)]
        while game.phase in (Phase.CHOOSE, Phase.PLAY) and len(found) < count:
            seat = game.to_move
            assert seat is not None
            if len(game.plays) % 5 == 0 or game.phase is Phase.CHOOSE:
                found.append((game, to_jasskit_observation(game.view(seat))))
            game = game.apply(bots[seat].choose_action(game.view(seat)))
        seed += 1
    return found


# --- the routes --------------------------------------------------------------------------------


def test_get_a_player_is_200_and_an_unknown_player_404(server: PlayerServer) -> None:
    assert get(server.url + "/rule")[0] == 200
    assert get(server.url + "/random")[0] == 200
    status, body = get(server.url + "/nobody")
    assert status == 404
    assert "nobody" in body


@pytest.mark.parametrize("name", ["random", "rule"])
@pytest.mark.parametrize("seed", range(3))
def test_every_answer_of_a_whole_hand_is_legal(server: PlayerServer, name: str, seed: int) -> None:
    start = Game.new(rules.JASSKIT, seed=seed).deal()
    if seed == 2:
        start = start.shove()  # the partner is asked, with trump -1 and forehand 0
    game = play_through(f"{server.url}/{name}", start)
    assert game.result is not None  # JASSKIT: one hand, played to its end
    assert len(game.tricks) == 9
    status, body = post(f"{server.url}/{name}/game_info", to_jasskit_observation(game.view(0)))
    assert (status, body) == (200, "")


def test_a_monte_carlo_player_answers_legally_within_a_small_budget() -> None:
    player = partial(make_bot, "montecarlo", seconds=0.02)
    with PlayerServer({"mc": player}) as server:
        game = Game.new(rules.JASSKIT, seed=4).deal()
        game = play_through(server.url + "/mc", game, decisions=5)  # the trump and 4 cards
        assert len(game.plays) >= 3
        game = Game.new(rules.JASSKIT, seed=9).deal().choose(Contract.UNDENUFE)
        rng = RandomBot(9)
        while len(game.plays) < 28:  # the last tricks, where it solves exactly
            game = game.apply(rng.choose_action(game.view(game.to_move or 0)))
        assert play_through(server.url + "/mc", game).result is not None


def test_game_info_answers_an_empty_string_at_any_stage(server: PlayerServer) -> None:
    for game, data in observations(4):
        assert post(server.url + "/rule/game_info", data) == (200, "")
        for seat in Seat:  # also for players not to move
            assert (
                post(server.url + "/rule/game_info", to_jasskit_observation(game.view(seat)))[0]
                == 200
            )


# --- errors: status, a JSON {"error": ...}, and the server carries on --------------------------


def play_phase_observation() -> dict[str, Any]:
    game = follow_suit_game()
    return to_jasskit_observation(game.view(Seat(1)))


def inconsistent_observation() -> dict[str, Any]:
    """Player 3 (seat 1) shows it played the 10 of hearts on the ace of spades, holding
    spades."""
    data = play_phase_observation()
    data["tricks"][0]["cards"].append("H10")
    data["player"][3]["hand"].remove("H10")
    data["currentPlayer"] = 2
    return data


def choose_phase_observation() -> dict[str, Any]:
    game = Game.new(rules.JASSKIT, seed=1).deal()
    return to_jasskit_observation(game.view(game.to_move or 0))


POST_ERRORS: list[tuple[str, str, Callable[[], Any], str, int, str]] = [
    # (id, path, body, content type, status, a part of the error)
    ("not json type", "/rule/action_play_card", play_phase_observation, "text/plain", 415,
     "JSON"),
    ("bad json", "/rule/action_play_card", lambda: b'{"trump": ', "application/json", 400,
     "not valid JSON"),
    ("not utf-8", "/rule/action_play_card", lambda: b"\xff\xfe{}", "application/json", 400,
     "not valid JSON"),
    ("wrong version", "/rule/action_play_card",
     lambda: {**play_phase_observation(), "version": "V0.1"}, "application/json", 400,
     "'version'"),
    ("unknown player", "/nobody/action_play_card", play_phase_observation, "application/json",
     400, "'nobody'"),
    ("inconsistent", "/rule/action_play_card", inconsistent_observation, "application/json",
     400, "trick 0, card H10 of player 3"),
    ("trump in play", "/rule/action_trump", play_phase_observation, "application/json", 400,
     "player 3 is not asked for the trump"),
    ("card in choose", "/rule/action_play_card", choose_phase_observation, "application/json",
     400, "not asked for a card"),
    ("not its turn", "/rule/action_play_card",
     lambda: to_jasskit_observation(follow_suit_game().view(Seat(2))), "application/json", 400,
     "player 2 is not asked for a card now: it is player 3's turn"),
    ("unknown route", "/rule/action_dance", play_phase_observation, "application/json", 404,
     "no route"),
    ("too many parts", "/rule/action_trump/x", choose_phase_observation, "application/json",
     404, "no route"),
]  # fmt: skip


def assert_still_serving(server: PlayerServer) -> None:
    assert get(server.url + "/rule")[0] == 200
    game = follow_suit_game()
    status, answer = post(server.url + "/rule/action_play_card", play_phase_observation())
    assert status == 200
    assert decode("action_play_card", answer) in game.legal_actions()


@pytest.mark.parametrize(
    ("path", "body", "content_type", "status", "error"),
    [case[1:] for case in POST_ERRORS],
    ids=[case[0] for case in POST_ERRORS],
)
def test_a_refused_post_has_its_status_and_a_json_error_and_the_server_carries_on(
    server: PlayerServer,
    path: str,
    body: Callable[[], Any],
    content_type: str,
    status: int,
    error: str,
) -> None:
    got, answer = post(server.url + path, body(), content_type=content_type)
    assert got == status
    assert isinstance(answer, dict)
    assert set(answer) == {"error"}
    assert error in answer["error"]
    assert_still_serving(server)


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_other_methods_are_405_with_a_json_error(server: PlayerServer, method: str) -> None:
    status, kind, body = raw(server.url, method, "/rule/action_trump", {"Content-Length": "0"})
    assert status == 405
    assert kind == "application/json"
    assert method in json_error(body)
    assert_still_serving(server)


@pytest.mark.parametrize("method", ["HEAD", "OPTIONS"])
def test_head_and_options_are_405_with_a_json_error_too(server: PlayerServer, method: str) -> None:
    status, kind, _ = raw(server.url, method, "/rule/action_trump", {})
    assert (status, kind) == (405, "application/json")


def test_a_405_leaves_a_kept_alive_connection_usable(server: PlayerServer) -> None:
    port = int(server.url.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("PUT", "/rule/action_trump", body=b'{"x": 1}', headers=JSON_TYPE)
        first = connection.getresponse()
        first.read()
        assert first.status == 405
        connection.request("GET", "/rule")
        second = connection.getresponse()
        second.read()
        assert second.status == 200
    finally:
        connection.close()


def json_error(body: bytes) -> str:
    decoded = json.loads(body)
    assert isinstance(decoded, dict)
    assert set(decoded) == {"error"}
    message = decoded["error"]
    assert isinstance(message, str)
    return message


def test_a_post_without_content_length_is_411(server: PlayerServer) -> None:
    status, kind, body = raw(server.url, "POST", "/rule/action_trump", JSON_TYPE)
    assert (status, kind) == (411, "application/json")
    assert "Content-Length" in json_error(body)
    assert_still_serving(server)


def test_a_huge_body_is_413_without_being_read(server: PlayerServer) -> None:
    # Only the header is sent: the server must answer without waiting for 2 MB.
    headers = {**JSON_TYPE, "Content-Length": str(2 << 20)}
    started = time.perf_counter()
    status, kind, body = raw(server.url, "POST", "/rule/action_trump", headers)
    assert time.perf_counter() - started < 5
    assert (status, kind) == (413, "application/json")
    assert "bytes" in json_error(body)
    assert_still_serving(server)


def test_get_on_a_route_is_404_with_a_json_error(server: PlayerServer) -> None:
    status, kind, body = raw(server.url, "GET", "/rule/action_trump", {})
    assert (status, kind) == (404, "application/json")
    assert "no route" in json_error(body)


def test_a_bot_that_answers_illegally_is_a_500_not_an_illegal_answer() -> None:
    class Cheat:
        def choose_action(self, view: PlayerView) -> Action:
            return decode("action_play_card", {"card": "H10"})

    with PlayerServer({"cheat": Cheat()}) as server:
        status, answer = post(server.url + "/cheat/action_play_card", play_phase_observation())
        assert status == 500
        assert "not legal" in answer["error"]
        assert get(server.url + "/cheat")[0] == 200


# --- concurrency and determinism ---------------------------------------------------------------


def test_eight_clients_at_once_are_all_answered_legally_and_as_one_at_a_time(
    server: PlayerServer,
) -> None:
    cases = observations(32)
    routes = [route_of(game) for game, _ in cases]
    alone = [
        post(f"{server.url}/random/{route}", data)
        for (_, data), route in zip(cases, routes, strict=True)
    ]
    start = threading.Barrier(8)

    def client(first: int) -> list[tuple[int, Any]]:
        start.wait()
        return [post(f"{server.url}/random/{routes[i]}", cases[i][1]) for i in range(first, 32, 8)]

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        answered = list(pool.map(client, range(8)))
    together = [answered[i % 8][i // 8] for i in range(32)]
    assert together == alone
    for (game, _), route, (status, answer) in zip(cases, routes, together, strict=True):
        assert status == 200
        assert decode(route, answer) in game.legal_actions()


def test_the_same_observation_gets_the_same_answer_with_the_same_seed() -> None:
    cases = observations(24)
    answers: dict[str, list[tuple[int, Any]]] = {
        name: [] for name in ("one", "again", "two", "game", "other")
    }
    with (
        PlayerServer({"r": RandomBot}, seed=7) as one,
        PlayerServer({"r": RandomBot}, seed=7) as two,
        PlayerServer({"r": RandomBot}, seed=8) as other,
    ):
        for game, data in cases:
            route = route_of(game)
            answers["one"].append(post(f"{one.url}/r/{route}", data))
            answers["again"].append(post(f"{one.url}/r/{route}", data))
            answers["two"].append(post(f"{two.url}/r/{route}", data))
            answers["game"].append(post(f"{one.url}/r/{route}", {**data, "gameId": 99}))
            answers["other"].append(post(f"{other.url}/r/{route}", data))
    assert answers["one"] == answers["again"] == answers["two"] == answers["game"]
    assert answers["other"] != answers["one"]  # the seed is used: 24 random choices differ
    assert len({str(a) for a in answers["one"]}) > 5  # and the answers are not all the same


class Detector:
    """A bot that notes how many of its calls overlapped, answering as RuleBot after a nap."""

    def __init__(self) -> None:
        self.calls = self.active = self.most = 0
        self._lock = threading.Lock()

    def choose_action(self, view: PlayerView) -> Action:
        with self._lock:
            self.calls += 1
            self.active += 1
            self.most = max(self.most, self.active)
        time.sleep(0.05)
        with self._lock:
            self.active -= 1
        return RuleBot().choose_action(view)


def _concurrently(url: str, data: dict[str, Any], count: int) -> list[tuple[int, Any]]:
    start = threading.Barrier(count)

    def client(_: int) -> tuple[int, Any]:
        start.wait()
        return post(url, data)

    with concurrent.futures.ThreadPoolExecutor(count) as pool:
        return list(pool.map(client, range(count)))


def test_a_shared_bot_instance_answers_one_request_at_a_time() -> None:
    shared, made = Detector(), Detector()
    with PlayerServer({"shared": shared, "made": lambda seed: made}) as server:
        data = play_phase_observation()
        for name, detector in (("shared", shared), ("made", made)):
            answers = _concurrently(f"{server.url}/{name}/action_play_card", data, 8)
            assert [status for status, _ in answers] == [200] * 8
            assert detector.calls == 8
    assert shared.most == 1
    assert made.most > 1  # the check can see overlap: a factory's bots are not serialized


# --- logging -----------------------------------------------------------------------------------


def test_each_request_is_one_info_line_with_method_path_and_status(
    server: PlayerServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="jass.jasskit.server")
    requests: list[tuple[str, str, int]] = [
        ("GET", "/rule", 200),
        ("POST", "/rule/action_play_card", 200),
        ("POST", "/nobody/action_trump", 400),
        ("DELETE", "/rule/game_info", 405),
    ]
    assert get(server.url + "/rule")[0] == 200
    assert post(server.url + "/rule/action_play_card", play_phase_observation())[0] == 200
    assert post(server.url + "/nobody/action_trump", choose_phase_observation())[0] == 400
    assert raw(server.url, "DELETE", "/rule/game_info", {"Content-Length": "0"})[0] == 405

    def lines() -> list[logging.LogRecord]:
        return [r for r in caplog.records if r.name == "jass.jasskit.server"]

    deadline = time.monotonic() + 5  # a line is logged just after its answer is sent
    while len(lines()) < len(requests) and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.05)
    records = lines()
    assert len(records) == len(requests)
    for method, path, status in requests:
        pattern = re.compile(rf"\b{method} {re.escape(path)}(?![\w/]).*\b{status}\b")
        matching = [r for r in records if pattern.search(r.getMessage())]
        assert len(matching) == 1, (method, path, [r.getMessage() for r in records])
        assert matching[0].levelno == logging.INFO


# --- the constructor ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bots": {}}, "bots"),
        ({"bots": [("rule", RuleBot)]}, "bots"),
        ({"bots": {"a/b": RuleBot}}, "name"),
        ({"bots": {"": RuleBot}}, "name"),
        ({"bots": {"a b": RuleBot}}, "name"),
        ({"bots": {3: RuleBot}}, "name"),
        ({"bots": {"x": 3}}, "'x'"),
        ({"bots": {"x": "rule"}}, "'x'"),
        ({"bots": {"x": None}}, "'x'"),
        ({"bots": {"x": RuleBot}, "port": -1}, "port"),
        ({"bots": {"x": RuleBot}, "port": 65536}, "port"),
        ({"bots": {"x": RuleBot}, "port": True}, "port"),
        ({"bots": {"x": RuleBot}, "port": "8888"}, "port"),
        ({"bots": {"x": RuleBot}, "ruleset": "JASSKIT"}, "RuleSet"),
        ({"bots": {"x": RuleBot}, "seed": 1.5}, "seed"),
        ({"bots": {"x": RuleBot}, "seed": False}, "seed"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        PlayerServer(**kwargs).shutdown()


def test_a_port_in_use_is_refused() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(InvalidInputError, match=f"{port}"):
            PlayerServer({"x": RuleBot}, port=port).shutdown()


def test_the_names_and_a_url_that_answers() -> None:
    shared: Bot = RuleBot()
    with PlayerServer({"b.1~x_y-z": shared, "r": RandomBot}) as server:
        assert server.names == ("b.1~x_y-z", "r")
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+", server.url)
        assert get(server.url + "/b.1~x_y-z")[0] == 200


# --- jass serve --------------------------------------------------------------------------------


def test_jass_serve_answers_and_stops_on_ctrl_c() -> None:
    command = [sys.executable, "-m", "jass", "serve", "--port", "0", "--bot", "r=random",
               "--bot", "m=montecarlo", "--seconds", "0.05"]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(60, process.kill)  # a server that never starts fails the test
    watchdog.start()
    try:
        assert process.stdout is not None
        urls = [process.stdout.readline().split()[0] for _ in range(2)]
        assert [url.rsplit("/", 1)[1] for url in urls] == ["r", "m"]
        assert get(urls[0])[0] == 200
        game = follow_suit_game()
        for url in urls:
            status, answer = post(url + "/action_play_card", play_phase_observation())
            assert status == 200
            assert decode("action_play_card", answer) in game.legal_actions()
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=20)
    finally:
        watchdog.cancel()
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130
    assert "Traceback" not in stderr
    assert "action_play_card" in stderr  # the request log


@pytest.mark.slow
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bot", "x=nonsense"], "unknown bot kind 'nonsense'"),
        (["--bot", "a=random", "--bot", "a=rule"], "'a' is taken"),
        (["--bot", "rule", "--bot", "rule=random"], "'rule' is taken"),
        (["--seconds", "0"], "argument --seconds: 0: seconds must be positive"),
        (["--seconds", "-1"], "argument --seconds: -1: seconds must be positive"),
    ],
)
def test_jass_serve_refuses_bad_options_with_status_2(arguments: list[str], message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jass", "serve", "--port", "0", *arguments],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 2
    assert message in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
