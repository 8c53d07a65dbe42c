"""RemoteBot: a player service as one of our bots, against our server and a broken one.

``tests/kit_helpers.py`` has the broken service: a few lines of the standard library's HTTP
server that answer fixed bad answers, standing for a player service that misbehaves.
"""

from __future__ import annotations

import multiprocessing
import pickle
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from jass import (
    Action,
    Card,
    Contract,
    Game,
    InvalidInputError,
    JassError,
    Phase,
    Play,
    PlayerView,
    Seat,
    Shove,
    play_match,
    rules,
)
from jass.bots import Bot, RandomBot, RuleBot, play_hand
from jass.errors import BotAnswerError, RemotePlayerError
from jass.jasskit import PlayerServer, RemoteBot, RemoteBotFactory
from tests.kit_helpers import BrokenService, closed_port_url, follow_suit_game


@pytest.fixture(scope="module")
def server() -> Iterator[PlayerServer]:
    with PlayerServer({"rule": RuleBot, "random": RandomBot}) as running:
        yield running


# --- against our own server --------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 5])
def test_a_remote_rule_bot_plays_exactly_as_a_local_one(server: PlayerServer, seed: int) -> None:
    # RuleBot reads only what its view shows, and takes no seed: over HTTP, from a view read
    # back from the observation, it must take every decision as it does locally.
    remote = RemoteBot.factory(server.url + "/rule")
    for team_a, team_b, local_a, local_b in (
        (remote, RuleBot, RuleBot, RuleBot),
        (RuleBot, remote, RuleBot, RuleBot),
        (remote, RandomBot, RuleBot, RandomBot),
        (RandomBot, remote, RandomBot, RuleBot),
    ):
        over_http = play_match(team_a, team_b, 3, ruleset=rules.JASSKIT, seed=seed)
        here = play_match(local_a, local_b, 3, ruleset=rules.JASSKIT, seed=seed)
        assert over_http.margins == here.margins
        assert over_http.outcomes == here.outcomes
        assert over_http.fallbacks == (0, 0)
        assert "fallback" not in str(over_http)


def test_a_remote_bot_counts_its_requests_and_plays_legal_cards(server: PlayerServer) -> None:
    bots: list[Bot] = [RemoteBot(server.url + "/random") for _ in range(4)]
    game = Game.new(rules.JASSKIT, seed=3).deal()
    stages = [game]
    while game.phase in (Phase.CHOOSE, Phase.PLAY):
        seat = game.to_move
        assert seat is not None
        action = bots[seat].choose_action(game.view(seat))
        assert action in game.legal_actions()
        game = game.apply(action)
        stages.append(game)
    assert game.result is not None
    requests = [bot.requests for bot in bots if isinstance(bot, RemoteBot)]
    assert sum(requests) == len(stages) - 1  # one request per decision
    assert all(bot.fallbacks == 0 for bot in bots if isinstance(bot, RemoteBot))


# --- a broken service: RemotePlayerError -------------------------------------------------------


def test_an_illegal_card_is_refused_naming_the_rule() -> None:
    game = follow_suit_game()  # seat 1 must follow the ace of spades; it answers a heart
    with BrokenService(b'{"card": "H10"}') as broken:
        bot = RemoteBot(broken.url, timeout=5)
        with pytest.raises(RemotePlayerError) as caught:
            bot.choose_action(game.view(Seat(1)))
        (received,) = broken.bodies
    error = caught.value
    assert error.url == broken.url
    assert error.answer == {"card": "H10"}
    assert error.action == Play(Card.parse("10H"))
    assert error.view == game.view(Seat(1))
    assert "AS was led" in str(error)
    assert "spades" in str(error)
    assert broken.url in str(error)
    assert isinstance(error, BotAnswerError)
    assert isinstance(error, JassError)
    assert received["playerView"] == 3  # seat 1, in jass-kit's numbers
    assert received["tricks"][0]["cards"] == ["SA"]
    assert bot.requests == 1


