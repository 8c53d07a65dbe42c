"""Each environment needs only its own ecosystem: the extras are independent.

A fresh interpreter hides a package by putting ``None`` in ``sys.modules``, which makes
every import of it fail, as on a machine without it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("numpy", reason="needs the rl extra")
import jass.envs


def _run(hidden: list[str], code: str) -> dict[str, str]:
    """Run ``code`` in a fresh interpreter without ``hidden``; it prints a JSON dict."""
    script = "import sys\n"
    script += "".join(f"sys.modules[{name!r}] = None\n" for name in hidden)
    script += textwrap.dedent(code)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, str] = json.loads(done.stdout)
    return result


_TRY = """
import json
from jass.errors import MissingDependencyError
out = {}
def attempt(name, thunk):
    try:
        out[name] = type(thunk()).__name__
    except MissingDependencyError as exc:
        out[name] = "missing: " + str(exc)
"""


def test_without_the_rl_ecosystems_the_encoding_and_openspiel_still_work() -> None:
    pytest.importorskip("pyspiel")
    result = _run(
        ["gymnasium", "pettingzoo"],
        _TRY
        + """
import jass, jass.envs
attempt("encode", lambda: jass.envs.encode(jass.Game.new(seed=1).deal().view(0)))
attempt("raw_env", lambda: jass.envs.raw_env)
attempt("SeatEnv", lambda: jass.envs.SeatEnv)
import jass.envs.openspiel, pyspiel
attempt("spiel", lambda: pyspiel.load_game("python_jass_schieber").new_initial_state())
print(json.dumps(out))
""",
    )
    assert result["encode"] == "ndarray"
    assert not result["spiel"].startswith("missing")
    assert "pip install 'python-jass[rl]'" in result["raw_env"]
    assert "PettingZoo" in result["raw_env"]
    assert "pip install 'python-jass[rl]'" in result["SeatEnv"]
    assert "Gymnasium" in result["SeatEnv"]


@pytest.mark.slow
def test_without_pettingzoo_the_seat_environment_still_works() -> None:
    result = _run(
        ["pettingzoo"],
        _TRY
        + """
import gymnasium, jass.envs
attempt("make", lambda: gymnasium.make("jass/Seat-v0").unwrapped)
attempt("aec_env", lambda: jass.envs.aec_env)
print(json.dumps(out))
""",
    )
    assert result["make"] == "SeatEnv"
    assert result["aec_env"].startswith("missing: ")
    assert "pip install 'python-jass[rl]'" in result["aec_env"]


def test_without_numpy_the_package_names_the_extras() -> None:
    result = _run(
        ["numpy"],
        _TRY
        + """
import importlib
attempt("envs", lambda: importlib.import_module("jass.envs"))
import jass
attempt("core", lambda: jass.Game.new(seed=1).deal())
print(json.dumps(out))
""",
    )
    assert result["core"] == "Game"
    assert "NumPy" in result["envs"]
    assert "pip install 'python-jass[rl]'" in result["envs"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_env"):
        _ = jass.envs.no_such_env
