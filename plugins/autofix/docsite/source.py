"""Where the served docs come from, and which names they answer to.

From a repository checkout (the package runs from ``plugins/autofix``): README.md and every
Markdown file under docs/, with the images there. Installed from a wheel: the package's long
description, which is the README. Nothing else is ever read: a name is checked against a strict
pattern (no ``..``, dots or leading slash) and must resolve to a file under docs/.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from autofix.errors import DocsPageNotFoundError

DISTRIBUTION = "airflow-autofix"
PACKAGE_DIR = Path(__file__).resolve().parent.parent
# A page's name is its path under docs/ without ".md": "architecture", "agents/claude".
PAGE_NAME = re.compile(r"[A-Za-z0-9_-]+(?:/[A-Za-z0-9_-]+)*")
# Raster images only: an SVG can carry script.
IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}
NOT_INSTALLED = (
    f"# autofix\n\nThis installation has no README: install the `{DISTRIBUTION}` package "
    "(`pip install -e .` from the repository) to read its docs here.\n"
)


@dataclass(frozen=True)
class DocsSource:
    """``root`` is the checkout holding README.md and docs/; ``None`` where only ``readme``
    (the installed long description) is known."""

    readme: str
    root: Path | None = None

    @property
    def docs_dir(self) -> Path | None:
        return self.root / "docs" if self.root is not None else None

    def readme_text(self) -> str:
        if self.root is None:
            return self.readme
        return (self.root / "README.md").read_text(encoding="utf-8")

    def page_names(self) -> list[str]:
        """Every served page under docs/, sorted: "agents/claude", "architecture", ..."""
        docs = self.docs_dir
        if docs is None or not docs.is_dir():
            return []
        names = (path.relative_to(docs).with_suffix("").as_posix() for path in docs.rglob("*.md"))
        return sorted(name for name in names if self._serves(name, ".md"))

    def page_text(self, name: str) -> str:
        """The Markdown of docs/<name>.md; ``DocsPageNotFoundError`` for any other name."""
        return self._file(name, name, ".md").read_text(encoding="utf-8")

    def image(self, name: str) -> tuple[Path, str]:
        """docs/<name> and its media type, for a name such as "screenshots/ui-01.png"."""
        stem, suffix = posixpath.splitext(name)
        media_type = IMAGE_TYPES.get(suffix.lower())
        if media_type is None:
            raise DocsPageNotFoundError(name)
        return self._file(name, stem, suffix), media_type

    def route_of(self, repo_path: str) -> str | None:
        """The route (under the site's base) that serves ``repo_path``, a normalised path from
        the repository's root; ``None`` when this site does not serve it."""
        if repo_path == "README.md":
            return ""
        docs = self.docs_dir
        if docs is None or not (repo_path == "docs" or repo_path.startswith("docs/")):
            return None
        name = repo_path.removeprefix("docs").strip("/")
        if not name or (docs / name).is_dir():
            return ""  # docs/ or one of its folders: the index lists their pages
        stem, suffix = posixpath.splitext(name)
        if suffix == ".md":
            return stem if self._serves(stem, ".md") else None
        try:
            self.image(name)
        except DocsPageNotFoundError:
            return None
        return name

    def _serves(self, stem: str, suffix: str) -> bool:
        try:
            self._file(stem, stem, suffix)
        except DocsPageNotFoundError:
            return False
        return True

    def _file(self, name: str, stem: str, suffix: str) -> Path:
        docs = self.docs_dir
        if docs is None or not PAGE_NAME.fullmatch(stem):
            raise DocsPageNotFoundError(name)
        path = (docs / f"{stem}{suffix}").resolve()
        # A symlink under docs/ must not lead out of it.
        if not path.is_relative_to(docs.resolve()) or not path.is_file():
            raise DocsPageNotFoundError(name)
        return path


def find_docs(package_dir: Path = PACKAGE_DIR) -> DocsSource:
    """The checkout's docs when the package runs from one, else the installed README."""
    root = package_dir.parent.parent
    if package_dir.parent.name == "plugins" and (root / "README.md").is_file():
        return DocsSource(readme="", root=root)
    try:
        readme = metadata.metadata(DISTRIBUTION)["Description"]
    except metadata.PackageNotFoundError:
        readme = None
    return DocsSource(readme=readme or NOT_INSTALLED)