def test_a_card_not_held_and_a_shove_back_are_refused() -> None:
    game = follow_suit_game()
    with BrokenService(b'{"card": "DA"}') as broken:
        with pytest.raises(RemotePlayerError, match="not in the hand") as caught:
            RemoteBot(broken.url, timeout=5).choose_action(game.view(Seat(1)))
        assert caught.value.action == Play(Card.parse("AD"))
    shoved = Game.new(rules.JASSKIT, seed=1).deal().shove()
    with BrokenService(b'{"trump": 10}') as broken:
        with pytest.raises(RemotePlayerError, match="legal actions") as caught:
            RemoteBot(broken.url, timeout=5).choose_action(shoved.view(shoved.to_move or 0))
        assert caught.value.action == Shove()


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b"this is not JSON", 200),
        (b'{"trump": 1}', 200),  # a trump where a card is asked
        (b"{}", 200),
        (b'{"card": "ZZ"}', 200),
        (b'{"card": 7}', 200),
        (b'["H10"]', 200),
        (b'{"error": "it broke"}', 500),
        (b'{"error": "no such player"}', 404),
    ],
)
def test_a_malformed_or_failed_answer_is_a_remote_player_error(body: bytes, status: int) -> None:
    game = follow_suit_game()
    with BrokenService(body, status=status) as broken, pytest.raises(RemotePlayerError) as caught:
        RemoteBot(broken.url, timeout=5).choose_action(game.view(Seat(1)))
    assert caught.value.url == broken.url
    assert caught.value.action is None
    if status != 200:
        assert f"HTTP {status}" in str(caught.value)


def test_a_service_that_is_not_there_is_a_remote_player_error() -> None:
    url = closed_port_url()
    game = follow_suit_game()
    with pytest.raises(RemotePlayerError, match="cannot be reached") as caught:
        RemoteBot(url, timeout=5).choose_action(game.view(Seat(1)))
    assert caught.value.url == url


def test_a_slow_service_is_a_remote_player_error_after_the_timeout() -> None:
    game = follow_suit_game()
    with BrokenService(b'{"card": "S6"}', delay=1.0) as broken:
        started = time.perf_counter()
        with pytest.raises(RemotePlayerError) as caught:
            RemoteBot(broken.url, timeout=0.3).choose_action(game.view(Seat(1)))
        waited = time.perf_counter() - started
    assert 0.25 <= waited < 0.9  # it gave up after 0.3 s, not after the 1 s answer
    assert caught.value.url == broken.url
    # The same service, waited for, gives a legal card.
    with BrokenService(b'{"card": "S6"}', delay=0.2) as broken:
        assert RemoteBot(broken.url, timeout=5).choose_action(game.view(Seat(1))) == Play(
            Card.parse("6S")
        )


def test_an_answer_that_is_not_http_is_a_remote_player_error() -> None:
    game = follow_suit_game()
    with BrokenService(garbage=b"HELLO THERE\r\n\r\n") as broken, pytest.raises(RemotePlayerError):
        RemoteBot(broken.url, timeout=5).choose_action(game.view(Seat(1)))


# --- fallbacks ---------------------------------------------------------------------------------


def test_with_a_fallback_the_hand_goes_on_and_every_failure_is_counted() -> None:
    with BrokenService(b"{}") as broken:
        remote = RemoteBot(broken.url, timeout=5, fallback=RandomBot(1))
        bots: list[Bot] = [remote, RuleBot(), RuleBot(), RuleBot()]
        game = play_hand(Game.new(rules.JASSKIT, seed=2).deal(), bots)
    assert game.result is not None
    asked = len(broken.bodies)
    assert asked >= 9  # seat 0's nine cards, and perhaps the trump
    assert remote.requests == asked
    assert remote.fallbacks == asked
    assert len(remote.refusals) == asked
    assert all(isinstance(e, RemotePlayerError) for e in remote.refusals)
    assert all(e.url == broken.url for e in remote.refusals)


class Counted:
    """A RandomBot factory that counts the decisions of the bots it made (in this process)."""

    def __init__(self) -> None:
        self.decisions = 0

    def __call__(self, seed: int) -> Bot:
        factory = self

        class Counting(RandomBot):
            def choose_action(self, view: PlayerView) -> Action:
                factory.decisions += 1
                return super().choose_action(view)

        return Counting(seed)


