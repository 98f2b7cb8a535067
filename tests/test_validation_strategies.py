"""Retry strategies in the attempt loop: what each retry sends, and how adaptive chooses."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from autofix.audit.envelope import Envelope, interaction_from_parse_result
from autofix.audit.stores.memory import MemoryStore
from autofix.result import ParseResult, Status
from autofix.validation.adaptive import (
    DEFAULT_ADAPTIVE_TABLE,
    AdaptiveAdvisor,
    RecoveryStats,
    observations_from_interactions,
)
from autofix.validation.api import generate_and_validate
from autofix.validation.completion import completion_hybrid, error_note, last_paragraph
from autofix.validation.loop import AttemptLoop
from autofix.validation.policy import AttemptPolicy, AttemptRequest
from autofix.validation.strategies import arm, arm_parts
from autofix.validation.validator import OutputValidator

PROMPT = "Strategies as JSON.\n\nIdea: a\nJSON: {}\n\nIdea: b\nJSON:"
BAD = ' {"name": "x", "period": 900}'
GOOD = ' {"name": "x", "period": 9}'


class Item(BaseModel):
    name: str
    period: int = Field(ge=1, le=250)


def run(policy: AttemptPolicy, answers: Iterable[str]) -> tuple[list[AttemptRequest], bool]:
    queue = list(answers)
    seen: list[AttemptRequest] = []

    def call(request: AttemptRequest) -> str:
        seen.append(request)
        return queue.pop(0)

    result = AttemptLoop(OutputValidator(Item), policy, write_report=False).run(PROMPT, call)
    return seen, result.ok


def test_feedback_default_is_unchanged() -> None:
    seen, ok = run(AttemptPolicy(), [BAD, GOOD])
    assert ok and seen[1].strategy == "feedback" and seen[1].seed_offset == 0
    assert "## Original requirements" in seen[1].prompt and seen[1].messages is None
    assert not seen[0].constrained and seen[1].retry_for == "range_violation"


def test_resample_sends_the_prompt_again_with_new_seeds_and_ignores_identical_errors() -> None:
    seen, ok = run(AttemptPolicy(strategy="resample"), [BAD, BAD, GOOD])
    assert ok and [r.prompt for r in seen] == [PROMPT] * 3
    assert [r.seed_offset for r in seen] == [0, 1, 2]


def test_feedback_stops_on_identical_errors_as_before() -> None:
    seen, ok = run(AttemptPolicy(), [BAD, BAD, GOOD])
    assert not ok and len(seen) == 2


def test_completion_hybrid_puts_the_note_before_the_query_without_the_old_answer() -> None:
    seen, _ = run(
        AttemptPolicy(strategy="feedback+resample", feedback_style="completion"), [BAD, GOOD]
    )
    retry = seen[1].prompt
    head, slot = last_paragraph(PROMPT)
    assert retry.startswith(head) and retry.endswith(slot)
    assert "# Note: period: Input should be less than or equal to 250" in retry
    assert "900" not in retry and seen[1].seed_offset == 1


def test_completion_feedback_keeps_the_answer_in_place_then_asks_again() -> None:
    seen, _ = run(AttemptPolicy(feedback_style="completion"), [BAD, GOOD])
    retry = seen[1].prompt
    assert retry.startswith(PROMPT + BAD + "\n# Note: period")
    assert retry.endswith("Idea: b\nJSON:")


def test_history_builds_the_growing_conversation() -> None:
    seen, ok = run(AttemptPolicy(strategy="history"), ["nope", BAD, GOOD])
    assert ok
    third = seen[2].messages
    assert third is not None and [m["role"] for m in third] == [
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert third[1]["content"] == "nope" and third[3]["content"] == BAD
    assert third[-1]["content"] == seen[2].prompt


def test_constrained_flag_and_strategy() -> None:
    seen, _ = run(AttemptPolicy(strategy="constrained"), [BAD, GOOD])
    assert all(r.constrained for r in seen) and seen[1].seed_offset == 1
    seen, _ = run(AttemptPolicy(strategy="history", constrained=True), [BAD, GOOD])
    assert all(r.constrained for r in seen)


def test_adaptive_without_history_uses_the_default_table() -> None:
    seen, _ = run(AttemptPolicy(strategy="adaptive"), ["no json here", GOOD])
    assert seen[1].strategy == DEFAULT_ADAPTIVE_TABLE["structural_error"] == "resample"
    seen, _ = run(AttemptPolicy(strategy="adaptive"), [BAD, GOOD])
    assert seen[1].strategy == "feedback+resample"


def test_adaptive_follows_observed_recovery_rates() -> None:
    stats = RecoveryStats()
    for ok in [True] * 8 + [False] * 2:
        stats.add("range_violation", "history", ok)
    for ok in [True] * 3 + [False] * 7:
        stats.add("range_violation", "feedback+resample", ok)
    stats.add("range_violation", "resample", True)  # one trial: below min_trials, not counted
    advisor = AdaptiveAdvisor(stats=stats)
    assert advisor.choose("range_violation") == "history"
    assert advisor.choose("pattern_violation") == "feedback+resample"
    seen, _ = run(AttemptPolicy(strategy="adaptive", advisor=advisor), [BAD, GOOD])
    assert seen[1].strategy == "history" and seen[1].messages is not None


def test_adaptive_learns_from_the_audit_store() -> None:
    store = MemoryStore()
    for index, ok in enumerate([True] * 6 + [False]):
        envelope = Envelope(
            trace_id=f"run-{index}",
            operation="op",
            context={"strategy": "resample", "retry_for": "truncated", "attempt": 2},
        )
        result = ParseResult(
            success=ok, status=Status.COMPLETED if ok else Status.TRUNCATED, attempt=2
        )
        store.append(interaction_from_parse_result(envelope, result, attempt_number=2))
    advisor = AdaptiveAdvisor.from_store(store, operation="op")
    assert advisor.stats.table() == {"truncated": {"resample": (6, 7)}}
    assert advisor.choose("truncated") == "resample"
    assert AdaptiveAdvisor.from_store(store, operation="other").stats.table() == {}


def test_error_note_ranks_and_handles_truncation() -> None:
    outcome = OutputValidator(Item).validate('{"period": 0}', "stop")
    note = error_note(outcome.errors, outcome.status)
    assert note.index("name") < note.index("period")  # required before range
    assert "keep the answer short" in error_note((), Status.TRUNCATED)
    assert completion_hybrid("single line prompt:", outcome).endswith("single line prompt:")


def test_arm_names_round_trip() -> None:
    assert arm("resample", True) == "constrained" and arm("constrained", False) == "constrained"
    assert arm("feedback+resample", True) == "feedback+resample+constrained"
    for name in ("constrained", "resample", "feedback+resample+constrained", "history"):
        assert arm(*arm_parts(name)) == name


def test_adaptive_with_a_schema_starts_targeted_then_learns_when_to_drop_it() -> None:
    policy = AttemptPolicy(strategy="adaptive", constrained=True)
    seen, _ = run(policy, [BAD, GOOD])
    assert seen[0].constrained and seen[1].constrained
    assert (seen[1].strategy, seen[1].seed_offset) == ("targeted", 1)
    assert seen[1].schema is not None and seen[1].schema["properties"]["name"] == {"const": "x"}
    stats = RecoveryStats()
    for ok in [True] * 6 + [False] * 4:
        stats.add("range_violation", "resample", ok)
    for arm_name in ("targeted", "constrained"):  # both schema arms measured (explored)
        for ok in [True] * 2 + [False] * 8:
            stats.add("range_violation", arm_name, ok)
    seen, _ = run(replace(policy, advisor=AdaptiveAdvisor(stats=stats)), [BAD, GOOD])
    assert seen[0].constrained and not seen[1].constrained and seen[1].strategy == "resample"


def test_audit_records_count_under_their_arm() -> None:
    store = MemoryStore()
    for index, (strategy, constrained) in enumerate(
        [("resample", True), ("resample", False), ("feedback+resample", True)]
    ):
        context = {"strategy": strategy, "constrained": constrained, "retry_for": "semantic_error"}
        envelope = Envelope(trace_id=f"run-{index}", operation="op", context=context)
        result = ParseResult(success=True, status=Status.COMPLETED, attempt=2)
        store.append(interaction_from_parse_result(envelope, result, attempt_number=2))
    table = observations_from_interactions(store.iter_all()).table()
    assert table == {
        "semantic_error": {
            "constrained": (1, 1),
            "feedback+resample+constrained": (1, 1),
            "resample": (1, 1),
        }
    }


def test_unresolved_auto_retries_as_feedback() -> None:
    seen, ok = run(AttemptPolicy(), [BAD, BAD, GOOD])
    assert not ok and len(seen) == 2 and seen[1].strategy == "feedback"


def test_generate_and_validate_resolves_auto_from_the_callable(tmp_path: Path) -> None:
    calls: list[dict[str, Any]] = []
    answers = [BAD, GOOD]

    def sampler(messages: Any, seed_offset: int = 0, constrained: bool = False) -> str:
        calls.append({"seed_offset": seed_offset, "constrained": constrained})
        return answers[len(calls) - 1]

    run_ = generate_and_validate(
        PROMPT, Item, sampler, policy=AttemptPolicy(report_dir=str(tmp_path))
    )
    assert run_.ok and calls == [
        {"seed_offset": 0, "constrained": True},
        {"seed_offset": 1, "constrained": True},
    ]
    prompts: list[str] = []

    def plain(messages: Any) -> str:
        prompts.append(messages[-1]["content"])
        return answers[len(prompts) - 1]

    assert generate_and_validate(
        PROMPT, Item, plain, policy=AttemptPolicy(report_dir=str(tmp_path))
    ).ok
    assert "## Original requirements" in prompts[1]  # auto = feedback without seed or schema


def test_adaptive_measures_its_prior_before_overruling_it() -> None:
    stats = RecoveryStats()
    for ok in [True] * 5 + [False] * 5:
        stats.add("range_violation", "resample", ok)
    advisor = AdaptiveAdvisor(stats=stats).for_schema()
    assert advisor.choose("range_violation") == "targeted"  # the table's arm, 0 trials so far
    assert advisor.choose("truncated") == "constrained"  # nothing worth keeping
    for ok in [True] + [False] * 4:
        stats.add("range_violation", "targeted", ok)
    assert advisor.choose("range_violation") == "constrained"  # it disappoints: explore
    for ok in [True, True] + [False] * 3:
        stats.add("range_violation", "constrained", ok)
    assert advisor.choose("range_violation") == "resample"  # both measured, both worse
    stats.add("range_violation", "constrained", True)
    stats.add("range_violation", "constrained", True)
    assert advisor.choose("range_violation") == "constrained"  # 4/7 now beats resample's 5/10


def test_adaptive_explores_only_when_the_table_disappoints() -> None:
    stats = RecoveryStats()
    for ok in [True] * 4 + [False]:
        stats.add("semantic_error", "targeted", ok)
    advisor = AdaptiveAdvisor(stats=stats).for_schema()
    assert advisor.choose("semantic_error") == "targeted"  # 4/5: constrained is never tried
    assert stats.rate("semantic_error", "constrained")[1] == 0
