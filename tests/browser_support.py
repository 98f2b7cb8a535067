"""Headless Debian Chromium driven by Playwright, for UI tests against a LiveAirflow.

Nothing is downloaded at run time: Playwright's own browser builds are never used
(``executable_path`` is the system Chromium from the Debian package ``chromium``).
Playwright gives every ``launch()`` a fresh temporary profile (``--user-data-dir``), removed
on close, so no state leaks between runs.
"""

from __future__ import annotations

import shutil
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1400, "height": 1000}


def missing_browser_reason() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.exists() and shutil.which("chromium") is None:
        return (
            "needs /usr/bin/chromium: `make chromium` (called by `make test`) installs the Debian "
            "package, which takes root and apt-get; neither was possible here"
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "needs the playwright package (pip install playwright; no browser download)"
    return None


@contextmanager
def chromium() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM if CHROMIUM.exists() else shutil.which("chromium")),
            headless=True,
            args=CHROMIUM_ARGS,
        )
        try:
            yield browser
        finally:
            browser.close()


def new_page(browser: Browser, timeout_ms: float = 30_000) -> Page:
    context = browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    context.set_default_timeout(timeout_ms)
    return context.new_page()


def login(page: Page, base: str, username: str, password: str) -> None:
    """The simple auth manager's own login form, as a person fills it in."""
    page.goto(f"{base}/")
    page.get_by_role("textbox", name="Username").fill(username)
    page.get_by_role("textbox", name="Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/auth/login" not in url, timeout=60_000)


def open_trigger_form(page: Page, base: str, dag_id: str) -> Locator:
    """The DAG's page → "Trigger Dag": the form's dialog, once its fields have validated."""
    page.goto(f"{base}/dags/{dag_id}")
    page.get_by_role("button", name="Trigger Dag").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("button", name="Trigger", exact=True).wait_for()
    page.wait_for_timeout(1500)  # the form validates its fields after rendering
    return dialog


def submit_trigger_form(page: Page, dialog: Locator, dag_id: str) -> str:
    """Click the form's Trigger; the new run's id from the UI's own POST. Returns once the UI
    has opened the new run's page: a navigation started before would race with its own."""
    from playwright.sync_api import expect

    trigger = dialog.get_by_role("button", name="Trigger", exact=True)
    # A field filled just before validates again, and a click during that is dropped (seen
    # under load: no POST, the button greyed out): let it settle, then wait for the button.
    page.wait_for_timeout(1500)
    expect(trigger).to_be_enabled(timeout=30_000)
    with page.expect_response(
        lambda r: r.url.endswith(f"/dags/{dag_id}/dagRuns") and r.request.method == "POST"
    ) as posted:
        trigger.click(timeout=5_000)
    assert posted.value.status == 200, posted.value.text()
    run_id = str(posted.value.json()["dag_run_id"])
    page.wait_for_url(lambda url: f"/runs/{run_id}" in urllib.parse.unquote(url))
    return run_id


def settle(page: Page, ms: int = 800) -> None:
    """Network idle, then a short pause for React to render what it fetched."""
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(ms)


def read_log(page: Page, timeout_s: float = 60) -> str:
    """The task log on ``page`` as text: every group expanded (Log Settings → Expand); the page
    must be tall enough that the virtualized list renders every line."""
    settle(page, 1500)
    # On a loaded machine the log can arrive after the click and render its groups closed
    # (▶), or not have arrived yet: expand again until there is text, every group is open
    # (▼) and the text stops changing.
    # The menu item toggles (Expand / Collapse): a Collapse click is undone by the next round.
    deadline, text = time.monotonic() + timeout_s, ""
    while True:
        previous, text = text, str(page.get_by_role("code").first.inner_text())
        if (text and "▶" not in text and text == previous) or time.monotonic() > deadline:
            return text
        if "▶" in text:
            page.get_by_role("button", name="Log Settings").click()
            page.get_by_test_id("log-settings-expand").click()
        page.wait_for_timeout(800)


def shoot(page: Page, folder: Path, name: str, **kwargs: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), **kwargs)
    return path


class Steps:
    """Named, timed steps: one failing step is recorded and the next ones still run."""

    def __init__(self) -> None:
        self.results: list[dict[str, Any]] = []

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        start = time.monotonic()
        try:
            yield
        except Exception as exc:  # recorded, reported by the test at the end
            self.results.append(
                {
                    "step": name,
                    "ok": False,
                    "s": round(time.monotonic() - start, 1),
                    "error": repr(exc)[:600],
                }
            )
        else:
            self.results.append({"step": name, "ok": True, "s": round(time.monotonic() - start, 1)})

    @property
    def failed(self) -> list[dict[str, Any]]:
        return [r for r in self.results if not r["ok"]]

    def table(self) -> str:
        rows = [f"{'ok ' if r['ok'] else 'FAIL'} {r['s']:6.1f}s  {r['step']}" for r in self.results]
        rows += [f"  {r['step']}: {r['error']}" for r in self.failed]
        return "\n".join(rows)
