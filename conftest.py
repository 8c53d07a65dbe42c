"""pytest configuration for the whole tree: leave out modules whose optional package is missing.

``pytest`` collects the docstring examples of ``src`` too, and importing
``jass.envs.openspiel`` without OpenSpiel raises (it has wheels for Python 3.11 and later
only), so that module's examples run only where OpenSpiel is installed.
"""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = []
if importlib.util.find_spec("pyspiel") is None:
    collect_ignore.append("src/jass/envs/openspiel.py")
