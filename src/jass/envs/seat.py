"""One learning seat as a :class:`gymnasium.Env`: bots play the other three seats.

:class:`SeatEnv` gives a single-agent learner the decisions of one seat (``seat=0`` by
default): the contract or a shove when its seat chooses, and its nine cards. Bots play the
partner and the two opponents, chosen by kind name (``"random"``, ``"rule"``,
``"montecarlo"``) or as any factory that makes a :class:`~jass.bots.Bot` from a seed. Every
random draw of an episode, the deal, the bots' seeds and the illegal-action fallback, comes
from the environment's ``np_random``, so ``reset(seed=...)`` makes an episode reproducible.

- **Observation:** the int8 vector of :func:`jass.envs.encoding.encode` for the learner's
  :class:`~jass.PlayerView`, a :class:`~gymnasium.spaces.Box`.
- **Actions:** :class:`~gymnasium.spaces.Discrete` over the stable action numbering,
  ``jass.NUM_ACTIONS`` of them (:mod:`jass.actions`). The legal ones are in
  ``info["action_mask"]`` (int8) and :meth:`SeatEnv.action_masks` (bool, the convention of
  sb3-contrib's ``MaskablePPO``).
- **Rewards:** the team's margin, ours minus theirs, in card points (``reward="points"``)
  or in the multiplied score (``reward="score"``). Each step's reward is the change of the
  margin since the learner's previous move, so an episode's rewards add up to the margin of
  the hand (``episode="hand"``) or of the whole game (``episode="game"``), and the opponents'
  margin is exactly its negative.
- **Illegal actions never raise**, since Gymnasium's own checker steps with unmasked random
  actions: an action number that is not legal costs ``illegal_reward`` (-1 by default), a
  legal action drawn from ``np_random`` is played instead, and ``info["illegal_action"]`` is
  ``True``. A masked learner never pays it.

>>> from jass.envs import SeatEnv
>>> env = SeatEnv(opponents="random", partner="rule")
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
from typing import Any, Final, Literal, SupportsFloat, TypeAlias

import numpy as np
from numpy.typing import NDArray

from jass.errors import InvalidInputError, MissingDependencyError

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - the test environment has Gymnasium
    raise MissingDependencyError(
        f"jass.envs.SeatEnv needs Gymnasium, which is not installed ({exc}): pip install 'jass[rl]'"
    ) from None

from jass.actions import (
    NUM_ACTIONS,
    PLAY_ACTIONS,
    Action,
    Choose,
    DeclareWeis,
    Play,
    Thank,
    action_from_index,
)
from jass.bots import Bot, MonteCarloBot, RandomBot, RuleBot
from jass.contracts import ContractKind
from jass.envs.encoding import OBSERVATION_SIZE, action_mask, encode
from jass.hand import Phase
from jass.rules import SCHIEBER, RuleSet, find_ruleset
from jass.seats import Seat, Team
from jass.state import Game

__all__ = ["BOT_KINDS", "BotSpec", "SeatEnv", "make_bot_factory"]

#: A bot chosen by kind name, or a factory that makes a bot from an int seed.
BotSpec: TypeAlias = "str | Callable[[int], Bot]"

#: The bot kinds known by name.
BOT_KINDS: Final = ("random", "rule", "montecarlo")

#: Deals per decision of ``"montecarlo"`` bots: a fixed count (no time limit), so that
#: episodes are reproducible.
_MONTECARLO_SAMPLES: Final = 16

_THANKS: Final = (Thank(Team(0)).index, Thank(Team(1)).index)
_ON_TURN: Final = (Phase.CHOOSE, Phase.PLAY)


def _montecarlo(seed: int) -> Bot:
    return MonteCarloBot(seed, samples=_MONTECARLO_SAMPLES, time_limit=None)


_KINDS: Final[dict[str, Callable[[int], Bot]]] = {
    "random": RandomBot,
    "rule": RuleBot,
    "montecarlo": _montecarlo,
}


def make_bot_factory(spec: BotSpec) -> Callable[[int], Bot]:
    """The factory of seeded bots that ``spec`` names: a kind of :data:`BOT_KINDS`, or itself.

    ``"montecarlo"`` makes :class:`~jass.bots.MonteCarloBot` with a fixed number of samples
    per decision instead of a time limit, so that its play depends on the seed alone. Any
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


def _ruleset(value: RuleSet | str) -> RuleSet:
    if isinstance(value, RuleSet):
        return value
    if isinstance(value, str):
        return find_ruleset(value)
    raise InvalidInputError(f"ruleset must be a RuleSet or a preset name, got {value!r}")


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise InvalidInputError(
            f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}"
        )
    return value


