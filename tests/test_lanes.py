"""The test lanes: the markers exist, and the table of optional extras in conftest.py is right.

The everyday lane is ``pytest -m "not slow and not jasskit and not cluster"``. Where an
extra is missing, the root ``conftest.py`` skips the examples of the modules that need it;
``.ci/run`` runs the everyday lane in an environment without any extra to check that
nothing else breaks there.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def root_conftest() -> ModuleType:
    """The root conftest.py, loaded under a name of its own."""
    spec = importlib.util.spec_from_file_location("jass_root_conftest", ROOT / "conftest.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_lane_markers_are_declared(pytestconfig: pytest.Config) -> None:
    declared = {line.split(":")[0] for line in pytestconfig.getini("markers")}
    assert {"slow", "jasskit", "cluster"} <= declared


def test_every_entry_of_the_extras_table_names_a_module() -> None:
    requires = root_conftest().REQUIRES
    assert requires
    for key, (modules, extra) in requires.items():
        assert (ROOT / "src" / "jass" / key).exists(), key
        assert modules
        assert extra in {"rl", "openspiel", "cluster", "jax"}


def test_the_most_specific_entry_counts() -> None:
    conftest = root_conftest()
    envs = ROOT / "src" / "jass" / "envs"
    assert conftest.required_modules(envs / "aec.py") == (
        ("numpy", "gymnasium", "pettingzoo"),
        "rl",
    )
    assert conftest.required_modules(envs / "rewards.py") == (("numpy",), "rl")
    assert conftest.required_modules(ROOT / "src" / "jass" / "executors.py") == (
        ("ray",),
        "cluster",
    )
    assert conftest.required_modules(ROOT / "src" / "jass" / "state.py") is None
    assert conftest.required_modules(ROOT / "tests" / "test_env_aec.py") is None


def test_missing_names_only_what_is_not_installed() -> None:
    conftest = root_conftest()
    assert conftest.missing(["json", "no_such_module_for_jass_tests"]) == [
        "no_such_module_for_jass_tests"
    ]


@pytest.mark.slow
@pytest.mark.parametrize("required", [False, True])
def test_without_an_extra_its_files_skip_or_fail_under_jass_require_extras(
    tmp_path: Path, required: bool
) -> None:
    # sys.modules[name] = None hides an installed package: find_spec says None, import fails.
    (tmp_path / "sitecustomize.py").write_text(
        "import sys\nsys.modules['ray'] = None\nsys.modules['numpy'] = None\n", encoding="utf-8"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT / "src")])}
    env["JASS_REQUIRE_EXTRAS"] = "1" if required else ""
    files = ["src/jass/core/seats.py", "src/jass/executors.py", "src/jass/envs/rewards.py"]
    files.append("tests/test_encoding.py")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", *files],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if required:
        assert done.returncode != 0, done.stdout
        assert done.stdout.count("JASS_REQUIRE_EXTRAS=1") >= 3, done.stdout
    else:
        assert done.returncode == 0, done.stdout
        assert "needs the cluster extra (ray not installed here)" in done.stdout
        assert "needs the rl extra (numpy not installed here)" in done.stdout
        assert "tests/test_encoding.py:17: needs the rl extra" in done.stdout
