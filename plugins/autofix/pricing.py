"""What one agent call cost in USD, and which model and provider it used.

Precedence (``CostSource``), first that applies:

1. ``reported``: the CLI's own figure (Claude Code's ``total_cost_usd``). It wins because it is
   what the vendor charged for that call, including what token counts leave out (cache writes
   by lifetime, the long-context tier, server-side tools).
2. ``config``: the model's entry under ``prices:`` in config/autofix.yaml (a negotiated price, a
   model the table lacks, a local model at 0).
3. ``table``: the tokens priced by genai-prices, the table ``common.ai`` uses too.
4. ``unknown``: no model, or one neither knows. ``cost_usd`` stays None, never $0; the call
   still counts against the token budgets (autofix.audit.budget).

The model is the one the agent reported (Claude's and Gemini's ``init`` events, the OpenAI
response), else the one asked for: the task's ``model``, a ``--model``/``-m``/``-c model=`` in
its command, or (Codex, whose ``--json`` events never name it) ``model`` in its config.toml.
"""

from __future__ import annotations

import logging
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from autofix.config import ModelPrice
from autofix.costs import CostSource
from autofix.result import ParseResult, TokenUsage

log = logging.getLogger("autofix.pricing")

# The output format → genai-prices' provider id (the sim agent speaks one of these).
PROVIDER_BY_FORMAT: dict[str, str] = {
    "claude": "anthropic",
    "claude-json": "anthropic",
    "codex": "openai",
    "gemini": "google",
    "gemini-stream": "google",
}
# Formats whose thinking tokens are already inside output_tokens (OpenAI's reasoning tokens);
# elsewhere they are billed on top, as output (Gemini's thoughts).
REASONING_IN_OUTPUT = frozenset({"codex"})
_MODEL_FLAGS = ("--model", "-m")
_PER_MTOK = Decimal(1_000_000)


@dataclass(frozen=True)
class CallPrice:
    """A call's cost, where it came from, and how it was found (for the log)."""

    cost_usd: float | None
    source: CostSource
    detail: str = ""


@dataclass(frozen=True)
class PricedCall:
    """What to price: the output format, the model and, for an OpenAI-compatible endpoint,
    its base URL (genai-prices knows providers by URL)."""

    output_format: str
    model: str | None
    api_url: str | None = None

    @property
    def provider(self) -> str | None:
        return PROVIDER_BY_FORMAT.get(self.output_format)


def billed_tokens(usage: TokenUsage, output_format: str) -> tuple[int, int, int]:
    """(input including cache reads, cache reads, output) as the vendor bills them."""
    cached = min(usage.cached_input_tokens, usage.input_tokens)
    output = usage.output_tokens
    if output_format not in REASONING_IN_OUTPUT:
        output += usage.thinking_tokens
    return usage.input_tokens, cached, output


class Pricer:
    """Prices calls: the config's ``prices:`` first, then the genai-prices table."""

    def __init__(self, overrides: Mapping[str, ModelPrice] | None = None) -> None:
        self._overrides = {name.strip().lower(): price for name, price in (overrides or {}).items()}

    def price(self, usage: TokenUsage, call: PricedCall) -> CallPrice:
        if not call.model:
            return CallPrice(
                None, CostSource.UNKNOWN, "the model is not known; set the task's model"
            )
        tokens = billed_tokens(usage, call.output_format)
        override = self._overrides.get(call.model.strip().lower())
        if override is not None:
            return CallPrice(_config_cost(override, *tokens), CostSource.CONFIG, call.model)
        return _table_price(call, *tokens)

    def price_result(self, result: ParseResult, call: PricedCall) -> ParseResult:
        """``result`` with ``model``, ``cost_usd`` and ``cost_source`` filled in; a cost the
        CLI reported is kept."""
        model = result.model or call.model
        if result.cost_usd is not None:
            return result.model_copy(update={"model": model, "cost_source": CostSource.REPORTED})
        price = self.price(
            result.usage, PricedCall(call.output_format, model, api_url=call.api_url)
        )
        if price.source is CostSource.UNKNOWN:
            log.info("autofix: cost unknown: %s", price.detail)
        return result.model_copy(
            update={"model": model, "cost_usd": price.cost_usd, "cost_source": price.source}
        )


