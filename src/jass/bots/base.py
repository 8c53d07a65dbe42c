"""The :class:`Bot` protocol, :class:`RandomBot`, and loops that let bots play.

>>> import jass
>>> from jass.bots import RandomBot, play_game
>>> bots = [RandomBot(seed=s) for s in range(4)]
>>> game = play_game(jass.Game.new(jass.rules.SCHIEBER_1000, seed=3), bots)
>>> game.is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from jass.engine.actions import Action, DeclareWeis, Thank
from jass.engine.game import Game
from jass.engine.hand import Phase
from jass.engine.view import PlayerView
from jass.errors import InvalidInputError

__all__ = ["Bot", "RandomBot", "play_game", "play_hand"]


@runtime_checkable
class Bot(Protocol):
    """Anything with ``choose_action(view) -> action`` is a bot.

    It is asked for every decision of its seat: the contract or a shove, Weis to declare (under
    ``weis_declaration=MANUAL``), the card to play, and whether to thank. It must return one of
    ``view.legal_actions()``.

    >>> isinstance(RandomBot(), Bot)
    True
    """

    def choose_action(self, view: PlayerView) -> Action:
        """The action to take in ``view``: one of ``view.legal_actions()``.

        >>> import jass
        >>> g = jass.Game.new(seed=2).deal()
        >>> RandomBot(seed=3).choose_action(g.view(g.to_move)) in g.legal_actions()
        True
        """
        ...


def true_thank(view: PlayerView, actions: Sequence[Action]) -> Thank | None:
    """The thank among ``actions`` that the view's scores prove true (rule book R9.2), if any.

    The built-in bots thank only then: a false thank loses the game. ``actions`` are as
    ``legal_actions()`` lists them: the thank, if offered, comes last.

    >>> import jass
    >>> g = jass.Game.new(seed=1).deal()
    >>> true_thank(g.view(g.to_move), g.legal_actions()) is None
    True
    """
    last = actions[-1] if actions else None
    if isinstance(last, Thank) and view.scores[last.team] >= view.ruleset.target:
        return last
    return None


def _actions_and_thank(view: PlayerView) -> tuple[Sequence[Action], Thank | None]:
    """The view's legal actions (refused if none) and the true thank among them, if any."""
    actions = view.legal_actions()
    if not actions:
        raise InvalidInputError(f"seat {int(view.seat)} has nothing to do now")
    return actions, true_thank(view, actions)


class _DecidingBot:
    """The frame of the built-in bots that decide by kind of decision (internal).

    ``choose_action`` thanks when the view's scores prove it (:func:`true_thank`), and hands
    the contract choice to ``_choose``, a choice of Weis to ``_declare`` and the card to
    ``_play``, which each bot defines.
    """

    def choose_action(self, view: PlayerView) -> Action:
        """The action to take in ``view``: one of ``view.legal_actions()``.

        >>> import jass
        >>> from jass.bots import RuleBot
        >>> g = jass.Game.new(seed=3).deal()
        >>> RuleBot().choose_action(g.view(g.to_move)) in g.legal_actions()
        True
        """
        actions, thank = _actions_and_thank(view)
        if thank is not None:
            return thank
        if view.phase is Phase.CHOOSE:
            return self._choose(view, actions)
        declarations = [a for a in actions if isinstance(a, DeclareWeis)]
        if declarations:
            return self._declare(view, declarations)
        return self._play(view)

    def _choose(self, view: PlayerView, actions: Sequence[Action]) -> Action:
        raise NotImplementedError

    def _declare(self, view: PlayerView, options: Sequence[DeclareWeis]) -> Action:
        raise NotImplementedError

    def _play(self, view: PlayerView) -> Action:
        raise NotImplementedError


class RandomBot:
    """Plays a random legal action; thanks only when its team has reached the target.

    >>> import jass
    >>> g = jass.Game.new(seed=2).deal()
    >>> RandomBot(seed=1).choose_action(g.view(g.to_move)) in g.legal_actions()
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_action(self, view: PlayerView) -> Action:
        """A random legal action, never a false thank.

        >>> import jass
        >>> g = jass.Game.new(seed=2).deal().choose("obenabe")
        >>> RandomBot(seed=1).choose_action(g.view(g.to_move)).card in g.legal_moves()
        True
        """
        actions, thank = _actions_and_thank(view)
        if thank is not None:
            return thank
        # Any action but the thank (listed last), as long as there is another.
        choices = actions[:-1] if isinstance(actions[-1], Thank) else actions
        return self._rng.choice(choices or actions)


def play_hand(game: Game, bots: Sequence[Bot]) -> Game:
    """Deal (if due) and let ``bots`` (one per seat) play until the hand or game is over.

    >>> import jass
    >>> g = play_hand(jass.Game.new(seed=3), [RandomBot(seed=s) for s in range(4)])
    >>> g.phase.name in ("DEAL", "OVER"), len(g.hand_results) <= 1
    (True, True)
    """
    if len(bots) != 4:
        raise InvalidInputError(f"a game needs four bots, one per seat, got {len(bots)}")
    if game.phase is Phase.DEAL:
        game = game.deal()
    while game.phase in (Phase.CHOOSE, Phase.PLAY):
        seat = game.to_move
        assert seat is not None  # noqa: S101
        game = game.apply(bots[seat].choose_action(game.view(seat)))
    return game


def play_game(game: Game, bots: Sequence[Bot], *, max_hands: int = 1000) -> Game:
    """Let ``bots`` play ``game`` to its end (at most ``max_hands`` hands).

    >>> import jass
    >>> play_game(jass.Game.new(jass.rules.TOURNAMENT_12, seed=1), [RandomBot()] * 4).is_over
    True
    """
    for _ in range(max_hands):
        if game.is_over:
            break
        game = play_hand(game, bots)
    return game