class SeatEnv(gymnasium.Env[NDArray[np.int8], np.int64]):
    """One learning seat; bots play the other three (see the module's description).

    Args:
        seat: the learner's seat, 0-3; its partner sits at ``seat + 2``.
        opponents: the bot of both opponents, a kind of :data:`BOT_KINDS` or a factory that
            makes a bot from an int seed (a bot class such as ``RandomBot`` is one).
        partner: the partner's bot, likewise.
        ruleset: a :class:`~jass.RuleSet`, or a preset's name (``"SCHIEBER"``, ...).
        episode: ``"hand"``, the first hand of a new game per episode, or ``"game"``, a whole
            game.
        reward: ``"points"``, the card points of the hands (157 a hand, the last trick's 5
            included, unmultiplied; no Weis, Stöck or match bonus), or ``"score"``, the
            running totals (multiplied, everything the rules score).
        thanking: ``"off"`` (the learner is never offered a thank; its partner bot may
            still thank) or ``"turn"`` (the learner may thank for its team when on turn, as
            :meth:`jass.Game.legal_actions` offers it; a false thank loses the game).
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
        ruleset: RuleSet | str = SCHIEBER,
        episode: Literal["hand", "game"] = "hand",
        reward: Literal["points", "score"] = "points",
        thanking: Literal["off", "turn"] = "off",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(4):
            raise InvalidInputError(f"seat must be a Seat (0-3), got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidInputError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.seat: Final = Seat(seat)
        self.team: Final = self.seat.team
        self.ruleset: Final = _ruleset(ruleset)
        self.episode: Final = _choice("episode", episode, ("hand", "game"))
        self.reward: Final = _choice("reward", reward, ("points", "score"))
        self.thanking: Final = _choice("thanking", thanking, ("off", "turn"))
        self.illegal_reward: Final = float(illegal_reward)
        self.render_mode = render_mode
        opponent = make_bot_factory(opponents)
        self._factories: Final = {
            self.seat.next: opponent,
            self.seat.partner: make_bot_factory(partner),
            self.seat.partner.next: opponent,
        }
        self.observation_space = spaces.Box(low=0, high=1, shape=(OBSERVATION_SIZE,), dtype=np.int8)
        self.action_space: spaces.Discrete = spaces.Discrete(NUM_ACTIONS)
        self._obs: Final[NDArray[np.int8]] = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
        self._mask: Final[NDArray[np.int8]] = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self._bots: dict[Seat, Bot] = {}
        self._game: Game | None = None
        self._margin = 0
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
            game = Game.new(self.ruleset, seed=int(rng.integers(2**63))).deal()
            self._bots = {
                seat: factory(int(rng.integers(2**63))) for seat, factory in self._factories.items()
            }
            game = self._advance(game)
            # A rule set whose game ends before the learner's first move (a thank by a bot
            # at a tiny target) gives no decision to learn from: deal again.
            if not self._ended(game):
                break
        self._game = game
        self._margin = 0
        self._done = False
        return self._observe(game), self._info(illegal=False)

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[NDArray[np.int8], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots' until the learner is on turn again.

        An action number that is not legal now costs ``illegal_reward`` and is replaced by a
        legal action drawn from ``np_random`` (``info["illegal_action"]`` is then ``True``).

        >>> env = SeatEnv()
        >>> _ = env.reset(seed=3)
        >>> legal = int(env.action_masks().nonzero()[0][0])
        >>> obs, reward, terminated, truncated, info = env.step(legal)
        >>> info["illegal_action"], truncated
        (False, False)
        >>> illegal = int((~env.action_masks()).nonzero()[0][0])
        >>> _, reward, *_, info = env.step(illegal)
        >>> info["illegal_action"], reward <= -1 + 157
        (True, True)
        """
        if self._done:
            raise InvalidInputError(
                "the episode has ended (or not begun): call reset() before step()"
            )
        game = self.game
        index = _action_index(action)
        reward = 0.0
        illegal = not (0 <= index < NUM_ACTIONS and self._mask[index])
        if illegal:
            reward += self.illegal_reward
            legal = np.flatnonzero(self._mask)
            index = int(legal[self.np_random.integers(len(legal))])
        game = self._advance(game.apply(self._action(game, index)))
        margin = self._margin_of(game)
        reward += margin - self._margin
        self._margin = margin
        self._game = game
        self._done = self._ended(game)
        return self._observe(game), reward, self._done, False, self._info(illegal=illegal)

    def render(self) -> str | None:
        """The learner's view as text (``render_mode="ansi"``); ``None`` without a mode.

        >>> env = SeatEnv(render_mode="ansi")
        >>> _ = env.reset(seed=2)
        >>> print(env.render())  # doctest: +ELLIPSIS
        seat 0 (team 0), hand 1, scores 0:0 (us:them)
        ...
        """
        if self.render_mode != "ansi":
            return None
        return _render(self.game, self.seat, self._mask)

    # --- internals ---------------------------------------------------------------------

    def _advance(self, game: Game) -> Game:
        """Let the bots (and the deals, in whole games) move until the learner must act."""
        learner = self.seat
        bots = self._bots
        whole_game = self.episode == "game"
        while True:
            phase = game.phase
            if phase is Phase.DEAL:
                if not whole_game:
                    return game
                game = game.deal()
                continue
            if phase not in _ON_TURN:
                return game
            mover = game.to_move
            assert mover is not None  # noqa: S101
            if mover is learner:
                return game
            game = game.apply(bots[mover].choose_action(game.view(mover)))

    def _ended(self, game: Game) -> bool:
        if self.episode == "game":
            return game.is_over
        return game.phase not in _ON_TURN

    def _margin_of(self, game: Game) -> int:
        """Our total minus theirs, in the reward's unit, since the episode began."""
        us = self.team
        them = us.other
        if self.reward == "score":
            scores = game.scores
            return scores[us] - scores[them]
        margin = 0
        for result in game.hand_results:
            points = result.card_points
            margin += points[us] - points[them]
        info = game.hand_info
        if info is not None and info.number >= game.hands_played:
            # The hand in progress (or cut short by the end of the game): its points so far,
            # credited as the contract credits them.
            points = game.hand_points
            if game.contract is not None and game.contract.kind is ContractKind.MISERE:
                us, them = them, us
            margin += points[us] - points[them]
        return margin

    def _action(self, game: Game, index: int) -> Action:
        """The legal action numbered ``index``, which the mask has said is legal."""
        if index < len(PLAY_ACTIONS):
            return PLAY_ACTIONS[index]
        # Declarations of some or all of one's Weis share a number: take the largest.
        matches = [a for a in game.legal_actions() if getattr(a, "index", None) == index]
        if matches:
            return max(matches, key=lambda a: len(a.weis) if isinstance(a, DeclareWeis) else 0)
        return action_from_index(index)

    def _observe(self, game: Game) -> NDArray[np.int8]:
        view = game.view(self.seat)
        encode(view, out=self._obs)
        mask = self._mask
        if game.to_move is self.seat and game.phase in _ON_TURN:
            action_mask(game, out=mask)
            if self.thanking == "off":
                for index in _THANKS:
                    mask[index] = 0
        else:
            mask.fill(0)
        # Gymnasium requires fresh arrays: the buffers are reused on the next step.
        return self._obs.astype(np.int8)  # a copy

    def _info(self, *, illegal: bool) -> dict[str, Any]:
        return {"action_mask": self._mask.astype(np.int8), "illegal_action": illegal}


