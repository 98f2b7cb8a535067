"""The package's import graph has no circle, and errors.py is its ground floor (docs/architecture.md).

The graph is read from the source with ``ast``: every ``import`` and ``from ... import``, at the
top, under ``TYPE_CHECKING`` or inside a function, counts, so a function-local import cannot
hide a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import autofix

PACKAGE = Path(autofix.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute name a ``from`` import names, relative ones resolved against ``module``."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _imports(module: str, source: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``module`` imports anywhere in its ``source``."""
    targets: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            origin = _absolute(node, module, is_package)
            for alias in node.names:
                # ``from autofix import safejson`` imports a module; ``from x import Name`` imports x.
                submodule = f"{origin}.{alias.name}"
                targets.add(submodule if submodule in known else origin)
    return {name for name in targets if name in known and name != module}


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {
        name: _imports(name, path.read_text(), path.name == "__init__.py", known)
        for name, path in modules.items()
    }


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Every set of two or more modules that import each other round a circle (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: set[str] = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def one_circle(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest way round from the component's first module back to itself (breadth first)."""
    start = min(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for target in sorted(graph[node] & component):
                if target == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if target not in came_from:
                    came_from[target] = node
                    following.append(target)
        frontier = following
    return sorted(component)


def describe_circles(graph: dict[str, set[str]]) -> str:
    """One paragraph per circle: its modules, and one way round it."""
    paragraphs = []
    for component in sorted(strongly_connected(graph), key=min):
        paragraphs.append(
            f"{len(component)} modules: {', '.join(sorted(component))}\n"
            f"  e.g. {' -> '.join(one_circle(graph, component))}"
        )
    return "\n".join(paragraphs)


SOURCE = """
import autofix.a
from autofix import b, NAME
from . import c
from .d import Thing
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from autofix.e import Hint

def later():
    from autofix.f import g
"""


def test_every_kind_of_import_is_an_edge() -> None:
    known = {f"autofix.{name}" for name in ("a", "b", "c", "d", "e", "f", "f.g", "mine")}
    found = _imports("autofix.mine", SOURCE, False, known)
    assert found == {"autofix.a", "autofix.b", "autofix.c", "autofix.d", "autofix.e", "autofix.f.g"}
    graph = import_graph()
    assert len(graph) > 100  # the walk found the package
    assert "autofix.yamlfile" in graph["autofix.config"]


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c", "d"}, "c": {"a"}, "d": set()}
    assert strongly_connected(graph) == [{"a", "b", "c"}]
    assert one_circle(graph, {"a", "b", "c"}) == ["a", "b", "c", "a"]


def test_no_import_circle_in_the_package() -> None:
    graph = import_graph()
    assert not strongly_connected(graph), "import circles in plugins/autofix:\n" + describe_circles(
        graph
    )


def test_errors_is_the_ground_floor() -> None:
    imported = import_graph()["autofix.errors"]
    assert not imported, f"autofix/errors.py must import nothing from autofix: {sorted(imported)}"