@pytest.mark.parametrize("remote_team", ["A", "B"])
def test_a_match_reports_the_fallback_answers_of_the_right_team(remote_team: str) -> None:
    # A service that is not there: every decision of the remote team is its fallback's, a
    # RandomBot made with the seed the match gives: the match is RandomBot against RandomBot.
    broken = RemoteBot.factory(closed_port_url(), timeout=5, fallback=RandomBot)
    counted = Counted()
    if remote_team == "A":
        result = play_match(broken, RandomBot, 3, ruleset=rules.JASSKIT, seed=4)
        reference = play_match(counted, RandomBot, 3, ruleset=rules.JASSKIT, seed=4)
        expected = (counted.decisions, 0)
    else:
        result = play_match(RandomBot, broken, 3, ruleset=rules.JASSKIT, seed=4)
        reference = play_match(RandomBot, counted, 3, ruleset=rules.JASSKIT, seed=4)
        expected = (0, counted.decisions)
    assert result.margins == reference.margins
    assert counted.decisions >= 6 * 18  # six hands, 18 cards a team in each
    assert result.fallbacks == expected
    assert reference.fallbacks == (0, 0)
    shown = [line for line in str(result).splitlines() if "fallback" in line]
    assert len(shown) == 1
    assert shown[0].endswith(f"{expected[0]} / {expected[1]}")


