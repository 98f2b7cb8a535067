"""Optional compiled classifier: ``AUTOFIX_NATIVE=1`` compiles the per-line modules with mypyc,
and the newline work (plugins/autofix/patterns/_newlines.c) from C.

Everything else about the package lives in pyproject.toml. Without the variable the build is
pure Python, the same code interpreted (docs/benchmarks.md has both speeds). The compiled build
needs mypy (mypyc) and a C compiler in the build environment:

    pip install 'mypy==2.4.1' setuptools wheel
    AUTOFIX_NATIVE=1 pip wheel --no-build-isolation --no-deps .
    make native        # the same modules, built in place for this checkout
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

from setuptools import Extension, setup

# Read alone: importing the package would need its dependencies in the build environment.
NATIVE = runpy.run_path(
    str(Path(__file__).resolve().parent / "plugins" / "autofix" / "native_modules.py")
)

# Metadata and source builds run this file too: they compile nothing.
METADATA_ONLY = {"egg_info", "dist_info", "sdist"}
ext_modules = []
if os.environ.get("AUTOFIX_NATIVE") == "1" and not METADATA_ONLY & set(sys.argv[1:]):
    try:
        from mypyc.build import mypycify
    except ImportError:
        sys.exit(
            "AUTOFIX_NATIVE=1 needs mypyc in the build environment: pip install 'mypy==2.4.1' "
            "setuptools wheel, "
            "then build with --no-build-isolation (or unset AUTOFIX_NATIVE for pure Python)"
        )
    ext_modules = mypycify(
        [f"plugins/{name.replace('.', '/')}.py" for name in NATIVE["MYPYC_MODULES"]],
        opt_level="3",
        group_name="autofix_native",
    )
    ext_modules += [
        Extension(name, [source], extra_compile_args=["-O3"])
        for name, source in NATIVE["C_MODULES"].items()
    ]

setup(ext_modules=ext_modules)
