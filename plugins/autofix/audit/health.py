"""Health over time (the UI's health page): per day or hour, how often retries recover, by the
first attempt's error category (as ``autofix report`` counts it) and by retry strategy, and
what a valid answer costs; over the window, the errors that recur, the noise lines per rule,
and the retry-rate alert's state (audit/alert.py). The scan every store can answer it with.

Each attempt is reduced to ``HealthFacts`` once: the SQL store keeps them as columns (written
with the attempt), the scan derives them in recorded order, and both add them up in one
``HealthTally``, so every store answers alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from itertools import islice
from typing import Any, Literal

from autofix.audit.envelope import Interaction, aware
from autofix.audit.runs import dag_of
from autofix.config import AlertSettings

Bucket = Literal["day", "hour"]
TOP_ERRORS = 10
RULES_CHARS = 1000  # the matched rule ids kept per attempt: an index entry stays small
CATEGORIES_CHARS = 200
STRATEGY_CHARS = 40  # as the strategy column keeps it
_SEPARATOR = ","  # neither a rule id nor an error category holds one


def join_names(names: Iterable[str], limit: int) -> str | None:
    """Names as one bounded text (whole names only); None for none."""
    kept: list[str] = []
    size = -1
    for name in dict.fromkeys(names):
        size += len(name) + 1
        if size > limit:
            break
        kept.append(name)
    return _SEPARATOR.join(kept) or None


def split_names(text: str | None) -> list[str]:
    return [name for name in (text or "").split(_SEPARATOR) if name]


@dataclass(frozen=True)
class ChainLink:
    """Where an attempt stands in its chain (attempt 1, then its feedback retries):
    ``chain_step`` counts from 1; ``chain_categories`` are its first attempt's categories."""

    attempt: int
    chain_step: int
    chain_categories: str | None


def chain_link(item: Interaction, previous: ChainLink | None) -> ChainLink:
    """``previous``: the last attempt recorded before this one with its DAG, run and
    operation. As ``metrics.build_chains`` has it, an attempt after the first continues that
    chain when its number is higher; anything else starts a chain."""
    if previous is not None and item.attempt > 1 and previous.attempt < item.attempt:
        return ChainLink(item.attempt, previous.chain_step + 1, previous.chain_categories)
    categories = join_names(item.result.error_categories, CATEGORIES_CHARS)
    return ChainLink(item.attempt, 1, categories)


@dataclass(frozen=True)
class HealthGroup:
    """What one attempt adds to its bucket, cost aside: attempts alike share a group, so a
    store sums them with one GROUP BY. ``retry_strategy``: its strategy when it is a retry;
    ``ended_categories``: its chain's first categories when it ends a retried chain."""

    success: bool
    valid: bool
    retry_strategy: str | None
    ended_categories: str | None

    def key(self) -> str:
        flags = f"{self.success:d}{self.valid:d}"
        return f"{flags}|{self.retry_strategy or ''}|{self.ended_categories or ''}"

    @classmethod
    def read(cls, key: str) -> HealthGroup:
        strategy, categories = key[3:].rsplit("|", 1)  # a strategy may hold "|", no category does
        return cls(key[0] == "1", key[1] == "1", strategy or None, categories or None)