def _action_index(action: object) -> int:
    """``action`` as a Python int: NumPy integers and 0-d or 1-element arrays are accepted."""
    if isinstance(action, np.ndarray) and action.size == 1:
        action = action.reshape(()).item()
    if isinstance(action, bool):
        raise InvalidInputError(f"an action must be an int, got {action!r}")
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidInputError(f"an action must be an int, got {action!r}") from None


def _render(game: Game, seat: Seat, mask: NDArray[np.int8]) -> str:
    view = game.view(seat)
    team = seat.team
    scores = view.scores
    number = view.hand_number
    lines = [
        f"seat {int(seat)} (team {int(team)}), hand {1 if number is None else number + 1}, "
        f"scores {scores[team]}:{scores[team.other]} (us:them)"
    ]
    if view.contract is not None:
        lines.append(f"contract {view.contract}, chosen by {view.chooser}")
    if view.trick:
        lines.append(f"trick {' '.join(map(str, view.trick))}, led by {view.trick_leader}")
    lines.append(f"hand {view.hand}")
    legal = [
        _action_name(action)
        for action in game.legal_actions()
        if (index := getattr(action, "index", -1)) >= 0 and mask[index]
    ]
    if legal:
        lines.append(f"to play: {', '.join(legal)}")
    elif view.result is not None:
        winner = view.result.winner
        lines.append("game over: " + ("a draw" if winner is None else f"{winner} wins"))
    else:
        lines.append("the hand is over")
    return "\n".join(lines)


def _action_name(action: object) -> str:
    if isinstance(action, Play):
        return str(action.card)
    if isinstance(action, Choose):
        return str(action.contract)
    if isinstance(action, Thank):
        return f"thank for {action.team}"
    return type(action).__name__.lower()