# --- arguments, pickling, process pools --------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "timeout", "fallback", "message"),
    [
        ("127.0.0.1:8888/rule", 10.0, None, "url"),
        ("ftp://127.0.0.1/rule", 10.0, None, "url"),
        (8888, 10.0, None, "url"),
        ("http://127.0.0.1:8888/rule", 0, None, "timeout"),
        ("http://127.0.0.1:8888/rule", -1, None, "timeout"),
        ("http://127.0.0.1:8888/rule", True, None, "timeout"),
        ("http://127.0.0.1:8888/rule", "5", None, "timeout"),
        ("http://127.0.0.1:8888/rule", 10.0, RandomBot(1).choose_action, "fallback"),
        ("http://127.0.0.1:8888/rule", 10.0, "random", "fallback"),
    ],
)
def test_bad_arguments_are_refused(url: Any, timeout: Any, fallback: Any, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        RemoteBot(url, timeout, fallback)


def test_the_factory_refuses_bad_arguments_at_once() -> None:
    with pytest.raises(InvalidInputError, match="url"):
        RemoteBot.factory("localhost:8888/rule")
    with pytest.raises(InvalidInputError, match="timeout"):
        RemoteBot.factory("http://127.0.0.1:8888/rule", timeout=0)
    with pytest.raises(InvalidInputError, match="fallback"):
        RemoteBot.factory("http://127.0.0.1:8888/rule", fallback=RandomBot(1))  # type: ignore[arg-type]


def test_a_trailing_slash_is_dropped_and_the_settings_kept() -> None:
    bot = RemoteBot("http://127.0.0.1:8888/rule/", timeout=2)
    assert (bot.url, bot.timeout, bot.fallback, bot.requests) == (
        "http://127.0.0.1:8888/rule",
        2.0,
        None,
        0,
    )
    made = RemoteBot.factory("http://127.0.0.1:8888/rule", timeout=3, fallback=RandomBot)(5)
    assert isinstance(made, RemoteBot)
    assert made.timeout == 3.0
    assert isinstance(made.fallback, RandomBot)


def test_the_factory_pickles() -> None:
    factory = RemoteBot.factory("http://127.0.0.1:8888/rule", timeout=2.5, fallback=RandomBot)
    assert isinstance(factory, RemoteBotFactory)
    back = pickle.loads(pickle.dumps(factory))
    assert back == factory
    assert (back.url, back.timeout, back.fallback) == ("http://127.0.0.1:8888/rule", 2.5, RandomBot)


@pytest.mark.slow
def test_a_match_over_a_process_pool_gives_the_same_result(server: PlayerServer) -> None:
    remote = RemoteBot.factory(server.url + "/random")
    alone = play_match(remote, RuleBot, 4, ruleset=rules.JASSKIT, seed=9, chunk_size=1)
    spawn = multiprocessing.get_context("spawn")  # no fork of a process serving on threads
    with ProcessPoolExecutor(2, mp_context=spawn) as pool:
        pooled = play_match(
            remote, RuleBot, 4, ruleset=rules.JASSKIT, seed=9, chunk_size=1, executor=pool
        )
    assert pooled == alone
    assert pooled.margins == alone.margins
    assert len(alone.margins) == 8


@pytest.mark.parametrize(
    "error",
    [
        BotAnswerError("agent X answered 'ZZ'", answer={"card": "ZZ"}),
        BotAnswerError(
            "agent X answered 10H", answer={"card": "H10"}, action=Play(Card.parse("10H"))
        ),
        RemotePlayerError(
            "the player service at http://h:1/p/action_play_card answered 'H10'",
            url="http://h:1/p",
            answer={"card": "H10"},
            action=Play(Card.parse("10H")),
            view=follow_suit_game().view(Seat(1)),
        ),
        RemotePlayerError("no answer within 0.3 s", url="http://h:1/p"),
    ],
)
def test_the_errors_pickle_with_their_message_url_answer_and_action(error: BotAnswerError) -> None:
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert str(back) == str(error)
    assert back.answer == error.answer
    assert back.action == error.action
    assert back.view is None  # the view stays behind
    if isinstance(error, RemotePlayerError):
        assert isinstance(back, RemotePlayerError)
        assert back.url == error.url


def test_a_contract_outside_jasskit_is_not_sent() -> None:
    # jass-kit's format has no Misère: the view cannot be written, and nothing is sent.
    ruleset = rules.JASSKIT.evolve(contracts=Contract.all())
    game = Game.new(ruleset, seed=1).deal().choose(Contract.MISERE)
    with BrokenService(b'{"card": "H10"}') as broken:
        with pytest.raises(InvalidInputError, match="MISERE"):
            RemoteBot(broken.url, timeout=5).choose_action(game.view(game.to_move or 0))
        assert broken.bodies == []


def test_under_schieber_the_service_is_asked_for_the_cards(server: PlayerServer) -> None:
    remote = RemoteBot(server.url + "/random", timeout=5)
    bots: list[Bot] = [remote, RuleBot(), RuleBot(), RuleBot()]
    game = play_hand(Game.new(rules.SCHIEBER, seed=1), bots)
    assert len(game.hand_results) == 1
    assert remote.requests >= 9  # seat 0's nine cards at least


def test_a_bot_class_as_fallback_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="fallback"):
        RemoteBot(closed_port_url(), timeout=5, fallback=RandomBot)  # type: ignore[arg-type]


# --- hostile services --------------------------------------------------------------------------


def test_a_deeply_nested_answer_is_a_remote_player_error_and_the_fallback_plays() -> None:
    game = follow_suit_game()
    with BrokenService(b"[" * 60_000) as broken:
        with pytest.raises(RemotePlayerError, match="nested too deeply") as caught:
            RemoteBot(broken.url, timeout=5).choose_action(game.view(Seat(1)))
        assert len(str(caught.value)) < 600
        saved = RemoteBot(broken.url, timeout=5, fallback=RandomBot(seed=1))
        action = saved.choose_action(game.view(Seat(1)))
    assert action in game.legal_actions()
    assert saved.fallbacks == 1


def test_the_timeout_bounds_the_whole_answer_not_each_read() -> None:
    # Each byte comes well within the timeout, the answer as a whole would take 9 s.
    game = follow_suit_game()
    with BrokenService(b'{"card": "S6"}', drip=0.6) as broken:
        started = time.perf_counter()
        with pytest.raises(RemotePlayerError, match="did not answer within 1 s") as caught:
            RemoteBot(broken.url, timeout=1.0).choose_action(game.view(Seat(1)))
        waited = time.perf_counter() - started
    assert 0.9 <= waited < 2.0
    assert caught.value.url == broken.url
