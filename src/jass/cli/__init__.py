"""The ``jass`` command: ``watch``, ``play``, ``replay``, ``rules``, ``simulate`` and ``serve``.

The top layer of ``jass``: :mod:`jass.cli.commands` parses the arguments and dispatches,
:mod:`jass.cli.terminal` runs the prompt loop of ``jass play`` and :mod:`jass.cli.screen`
draws its screen. ``python -m jass`` runs :func:`main`.

>>> from jass.cli import main
>>> main(["--rules", "nonsense"])  # bad input: the reason, and exit status 2
jass: unknown rule set 'nonsense'; presets: SCHIEBER, SCHIEBER_1000, ...
2
"""

from jass.cli.commands import main

__all__ = ["main"]
