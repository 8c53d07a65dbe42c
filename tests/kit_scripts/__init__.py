"""Scripts that run in the jass-kit virtual environment of ``tests/kitenv.py``, not in ours.

jass-kit's modules live under ``jass`` like ours, so these import them with importlib (typed
``Any``); a static import would resolve against our own package. Nothing runs on import.
"""
