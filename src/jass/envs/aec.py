"""Schieber as a PettingZoo AEC environment: :func:`raw_env` and the wrapped :func:`aec_env`.

Four agents, ``player_0`` to ``player_3``, where ``player_i`` plays :class:`~jass.Seat` ``i``;
seats 0 and 2 are team 0. The agent to move is ``agent_selection``, and the current
:class:`~jass.Game` is ``env.unwrapped.game``.

- **Observation:** a dict of ``"observation"``, the seat's encoding
  (:data:`~jass.envs.ENCODING`, int8, :data:`~jass.envs.OBSERVATION_SIZE` long) and
  ``"action_mask"`` (int8, :data:`~jass.NUM_ACTIONS` long), which is all zeros except for the
  agent to move. Every call returns new arrays.
- **Actions:** the stable numbers of :func:`jass.action_from_index`, as ``int`` or any NumPy
  integer.
- **Rewards:** zero-sum, by team, when a hand ends (see :func:`jass.envs.rewards.hand_margin`).
- **Illegal actions:** the raw environment raises :class:`~jass.IllegalActionError` for an
  action outside the mask (and :class:`~jass.InvalidInputError` for a value that is no action
  number); the library never lets an illegal action pass. :func:`aec_env` instead ends the
  episode as PettingZoo's ``TerminateIllegalWrapper`` does.

>>> env = raw_env()
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].dtype, obs["action_mask"].shape, reward, terminated
(dtype('int8'), (48,), 0.0, False)
>>> env.agent_selection == AGENTS[env.game.to_move]
True
"""

from __future__ import annotations

import operator
from typing import Any, Final

import numpy as np

from jass.errors import MissingDependencyError

try:
    from gymnasium import logger, spaces
    from gymnasium.utils import EzPickle, seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # tests/test_env_extras.py hides them
    raise MissingDependencyError(
        f"jass.envs.raw_env and aec_env need PettingZoo and Gymnasium ({exc}): "
        "pip install 'python-jass[rl]'"
    ) from None

from jass.core.cards import CARDS
from jass.engine.actions import NUM_ACTIONS, Thank, action_from_index
from jass.engine.game import Game
from jass.engine.hand import Phase
from jass.envs._driver import agent_mask, auto_thank
from jass.envs.encoding import OBSERVATION_SIZE, Encoder
from jass.envs.options import (
    EPISODES,
    REWARDS,
    THANKS,
    auto_thanks,
    choice,
    ruleset_for,
)
from jass.envs.render import view_text
from jass.envs.rewards import hand_margin
from jass.errors import IllegalActionError, IllegalReason, InvalidInputError
from jass.rules import RuleSet, WeisDeclaration

__all__ = ["AGENTS", "JassAECEnv", "aec_env", "raw_env"]

#: The agents' names: ``player_i`` plays seat ``i``.
AGENTS: Final = ("player_0", "player_1", "player_2", "player_3")
_SEAT_OF: Final = {agent: seat for seat, agent in enumerate(AGENTS)}
_DEAL: Final = Phase.DEAL
_PLAY: Final = Phase.PLAY
_SEED_BOUND: Final = 2**63 - 1


