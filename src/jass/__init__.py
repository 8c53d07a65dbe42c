"""jass: Schieber, the Swiss national card game, as a correct, fast and fully typed rules engine.

``import jass`` loads the rules engine only. The other public modules (``jass.bots``,
``jass.solver``, ``jass.matches``, ``jass.svg``, ``jass.records``, ``jass.envs``, ...) are
attributes too, imported on first use, as is :func:`jass.play_match`; none of them imports an
optional dependency until it is asked for.

>>> import jass
>>> g = jass.Game.new(jass.rules.SCHIEBER, seed=7).deal()
>>> g = g.choose(jass.Contract.trump(jass.Suit.HEARTS))
>>> g = g.play(next(iter(g.legal_moves())))
>>> len(g.trick)
1
>>> jass.svg.card(jass.Card.parse("AH")).startswith("<svg")
True
"""

import importlib
import pkgutil
from typing import TYPE_CHECKING, Final

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
from jass.rules import RuleSet, find_ruleset

if TYPE_CHECKING:  # what the lazy attributes below are, for type checkers
    from jass import bots as bots
    from jass import cli as cli
    from jass import core as core
    from jass import engine as engine
    from jass import envs as envs
    from jass import executors as executors
    from jass import jasskit as jasskit
    from jass import matches as matches
    from jass import naming as naming
    from jass import records as records
    from jass import search as search
    from jass import solver as solver
    from jass import svg as svg
    from jass.matches import play_match
    from jass.search.sampling import DealSampler, sample_deals

#: The public modules, attributes of ``jass``: those the engine does not import load on first use.
_MODULES: Final = frozenset(
    {
        "bots",
        "cli",
        "core",
        "engine",
        "envs",
        "executors",
        "jasskit",
        "matches",
        "naming",
        "records",
        "rules",
        "search",
        "solver",
        "svg",
    }
)
#: Names of ``import jass`` defined in a module that is loaded on first use.
_LAZY_NAMES: Final = {
    "DealSampler": "jass.search.sampling",
    "play_match": "jass.matches",
    "sample_deals": "jass.search.sampling",
}

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


if not TYPE_CHECKING:  # hidden from type checkers, which would accept any name through it

    def __getattr__(name: str) -> object:
        """Load a public module, or a name of ``import jass`` that lives in one, on first use."""
        if name in _MODULES:
            # Importing a submodule sets it as an attribute of this package too.
            return importlib.import_module(f"{__name__}.{name}")
        if name in _LAZY_NAMES:
            value = getattr(importlib.import_module(_LAZY_NAMES[name]), name)
            globals()[name] = value  # the next lookup skips this function
            return value
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The names of ``import jass``, the lazy ones included (for completion and ``dir``)."""
    return sorted({*globals(), *_MODULES, *_LAZY_NAMES})