def _config_cost(price: ModelPrice, input_tokens: int, cached: int, output: int) -> float:
    cached_rate = price.input_usd_per_mtok
    if price.cached_input_usd_per_mtok is not None:
        cached_rate = price.cached_input_usd_per_mtok
    total = (
        Decimal(input_tokens - cached) * Decimal(str(price.input_usd_per_mtok))
        + Decimal(cached) * Decimal(str(cached_rate))
        + Decimal(output) * Decimal(str(price.output_usd_per_mtok))
    ) / _PER_MTOK
    return round(float(total), 6)


def _table_price(call: PricedCall, input_tokens: int, cached: int, output: int) -> CallPrice:
    # Imported here: the table is 1.5 MB of Python, loaded on the first priced call only.
    from genai_prices import Usage, calc_price

    assert call.model is not None
    usage = Usage(input_tokens=input_tokens, cache_read_tokens=cached, output_tokens=output)
    try:
        if call.api_url and call.provider is None:
            priced = calc_price(usage, call.model, provider_api_url=call.api_url)
        else:
            priced = calc_price(usage, call.model, provider_id=call.provider)
    except (LookupError, ValueError) as exc:
        where = call.provider or call.api_url or "any provider"
        return CallPrice(
            None,
            CostSource.UNKNOWN,
            f"no price for model {call.model!r} ({where}) in genai-prices ({exc}); "
            "add it under prices: in config/autofix.yaml",
        )
    detail = f"{priced.model.id} ({priced.provider.id}) in genai-prices"
    return CallPrice(round(float(priced.total_price), 6), CostSource.TABLE, detail)


# -- which model a call asked for ----------------------------------------------------------


def model_from_argv(argv: Sequence[str] | None) -> str | None:
    """The model a command line names: ``--model X``, ``--model=X``, ``-m X``, or Codex's
    ``-c model=X`` / ``--config model="X"``; the last one wins, as in the CLIs."""
    found: str | None = None
    args = list(argv or ())
    for index, arg in enumerate(args):
        following = args[index + 1] if index + 1 < len(args) else None
        if arg in _MODEL_FLAGS and following is not None:
            found = following
        elif arg.startswith("--model="):
            found = arg.split("=", 1)[1]
        elif arg in ("-c", "--config") and following is not None:
            key, _, value = following.partition("=")
            if key.strip() == "model" and value:
                found = value.strip().strip("\"'")
    return found or None


def codex_config_model(env: Mapping[str, str]) -> str | None:
    """``model`` in Codex's config.toml (``$CODEX_HOME``, else ``~/.codex``), or of the profile
    it selects; None when there is none or the file cannot be read."""
    home = env.get("CODEX_HOME") or os.environ.get("CODEX_HOME")
    path = Path(home) / "config.toml" if home else Path.home() / ".codex" / "config.toml"
    try:
        config: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    profile = config.get("profile")
    profiles = config.get("profiles")
    if isinstance(profile, str) and isinstance(profiles, dict):
        chosen = profiles.get(profile)
        if isinstance(chosen, dict) and isinstance(chosen.get("model"), str):
            return str(chosen["model"])
    model = config.get("model")
    return model if isinstance(model, str) and model else None


def requested_model(
    output_format: str,
    model: str | None,
    command: Sequence[str] | None,
    env: Mapping[str, str],
) -> str | None:
    """The model a call asked for: the task's, its command's, then Codex's own config."""
    asked = model or model_from_argv(command)
    if asked is None and output_format == "codex":
        asked = codex_config_model(env)
    return asked
