"""The real local model server for tests: started once per session, stopped at the end.

Without the ``[local-llm]`` extra the tests skip with a loud reason; under CI (``CI`` set) they
fail instead, so a CI machine without the extra cannot pass silently.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from openai_support import free_port

from autofix.devtools.local_llm import EXTRA_HINT, LocalLLMError, LocalServer, missing_packages


@pytest.fixture(scope="session")
def local_llm() -> Iterator[LocalServer]:
    missing = missing_packages()
    if missing:
        message = f"REAL-MODEL TESTS NOT RUN: missing {', '.join(missing)}; {EXTRA_HINT}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    server = LocalServer(port=free_port(), state_dir=Path(tempfile.mkdtemp(prefix="autofix-llm-")))
    try:
        server.start()
    except LocalLLMError as exc:
        pytest.fail(f"the local llama.cpp server did not start: {exc}")
    try:
        yield server
    finally:
        server.stop()
