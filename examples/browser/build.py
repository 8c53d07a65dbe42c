"""Build the browser example into a static folder that any web server can serve.

    python examples/browser/build.py            # then:
    python -m http.server --bind 127.0.0.1 -d examples/browser/site

Run it with the Python of an environment where jass is installed (``pip install -e .``). It

1. runs the doctests of jass_table.py and plays a game through it under this Python, a bot
   in your seat (a quick check of the page's Python);
2. builds the jass wheel from this checkout (``pip wheel --no-deps``), or takes ``--wheel``;
3. downloads the wheels of attrs and typing-extensions, at the versions installed here
   (``pip download --only-binary=:all: --no-deps``);
4. installs the pinned npm packages of package-lock.json (``npm ci``: pyodide, and
   playwright-core for e2e.mjs), unless node_modules already matches the lock file;
5. copies the page, the worker, jass_table.py, the wheels and Pyodide's runtime files into
   ``--out`` (default examples/browser/site, git-ignored), with a manifest.json of the wheels.

The site loads nothing from the network at run time. Uses only the standard library.
"""

from __future__ import annotations

import argparse
import doctest
import hashlib
import importlib.metadata
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
#: The page's own files, copied as they are.
PAGE = ("index.html", "style.css", "app.js", "worker.js", "jass_table.py")
#: What Pyodide reads from its indexURL when no Pyodide package is loaded.
PYODIDE = (
    "pyodide.js",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
#: The runtime dependencies of jass, as pip names them.
DEPENDENCIES = ("attrs", "typing-extensions")


def run(command: list[str], *, cwd: Path | None = None) -> None:
    """Run ``command``, failing the build with its output if it fails."""
    done = subprocess.run(  # noqa: S603
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False
    )
    if done.returncode != 0:
        sys.exit(f"failed (exit {done.returncode}): {' '.join(command)}\n{done.stdout[-3000:]}")


def jass_wheel(given: Path | None, dest: Path) -> Path:
    """The jass wheel: ``given`` (a .whl, or a folder holding one), else built from ROOT."""
    if given is None:
        pip = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
        run([*pip, "--wheel-dir", str(dest), str(ROOT)])
        given = dest
    found = sorted(given.glob("python_jass-*.whl")) if given.is_dir() else [given]
    if len(found) != 1 or not found[0].name.endswith("-py3-none-any.whl"):
        sys.exit(f"expected one pure-Python jass wheel in {given}, found {found}")
    return found[0]


def installed(name: str) -> str | None:
    """The version of ``name`` installed here, or ``None``."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def dependency_wheels(dest: Path) -> list[Path]:
    """Download the dependencies' wheels: the versions installed here, else the newest."""
    pins = [f"{name}=={installed(name)}" if installed(name) else name for name in DEPENDENCIES]
    pip = [sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:", "--no-deps"]
    run([*pip, "--dest", str(dest), *pins])
    wheels = sorted(p for p in dest.glob("*.whl") if not p.name.startswith("python_jass-"))
    if len(wheels) != len(DEPENDENCIES):
        sys.exit(f"expected wheels of {DEPENDENCIES} in {dest}, found {wheels}")
    return wheels


def npm_install(npm_cache: Path | None) -> str:
    """``npm ci`` in this folder unless node_modules was installed from the same lock file."""
    lock = (HERE / "package-lock.json").read_bytes()
    stamp = HERE / "node_modules" / ".jass-lock-sha256"
    digest = hashlib.sha256(lock).hexdigest()
    if stamp.is_file() and stamp.read_text() == digest:
        return "node_modules is up to date"
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("npm is not installed: it is needed to get Pyodide (Node.js 20 or newer)")
    command = [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"]
    if npm_cache is not None:
        command += ["--cache", str(npm_cache), "--prefer-offline"]
    run(command, cwd=HERE)
    stamp.write_text(digest)
    return "npm ci done"


def fresh_folder(out: Path) -> None:
    """Empty ``out`` for the build; refuse a non-empty folder that this script did not make."""
    if out.exists():
        if any(out.iterdir()) and not (out / "manifest.json").is_file():
            sys.exit(f"{out} is not empty and holds no manifest.json: not removing it")
        shutil.rmtree(out)
    out.mkdir(parents=True)


def size_of(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE / "site", help="the folder to build")
    parser.add_argument("--wheel", type=Path, help="a jass wheel, or a folder with one")
    parser.add_argument("--npm-cache", type=Path, help="npm's cache folder (for CI)")
    args = parser.parse_args()
    started = time.perf_counter()

    sys.path.insert(0, str(HERE))
    import jass_table  # noqa: PLC0415  (the page's Python, from this folder)

    failed, tried = doctest.testmod(jass_table)
    if failed:
        sys.exit(f"jass_table.py: {failed} of {tried} doctests failed")
    print(f"check: {tried} doctests of jass_table.py;", jass_table.self_check(seed=1))
    with tempfile.TemporaryDirectory() as tmp:
        wheel = jass_wheel(args.wheel, Path(tmp))
        wheels = [wheel, *dependency_wheels(Path(tmp) / "deps")]
        print("wheels:", ", ".join(w.name for w in wheels))
        print("npm:", npm_install(args.npm_cache))

        out = args.out.resolve()
        fresh_folder(out)
        for name in PAGE:
            shutil.copy2(HERE / name, out / name)
        (out / "wheels").mkdir()
        for path in wheels:
            shutil.copy2(path, out / "wheels" / path.name)
    pyodide = HERE / "node_modules" / "pyodide"
    (out / "pyodide").mkdir()
    for name in PYODIDE:
        shutil.copy2(pyodide / name, out / "pyodide" / name)
    version = json.loads((pyodide / "package.json").read_text())["version"]
    manifest = {"wheels": [w.name for w in wheels], "pyodide": version}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")

    seconds = time.perf_counter() - started
    megabytes = size_of(out) / 1e6
    print(f"built {out} ({megabytes:.1f} MB, Pyodide {version}) in {seconds:.1f} s")
    print(f"serve it: python -m http.server --bind 127.0.0.1 -d {out}")


if __name__ == "__main__":
    main()
