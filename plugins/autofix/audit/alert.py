"""Warn when feedback retries stop recovering."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlsplit

from autofix.audit.envelope import Interaction
from autofix.audit.health import RetryHealth, retry_health
from autofix.audit.stores.base import AuditStore
from autofix.config import AlertSettings
from autofix.redact import redact, redact_value

log = logging.getLogger("autofix.audit")

ALERT_NAME = "autofix.retry_success_rate_low"

Notifier = Callable[[dict[str, Any]], object]
Poster = Callable[[str, dict[str, Any], float], object]


def _httpx_post(url: str, payload: dict[str, Any], timeout: float) -> object:
    import httpx

    response = httpx.post(url, json=payload, timeout=timeout)
    response.raise_for_status()
    return response


def _host(url: str) -> str:
    # Webhook URLs often carry a token in the path: log the host only.
    try:
        return urlsplit(url).hostname or "?"
    except ValueError:
        return "?"


class RetryAlert:
    """``check(store)`` after a retry is recorded; returns the payload when the alert fired.

    Over the last ``window`` retries (attempts 2, 3, ...), if the share that came back valid
    falls below ``retry_success_threshold``: a WARNING on ``autofix.audit``, then the optional
    webhook (HTTP POST, JSON) and the optional notifier callable. Delivery failures are
    logged, never raised.
    """

    def __init__(
        self,
        settings: AlertSettings,
        *,
        notifier: Notifier | None = None,
        post: Poster = _httpx_post,
    ) -> None:
        self.settings = settings
        self.notifier = notifier
        self._post = post

    def health(self, retries: Sequence[Interaction]) -> RetryHealth:
        return retry_health((item.result.valid for item in retries), self.settings)

    def check(self, store: AuditStore) -> dict[str, Any] | None:
        if not self.settings.enabled:
            return None
        retries = store.recent(self.settings.window, min_attempt=2)
        return self.evaluate(retries)

    def evaluate(self, retries: Sequence[Interaction]) -> dict[str, Any] | None:
        """Fire if the retries (newest first) recover below the threshold."""
        health = self.health(retries)
        if not health.below_threshold:
            return None
        payload = self.payload(health, list(retries)[: self.settings.window])
        self.fire(payload)
        return payload

    def payload(self, health: RetryHealth, window: Sequence[Interaction]) -> dict[str, Any]:
        failed = [item for item in window if not item.result.valid]
        categories = Counter(cat for item in failed for cat in item.result.error_categories)
        operations = Counter(item.operation for item in failed)
        message = (
            f"autofix retry success rate {health.rate:.0%} over the last {health.retries} retries "
            f"is below {health.threshold:.0%}"
        )
        payload = {
            "alert": ALERT_NAME,
            "message": message,
            "rate": round(health.rate, 4),
            "threshold": health.threshold,
            "retries": health.retries,
            "recovered": health.recovered,
            "failing_operations": dict(operations.most_common(5)),
            "error_categories": dict(categories.most_common(5)),
            "recent_traces": list(dict.fromkeys(item.trace_id for item in failed))[:5],
        }
        cleaned = redact_value(payload)
        return cleaned if isinstance(cleaned, dict) else payload

    def fire(self, payload: dict[str, Any]) -> None:
        log.warning("%s: %s", ALERT_NAME, payload["message"])
        url = self.settings.webhook_url
        if url:
            try:
                self._post(url, payload, self.settings.webhook_timeout_seconds)
            except Exception as exc:
                log.warning(
                    "alert webhook to %s failed: %s",
                    _host(url),
                    redact(str(exc).replace(url, "<url>")),
                )
        if self.notifier is not None:
            try:
                self.notifier(payload)
            except Exception as exc:
                log.warning("alert notifier %r failed: %s", self.notifier, redact(str(exc)))
