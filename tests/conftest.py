"""Test configuration: the one hypothesis profile of the suite.

``jass`` (the default) switches the deadline off: a game played to its end, or a solver run,
takes far longer than hypothesis's 200 ms default, and its time varies with the machine.
``ci`` is the same, derandomized, so that a CI run is repeatable and a failure prints the
blob that reproduces it. Choose with ``HYPOTHESIS_PROFILE=ci``. A test that deliberately
tries more or fewer examples says so in its own ``@settings(max_examples=...)``.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("jass", deadline=None)
settings.register_profile("ci", settings.get_profile("jass"), derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "jass"))
