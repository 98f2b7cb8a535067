"""The docs site the Providers page links to: what it serves, how it renders, who may read it.

Here without Airflow: a stand-in sign-in check takes Airflow's place (its own is exercised in
tests/test_docsite_signin.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi import FastAPI, HTTPException, Request
from fastapi.testclient import TestClient

from autofix.docsite.mount import DOCS_URL_PREFIX, DocsApp
from autofix.docsite.render import render_markdown
from autofix.docsite.source import NOT_INSTALLED, DocsSource, find_docs
from autofix.errors import AutofixError, DocsPageNotFoundError

BASE = f"{DOCS_URL_PREFIX}/"
PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 16


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A repository with README.md, two docs pages, an image, and files the site must not serve."""
    (tmp_path / "docs" / "agents").mkdir(parents=True)
    (tmp_path / "README.md").write_text(
        "# The project\n\nRead [the guide](docs/guide.md#set-up), [the agents](docs/agents/) "
        "and [the code](plugins/autofix/plugin.py); [elsewhere](https://example.org/x).\n"
    )
    (tmp_path / "docs" / "guide.md").write_text(
        "# Guide\n\n## Set up\n\n## Set up\n\nSee [Claude](agents/claude.md) and "
        "![the graph](graph.png).\n\n<script>alert(1)</script> <b onclick=x>bold</b>\n\n"
        "[run me](javascript:alert(1))\n"
    )
    (tmp_path / "docs" / "agents" / "claude.md").write_text(
        "# Claude\n\nBack to [the guide](../guide.md), not [the tests](../../tests/x.md).\n"
    )
    (tmp_path / "docs" / "graph.png").write_bytes(PNG)
    (tmp_path / "docs" / "drawing.svg").write_text("<svg onload='alert(1)'/>")
    (tmp_path / "secret.md").write_text("# Not for the site\n")
    (tmp_path / "docs" / "escape.md").symlink_to(tmp_path / "secret.md")
    return tmp_path


def _links(html: str) -> list[str]:
    return re.findall(r'<a href="([^"]*)"', html)


def test_links_between_served_files_go_to_their_routes(checkout: Path) -> None:
    source = DocsSource(readme="", root=checkout)
    readme = render_markdown(source.readme_text(), "README.md", source, BASE)
    assert readme.title == "The project"
    assert _links(readme.body) == [f"{BASE}guide#set-up", BASE, "https://example.org/x"]
    # A file the site does not serve keeps its text, not a link that would lead nowhere.
    assert '<span class="unserved" title="not served on this site">the code</span>' in readme.body

    guide = render_markdown(source.page_text("guide"), "docs/guide.md", source, BASE)
    assert _links(guide.body) == [f"{BASE}agents/claude"]
    assert f'<img src="{BASE}graph.png" alt="the graph" />' in guide.body

    claude = render_markdown(
        source.page_text("agents/claude"), "docs/agents/claude.md", source, BASE
    )
    assert _links(claude.body) == [f"{BASE}guide"]
    assert ">the tests</span>" in claude.body


def test_headings_get_the_anchors_github_gives_them(checkout: Path) -> None:
    source = DocsSource(readme="", root=checkout)
    guide = render_markdown(source.page_text("guide"), "docs/guide.md", source, BASE)
    assert '<h2 id="set-up">Set up</h2>' in guide.body
    assert '<h2 id="set-up-1">Set up</h2>' in guide.body


def test_raw_html_and_script_links_are_shown_as_text(checkout: Path) -> None:
    source = DocsSource(readme="", root=checkout)
    guide = render_markdown(source.page_text("guide"), "docs/guide.md", source, BASE)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in guide.body
    assert "&lt;b onclick=x&gt;bold&lt;/b&gt;" in guide.body
    assert "<script" not in guide.body
    assert "onclick=" not in guide.body.replace("&lt;b onclick=x&gt;", "")
    assert "javascript:" not in "".join(_links(guide.body))


@pytest.mark.parametrize(
    "name",
    [
        "../README",
        "..",
        "../secret",
        "agents/../../secret",
        "/etc/passwd",
        "guide.md",
        "escape",
        "nope",
        "",
    ],
)
def test_only_pages_under_docs_are_served(checkout: Path, name: str) -> None:
    source = DocsSource(readme="", root=checkout)
    with pytest.raises(DocsPageNotFoundError, match="pick one from the docs index") as caught:
        source.page_text(name)
    assert isinstance(caught.value, AutofixError)


