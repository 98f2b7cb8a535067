"""The public API: ``autofix.__all__`` is complete, loads lazily, and matches its type stubs."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import autofix
from autofix.errors import AutofixError

INIT = Path(autofix.__file__)


def test_every_public_name_resolves_to_its_defining_module() -> None:
    for name in autofix.__all__:
        value = getattr(autofix, name)
        module = autofix._MODULE_OF.get(name)
        if module is not None and hasattr(value, "__module__") and isinstance(value, type):
            assert value.__module__ == module, name


def test_type_checking_imports_match_the_lazy_table() -> None:
    tree = ast.parse(INIT.read_text())
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
    )
    typed = {
        alias.name: stmt.module
        for stmt in block.body
        if isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.module.startswith("autofix")
        for alias in stmt.names
    }
    assert typed == autofix._MODULE_OF


def test_every_exception_derives_from_the_root() -> None:
    import autofix.errors as errors

    classes = [
        v for v in vars(errors).values() if isinstance(v, type) and v.__module__ == errors.__name__
    ]
    assert len(classes) >= 14
    assert all(issubclass(cls, AutofixError) for cls in classes)


def test_no_exception_outside_the_root() -> None:
    import importlib
    import pkgutil

    defined = []
    for info in pkgutil.walk_packages(autofix.__path__, "autofix."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        defined += [
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and issubclass(value, BaseException)
            and value.__module__ == info.name
        ]
    assert len(defined) >= 16
    assert [cls for cls in defined if not issubclass(cls, AutofixError)] == []


def test_importing_autofix_stays_light() -> None:
    code = "import sys, autofix; print(sorted(m for m in sys.modules if m.startswith(('autofix.', 'pydantic', 'airflow'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