@dataclass(frozen=True)
class HealthFacts:
    """What the health page needs of one attempt beyond its plain columns: the SQL store
    keeps them as columns, written with the attempt."""

    valid: bool
    chain_step: int
    chain_categories: str | None
    health_group: str
    noise_lines: int
    rules: str | None

    @classmethod
    def of(cls, item: Interaction, link: ChainLink) -> HealthFacts:
        result = item.result
        strategy = item.envelope.context.get("strategy") if item.attempt >= 2 else None
        ended = item.is_final and link.chain_step > 1
        group = HealthGroup(
            success=result.success,
            valid=result.valid,
            retry_strategy=str(strategy)[:STRATEGY_CHARS] if strategy else None,
            ended_categories=link.chain_categories if ended else None,
        )
        return cls(
            valid=result.valid,
            chain_step=link.chain_step,
            chain_categories=link.chain_categories,
            health_group=group.key(),
            noise_lines=result.noise_lines,
            rules=join_names(result.matched_rules, RULES_CHARS),
        )

    def columns(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class HealthQuery:
    """``dag_ids``: the DAGs the reader may see (always applied); ``dag_id`` narrows to one.
    The window is ``since``..``until`` (inclusive, either open); the alert's state is taken
    over the last retries up to ``until``, as ``alert`` configures it."""

    dag_ids: frozenset[str]
    dag_id: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    bucket: Bucket = "day"
    alert: AlertSettings = field(default_factory=AlertSettings)
    top: int = TOP_ERRORS

    def dags(self) -> frozenset[str]:
        if self.dag_id is None:
            return self.dag_ids
        return self.dag_ids & {self.dag_id}

    def in_window(self, moment: datetime) -> bool:
        moment = aware(moment)
        return (self.since is None or moment >= aware(self.since)) and (
            self.until is None or moment <= aware(self.until)
        )


@dataclass
class Recovery:
    """Of ``trials`` (retries, or retried chains), how many ended with a valid answer."""

    trials: int = 0
    recovered: int = 0

    @property
    def rate(self) -> float | None:
        return self.recovered / self.trials if self.trials else None


@dataclass
class HealthBucket:
    """One day or hour. ``by_category``: retried chains that ended here, by their first
    attempt's error categories (as ``autofix report``'s recovery by error type); by_strategy:
    retries sent with that strategy, and how many came back valid (as the alert counts)."""

    start: datetime
    attempts: int = 0
    successes: int = 0
    valid_answers: int = 0
    cost_usd: float = 0.0
    by_category: dict[str, Recovery] = field(default_factory=dict)
    by_strategy: dict[str, Recovery] = field(default_factory=dict)

    @property
    def cost_per_valid_answer(self) -> float | None:
        """As ``autofix report``'s: the cost of every attempt over the valid answers."""
        return self.cost_usd / self.valid_answers if self.valid_answers else None


@dataclass(frozen=True)
class RecurringError:
    """An error (``InteractionResult.error_key``) and its latest occurrence."""

    error_key: str
    count: int
    last_seen: datetime
    dag_id: str | None
    run_id: str


@dataclass(frozen=True)
class RuleNoise:
    """A rule, the attempts it matched in (``autofix metrics``' rule hits), and the noise
    lines of those attempts (all of them when several rules matched in one attempt)."""

    rule: str
    calls: int
    noise_lines: int


@dataclass(frozen=True)
class RetryHealth:
    """The retry-rate alert's view: of the last ``window`` retries, how many came back valid."""

    retries: int
    recovered: int
    threshold: float
    window: int
    min_retries: int

    @property
    def rate(self) -> float:
        return self.recovered / self.retries if self.retries else 1.0

    @property
    def below_threshold(self) -> bool:
        return self.retries >= self.min_retries and self.rate < self.threshold


def retry_health(recovered: Iterable[bool], settings: AlertSettings) -> RetryHealth:
    """``recovered``: for each retry, newest first, whether it came back valid."""
    window = list(islice(recovered, settings.window))
    return RetryHealth(
        retries=len(window),
        recovered=sum(window),
        threshold=settings.retry_success_threshold,
        window=settings.window,
        min_retries=settings.min_retries,
    )


@dataclass(frozen=True)
class Health:
    bucket: Bucket
    buckets: list[HealthBucket]
    top_errors: list[RecurringError]
    noise: list[RuleNoise]
    noise_lines: int
    alert: RetryHealth
    alert_enabled: bool


def bucket_start(moment: datetime, bucket: Bucket) -> datetime:
    utc = aware(moment).astimezone(UTC)
    if bucket == "hour":
        return utc.replace(minute=0, second=0, microsecond=0)
    return utc.replace(hour=0, minute=0, second=0, microsecond=0)


class HealthTally:
    """Sums of attempts (one at a time, or grouped ``count`` at once) into a ``Health``."""

    def __init__(self, query: HealthQuery) -> None:
        self.query = query
        self._buckets: dict[datetime, HealthBucket] = {}
        self._errors: dict[str, tuple[int, RecurringError]] = {}
        self._noise: dict[str, tuple[int, int]] = {}
        self._noise_lines = 0

    def add(self, start: datetime, group: HealthGroup, *, count: int, cost_usd: float) -> None:
        """``count`` attempts of one group, and what they cost."""
        bucket = self._buckets.get(start)
        if bucket is None:
            bucket = self._buckets[start] = HealthBucket(start)
        recovered = count if group.valid else 0
        bucket.attempts += count
        bucket.successes += count if group.success else 0
        bucket.valid_answers += recovered
        bucket.cost_usd += cost_usd
        if group.retry_strategy:
            _recover(bucket.by_strategy, group.retry_strategy, count, recovered)
        for category in split_names(group.ended_categories):
            _recover(bucket.by_category, category, count, recovered)

    def add_error(self, key: str, count: int, latest: RecurringError) -> None:
        """``latest``: the occurrence to show, kept when it is the newest seen so far."""
        seen, shown = self._errors.get(key, (0, latest))
        if aware(latest.last_seen) >= aware(shown.last_seen):
            shown = latest
        self._errors[key] = (seen + count, shown)

    def add_noise(self, rules: str | None, count: int, lines: int) -> None:
        self._noise_lines += lines
        for rule in split_names(rules):
            calls, total = self._noise.get(rule, (0, 0))
            self._noise[rule] = (calls + count, total + lines)

    def health(self, alert: RetryHealth) -> Health:
        errors = [
            RecurringError(key, count, aware(shown.last_seen), shown.dag_id, shown.run_id)
            for key, (count, shown) in self._errors.items()
        ]
        errors.sort(key=lambda e: (-e.count, -e.last_seen.timestamp(), e.error_key))
        noise = [RuleNoise(rule, calls, lines) for rule, (calls, lines) in self._noise.items()]
        noise.sort(key=lambda n: (-n.noise_lines, -n.calls, n.rule))
        buckets = [self._buckets[start] for start in sorted(self._buckets)]
        for bucket in buckets:
            bucket.by_category = dict(sorted(bucket.by_category.items()))
            bucket.by_strategy = dict(sorted(bucket.by_strategy.items()))
        return Health(
            bucket=self.query.bucket,
            buckets=buckets,
            top_errors=errors[: self.query.top],
            noise=noise,
            noise_lines=self._noise_lines,
            alert=alert,
            alert_enabled=self.query.alert.enabled,
        )


def _recover(table: dict[str, Recovery], name: str, count: int, valid: int) -> None:
    row = table.get(name)
    if row is None:
        row = table[name] = Recovery()
    row.trials += count
    row.recovered += valid


def scan_health(interactions: Iterable[Interaction], query: HealthQuery) -> Health:
    """The health page from every interaction in recorded order (stores without an index):
    the whole history is read, since a chain or the alert's retries may begin before the
    window."""
    tally = HealthTally(query)
    dags = query.dags()
    known: dict[str, str | None] = {}
    links: dict[tuple[str | None, str, str], ChainLink] = {}
    retries: list[tuple[datetime, int, bool]] = []
    for seq, item in enumerate(interactions):
        dag_id = dag_of(item, known)
        key = (dag_id, item.trace_id, item.operation)
        link = links[key] = chain_link(item, links.get(key))
        if dag_id not in dags:
            continue
        facts = HealthFacts.of(item, link)
        moment = aware(item.recorded_at)
        if item.attempt >= 2 and (query.until is None or moment <= aware(query.until)):
            retries.append((moment, seq, facts.valid))
        if not query.in_window(moment):
            continue
        _add_one(tally, query, item, dag_id, facts)
    retries.sort(reverse=True)
    alert = retry_health((valid for _, _, valid in retries), query.alert)
    return tally.health(alert)


def _add_one(
    tally: HealthTally,
    query: HealthQuery,
    item: Interaction,
    dag_id: str | None,
    facts: HealthFacts,
) -> None:
    result = item.result
    tally.add(
        bucket_start(item.recorded_at, query.bucket),
        HealthGroup.read(facts.health_group),
        count=1,
        cost_usd=result.cost_usd or 0.0,
    )
    key = result.error_key
    if key is not None:
        occurrence = RecurringError(key, 1, aware(item.recorded_at), dag_id, item.trace_id)
        tally.add_error(key, 1, occurrence)
    if facts.rules is not None or facts.noise_lines > 0:
        tally.add_noise(facts.rules, 1, facts.noise_lines)
