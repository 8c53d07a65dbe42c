"""One learning seat as a :class:`gymnasium.Env`: bots play the other three seats.

:class:`SeatEnv` gives a single-agent learner the decisions of one seat (``seat=0`` by
default): the contract or a shove when its seat chooses, its cards, and, as options allow,
its Weis and its thanks. Bots play the partner and the two opponents, chosen by kind name
(``"random"``, ``"rule"``, ``"montecarlo"``) or as any factory that makes a
:class:`~jass.bots.Bot` from a seed. Every random draw of an episode (the deal, the bots'
seeds, the illegal-action fallback) comes from the environment's ``np_random``, so
``reset(seed=...)`` makes an episode reproducible.

- **Observation:** the int8 vector of :func:`jass.envs.encode` for the learner's
  :class:`~jass.PlayerView` (kept up to date by an :class:`~jass.envs.Encoder`), a
  :class:`~gymnasium.spaces.Box` of 0/1 values.
- **Actions:** :class:`~gymnasium.spaces.Discrete` over the stable action numbers of
  :func:`jass.action_from_index`, ``jass.NUM_ACTIONS`` of them. The legal ones are
  ``info["action_mask"]`` (int8, as in the PettingZoo environment) and
  :meth:`SeatEnv.action_masks` (bool, the convention of sb3-contrib's ``MaskablePPO``).
- **Rewards:** the learner's team's margin over the opponents in each hand, as the PettingZoo
  environment counts it (:func:`jass.envs.rewards.hand_margin`: ``"score"``, ``"points"`` or
  ``"win"``), paid on the step in which the hand ends. An episode's rewards add up to the
  team's margin over its hands (or, for ``"win"`` in a whole game, to +1, -1 or 0 for the
  game); the opponents' margin is exactly the negative.
- **Illegal actions never raise**, since Gymnasium's own checker steps with unmasked random
  actions: an action number outside the mask costs ``illegal_reward`` (-1 by default), a
  legal action drawn from ``np_random`` is played instead, and ``info["illegal_action"]`` is
  ``True``. A masked learner never pays it.

>>> from jass.envs import SeatEnv
>>> env = SeatEnv(opponents="random", partner="rule", reward="points")
>>> obs, info = env.reset(seed=7)
>>> obs.dtype, obs.shape == env.observation_space.shape, env.game.to_move == env.seat
(dtype('int8'), True, True)
>>> total, done = 0.0, False
>>> while not done:
...     legal = env.action_masks().nonzero()[0]
...     obs, reward, done, truncated, info = env.step(int(legal[0]))
...     total += reward
>>> us, them = env.game.hand_results[-1].card_points
>>> total == us - them
True
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Final, SupportsFloat, TypeAlias

import numpy as np
from numpy.typing import NDArray

from jass._budgets import is_int
from jass.errors import InvalidInputError, MissingDependencyError

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:  # tests/test_env_extras.py hides it
    raise MissingDependencyError(
        f"jass.envs.SeatEnv needs Gymnasium, which is not installed ({exc}): "
        "pip install 'python-jass[rl]'"
    ) from None

from jass.bots import Bot, MonteCarloBot, RandomBot, RuleBot, SearchBot
from jass.core.cards import CardSet
from jass.core.seats import Seat, Team
from jass.core.weis import find_weis
from jass.engine.actions import NUM_ACTIONS, PLAY_ACTIONS, DeclareWeis, Thank, action_from_index
from jass.engine.game import Game
from jass.engine.hand import Phase
from jass.envs._driver import agent_mask, auto_thank
from jass.envs.encoding import OBSERVATION_SIZE, Encoder
from jass.envs.options import EPISODES, REWARDS, THANKS, WEIS, auto_thanks, choice, ruleset_for
from jass.envs.render import view_text
from jass.envs.rewards import hand_margin
from jass.rules import RuleSet, WeisDeclaration

__all__ = ["BOT_KINDS", "BotSpec", "SeatEnv", "make_bot_factory"]

#: A bot chosen by kind name, or a factory that makes a bot from an int seed.
BotSpec: TypeAlias = "str | Callable[[int], Bot]"

#: The bot kinds known by name.
BOT_KINDS: Final = ("random", "rule", "montecarlo", "search")

#: Deals per decision of ``"montecarlo"`` bots: a fixed count (no time limit), so that
#: episodes are reproducible.
_MONTECARLO_SAMPLES: Final = 16

_THANKS: Final = (Thank(Team(0)).index, Thank(Team(1)).index)
#: The number of a declaration of Weis (every Weis of the player; see action_from_index).
_DECLARE_ALL: Final = DeclareWeis(find_weis(CardSet.parse("6S 7S 8S"))).index
_ON_TURN: Final = (Phase.CHOOSE, Phase.PLAY)
_SEED_BOUND: Final = 2**63


def _montecarlo(seed: int) -> Bot:
    return MonteCarloBot(seed, samples=_MONTECARLO_SAMPLES, time_limit=None)


_KINDS: Final[dict[str, Callable[[int], Bot]]] = {
    "random": RandomBot,
    "rule": RuleBot,
    "montecarlo": _montecarlo,
    "search": SearchBot,  # its default budget is a count of worlds: the seed fixes its play
}


def make_bot_factory(spec: BotSpec) -> Callable[[int], Bot]:
    """The factory of seeded bots that ``spec`` names: a kind of :data:`BOT_KINDS`, or itself.

    ``"montecarlo"`` makes :class:`~jass.bots.MonteCarloBot` with a fixed number of samples
    per decision instead of a time limit, so that its play depends on the seed alone, and
    ``"search"`` :class:`~jass.bots.SearchBot` with its default budget (a count too). Any
    callable that takes a seed and returns a bot (a bot class, a ``functools.partial``)
    serves as its own factory.

    >>> make_bot_factory("rule")(3).seed
    3
    >>> import functools
    >>> factory = functools.partial(MonteCarloBot, samples=4, time_limit=None)
    >>> make_bot_factory(factory) is factory
    True
    >>> make_bot_factory("human")
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: unknown bot kind 'human'; choose random, rule, montecarlo, ...
    """
    if isinstance(spec, str):
        try:
            return _KINDS[spec.strip().lower()]
        except KeyError:
            raise InvalidInputError(
                f"unknown bot kind {spec!r}; choose {', '.join(BOT_KINDS)}, "
                "or pass a factory that makes a bot from a seed"
            ) from None
    if isinstance(spec, Bot) or not callable(spec):
        raise InvalidInputError(
            f"a bot must be given as a kind ({', '.join(BOT_KINDS)}) or as a factory that "
            f"makes a bot from a seed, got {spec!r}"
        )
    return spec


class SeatEnv(gymnasium.Env[NDArray[np.int8], np.int64]):
    """One learning seat; bots play the other three (see the module's description).

    The options ``episode``, ``ruleset``, ``weis``, ``thanks`` and ``reward`` mean what they
    mean for :func:`jass.envs.raw_env`, and have the same defaults.

    Args:
        seat: the learner's seat, 0-3; its partner sits at ``seat + 2``.
        opponents: the bot of both opponents, a kind of :data:`BOT_KINDS` or a factory that
            makes a bot from an int seed (a bot class such as ``RandomBot`` is one).
        partner: the partner's bot, likewise.
        episode: ``"hand"``, the first hand of a new game per episode, or ``"game"``, a whole
            game.
        ruleset: a :class:`~jass.RuleSet`, or a preset's name (``"SCHIEBER"``, ...).
        weis: ``"auto"`` (the engine declares every Weis) or ``"actions"`` (with the first
            card of trick 1 the learner may take action 47, which declares all its Weis;
            playing a card declares none). The bots declare as they choose.
        thanks: ``"off"`` (the learner is never offered a thank) or ``"on_turn"`` (the
            learner may thank for its team when on turn; a false thank loses the game). The
            bots may thank either way. Under ``end_mode=THANK`` the environment thanks for a
            team that has reached the target (between hands only, with ``"on_turn"``), so
            that every game ends.
        reward: ``"score"``, ``"points"`` or ``"win"``, per hand, as
            :func:`jass.envs.rewards.hand_margin` counts them, from the learner's team's side;
            with ``"win"`` in ``episode="game"`` only the hand that ends the game counts.
        illegal_reward: added to the reward of a step whose action was not legal.
        render_mode: ``None`` or ``"ansi"`` (:meth:`render` returns the learner's view as
            text).

    >>> import jass
    >>> env = SeatEnv(seat=1, opponents="rule", ruleset="schieber-1000", episode="game")
    >>> env.observation_space.dtype, int(env.action_space.n) == jass.NUM_ACTIONS
    (dtype('int8'), True)
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        *,
        seat: Seat | int = 0,
        opponents: BotSpec = "random",
        partner: BotSpec = "random",
        episode: str = "hand",
        ruleset: RuleSet | str = "SCHIEBER",
        weis: str = "auto",
        thanks: str = "off",
        reward: str = "score",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if not is_int(seat) or seat not in range(4):
            raise InvalidInputError(f"seat must be a Seat (0-3), got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidInputError(f"render_mode={render_mode!r} is not an option; use 'ansi'")
        #: The learner's seat, and its team.
        self.seat: Final = Seat(seat)
        self.team: Final = self.seat.team
        self.episode: Final = choice("episode", episode, EPISODES)
        self.reward_kind: Final = choice("reward", reward, REWARDS)
        self.thanks: Final = choice("thanks", thanks, THANKS)
        self.weis: Final = choice("weis", weis, WEIS)
        #: The rule set in force: ``ruleset`` with ``weis_declaration`` set by ``weis``.
        self.ruleset: Final = ruleset_for(ruleset, weis)
        self.illegal_reward: Final = float(illegal_reward)
        self.render_mode = render_mode
        opponent = make_bot_factory(opponents)
        self._factories: Final = {
            self.seat.next: opponent,
            self.seat.partner: make_bot_factory(partner),
            self.seat.partner.next: opponent,
        }
        self.observation_space = spaces.Box(0, 1, (OBSERVATION_SIZE,), np.int8)
        self.action_space: spaces.Discrete = spaces.Discrete(NUM_ACTIONS)
        self._sign: Final = 1 if self.team is Team(0) else -1  # hand_margin is team 0's
        self._auto_thank: Final = auto_thanks(self.ruleset)
        self._win_at_end: Final = self.reward_kind == "win" and self.episode == "game"
        self._manual_weis: Final = (
            self.ruleset.weis and self.ruleset.weis_declaration is WeisDeclaration.MANUAL
        )
        self._encoder: Encoder | None = None
        self._mask: Final[NDArray[np.int8]] = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self._bots: dict[Seat, Bot] = {}
        self._game: Game | None = None
        self._done = True

    # --- the public state ----------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The current state of the game (raises before the first :meth:`reset`).

        >>> env = SeatEnv()
        >>> _ = env.reset(seed=1)
        >>> env.game.to_move == env.seat, env.game.hand_info.number
        (True, 0)
        """
        if self._game is None:
            raise InvalidInputError("the environment has no game yet: call reset() first")
        return self._game

    def action_masks(self) -> NDArray[np.bool_]:
        """The learner's legal actions now, as bools over ``NUM_ACTIONS`` (for ``MaskablePPO``).

        All ``False`` once the episode has ended.

        >>> import jass
        >>> env = SeatEnv()
        >>> _ = env.reset(seed=1)
        >>> mask = env.action_masks()
        >>> mask.dtype, sorted(mask.nonzero()[0]) == sorted(
        ...     a.index for a in env.game.legal_actions() if not isinstance(a, jass.Thank))
        (dtype('bool'), True)
        """
        return self._mask.astype(np.bool_)

    # --- gymnasium ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.int8], dict[str, Any]]:
        """Start an episode: a new game, dealt, played by the bots to the learner's turn.

        ``seed`` seeds ``np_random``, from which the game's seed and the bots' seeds are
        drawn; without it the episode continues from ``np_random``. No ``options`` are read.

        >>> env = SeatEnv()
        >>> first, _ = env.reset(seed=3)
        >>> again, info = env.reset(seed=3)
        >>> bool((first == again).all()), int(info["action_mask"].sum()) > 0
        (True, True)
        """
        del options  # none are read
        super().reset(seed=seed)
        rng = self.np_random
        while True:
            game = Game.new(self.ruleset, seed=int(rng.integers(_SEED_BOUND))).deal()
            self._bots = {
                seat: factory(int(rng.integers(_SEED_BOUND)))
                for seat, factory in self._factories.items()
            }
            game, _ = self._advance(game)
            # A game that ends before the learner's first move (a thank by a bot, under a
            # tiny target) gives it no decision: deal another.
            if not self._ended(game):
                break
        self._game = game
        self._done = False
        if self._encoder is None:
            self._encoder = Encoder(game)
        else:
            self._encoder.reset(game)
        return self._observe(game), self._info(illegal=False)

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[NDArray[np.int8], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots' until the learner is on turn again.

        An action number that is not legal now costs ``illegal_reward`` and is replaced by a
        legal action drawn from ``np_random`` (``info["illegal_action"]`` is then ``True``).
        Any int is accepted (NumPy integers and one-element arrays too); a value that is no
        int raises :class:`~jass.InvalidInputError`, and so does a step after the episode's
        end.

        >>> env = SeatEnv()
        >>> _ = env.reset(seed=3)
        >>> legal = int(env.action_masks().nonzero()[0][0])
        >>> obs, reward, terminated, truncated, info = env.step(legal)
        >>> info["illegal_action"], truncated
        (False, False)
        >>> illegal = int((~env.action_masks()).nonzero()[0][0])
        >>> _, reward, *_, info = env.step(illegal)
        >>> info["illegal_action"], reward
        (True, -1.0)
        """
        if self._done:
            raise InvalidInputError(
                "the episode has ended (or not begun): call reset() before step()"
            )
        game = self.game
        index = _action_index(action)
        reward = 0.0
        mask = self._mask
        illegal = not (0 <= index < NUM_ACTIONS and mask[index])
        if illegal:
            reward += self.illegal_reward
            legal = np.flatnonzero(mask)
            index = int(legal[self.np_random.integers(len(legal))])
        if index < len(PLAY_ACTIONS):
            game = game.play(PLAY_ACTIONS[index].card)
        else:
            game = game.apply(action_from_index(index, game))
        game, margin = self._advance(game)
        self._game = game
        self._done = self._ended(game)
        return self._observe(game), reward + margin, self._done, False, self._info(illegal=illegal)

    def render(self) -> str | None:
        """The learner's view as text (``render_mode="ansi"``); ``None`` without a mode.

        It is :func:`jass.envs.render.view_text` of the learner's view, listing the actions
        of the mask.

        >>> env = SeatEnv(render_mode="ansi")
        >>> _ = env.reset(seed=2)
        >>> print(env.render())  # doctest: +ELLIPSIS
        seat 0 (team 0) to move; hand 1, dealt by seat 3; phase CHOOSE
        scores: team 0 0, team 1 0
        hand: JS KS QH AH 8D KD 7C 9C QC
        legal: [36] TRUMP_SPADES  [37] TRUMP_HEARTS ... [41] UNDENUFE  [43] shove
        """
        if self.render_mode != "ansi":
            return None
        offered = {int(i) for i in np.flatnonzero(self._mask)}
        return view_text(self.game.view(self.seat), offered)

    # --- internals ---------------------------------------------------------------------

    def _advance(self, game: Game) -> tuple[Game, float]:
        """Let the bots (and the deals, in whole games) move until the learner must act.

        Returns the new state and the learner's reward for the hands that ended meanwhile.
        """
        learner = self.seat
        bots = self._bots
        reward = 0.0
        while True:
            if self._auto_thank and not game.is_over:
                game = auto_thank(game, self.thanks)
            phase = game.phase
            if phase is Phase.DEAL or game.is_over:
                if game.is_over or not self._win_at_end:
                    reward += self._sign * hand_margin(game, self.reward_kind)
                if game.is_over or self.episode == "hand":
                    return game, reward
                game = game.deal()
                continue
            mover = game.to_move
            assert mover is not None  # noqa: S101
            if mover is learner:
                return game, reward
            game = game.apply(bots[mover].choose_action(game.view(mover)))

    def _ended(self, game: Game) -> bool:
        if self.episode == "game":
            return game.is_over
        return game.phase not in _ON_TURN

    def _observe(self, game: Game) -> NDArray[np.int8]:
        """Encode the learner's view and set its mask; return a copy of the encoding."""
        seat = self.seat
        encoder = self._encoder
        assert encoder is not None  # noqa: S101
        encoder.update(game)  # the same as encode(game.view(seat)), from the bits that changed
        mask = self._mask
        agent_mask(game, seat, mask, self.thanks, manual_weis=self._manual_weis)
        # Gymnasium requires fresh arrays: the buffers are reused on the next step.
        return encoder.observation(seat).astype(np.int8)

    def _info(self, *, illegal: bool) -> dict[str, Any]:
        return {"action_mask": self._mask.astype(np.int8), "illegal_action": illegal}


def _action_index(action: object) -> int:
    """``action`` as a Python int: NumPy integers and one-element arrays are accepted."""
    if isinstance(action, np.ndarray) and action.size == 1:
        action = action.reshape(()).item()
    if isinstance(action, bool):
        raise InvalidInputError(f"an action must be an int, got {action!r}")
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidInputError(f"an action must be an int, got {action!r}") from None
