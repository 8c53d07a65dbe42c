"""One version everywhere: ``jass --version``, ``jass.__version__``, the metadata, the changelog.

The version is written once, in ``src/jass/_version.py``; the build backend copies it into
the distribution's metadata. ``.ci/run`` checks the built wheel the same way (its file name,
its ``METADATA`` and ``jass --version`` from a clean environment where it is installed).
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import pytest

import jass

ROOT = Path(__file__).resolve().parent.parent
DISTRIBUTION = "python-jass"


def released_versions() -> list[str]:
    """The versions of CHANGELOG.md's release headings, newest first."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", text, re.MULTILINE)


def test_the_version_is_the_newest_release_of_the_changelog() -> None:
    versions = released_versions()
    assert len(versions) >= 2
    assert jass.__version__ == versions[0]


def test_jass_dash_dash_version_prints_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jass", "--version"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert done.stdout == f"jass {jass.__version__}\n"


def test_the_installed_distribution_has_it() -> None:
    try:
        installed = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        pytest.skip(f"{DISTRIBUTION} is not installed here (tests run from the source tree)")
    # An editable install's metadata is written when it is installed: reinstall after a bump.
    assert installed.version == jass.__version__
    assert installed.metadata["Name"] == DISTRIBUTION
    assert any(e.name == "jass" and e.group == "console_scripts" for e in installed.entry_points)


def test_the_readme_names_it() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"Version {jass.__version__};" in readme
    assert "pip install python-jass\n" in readme
