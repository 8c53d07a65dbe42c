"""Test configuration: the one hypothesis profile of the suite, and the jass-kit fixtures.

``jass`` (the default) switches the deadline off: a game played to its end, or a solver run,
takes far longer than hypothesis's 200 ms default, and its time varies with the machine.
``ci`` is the same, derandomized, so that a CI run is repeatable and a failure prints the
blob that reproduces it. Choose with ``HYPOTHESIS_PROFILE=ci``. A test that deliberately
tries more or fewer examples says so in its own ``@settings(max_examples=...)``.

The fixtures give the tests marked ``jasskit`` the jass-kit environment of ``kitenv.py``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

import pytest
from hypothesis import settings

from tests import kitenv

# A helper of the JAX tests, which import it when JAX is there; no test of its own.
collect_ignore = ["jax_replay.py"]

settings.register_profile("jass", deadline=None)
settings.register_profile("ci", settings.get_profile("jass"), derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "jass"))


def _jasskit_unavailable(exc: kitenv.KitEnvError) -> NoReturn:
    """Skip, or fail when CI sets ``JASS_REQUIRE_JASSKIT=1``."""
    reason = f"no jass-kit {kitenv.KIT_VERSION} environment at {kitenv.venv_dir()}: {exc}"
    if os.environ.get("JASS_REQUIRE_JASSKIT") == "1":
        pytest.fail(f"{reason} (JASS_REQUIRE_JASSKIT=1)")
    pytest.skip(f"{reason}; deselect with -m 'not jasskit'")


@pytest.fixture(scope="session")
def kit_python() -> Path:
    """The interpreter of the jass-kit 2.0.5 environment (see ``tests/kitenv.py``).

    Without it (no network on first use) the test skips, or fails; being session-scoped, a
    failure is not retried for every test.
    """
    try:
        return kitenv.ensure()
    except kitenv.KitEnvError as exc:
        _jasskit_unavailable(exc)


@pytest.fixture(scope="session")
def our_wheel(kit_python: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Our wheel, built once per session from the working tree, for the jass-kit environment."""
    try:
        return kitenv.build_wheel(kit_python, tmp_path_factory.mktemp("wheel"))
    except kitenv.KitEnvError as exc:
        _jasskit_unavailable(exc)
