"""The modules a native build compiles (setup.py, ``AUTOFIX_NATIVE=1``): the classifier's
per-line path with mypyc, and its newline work in C (patterns/newlines.py). setup.py reads this
file alone (runpy), before the package or its dependencies are installed: it imports nothing of
them."""

from __future__ import annotations

import importlib
import importlib.util

MYPYC_MODULES = (
    "autofix.classify.blocks",
    "autofix.classify.classifier",
    "autofix.classify.engine_walk",
    "autofix.classify.line_judge",
    "autofix.classify.normalize",
    "autofix.patterns.compiled",
    "autofix.patterns.engine",
)
# Each C module's source; patterns/newlines.py holds the pure build's same work.
C_MODULES = {"autofix.patterns._newlines": "plugins/autofix/patterns/_newlines.c"}
NATIVE_MODULES = (*MYPYC_MODULES, *C_MODULES)


def compiled_modules() -> list[str]:
    """The modules of ``NATIVE_MODULES`` that run compiled in this process."""
    compiled = [
        name
        for name in MYPYC_MODULES
        if not (importlib.import_module(name).__file__ or "").endswith(".py")
    ]
    return compiled + [name for name in C_MODULES if importlib.util.find_spec(name) is not None]
