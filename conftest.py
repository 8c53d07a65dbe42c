"""pytest configuration for the whole tree: skip the examples of modules whose extra is missing.

``pytest`` collects the docstring examples of ``src`` too. The modules of an optional extra
cannot be imported, or their examples cannot run, without that extra's packages: the
environments need the ``rl`` extra (NumPy, Gymnasium, PettingZoo), ``jass.envs.openspiel``
the ``openspiel`` extra (wheels for Python 3.11 and later only), and the examples of
``jass.executors`` make Ray executors (the ``cluster`` extra). Without them, those files are
reported as skipped, with the extra to install, instead of failing collection. The test
modules of an extra skip themselves with ``pytest.importorskip``.

``JASS_REQUIRE_EXTRAS=1`` (``.ci/run`` sets it) turns these skips into failures, so that CI,
which installs every extra, cannot lose tests to a broken install.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Generator, Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent

#: Files (or folders) under ``src/jass`` and the top-level modules their examples need, with
#: the extra that brings them. The most specific entry that matches a file counts.
REQUIRES: dict[str, tuple[tuple[str, ...], str]] = {
    "envs": (("numpy",), "rl"),
    "envs/__init__.py": (("numpy", "gymnasium"), "rl"),
    "envs/seat.py": (("numpy", "gymnasium"), "rl"),
    "envs/aec.py": (("numpy", "gymnasium", "pettingzoo"), "rl"),
    "envs/openspiel.py": (("numpy", "pyspiel"), "openspiel"),
    "envs/jax": (("numpy", "jax"), "jax"),
    "executors.py": (("ray",), "cluster"),
}


Needs = tuple[tuple[str, ...], str]


def required_modules(path: Path, requires: dict[str, Needs] = REQUIRES) -> Needs | None:
    """The modules the examples of ``path`` need and their extra, or ``None``."""
    try:
        relative = path.resolve().relative_to(ROOT / "src" / "jass").as_posix()
    except ValueError:
        return None
    matches = [key for key in requires if relative == key or relative.startswith(f"{key}/")]
    return requires[max(matches, key=len)] if matches else None


def missing(modules: Iterable[str]) -> list[str]:
    """The modules of ``modules`` that are not installed."""
    return [name for name in modules if importlib.util.find_spec(name) is None]


class MissingExtra(pytest.File):
    """Stands for a module whose examples cannot run here: collecting it skips (or fails)."""

    reason = ""

    def collect(self) -> list[pytest.Item]:
        """Skip, with the reason."""
        pytest.skip(self.reason)


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(
    file_path: Path, parent: pytest.Collector
) -> Generator[None, list[pytest.Collector], list[pytest.Collector]]:
    """Replace the collectors of a module whose extra is missing by one that skips."""
    collectors = yield
    needed = required_modules(file_path)
    if not collectors or needed is None:
        return collectors
    modules, extra = needed
    absent = missing(modules)
    if not absent:
        return collectors
    stand_in = MissingExtra.from_parent(parent, path=file_path)
    stand_in.reason = (
        f"needs the {extra} extra ({', '.join(absent)} not installed here): "
        f"pip install 'python-jass[{extra}]'"
    )
    return [stand_in]


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    """Under ``JASS_REQUIRE_EXTRAS=1``, a file skipped for a missing extra fails instead.

    That covers this file's skips and the ``pytest.importorskip(..., reason="needs the rl
    extra")`` of the test modules: both name the extra.
    """
    report = yield
    if os.environ.get("JASS_REQUIRE_EXTRAS") == "1" and report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if "extra" in reason:
            report.outcome = "failed"
            reason = reason.removeprefix("Skipped: ")
            report.longrepr = f"{collector.nodeid}: {reason}, and JASS_REQUIRE_EXTRAS=1"
    return report
