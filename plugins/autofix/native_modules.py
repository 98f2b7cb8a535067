"""The modules a native build compiles (setup.py, ``AUTOFIX_NATIVE=1``): the classifier's
per-line path. setup.py reads this file alone (runpy), before the package or its dependencies
are installed: it imports nothing of them."""

from __future__ import annotations

import importlib

NATIVE_MODULES = (
    "autofix.classify.blocks",
    "autofix.classify.classifier",
    "autofix.classify.engine_walk",
    "autofix.classify.line_judge",
    "autofix.classify.normalize",
    "autofix.patterns.compiled",
    "autofix.patterns.engine",
)


def compiled_modules() -> list[str]:
    """The modules of ``NATIVE_MODULES`` that run compiled in this process."""
    return [
        name
        for name in NATIVE_MODULES
        if not (importlib.import_module(name).__file__ or "").endswith(".py")
    ]
