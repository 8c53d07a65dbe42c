"""OpenSpiel: Schieber as the Python game ``python_jass_schieber`` (the ``openspiel`` extra).

Importing this module registers the game with OpenSpiel; without OpenSpiel it raises
:class:`~jass.errors.MissingDependencyError`. Load it by name, with any of its parameters::

    pyspiel.load_game("python_jass_schieber")
    pyspiel.load_game("python_jass_schieber(ruleset=TOURNAMENT_12,episode=game)")

The game:

- **Parameters:** ``ruleset``, a preset name (default ``SCHIEBER``; see
  :data:`jass.rules.PRESETS`); ``episode``, ``hand`` (one hand, the default) or ``game`` (every
  hand of a rule set with a fixed number of hands, such as ``TOURNAMENT_12``); ``dealer``, the
  seat that deals the first hand (default 3, so that player 0 is the first forehand).
- **Players:** four; player ``i`` is ``Seat(i)``, and the teams are players 0 and 2 against
  1 and 3.
- **Chance:** the deal, card by card: 36 chance nodes per hand, each dealing one card,
  uniformly among those not yet dealt, to the next seat in the order of the deal (packets of
  three, the forehand first, R3.5). A chance outcome is the card's number, 0-35.
- **Actions:** the library's numbering (:attr:`jass.engine.actions.Play.index` and friends,
  ``NUM_ACTIONS`` = 48 distinct actions): 0-35 play a card, 36-42 choose a contract, 43 shove;
  the others (thanks, Weis declarations) are never legal here.
  The legal actions are exactly those of :meth:`jass.Game.legal_actions`, with two choices
  made for the game: Weis are declared automatically (a rule set with
  ``weis_declaration=MANUAL`` is played with ``AUTO``), and nobody thanks (44 and 45, the
  ``Thank`` actions, are never legal).
- **Returns:** zero-sum, at the end of the episode: both players of a team get the team's
  margin, its total minus the other team's (multiplied points, Weis and Stöck included), and
  the opponents the negative. The utility bounds are ``±`` the largest total one team can
  make in a hand under the rule set (the multiplier times 157 card points, the match bonus,
  the most Weis two partners can hold and the Stöck, over the allowed contracts), times the
  hands of an episode; see :func:`utility_bound`.
- **Observations:** the observation tensor is :func:`jass.envs.encode` of the player's
  :class:`~jass.PlayerView` (during the deal: of the game before it, with the cards received
  so far). The information-state tensor has perfect recall: per hand, the cards dealt to the
  player, every decision in order with who made it, and the encoding of the view (see
  :mod:`jass.envs._spiel_observer`). Both also come as strings.
- **Search:** OpenSpiel's Python ISMCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``)
  works with the game: a state's :meth:`JassState.resample_from_infostate` draws the hidden
  cards with :func:`jass.sample_deals`, and :func:`make_resampler` gives a seeded callback for
  ``ISMCTSBot.set_resampler``. OpenSpiel's C++ ``pyspiel.ISMCTSBot`` cannot resample a Python
  game (it crashes); do not use it here.

>>> import pyspiel
>>> game = pyspiel.load_game("python_jass_schieber")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 36)
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> state.current_player(), state.legal_actions()
(0, [36, 37, 38, 39, 40, 41, 43])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Final

from jass.errors import InvalidInputError, MissingDependencyError

try:
    import numpy as np
    import pyspiel
except ImportError as exc:
    raise MissingDependencyError(
        f"jass.envs.openspiel needs OpenSpiel, which is not installed ({exc}): "
        "pip install 'python-jass[openspiel]' (OpenSpiel 2 has wheels for Python 3.11 and later)"
    ) from None

from jass.core.cards import Card
from jass.core.dealing import next_dealer
from jass.engine.actions import NUM_ACTIONS, action_from_index
from jass.engine.hand import Phase
from jass.envs._bounds import max_hand_total
from jass.envs._driver import agent_mask
from jass.envs._spiel_observer import SpielObserver
from jass.envs._spiel_record import (
    CARDS_PER_DEAL,
    HandRecord,
    SpielSetup,
    action_text,
    state_text,
)
from jass.rules import RuleSet
from jass.search.sampling import DealSampler

__all__ = ["GAME_NAME", "JassGame", "JassState", "make_resampler", "utility_bound"]

#: The name the game is registered under.
GAME_NAME: Final = "python_jass_schieber"
_DEFAULTS: Final[dict[str, Any]] = {"ruleset": "SCHIEBER", "episode": "hand", "dealer": 3}
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Jass (Schieber)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def utility_bound(ruleset: RuleSet, episode: str = "hand") -> int:
    """The largest margin an episode can end with: ``max_utility``, and ``-min_utility``.

    One hand's bound (:func:`jass.envs._bounds.max_hand_total`: the multiplier times 157 card
    points, the match bonus, twice the most Weis one hand can hold, and the Stöck, maximised
    over the contracts allowed) times the hands of an episode.

    >>> from jass import rules
    >>> utility_bound(rules.SCHIEBER), utility_bound(rules.TOURNAMENT_12, "game")
    (2991, 1884)
    """
    setup = SpielSetup.of(ruleset, episode, 3)
    return setup.hands * max_hand_total(setup.ruleset)


class JassGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """The OpenSpiel game; get it with ``pyspiel.load_game("python_jass_schieber", params)``.

    ``params`` may set ``ruleset`` (a preset name), ``episode`` (``"hand"`` or ``"game"``)
    and ``dealer`` (0-3); see the module's documentation.

    Attributes:
        setup: the checked settings (rule set, episode, first dealer, hands per episode).

    >>> game = JassGame({"ruleset": "JASSKIT"})
    >>> game.setup.ruleset.hands, game.max_utility(), game.max_game_length()
    (1, 157.0, 38)
    """

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        unknown = sorted(set(given) - set(_DEFAULTS))
        if unknown:
            raise InvalidInputError(
                f"unknown parameter {unknown[0]!r} of {GAME_NAME}; known: {', '.join(_DEFAULTS)}"
            )
        values = {**_DEFAULTS, **given}
        setup = SpielSetup.of(str(values["ruleset"]), str(values["episode"]), values["dealer"])
        bound = float(setup.hands * max_hand_total(setup.ruleset))
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=CARDS_PER_DEAL,
            num_players=4,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=setup.hands * (CARDS_PER_DEAL + setup.choices),
        )
        super().__init__(_GAME_TYPE, info, values)
        self.setup = setup

    def new_initial_state(self) -> JassState:
        """The state before the first card is dealt.

        >>> JassGame().new_initial_state().is_chance_node()
        True
        """
        return JassState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The chance nodes of an episode: 36 per hand.

        >>> JassGame({"ruleset": "TOURNAMENT_12", "episode": "game"}).max_chance_nodes_in_history()
        432
        """
        return self.setup.hands * CARDS_PER_DEAL

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> SpielObserver:
        """The observer OpenSpiel asks for: the information state or the observation.

        With ``perfect_recall`` the information state, else the player's observation. Only a
        player's own view (private and public information) is offered.

        >>> observer = JassGame().make_py_observer()
        >>> observer.tensor.ndim
        1
        """
        if params:
            raise InvalidInputError(f"the observers of {GAME_NAME} take no parameters: {params}")
        if iig_obs_type is None:
            return SpielObserver(self.setup, perfect_recall=False)
        if (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise InvalidInputError(
                f"{GAME_NAME} observes for one player, with public and private information"
            )
        return SpielObserver(self.setup, perfect_recall=bool(iig_obs_type.perfect_recall))


class JassState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """A state of the OpenSpiel game: the hands of the episode so far.

    The data lives in plain attributes, as OpenSpiel's clone (a deep copy of them) and
    serialisation (a pickle of them) need; the :class:`jass.Game` and the records are
    immutable, so copying them costs nothing. :attr:`game` is the current :class:`jass.Game`.

    >>> state = JassGame({"ruleset": "JASSKIT"}).new_initial_state()
    >>> for card in range(36):
    ...     state.apply_action(card)
    >>> state.game.phase, str(state.game.hands[0])
    (<Phase.CHOOSE: 'choose'>, '6S 7S 8S 9H 10H JH QD KD AD')
    """

    def __init__(self, game: JassGame) -> None:
        super().__init__(game)
        setup = game.setup
        self._setup = setup
        self._past: tuple[HandRecord, ...] = ()
        self._hand = HandRecord.start(setup.start, setup.dealer)
        self._hand_start = 0  # the length of the history when this hand's deal began

    # --- reading --------------------------------------------------------------------------

    @property
    def game(self) -> Any:
        """The current :class:`jass.Game` (before a deal is complete: the game before it).

        >>> JassGame().new_initial_state().game.phase
        <Phase.DEAL: 'deal'>
        """
        return self._hand.game

    def records(self) -> tuple[HandRecord, ...]:
        """The hands of the episode so far, the current one last (what the observers read).

        >>> len(JassGame().new_initial_state().records())
        1
        """
        return (*self._past, self._hand)

    def current_player(self) -> int:
        """The seat to move, ``PlayerId.CHANCE`` during the deal, or ``PlayerId.TERMINAL``.

        >>> JassGame().new_initial_state().current_player() == pyspiel.PlayerId.CHANCE
        True
        """
        if self.is_terminal():
            return _TERMINAL
        if self._hand.dealing:
            return _CHANCE
        to_move = self._hand.game.to_move
        assert to_move is not None  # noqa: S101  (a dealt hand that is not over)
        return int(to_move)

    def is_terminal(self) -> bool:
        """Whether the episode is over: the game ended, or (one-hand episodes) the hand did.

        >>> JassGame().new_initial_state().is_terminal()
        False
        """
        game = self._hand.game
        if game.is_over:
            return True
        return self._setup.episode == "hand" and not self._hand.dealing and game.phase is Phase.DEAL

    def _legal_actions(self, player: int) -> list[int]:
        """The legal actions of ``player``, ascending: the game's, without thanking."""
        if player != self.current_player():
            return []
        # The environments' one mask; Weis are declared automatically, nobody thanks.
        buffer = np.zeros(NUM_ACTIONS, np.int8)
        mask = agent_mask(self._hand.game, player, buffer, "off", manual_weis=False)
        return [int(index) for index in np.flatnonzero(mask)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet, each with the same probability.

        >>> outcomes = JassGame().new_initial_state().chance_outcomes()
        >>> len(outcomes), outcomes[0]
        (36, (0, 0.027777777777777776))
        """
        dealt = 0
        for card in self._hand.deal:
            dealt |= 1 << card
        left = [card for card in range(CARDS_PER_DEAL) if not dealt >> card & 1]
        chance = 1.0 / len(left)
        return [(card, chance) for card in left]

    def returns(self) -> list[float]:
        """Each player's return: the team's margin at the end of the episode, else zeros.

        >>> JassGame().new_initial_state().returns()
        [0.0, 0.0, 0.0, 0.0]
        """
        if not self.is_terminal():
            return [0.0, 0.0, 0.0, 0.0]
        scores = self._hand.game.scores
        margin = float(scores[0] - scores[1])
        return [margin, -margin, margin, -margin]

    def _action_to_string(self, player: int, action: int) -> str:
        """A chance outcome as the card dealt (and to whom); a player action by its name."""
        if player == _CHANCE:
            card = Card(int(action))
            hand = self._hand
            if hand.dealing and not self.is_terminal():
                return f"deal {card} to S{hand.recipient(len(hand.deal))}"
            return f"deal {card}"
        return action_text(int(action))

    def __str__(self) -> str:
        return state_text(self.records())

    # --- acting ---------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        """Deal the next card, or apply the mover's action to the game."""
        action = int(action)
        hand = self._hand
        if hand.dealing:
            deal = (*hand.deal, action)
            game = hand.game
            if len(deal) == CARDS_PER_DEAL:
                hand = HandRecord(hand.game, hand.dealer, deal)
                game = game.deal(hands=hand.dealt)
                info = game.hand_info
                assert info is not None  # noqa: S101
                assert int(info.dealer) == hand.dealer  # noqa: S101
            self._hand = HandRecord(game, hand.dealer, deal)
            return
        seat = self.current_player()
        game = hand.game.apply(action_from_index(action))
        self._hand = HandRecord(game, hand.dealer, hand.deal, (*hand.moves, (seat, action)))
        if game.phase is Phase.DEAL and self._setup.episode == "game" and not game.is_over:
            # The hand is over and the game goes on: the next hand is dealt.
            info = game.hand_info
            assert info is not None  # noqa: S101
            dealer = next_dealer(game.ruleset, game.seed, info.dealer, game.hand_results, None)
            self._past = (*self._past, self._hand)
            self._hand = HandRecord.start(game, dealer)
            self._hand_start = len(self.history()) + 1  # this action is not in it yet

    # --- resampling (ISMCTS) --------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> JassState:
        """A state ``player_id`` cannot tell from this one, its hidden cards drawn anew.

        OpenSpiel's Python ISMCTS calls this when no resampler is set; ``probability_sampler``
        (a callable giving a float in [0, 1), such as ``pyspiel.UniformProbabilitySampler``)
        seeds the draw. See :meth:`resample`.

        >>> import pyspiel
        >>> state = JassGame().new_initial_state()
        >>> for card in range(36):
        ...     state.apply_action(card)
        >>> sampled = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0., 1.))
        >>> sampled.information_state_string(0) == state.information_state_string(0)
        True
        """
        return self.resample(int(player_id), random.Random(int(probability_sampler() * 2**53)))

    def resample(self, player: int, rng: random.Random) -> JassState:
        """A state ``player`` cannot tell from this one, the other seats' cards drawn by ``rng``.

        The current hand's deal is drawn uniformly among the deals consistent with the
        player's view (:class:`jass.DealSampler`: its cards, the cards played and by whom, the
        voids shown, the Weis declared), and the episode is replayed onto it, so that the
        returned state's history agrees with its cards. During a deal, the cards dealt to
        the other seats so far are drawn from those the player has not received. Earlier
        hands are fully known (all their cards were played) and stay as they were. In the
        rare case where the sampler cannot explain every declared Weis (see
        :mod:`jass.search.sampling`), a copy of this state is returned instead.

        >>> state = JassGame().new_initial_state()
        >>> for card in range(36):
        ...     state.apply_action(card)
        >>> sampled = state.resample(0, random.Random(1))
        >>> sampled.game.hands[0] == state.game.hands[0], sampled.game.hands == state.game.hands
        (True, False)
        """
        deal = self._sampled_deal(player, rng)
        if deal is None:
            copy: JassState = self.clone()
            return copy
        history = self.history()
        start = self._hand_start
        state: JassState = self.get_game().new_initial_state()
        for action in (*history[:start], *deal, *history[start + len(deal) :]):
            state.apply_action(action)
        return state

    def _sampled_deal(self, player: int, rng: random.Random) -> tuple[int, ...] | None:
        """The chance outcomes of the current hand's deal, the other seats' cards redrawn."""
        hand = self._hand
        if hand.dealing:
            own = int(hand.received(player))
            pool = [card for card in range(CARDS_PER_DEAL) if not own >> card & 1]
            rng.shuffle(pool)
            others = iter(pool)
            return tuple(
                card if hand.recipient(k) == player else next(others)
                for k, card in enumerate(hand.deal)
            )
        sampler = DealSampler(hand.game.view(player))
        hands = sampler.sample(rng)
        if sampler.fallbacks:
            return None
        queues = []
        for seat in range(4):
            cards = list(hands[seat])
            rng.shuffle(cards)
            queues.append(iter(cards))
        return tuple(
            card if hand.recipient(k) == player else int(next(queues[hand.recipient(k)]))
            for k, card in enumerate(hand.deal)
        )


def make_resampler(seed: int | None = None) -> Callable[[JassState, int], JassState]:
    """A seeded resampler for ``open_spiel.python.algorithms.ismcts.ISMCTSBot.set_resampler``.

    It answers ``(state, player)`` with :meth:`JassState.resample`, drawing from one
    ``random.Random(seed)``.

    >>> resample = make_resampler(7)
    >>> state = JassGame().new_initial_state()
    >>> for card in range(36):
    ...     state.apply_action(card)
    >>> resample(state, 0).information_state_string(0) == state.information_state_string(0)
    True
    """
    rng = random.Random(seed)

    def resample(state: JassState, player: int) -> JassState:
        return state.resample(int(player), rng)

    return resample


# Register the game with OpenSpiel (registering again, on a reload, replaces nothing).
pyspiel.register_game(_GAME_TYPE, JassGame)