def test_the_index_lists_the_served_pages_only(checkout: Path) -> None:
    # docs/escape.md is a symlink out of docs/.
    assert DocsSource(readme="", root=checkout).page_names() == ["agents/claude", "guide"]


@pytest.mark.parametrize("name", ["../secret.png", "drawing.svg", "graph.PNG.md", "nope.png"])
def test_only_raster_images_under_docs_are_served(checkout: Path, name: str) -> None:
    source = DocsSource(readme="", root=checkout)
    with pytest.raises(DocsPageNotFoundError):
        source.image(name)
    assert source.image("graph.png") == ((checkout / "docs" / "graph.png").resolve(), "image/png")


def test_the_installed_readme_stands_in_outside_a_checkout(tmp_path: Path) -> None:
    installed = find_docs(tmp_path / "site-packages" / "autofix")
    assert installed.root is None
    assert installed.readme_text().startswith("# autofix")
    assert installed.readme_text() != NOT_INSTALLED  # the test venv has the package installed
    assert installed.page_names() == []
    with pytest.raises(DocsPageNotFoundError):
        installed.page_text("architecture")

    repository = Path(__file__).resolve().parent.parent
    assert find_docs().root == repository
    assert "architecture" in find_docs().page_names()


# The site as the api-server mounts it, behind a stand-in for Airflow's sign-in check.
def _sign_in() -> object:
    def require_user(request: Request) -> None:
        if request.cookies.get("_token") != "valid":
            raise HTTPException(status_code=401, detail="Not authenticated")

    return require_user


def _client(source: DocsSource) -> TestClient:
    api_server = FastAPI()
    api_server.mount(
        DOCS_URL_PREFIX, DocsApp(_sign_in, lambda next_url: f"/auth/login?next={next_url}", source)
    )
    return TestClient(api_server)


def test_a_request_without_a_signed_in_user_gets_a_sign_in_link(checkout: Path) -> None:
    client = _client(DocsSource(readme="", root=checkout))
    for path in ("", "guide", "graph.png", "nope"):
        refused = client.get(f"{BASE}{path}")
        assert refused.status_code == 401
        assert "The project" not in refused.text and "PNG" not in refused.text
        assert f'href="/auth/login?next=http://testserver{BASE}{path}"' in refused.text


def test_signed_in_users_read_the_pages_and_images(checkout: Path) -> None:
    client = _client(DocsSource(readme="", root=checkout))
    client.cookies.set("_token", "valid")
    index = client.get(BASE)
    assert index.status_code == 200
    assert index.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in index.headers["content-security-policy"]
    assert "<title>The project · autofix docs</title>" in index.text
    assert f'href="{BASE}agents/claude">agents/claude</a>' in index.text  # the index lists pages
    assert "<h1" in client.get(f"{BASE}agents/claude").text
    image = client.get(f"{BASE}graph.png")
    assert (image.status_code, image.headers["content-type"], image.content) == (
        200,
        "image/png",
        PNG,
    )


@pytest.mark.parametrize("path", ["nope", "%2e%2e/secret", "escape", "drawing.svg", "guide/"])
def test_an_unknown_page_is_a_404_with_a_way_back(checkout: Path, path: str) -> None:
    client = _client(DocsSource(readme="", root=checkout))
    client.cookies.set("_token", "valid")
    missing = client.get(f"{BASE}{path}")
    assert missing.status_code == 404
    assert f'<a href="{BASE}#docs-pages">Back to the docs index</a>' in missing.text
    assert "Not for the site" not in missing.text and "onload" not in missing.text


def test_an_installed_package_serves_its_readme_only() -> None:
    client = _client(DocsSource(readme="# Installed\n\nSee [the docs](docs/guide.md).\n"))
    client.cookies.set("_token", "valid")
    index = client.get(BASE)
    assert "<h1" in index.text and "Installed" in index.text
    assert "this installation has the README only" in index.text
    assert client.get(f"{BASE}guide").status_code == 404
