"""Check that a built wheel, its metadata and the installed package name one version.

Usage: ``python .ci/check_wheel_version.py WHEEL VENV_PYTHON``, where the wheel is installed
in the environment of VENV_PYTHON. Compares the version in the wheel's file name, in its
``METADATA``, in ``importlib.metadata`` and ``jass.__version__`` of that environment, and in
the output of its ``jass --version``; prints them, and exits 1 unless all agree.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

DISTRIBUTION = "python-jass"


def main(wheel: Path, python: Path) -> int:
    """Print every version found; 1 if they differ or the distribution is misnamed."""
    name, version = wheel.name.split("-")[:2]
    with zipfile.ZipFile(wheel) as archive:
        meta = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(meta).decode("utf-8"))
    code = (
        "import importlib.metadata as m, jass; "
        f"print(m.version({DISTRIBUTION!r}), jass.__version__)"
    )
    installed, imported = subprocess.run(  # noqa: S603
        [python, "-c", code], capture_output=True, text=True, check=True, cwd=wheel.parent
    ).stdout.split()
    script = python.parent / ("jass.exe" if sys.platform == "win32" else "jass")
    printed = subprocess.run(  # noqa: S603
        [script, "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    found = {
        "wheel file name": version,
        "METADATA Version": metadata["Version"],
        "importlib.metadata": installed,
        "jass.__version__": imported,
        "jass --version": printed.removeprefix("jass "),
    }
    for where, value in found.items():
        print(f"{where:20} {value}")
    problems = []
    if len(set(found.values())) != 1:
        problems.append("the versions differ")
    if name != DISTRIBUTION.replace("-", "_") or metadata["Name"] != DISTRIBUTION:
        problems.append(f"the distribution is {metadata['Name']!r} ({name}), not {DISTRIBUTION}")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]).resolve(), Path(sys.argv[2])))
