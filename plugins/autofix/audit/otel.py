"""Whether OpenTelemetry spans are on (``audit.otel`` and the standard ``OTEL_*`` variables),
and the span sink when they are.

Nothing here imports opentelemetry: with no exporter configured the recorder holds no sink, so
a recorded call costs nothing more and the SDK is never loaded. ``audit/otel_spans.py`` builds
the spans; it is imported only once spans are wanted.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from autofix.config import OtelSettings
from autofix.redact import redact

if TYPE_CHECKING:
    from autofix.audit.envelope import Interaction
    from autofix.audit.events import AuditEvent

log = logging.getLogger("autofix.audit")

# Any of these set means a deployment has an OpenTelemetry collector: enabled "auto" turns on.
EXPORTER_VARIABLES = (
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_TRACES_EXPORTER",
)
# Every variable that changes which exporter is built: one sink per process and combination.
_EXPORTER_SETTINGS = (
    *EXPORTER_VARIABLES,
    "OTEL_EXPORTER_OTLP_PROTOCOL",
    "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
    "OTEL_SDK_DISABLED",
)
INSTALL_HINT = "pip install opentelemetry-sdk opentelemetry-exporter-otlp-proto-http"


class SpanSink(Protocol):
    """What the recorder hands every recorded attempt and event to."""

    def attempt(self, interaction: Interaction) -> None: ...

    def event(self, event: AuditEvent) -> None: ...

    def flush(self, timeout_s: float = 10.0) -> None: ...


def exporter_names(environ: Mapping[str, str]) -> list[str]:
    """``OTEL_TRACES_EXPORTER`` as a list (``otlp`` when unset), lower case."""
    names = [name.strip().lower() for name in environ.get("OTEL_TRACES_EXPORTER", "").split(",")]
    return [name for name in names if name] or ["otlp"]


def spans_wanted(settings: OtelSettings, environ: Mapping[str, str] | None = None) -> bool:
    """``enabled: true`` or ``false`` decides; ``auto`` is on when an exporter variable is set.
    ``OTEL_SDK_DISABLED=true`` and ``OTEL_TRACES_EXPORTER=none`` turn spans off either way."""
    env = os.environ if environ is None else environ
    if settings.enabled is False:
        return False
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    if exporter_names(env) == ["none"]:
        return False
    if settings.enabled is True:
        return True
    return any(env.get(name, "").strip() for name in EXPORTER_VARIABLES)


_sinks: dict[tuple[object, ...], SpanSink | None] = {}
_sinks_lock = threading.Lock()
_warned: set[str] = set()


def warn_once(key: str, message: str, *args: object) -> None:
    """One WARNING per process and ``key``: spans are an extra, never a reason to fail a task."""
    if key in _warned:
        return
    _warned.add(key)
    log.warning(message, *args)


def span_sink(settings: OtelSettings, environ: Mapping[str, str] | None = None) -> SpanSink | None:
    """The process's span sink for these settings, or None when spans are off (then nothing is
    imported). One tracer provider per process and configuration: every recorder shares it."""
    env = os.environ if environ is None else environ
    if not spans_wanted(settings, env):
        return None
    key = (os.getpid(), settings.model_dump_json(), *(env.get(name) for name in _EXPORTER_SETTINGS))
    with _sinks_lock:
        if key not in _sinks:
            _sinks[key] = _build(settings, env)
        return _sinks[key]


def _build(settings: OtelSettings, environ: Mapping[str, str]) -> SpanSink | None:
    try:
        # Here, not at import: the SDK loads only where a deployment asked for spans.
        from autofix.audit import otel_spans
    except ImportError as exc:
        warn_once(
            "import",
            "audit.otel: OpenTelemetry spans are on but %s is not installed (%s); no spans are "
            "sent. Install it (%s) or set audit.otel.enabled: false",
            exc.name or "opentelemetry",
            exc,
            INSTALL_HINT,
        )
        return None
    protocol = (
        environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
        or environ.get("OTEL_EXPORTER_OTLP_PROTOCOL")
        or "http/protobuf"
    ).strip()
    try:
        return otel_spans.sink_from_environment(
            settings, exporter_names(environ), protocol, _where(environ)
        )
    except Exception as exc:  # a broken exporter setting must not fail the task
        warn_once(
            "build",
            "audit.otel: could not set up the OpenTelemetry exporter (%s); no spans are sent. "
            "Check the OTEL_EXPORTER_OTLP_* variables",
            exc,
        )
        return None


def _where(environ: Mapping[str, str]) -> str:
    """The collector as the warning names it (credentials in a URL masked)."""
    endpoint = environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or environ.get(
        "OTEL_EXPORTER_OTLP_ENDPOINT"
    )
    return redact(endpoint) if endpoint else "the default OTLP endpoint on localhost"
