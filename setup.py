"""The optional C core (``jass.search._native``); everything else is in pyproject.toml.

The extension is built against the stable ABI of CPython 3.10 (abi3), so one wheel per
platform serves every CPython from 3.10 on. It is optional: without a compiler, on Pyodide or
on an unknown platform the build logs one line at debug level and the package installs as pure
Python (``jass.solver.NATIVE`` is then False). ``JASS_PURE_BUILD=1`` skips it on purpose, which
gives the pure ``py3-none-any`` wheel.
"""

from __future__ import annotations

import logging
import os
import platform
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

_LOG = logging.getLogger("jass.build")


def _wanted() -> bool:
    if os.environ.get("JASS_PURE_BUILD", "") not in ("", "0"):
        return False
    # Pyodide, WASI and other interpreters without the C API build pure Python.
    return sys.platform not in ("emscripten", "wasi") and platform.python_implementation() == (
        "CPython"
    )


class _OptionalBuildExt(build_ext):
    """build_ext that falls back to pure Python when the extension cannot be compiled."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001  (any compiler failure means pure Python)
            _LOG.debug("jass: the C core was not built (%s); pure Python it is", error)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001
            _LOG.debug("jass: the C core was not built (%s); pure Python it is", error)


def _extensions() -> list[Extension]:
    if not _wanted():
        return []
    if sys.platform == "win32":
        flags = ["/O2"]
    else:
        flags = ["-O3", "-std=c99", "-fvisibility=hidden", "-pthread"]
    flags += os.environ.get("JASS_NATIVE_CFLAGS", "").split()
    # One solve on several threads (_native_split.c): POSIX threads, or Windows' own.
    link = [] if sys.platform == "win32" else ["-pthread"]
    return [
        Extension(
            "jass.search._native",
            sources=[
                "src/jass/search/_native.c",
                "src/jass/search/_native_rules.c",
                "src/jass/search/_native_table.c",
                "src/jass/search/_native_search.c",
                "src/jass/search/_native_playout.c",
                "src/jass/search/_native_guess.c",
                "src/jass/search/_native_sure.c",
                "src/jass/search/_native_last.c",
                "src/jass/search/_native_split.c",
            ],
            depends=["src/jass/search/_native.h"],
            define_macros=[("Py_LIMITED_API", "0x030A0000")],
            py_limited_api=True,
            extra_compile_args=flags,
            extra_link_args=link + os.environ.get("JASS_NATIVE_LDFLAGS", "").split(),
        )
    ]


_EXTENSIONS = _extensions()
setup(
    ext_modules=_EXTENSIONS,
    cmdclass={"build_ext": _OptionalBuildExt},
    options={"bdist_wheel": {"py_limited_api": "cp310"}} if _EXTENSIONS else {},
)
