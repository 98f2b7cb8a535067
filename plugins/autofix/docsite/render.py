"""The docs site's HTML: Markdown rendered with raw HTML escaped, links between served files
pointed at their routes, headings given GitHub's anchors, and the page around it."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from itertools import pairwise
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.token import Token

from autofix.docsite.source import DocsSource

SITE_TITLE = "autofix docs"
# What GitHub drops from a heading's text to make its anchor.
_NOT_IN_ANCHOR = re.compile(r"[^\w\- ]")
_STYLE = """
body { font: 15px/1.55 system-ui, sans-serif; margin: 0; color: #1f2328; }
nav { padding: .6em 1.5em; border-bottom: 1px solid #d0d7de; background: #f6f8fa; }
main { max-width: 60em; padding: 1em 1.5em 3em; }
code, pre { font: 13px ui-monospace, monospace; background: #f6f8fa; }
pre { padding: .8em; overflow-x: auto; }
table { border-collapse: collapse; } th, td { border: 1px solid #d0d7de; padding: .3em .6em; }
span.unserved { border-bottom: 1px dotted #8c959f; }
"""


@dataclass(frozen=True)
class RenderedPage:
    title: str
    body: str


def _markdown() -> MarkdownIt:
    # CommonMark with raw HTML off (it is shown as text), plus GitHub's tables.
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def render_markdown(text: str, repo_path: str, source: DocsSource, base: str) -> RenderedPage:
    """``text`` is the Markdown of ``repo_path`` ("README.md", "docs/agents/claude.md"); its
    relative links resolve from there. A link to a file the site serves goes to its route under
    ``base`` (which ends in "/"); one to a file it does not serve keeps its text, not its link."""
    md = _markdown()
    tokens = md.parse(text)
    _add_heading_anchors(tokens)
    page_dir = posixpath.dirname(repo_path)
    for token in tokens:
        if token.children:
            token.children = _rewrite_links(token.children, page_dir, source, base)
    return RenderedPage(title=_title(tokens), body=md.renderer.render(tokens, md.options, {}))


def _title(tokens: Sequence[Token]) -> str:
    for heading, inline in pairwise(tokens):
        if heading.type == "heading_open" and heading.tag == "h1":
            return _plain_text(inline)
    return SITE_TITLE


def _plain_text(inline: Token) -> str:
    return "".join(c.content for c in inline.children or () if c.type in ("text", "code_inline"))


def _add_heading_anchors(tokens: Sequence[Token]) -> None:
    """GitHub's anchors (lower case, punctuation dropped, spaces to "-", "-1" on a repeat), so
    the docs' links to "page.md#a-heading" land where they do on GitHub."""
    seen: dict[str, int] = {}
    for heading, inline in pairwise(tokens):
        if heading.type != "heading_open":
            continue
        slug = _NOT_IN_ANCHOR.sub("", _plain_text(inline).strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        heading.attrSet("id", f"{slug}-{count}" if count else slug)


def _rewrite_links(
    children: list[Token], page_dir: str, source: DocsSource, base: str
) -> list[Token]:
    rewritten: list[Token] = []
    unserved_links = 0  # open links turned into spans, whose link_close must follow suit
    for token in children:
        if token.type == "link_open":
            href = _route(str(token.attrGet("href") or ""), page_dir, source, base)
            if href is None:
                unserved_links += 1
                token.tag = "span"
                token.attrs = {"class": "unserved", "title": "not served on this site"}
            else:
                token.attrSet("href", href)
        elif token.type == "link_close" and unserved_links:
            unserved_links -= 1
            token.tag = "span"
        elif token.type == "image":
            src = _route(str(token.attrGet("src") or ""), page_dir, source, base)
            if src is None:
                token = Token("text", "", 0, content=token.content)
            else:
                token.attrSet("src", src)
        rewritten.append(token)
    return rewritten


def _route(href: str, page_dir: str, source: DocsSource, base: str) -> str | None:
    """Where a link should go: ``href`` itself unless it is relative, a relative one to its
    route on this site, or ``None`` when the site does not serve the file it names."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path or parts.path.startswith("/"):
        return href
    target = posixpath.normpath(posixpath.join(page_dir, parts.path))
    route = source.route_of(target)
    if route is None:
        return None
    return f"{base}{route}" + (f"#{parts.fragment}" if parts.fragment else "")


def pages_list(names: Sequence[str], base: str) -> str:
    """The index's list of docs/ pages, by folder."""
    if not names:
        return (
            "<p>The pages under docs/ are served from a repository checkout; this installation"
            " has the README only.</p>"
        )
    items = "".join(
        f'<li><a href="{escape(base + name)}">{escape(name)}</a></li>' for name in names
    )
    return f'<h2 id="docs-pages">Docs pages</h2><ul>{items}</ul>'


def not_found_body(name: str, base: str) -> str:
    return (
        f'<h1>No page "{escape(name)}" here</h1><p>Only README.md and the files under docs/ are'
        f' served. <a href="{escape(base)}#docs-pages">Back to the docs index</a>.</p>'
    )


def sign_in_body(reason: str, login_url: str) -> str:
    return (
        f"<h1>Sign in to read the autofix docs</h1><p>{escape(reason)}. "
        f'<a href="{escape(login_url)}">Sign in to Airflow</a>, then open this page again.</p>'
    )


def html_document(title: str, body: str, base: str) -> str:
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} · {SITE_TITLE}</title><style>{_STYLE}</style></head>"
        f'<body><nav><a href="{escape(base)}">{SITE_TITLE}</a></nav><main>\n{body}</main>'
        "</body></html>\n"
    )
