"""A cached virtual environment with jass-kit 2.0.5, for the tests marked ``jasskit``.

jass-kit (PyPI ``jass-kit``) installs its modules under the top-level ``jass`` package, so it
never goes into the test environment: the tests make a virtual environment of its own, at
``$JASS_KIT_VENV`` or ``${XDG_CACHE_HOME:-~/.cache}/jass/jasskit-2.0.5-venv``, reuse it while
it imports, and run the scripts of ``tests/kit_scripts`` in it. A test that needs our package
there too installs the wheel of the working tree first (:func:`run_script` with ``wheel``).

Several test sessions (two work trees, say) may share the environment, so its creation, our
wheel's installation and every use take a file lock: exclusive to change it, shared to use it.

:func:`issue_10_extra` tells the positions of jass-kit's known rules bug, its issue #10.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from jass import Card

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

# jass-kit's issue #10 (R5.6): with two trumps in the trick, its undertrump ban compares with
# the one lower in the natural order (``lowest_trump_played`` in its rule_schieber.py), not
# with the trick's highest trump (R5.3c). The orders are written out here, not taken from the
# library under test.
NATURAL = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")
TRUMP_ORDER = ("J", "9", "A", "K", "Q", "10", "8", "7", "6")
ISSUE_10 = (
    "jass-kit issue #10 shape: trump contract, plain suit led, the 2nd and 3rd cards trumps, "
    "the player (4th) not all trumps; jass-kit also allows the player's trumps ranked between "
    "the natural-order lower of those two trumps and the trick's highest trump"
)


def kit_card(text: str) -> Card:
    """A card in jass-kit's notation, suit first."""
    return Card.parse(text[1:] + text[0])  # "H10" -> "10H"


def issue_10_extra(state: dict[str, Any]) -> set[str]:
    """The cards jass-kit wrongly allows in ``state`` (jass-kit JSON), by the #10 shape alone."""
    trump = state["trump"]
    trick = state["tricks"][-1].get("cards", [])
    hand = state["player"][state["currentPlayer"]]["hand"]
    if not 0 <= trump <= 3 or len(trick) != 3:
        return set()
    suit = "DHSC"[trump]
    if trick[0][0] == suit or trick[1][0] != suit or trick[2][0] != suit:
        return set()
    if all(card[0] == suit for card in hand):
        return set()  # R5.3d: holding only trumps, any of them is legal in both
    compared = max(trick[1:], key=lambda card: NATURAL.index(card[1:]))  # jass-kit's choice
    top = min(trick[1:], key=lambda card: TRUMP_ORDER.index(card[1:]))  # R5.3c
    low, high = TRUMP_ORDER.index(compared[1:]), TRUMP_ORDER.index(top[1:])
    return {c for c in hand if c[0] == suit and high < TRUMP_ORDER.index(c[1:]) < low}


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


def build_wheel(python: Path, dest: Path) -> Path:
    """Our wheel, built from the working tree; its dependencies installed in the environment.

    The wheel itself is installed later, by :func:`run_script`, under the lock.
    """
    done = _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dest), str(ROOT)],
        300,
    )
    wheels = sorted(dest.glob("python_jass-*.whl"))
    if done.returncode != 0 or len(wheels) != 1:
        raise KitEnvError(f"building our wheel failed: {done.stderr.strip()[-500:]}")
    with zipfile.ZipFile(wheels[0]) as wheel:
        name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = wheel.read(name).decode()
    needed = [
        line.split(":", 1)[1].strip()
        for line in metadata.splitlines()
        if line.startswith("Requires-Dist:") and "extra ==" not in line
    ]
    with locked(python.parent.parent, exclusive=True):
        done = _run([str(python), "-m", "pip", "install", "--quiet", "--retries", "1",
                     "--timeout", "20", *needed], 600)  # fmt: skip
    if done.returncode != 0:
        raise KitEnvError(f"installing {needed} failed: {done.stderr.strip()[-500:]}")
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


@contextmanager
def serving(command: list[str], names: int, logs: Path) -> Iterator[dict[str, str]]:
    """Run a player service; yield its players' urls by name, and stop it afterwards.

    The service prints one line per player whose first ``http`` token is the player's url.
    Its output goes to files under ``logs`` (a pipe nobody drains could block it).
    """
    out, err = logs / "stdout.txt", logs / "stderr.txt"
    with open(out, "w") as stdout, open(err, "w") as stderr:
        process = subprocess.Popen(command, stdout=stdout, stderr=stderr, text=True)
    try:
        urls: dict[str, str] = {}
        deadline = time.monotonic() + 60
        while len(urls) < names:
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"{command} did not start:\n{err.read_text()[-4000:]}")
            time.sleep(0.05)
            for line in out.read_text().splitlines():
                url = next((word for word in line.split() if word.startswith("http")), None)
                if url is not None:
                    urls[url.rsplit("/", 1)[1]] = url
        yield urls
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
