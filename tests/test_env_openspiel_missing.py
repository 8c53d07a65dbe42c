"""Without OpenSpiel, importing jass.envs.openspiel says what to install.

Where OpenSpiel is installed, the test hides it from the import.
"""

from __future__ import annotations

import importlib
import sys

import pytest

# Without NumPy, jass.envs itself refuses first (tests/test_env_extras.py checks that).
pytest.importorskip("numpy", reason="needs the rl or openspiel extra")

from jass.errors import JassError, MissingDependencyError


def test_import_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # an import of it now fails
    monkeypatch.delitem(sys.modules, "jass.envs.openspiel", raising=False)
    needs = r"pip install 'python-jass\[openspiel\]'"
    with pytest.raises(MissingDependencyError, match=needs) as caught:
        importlib.import_module("jass.envs.openspiel")
    assert isinstance(caught.value, ImportError)
    assert isinstance(caught.value, JassError)
