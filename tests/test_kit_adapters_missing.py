"""KitAgentBot and as_kit_agent without jass-kit installed: a clear MissingDependencyError.

With jass-kit installed these tests are skipped; the tests against the real jass-kit are
elsewhere.
"""

from __future__ import annotations

import importlib.util

import pytest

from jass import Game, InvalidInputError, JassError, Phase, rules
from jass.bots import RandomBot, RuleBot
from jass.errors import MissingDependencyError
from jass.jasskit import KitAgentBot, as_kit_agent

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("jass.game") is not None, reason="jass-kit is installed"
)


class Stub:
    """Duck-typed like a jass-kit Agent; it must never be asked without jass-kit."""

    def __init__(self) -> None:
        self.asked = 0

    def action_trump(self, obs: object) -> int:
        self.asked += 1
        return 10

    def action_play_card(self, obs: object) -> int:
        self.asked += 1
        return 0


def test_jass_kit_is_not_installed_here() -> None:
    with pytest.raises(ImportError):
        importlib.import_module("jass.game.game_observation")


@pytest.mark.parametrize("phase", [Phase.CHOOSE, Phase.PLAY])
def test_kit_agent_bot_says_what_to_install(phase: Phase) -> None:
    game = Game.new(rules.JASSKIT, seed=1).deal()
    if phase is Phase.PLAY:
        game = game.choose("hearts")
    stub = Stub()
    for bot in (KitAgentBot(stub), KitAgentBot(stub, fallback=RandomBot(1))):
        with pytest.raises(MissingDependencyError, match="pip install jass-kit") as caught:
            bot.choose_action(game.view(game.to_move or 0))
        assert isinstance(caught.value, JassError)
        assert isinstance(caught.value, ImportError)
        assert bot.fallbacks == 0  # a missing package is not a bad answer to cover up
    assert stub.asked == 0


def test_as_kit_agent_says_what_to_install() -> None:
    with pytest.raises(MissingDependencyError, match="pip install jass-kit") as caught:
        as_kit_agent(RuleBot())
    assert isinstance(caught.value, ImportError)
    assert isinstance(caught.value, JassError)


def test_arguments_are_checked_before_jass_kit_is_needed() -> None:
    with pytest.raises(InvalidInputError, match="action_trump"):
        KitAgentBot(object())

    class HalfAgent:
        def action_trump(self, obs: object) -> int:
            return 10

    with pytest.raises(InvalidInputError, match="action_play_card"):
        KitAgentBot(HalfAgent())
    with pytest.raises(InvalidInputError, match="fallback"):
        KitAgentBot(Stub(), fallback=3)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="Bot"):
        as_kit_agent(Stub())  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="RuleSet"):
        as_kit_agent(RuleBot(), "JASSKIT")  # type: ignore[arg-type]


def test_a_kit_agent_bot_starts_with_no_fallbacks() -> None:
    bot = KitAgentBot(Stub(), fallback=RandomBot(2))
    assert (bot.fallbacks, bot.refusals) == (0, [])
    assert repr(bot).startswith("KitAgentBot(")
