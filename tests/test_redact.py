"""The redaction exit: what it knows, what it escapes, and every way a value passes through it."""

from __future__ import annotations

import io
import json
import logging
import secrets
from urllib.parse import quote

import pytest

from autofix import redact as r
from autofix.result import ErrorCategory, FieldError, ParseResult, Status


def shapeless() -> str:
    return "v" + secrets.token_hex(12)


def test_worker_environment_secrets_are_known_but_not_pwd_or_short_words() -> None:
    token, short, path = shapeless(), "false", "/work/some/dir"
    r.register_environment(
        {"MY_SERVICE_TOKEN": token, "TOKENIZERS_PARALLELISM": short, "PWD": path, "HOME": "/x"}
    )
    assert r.redact(f"a {token} b") == "a [REDACTED] b"
    assert r.redact(f"{short} {path}") == f"{short} {path}"


def test_registered_values_are_masked_in_their_json_and_url_spellings() -> None:
    value = 'p"w/' + shapeless()
    r.register_secret(value)
    for spelling in (value, json.dumps(value)[1:-1], quote(value, safe="")):
        assert spelling not in r.redact(f"x {spelling} y")


def test_longest_secret_wins_when_one_contains_another() -> None:
    inner = shapeless()
    r.register_secrets([inner, inner + "tail"])
    assert r.redact(f"{inner}tail {inner}") == "[REDACTED] [REDACTED]"


def test_control_characters_are_escaped_ansi_kept_in_logs_and_dropped_when_stored() -> None:
    text = "a\x00b\x07c \x1b[31mred\x1b[0m \udc80 tab\tnew\nline"
    assert r.redact(text) == "a\\x00b\\x07c \x1b[31mred\x1b[0m \ufffd tab\tnew\nline"
    assert r.redact_stored(text) == "a\\x00b\\x07c red \ufffd tab\tnew\nline"


def test_redact_value_cleans_keys_and_values_and_bounds_what_it_stores() -> None:
    key_a, key_b = "sk-proj-" + "a" * 24, "sk-proj-" + "b" * 24
    deep: list[object] = []
    node = deep
    for _ in range(150):
        child: list[object] = []
        node.append(child)
        node = child
    cleaned = r.redact_value(
        {key_a: 1, key_b: (2, 3), "token": "abc", "n": float("nan"), "deep": deep}
    )
    assert cleaned["[REDACTED]"] == 1 and cleaned["[REDACTED]'"] == [2, 3]
    assert cleaned["token"] == "[REDACTED]" and cleaned["n"] is None
    assert r.TOO_DEEP in json.dumps(cleaned)
    assert r.redact_value({"token": "abc"}, by_name=False) == {"token": "abc"}


def test_parse_result_redacts_on_construction_assignment_and_copy() -> None:
    secret = shapeless()
    r.register_secret(secret)
    result = ParseResult(
        success=True,
        status=Status.COMPLETED,
        final_text=f"{secret}\x00",
        data={secret: [secret, {"k": f"x {secret}"}]},
        warnings=[secret],
        field_errors=[
            FieldError(path=f"$.{secret}", category=ErrorCategory.TYPE_MISMATCH, message=secret)
        ],
    )
    result.session_id = secret  # the parser fills a result in place
    copy = result.model_copy(update={"error_message": secret, "repairs": [secret]})
    for dumped in (result.model_dump_json(), copy.model_dump_json()):
        assert secret not in dumped and "\\u0000" not in dumped
    assert copy.data == {"[REDACTED]": ["[REDACTED]", {"k": "x [REDACTED]"}]}


def test_redacted_log_formats_then_redacts_even_tracebacks(
    caplog: pytest.LogCaptureFixture,
) -> None:
    secret = shapeless()
    r.register_secret(secret)
    log = r.RedactedLog(logging.getLogger("autofix.test"))
    with caplog.at_level(logging.INFO, logger="autofix.test"):
        log.info("running %s in %s", "agent", f"/work/{secret}")
        try:
            raise RuntimeError(f"failed with {secret}")
        except RuntimeError as exc:
            log.error("boom", exc_info=exc)
    text = "\n".join(record.getMessage() for record in caplog.records)
    assert "running agent in /work/[REDACTED]" in text
    assert "RuntimeError: failed with [REDACTED]" in text and secret not in text
    assert all(record.exc_info is None for record in caplog.records)


def test_cli_writer_redacts_whole_lines_even_when_written_in_pieces() -> None:
    secret = shapeless()
    r.register_secret(secret)
    target = io.StringIO()
    writer = r.RedactingWriter(target)
    for piece in (secret[:5], secret[5:], "\nnext ", secret[:3]):
        writer.write(piece)
    writer.write(secret[3:])
    writer.flush()
    assert target.getvalue() == "[REDACTED]\nnext [REDACTED]"


def test_external_masker_and_listener_see_every_secret() -> None:
    told: list[str] = []
    known = shapeless()
    r.register_secret(known)

    def listener(value: str) -> None:
        told.append(value)

    r.add_listener(listener)
    later = shapeless()
    r.register_secret(later)
    assert known in told and later in told
    hidden = shapeless()

    def masker(text: str) -> str:
        return text.replace(hidden, "***")

    r.add_masker(masker)
    assert r.redact(f"see {hidden}") == "see ***"


def test_a_secret_after_a_long_name_or_scheme_is_still_masked() -> None:
    name = "config." + "section." * 2_000 + "db_password"
    assert r.redact(f"{name} = hunter22") == f"{name} = [REDACTED]"
    scheme = "git+ssh" + "+x" * 2_000
    assert r.redact(f"{scheme}://deploy:pw12345@host/x") == f"{scheme}://deploy:[REDACTED]@host/x"