class JassAECEnv(AECEnv, EzPickle):  # type: ignore[misc]  # pettingzoo ships no types
    """The unwrapped environment; build it with :func:`raw_env`, which documents the options.

    >>> env = JassAECEnv(episode="game", ruleset="tournament_12")
    >>> env.reset(seed=1)
    >>> env.ruleset.hands, env.possible_agents[2]
    (12, 'player_2')
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  (PettingZoo's class attribute)
        "render_modes": ["ansi"],
        "name": "jass_schieber_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        *,
        episode: str = "hand",
        ruleset: RuleSet | str = "SCHIEBER",
        weis: str = "auto",
        thanks: str = "off",
        reward: str = "score",
        render_mode: str | None = None,
    ) -> None:
        """Check the options and build the spaces; :meth:`reset` starts the first episode."""
        EzPickle.__init__(
            self,
            episode=episode,
            ruleset=ruleset,
            weis=weis,
            thanks=thanks,
            reward=reward,
            render_mode=render_mode,
        )
        super().__init__()
        self.episode: Final = choice("episode", episode, EPISODES)
        self.reward_kind: Final = choice("reward", reward, REWARDS)
        self.thanks: Final = choice("thanks", thanks, THANKS)
        #: The rule set in force: ``ruleset`` with ``weis_declaration`` set by ``weis``.
        self.ruleset: Final = ruleset_for(ruleset, weis)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidInputError(f"render_mode={render_mode!r} is not an option; use 'ansi'")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        mask_space = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, (OBSERVATION_SIZE,), np.int8),
                    "action_mask": mask_space,
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}
        self._auto_thank = auto_thanks(self.ruleset)
        self._win_at_end = self.reward_kind == "win" and self.episode == "game"
        self._manual_weis = (
            self.ruleset.weis and self.ruleset.weis_declaration is WeisDeclaration.MANUAL
        )
        self._np_random: np.random.Generator | None = None
        self._np_random_seed: int | None = None
        self._game: Game | None = None
        self._encoder: Encoder | None = None
        # The mover's action mask: a NumPy view of a bytearray, cheap to write by slices.
        self._mask_bytes = bytearray(NUM_ACTIONS)
        self._mask = np.frombuffer(self._mask_bytes, np.int8)
        self._rewarded = False

    # --- the PettingZoo API ----------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The (cached) observation space of ``agent``.

        >>> raw_env().observation_space("player_0")["action_mask"].shape
        (48,)
        """
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The (cached) action space of ``agent``: :data:`~jass.NUM_ACTIONS` numbers.

        >>> raw_env().action_space("player_1")
        Discrete(48)
        """
        return self.action_spaces[agent]

    @property
    def game(self) -> Game:
        """The current :class:`~jass.Game` (after :meth:`reset`).

        >>> env = raw_env()
        >>> env.reset(seed=3)
        >>> env.game.phase
        <Phase.CHOOSE: 'choose'>
        """
        if self._game is None:
            raise InvalidInputError("the environment has no game yet: call reset() first")
        return self._game

    @property
    def np_random(self) -> np.random.Generator:
        """The generator from which each episode's game seed is drawn (seeded by :meth:`reset`).

        >>> first, second = raw_env(), raw_env()
        >>> first.reset(seed=3)
        >>> second.reset(seed=3)
        >>> int(first.np_random.integers(100)) == int(second.np_random.integers(100))
        True
        """
        if self._np_random is None:
            self._np_random, self._np_random_seed = seeding.np_random()
        return self._np_random

    def reset(
        self,
        seed: int | None = None,
        options: dict[str, Any] | None = None,  # noqa: ARG002  (PettingZoo's signature)
    ) -> None:
        """Start an episode: a new game from a seed drawn from :attr:`np_random`, dealt.

        ``seed`` reseeds :attr:`np_random`, so the same seed gives the same deals and, with the
        same actions, the same episode; without it the episodes go on from the generator.
        ``options`` is accepted and ignored.

        >>> env = raw_env()
        >>> env.reset(seed=5)
        >>> first = env.game.hands
        >>> env.reset(seed=5)
        >>> env.game.hands == first
        True
        """
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        game_seed = int(self.np_random.integers(0, _SEED_BOUND))
        game = Game.new(self.ruleset, seed=game_seed).deal()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._rewarded = False
        if self._encoder is None:
            self._encoder = Encoder(game)
        else:
            self._encoder.reset(game)
        self._set_state(game)

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, np.dtype[np.int8]]]:
        """What ``agent`` sees now: its encoding and, if it is to move, its action mask.

        >>> env = raw_env()
        >>> env.reset(seed=2)
        >>> int(env.observe(env.agent_selection)["action_mask"].sum()) > 0
        True
        """
        encoder = self._encoder
        if encoder is None:
            raise InvalidInputError("the environment has no game yet: call reset() first")
        observation = encoder.observation(_SEAT_OF[agent]).copy()
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask = self._mask.copy()
        else:
            mask = np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply the action number ``action`` for the agent to move (``None`` once it is done).

        An action outside the mask raises :class:`~jass.IllegalActionError` and changes
        nothing.

        >>> env = raw_env()
        >>> env.reset(seed=2)
        >>> env.step(0 if env.observe(env.agent_selection)["action_mask"][0] == 0 else 1)
        Traceback (most recent call last):
        ...
        jass.errors.IllegalActionError: ...
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = _action_number(action)
        game = self._game
        assert game is not None  # noqa: S101  (an agent is selected only after reset)
        if not self._mask_bytes[index]:
            self._refuse(game, index)
        # A card (the hot path), or another action by its number.
        game = game.play(CARDS[index]) if index < 36 else game.apply(action_from_index(index, game))
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        self._advance(game)
        if self._rewarded:
            self._accumulate_rewards()

    def render(self) -> str | None:
        """The text picture of the acting agent's view (``render_mode="ansi"``).

        It shows only what that seat may know (see :func:`jass.envs.render.view_text`).

        >>> env = raw_env(render_mode="ansi")
        >>> env.reset(seed=2)
        >>> print(env.render())  # doctest: +ELLIPSIS
        player_... to move
        seat ...
        """
        if self.render_mode is None:
            logger.warn("render() was called without a render_mode; use render_mode='ansi'")
            return None
        agent = self.agent_selection
        seat = _SEAT_OF[agent]
        offered = {int(i) for i in np.flatnonzero(self._mask)}
        game = self.game
        title = f"{agent} to move" if not game.is_over else f"{agent}: the episode is over"
        return title + "\n" + view_text(game.view(seat), offered)

    def close(self) -> None:
        """Nothing to release.

        >>> raw_env().close()
        """

    # --- transitions ------------------------------------------------------------------------

    def _advance(self, game: Game) -> None:
        """Take ``game`` (the state after an agent's action) to the next agent's turn."""
        encoder = self._encoder
        assert encoder is not None  # noqa: S101
        if self._auto_thank and not game.is_over:
            game = auto_thank(game, self.thanks)
        if game.phase is _DEAL or game.is_over:
            if self._win_at_end and not game.is_over:
                margin = 0  # "win" in a game: only the hand that ends it counts
            else:
                margin = hand_margin(game, self.reward_kind)
            if margin:
                rewards = self.rewards
                rewards["player_0"] = rewards["player_2"] = float(margin)
                rewards["player_1"] = rewards["player_3"] = float(-margin)
                self._rewarded = True
            if game.is_over or self.episode == "hand":
                self._game = game
                encoder.update(game)
                self._mask.fill(0)
                for agent in self.agents:
                    self.terminations[agent] = True
                self._deads_step_first()
                return
            game = game.deal()
        encoder.update(game)
        self._set_state(game)

    def _set_state(self, game: Game) -> None:
        """Make ``game`` current, with its mover selected and its action mask."""
        self._game = game
        mover = game.to_move
        assert mover is not None  # noqa: S101
        self.agent_selection = AGENTS[mover]
        agent_mask(game, mover, self._mask, self.thanks, manual_weis=self._manual_weis)

    def _refuse(self, game: Game, index: int) -> None:
        """Raise the library's error for action ``index``, which the mask does not offer."""
        action = action_from_index(index, game)  # raises for 47 when nothing is declarable
        game.apply(action)  # raises IllegalActionError if the rules refuse it
        if isinstance(action, Thank):
            why = (
                "thanking is off (thanks='off')"
                if self.thanks == "off"
                else "only the team of the player to move may thank"
            )
            reason = IllegalReason.THANK_NOT_ALLOWED
        else:
            why = "play a card to declare no Weis (action 46 is not offered)"
            reason = IllegalReason.WEIS_NOT_DECLARABLE
        raise IllegalActionError(f"action {index} is not offered: {why}", reason, action, game)


def _action_number(action: Any) -> int:
    """``action`` as an action number, for ``int`` and NumPy integers alike."""
    try:
        index = operator.index(action)
    except TypeError:
        raise InvalidInputError(
            f"an action is an int from 0 to {NUM_ACTIONS - 1}, got {action!r}"
        ) from None
    if not 0 <= index < NUM_ACTIONS or isinstance(action, bool):
        raise InvalidInputError(f"no action has the number {action!r}")
    return index


def raw_env(
    *,
    episode: str = "hand",
    ruleset: RuleSet | str = "SCHIEBER",
    weis: str = "auto",
    thanks: str = "off",
    reward: str = "score",
    render_mode: str | None = None,
) -> JassAECEnv:
    """The unwrapped PettingZoo AEC environment of Schieber.

    Options:

    - ``episode``: ``"hand"`` (one hand of a new game per episode) or ``"game"`` (a whole
      game; the environment deals each hand).
    - ``ruleset``: a :class:`~jass.RuleSet` or a preset's name (``"SCHIEBER"``, ...).
    - ``weis``: ``"auto"`` (the engine declares every Weis; the rule set's
      ``weis_declaration`` is set to ``AUTO``) or ``"actions"`` (``MANUAL``: before its first
      card of trick 1 the agent to move may take action 47, which declares all its Weis;
      playing a card declares none).
    - ``thanks``: ``"off"`` (never offered) or ``"on_turn"`` (the agent to move may thank for
      its team, action 44 or 45, R9.2a). A thank ends the game, and so the episode. Under
      ``end_mode=THANK``, where only a thank ends a game, the environment thanks for a team
      that has reached the target (the team with the higher total): at once with
      ``thanks="off"``, and at the end of the hand with ``"on_turn"``. So every episode ends.
    - ``reward``: ``"score"`` (the multiplied score a hand adds), ``"points"`` (unmultiplied
      card points) or ``"win"`` (+1 / -1 / 0); see :func:`jass.envs.rewards.hand_margin`.
      Rewards arrive at the step that ends a hand (in ``episode="game"``, every hand), both
      partners getting the team's margin and the opponents its negative. With ``"win"`` in
      ``episode="game"`` only the hand that ends the game is rewarded.
    - ``render_mode``: ``None`` or ``"ansi"``.

    Seed with ``reset(seed=...)``.

    >>> env = raw_env(ruleset="jasskit", reward="points")
    >>> env.reset(seed=11)
    >>> for agent in env.agent_iter():
    ...     obs, reward, terminated, truncated, info = env.last()
    ...     if terminated:
    ...         print(agent, reward)
    ...         env.step(None)
    ...     else:
    ...         env.step(int(obs["action_mask"].nonzero()[0][0]))  # the lowest legal number
    player_0 ...
    player_1 ...
    player_2 ...
    player_3 ...
    """
    return JassAECEnv(
        episode=episode,
        ruleset=ruleset,
        weis=weis,
        thanks=thanks,
        reward=reward,
        render_mode=render_mode,
    )


def aec_env(illegal_reward: float = -1.0, **options: Any) -> AECEnv:
    """:func:`raw_env` wrapped as PettingZoo's classic environments are.

    The wrappers: ``TerminateIllegalWrapper`` (an action outside the mask ends the episode,
    the mover getting ``illegal_reward`` and the others 0, so that episode is not zero-sum),
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``.

    >>> env = aec_env()
    >>> env.reset(seed=1)
    >>> env.unwrapped.game.phase.name
    'CHOOSE'
    """
    env: AECEnv = raw_env(**options)
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=illegal_reward)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
