"""The layout's promises (docs/architecture.md): small modules, and Airflow only in its layer."""

from __future__ import annotations

import ast
from pathlib import Path

import autofix

PACKAGE = Path(autofix.__file__).parent
MAX_MODULE_LINES = 600
# The Airflow layer; the core reaches Airflow only through autofix.hosting, at run time.
AIRFLOW_LAYER = (
    "operators/",
    "hooks/",
    "decorators/",
    "listeners/",
    "plugin/",
    "provider_info.py",
)


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_no_module_over_the_line_limit() -> None:
    sizes = {str(p.relative_to(PACKAGE)): len(p.read_text().splitlines()) for p in _modules()}
    assert len(sizes) > 100  # the walk found the package
    too_long = {name: n for name, n in sizes.items() if n > MAX_MODULE_LINES}
    assert not too_long, f"split these modules: {too_long}"


def _imported_roots(tree: ast.AST) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            roots.add(node.module.split(".")[0])
    return roots


def test_airflow_is_imported_only_by_the_airflow_layer() -> None:
    importers = set()
    for path in _modules():
        name = path.relative_to(PACKAGE).as_posix()
        if "airflow" in _imported_roots(ast.parse(path.read_text())):
            importers.add(name)
    assert any(name.startswith("operators/") for name in importers)  # the check sees imports
    outside = {name for name in importers if not name.startswith(AIRFLOW_LAYER)}
    assert not outside, f"Airflow imported outside its layer: {sorted(outside)}"
