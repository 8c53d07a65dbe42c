"""jass: Schieber, the Swiss national card game, as a correct, fast and fully typed rules engine.

>>> import jass
>>> g = jass.Game.new(jass.rules.SCHIEBER, seed=7).deal()
>>> g = g.choose(jass.Contract.trump(jass.Suit.HEARTS))
>>> g = g.play(next(iter(g.legal_moves())))
>>> len(g.trick)
1
"""

import pkgutil

# jass-kit installs its subpackages (jass.game, jass.agents, ...) into the same top-level
# jass, with no __init__.py of its own. Extending the path lets Python find them even when
# this package lives elsewhere (an editable install, a source checkout on sys.path).
__path__ = pkgutil.extend_path(__path__, __name__)

from jass import rules
from jass._version import __version__
from jass.core.cards import CARDS, Card, CardSet, Rank, Suit, SuitPairing
from jass.core.contracts import Contract, ContractKind
from jass.core.play import explain_illegal, legal_cards, trick_points, trick_winner
from jass.core.scoring import EndReason, GameResult, HandScore, ScoringEvent, score_hand
from jass.core.seats import Seat, Team
from jass.core.weis import (
    Weis,
    WeisKind,
    WeisResult,
    best_weis,
    find_weis,
    resolve_declared_weis,
    resolve_weis,
    weis_key,
)
from jass.engine.actions import (
    NUM_ACTIONS,
    Action,
    Choose,
    Deal,
    DeclareWeis,
    Play,
    Shove,
    Thank,
    action_from_index,
)
from jass.engine.game import Game
from jass.engine.hand import GameSetup, HandInfo, Phase, Trick
from jass.engine.view import PlayerView
from jass.errors import (
    IllegalActionError,
    IllegalReason,
    InvalidInputError,
    JassError,
)
from jass.matches import play_match
from jass.rules import RuleSet, find_ruleset
from jass.search.sampling import DealSampler, sample_deals

__all__ = [
    "CARDS",
    "NUM_ACTIONS",
    "Action",
    "Card",
    "CardSet",
    "Choose",
    "Contract",
    "ContractKind",
    "Deal",
    "DealSampler",
    "DeclareWeis",
    "EndReason",
    "Game",
    "GameResult",
    "GameSetup",
    "HandInfo",
    "HandScore",
    "IllegalActionError",
    "IllegalReason",
    "InvalidInputError",
    "JassError",
    "Phase",
    "Play",
    "PlayerView",
    "Rank",
    "RuleSet",
    "ScoringEvent",
    "Seat",
    "Shove",
    "Suit",
    "SuitPairing",
    "Team",
    "Thank",
    "Trick",
    "Weis",
    "WeisKind",
    "WeisResult",
    "__version__",
    "action_from_index",
    "best_weis",
    "explain_illegal",
    "find_ruleset",
    "find_weis",
    "legal_cards",
    "play_match",
    "resolve_declared_weis",
    "resolve_weis",
    "rules",
    "sample_deals",
    "score_hand",
    "trick_points",
    "trick_winner",
    "weis_key",
]
