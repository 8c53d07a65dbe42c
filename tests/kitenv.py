"""A cached virtual environment with jass-kit 2.0.5, for the tests marked ``jasskit``.

jass-kit (PyPI ``jass-kit``) installs its modules under the top-level ``jass`` package, so it
never goes into the test environment: the tests make a virtual environment of its own, at
``$JASS_KIT_VENV`` or ``${XDG_CACHE_HOME:-~/.cache}/jass/jasskit-2.0.5-venv``, reuse it while
it imports, and run the scripts of ``tests/kit_scripts`` in it. A test that needs our package
there too installs the wheel of the working tree first (:func:`run_script` with ``wheel``).

Several test sessions (two work trees, say) may share the environment, so its creation, our
wheel's installation and every use take a file lock: exclusive to change it, shared to use it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

KIT_VERSION = "2.0.5"
REQUIREMENTS = (f"jass-kit=={KIT_VERSION}", "flask>=2.0,<4", "requests>=2.25,<3")
ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = Path(__file__).resolve().parent / "kit_scripts"
# What must import for the environment to count as working.
_CHECK = (
    "import importlib.metadata as m, flask, requests, numpy; "
    "import jass.game.game_sim, jass.arena.arena, jass.service.player_service_app; "
    f"assert m.version('jass-kit') == {KIT_VERSION!r}"
)


class KitEnvError(Exception):
    """The jass-kit environment could not be made (no network, say)."""


def venv_dir() -> Path:
    """Where the environment lives."""
    configured = os.environ.get("JASS_KIT_VENV")
    if configured:
        return Path(configured).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "jass" / f"jasskit-{KIT_VERSION}-venv"


def python_in(venv: Path) -> Path:
    """The environment's interpreter."""
    if sys.platform == "win32":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


@contextmanager
def locked(venv: Path, *, exclusive: bool) -> Iterator[None]:
    """Hold the environment's lock (POSIX; elsewhere there is none)."""
    venv.parent.mkdir(parents=True, exist_ok=True)
    with open(venv.parent / f"{venv.name}.lock", "a") as handle:
        if sys.platform != "win32":
            import fcntl  # noqa: PLC0415 - POSIX only

            fcntl.flock(handle, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield


def _run(command: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


def _works(python: Path) -> bool:
    return python.exists() and _run([str(python), "-c", _CHECK], 120).returncode == 0


def ensure() -> Path:
    """The interpreter of a working environment, made (about 10 s, network) if need be."""
    venv = venv_dir()
    python = python_in(venv)
    with locked(venv, exclusive=True):
        if _works(python):
            return python
        if venv.exists() and not (venv / "pyvenv.cfg").exists() and any(venv.iterdir()):
            raise KitEnvError(f"{venv} exists and is no virtual environment; not replacing it")
        shutil.rmtree(venv, ignore_errors=True)
        steps = (
            [sys.executable, "-m", "venv", str(venv)],
            # Few retries and a short timeout: without a network this fails in seconds.
            [str(python), "-m", "pip", "install", "--quiet", "--retries", "1",
             "--timeout", "20", *REQUIREMENTS],
        )  # fmt: skip
        for step in steps:
            try:
                done = _run(step, 600)
            except subprocess.TimeoutExpired as exc:
                raise KitEnvError(f"{' '.join(step[:4])} ... timed out") from exc
            if done.returncode != 0:
                tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
                raise KitEnvError(f"{' '.join(step[:4])} ... failed: {' | '.join(tail)}")
        if not _works(python):
            raise KitEnvError(f"{venv} was made but jass-kit {KIT_VERSION} does not import")
    return python


def build_wheel(dest: Path) -> Path:
    """Our wheel, built from the working tree (a few seconds)."""
    done = _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dest), str(ROOT)],
        300,
    )
    wheels = sorted(dest.glob("jass-*.whl"))
    if done.returncode != 0 or len(wheels) != 1:
        raise KitEnvError(f"building our wheel failed: {done.stderr.strip()[-500:]}")
    return wheels[0]


def _install(python: Path, wheel: Path) -> None:
    """Install ``wheel`` unless it is the one installed already (the build is reproducible)."""
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    marker = python.parent.parent / "jass-wheel.sha256"
    if marker.exists() and marker.read_text() == digest:
        return
    marker.unlink(missing_ok=True)
    done = _run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall",
         str(wheel)],
        300,
    )  # fmt: skip
    if done.returncode != 0:
        raise AssertionError(f"installing our wheel in the jass-kit venv failed:\n{done.stderr}")
    marker.write_text(digest)


def run_script(
    python: Path, name: str, *args: object, wheel: Path | None = None, timeout: float = 300
) -> Any:
    """Run ``kit_scripts/<name>`` in the environment; its last line of output is JSON.

    With ``wheel``, our package is installed there first and stays while the script runs.
    """
    venv = python.parent.parent
    with locked(venv, exclusive=wheel is not None):
        if wheel is not None:
            _install(python, wheel)
        # -I: no user site and no current directory on sys.path, so no stray ``jass``.
        command = [str(python), "-I", str(SCRIPTS / name), *map(str, args)]
        done = _run(command, timeout)
    if done.returncode != 0:
        raise AssertionError(f"{name} failed (exit {done.returncode}):\n{done.stderr[-4000:]}")
    lines = done.stdout.strip().splitlines()
    if not lines:
        raise AssertionError(f"{name} printed nothing; stderr:\n{done.stderr[-4000:]}")
    return json.loads(lines[-1])
