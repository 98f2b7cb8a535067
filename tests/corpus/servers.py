"""Local HTTP servers the network cases talk to (127.0.0.1 only, stopped with the capture).

- ``$HTTP_APP``: a WSGI app under wsgiref; its 500s come from real exceptions in the app.
- ``$HTTP_FILES``: ``python3 -m http.server`` serving a small directory (real 404 pages).
- ``$HTTP_PHP``: PHP's built-in server running small scripts (real warnings and fatal errors).
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from socketserver import ThreadingMixIn
from types import TracebackType
from typing import IO, Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

StartResponse = Callable[..., Any]

_NGINX_PAGE = (
    "<html>\r\n<head><title>{code} {reason}</title></head>\r\n<body>\r\n"
    "<center><h1>{code} {reason}</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n"
    "</body>\r\n</html>\r\n"
)
_REASONS = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Temporarily Unavailable",
    504: "Gateway Time-out",
}


class App:
    def __init__(self) -> None:
        self.hits: dict[str, int] = {}
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start: StartResponse) -> Iterable[bytes]:
        path: str = environ.get("PATH_INFO", "/")
        parts = [p for p in path.split("/") if p]
        head = parts[0] if parts else ""

        def send(status: int, body: bytes, ctype: str = "text/plain; charset=utf-8") -> list[bytes]:
            reason = _REASONS.get(status, "OK" if status < 300 else "Error")
            start(
                f"{status} {reason}", [("Content-Type", ctype), ("Content-Length", str(len(body)))]
            )
            return [body]

        if head == "ok":
            return send(200, b"ok\n")
        if head == "json":
            return send(
                200,
                json.dumps({"status": "ok", "items": [1, 2, 3]}).encode() + b"\n",
                "application/json",
            )
        if head == "status" and len(parts) > 1:
            code = int(parts[1])
            page = _NGINX_PAGE.format(code=code, reason=_REASONS.get(code, "Error"))
            return send(code, page.encode(), "text/html")
        if head == "api-error":
            body = {"error": {"code": "invalid_request", "message": "field 'name' is required"}}
            return send(400, json.dumps(body).encode() + b"\n", "application/json")
        if head == "api-error-200":
            flat = {"ok": False, "error": "quota exceeded for project demo"}
            return send(200, json.dumps(flat).encode() + b"\n", "application/json")
        if head == "boom":
            raise RuntimeError("database connection pool exhausted")
        if head == "flaky" and len(parts) > 2:
            key, fails = parts[1], int(parts[2])
            with self.lock:
                self.hits[key] = self.hits.get(key, 0) + 1
                n = self.hits[key]
            if n <= fails:
                page = _NGINX_PAGE.format(code=503, reason=_REASONS[503])
                return send(503, page.encode(), "text/html")
            return send(200, f"ok after {n} attempts\n".encode())
        if head == "slow" and len(parts) > 1:
            time.sleep(float(parts[1]))
            return send(200, b"slow ok\n")
        if head == "big" and len(parts) > 1:
            size = int(parts[1]) * 1024
            seconds = float(parts[2]) if len(parts) > 2 else 0.0
            return self._big(size, seconds, start)
        if head == "latin1":
            return send(
                200,
                "café crème, naïve façade\n".encode("latin-1"),
                "text/plain; charset=iso-8859-1",
            )
        if head == "redirect" and len(parts) > 1:
            left = int(parts[1])
            target = f"/redirect/{left - 1}" if left > 1 else "/ok"
            start("302 Found", [("Location", target), ("Content-Length", "0")])
            return [b""]
        if head == "links" and len(parts) > 1:
            # /links/ok,status~404: an HTML page linking to /ok and /status/404 ("~" is "/").
            hrefs = ["/" + item.replace("~", "/") for item in parts[1].split(",") if item]
            body = "".join(f'<p><a href="{h}">{h}</a></p>\n' for h in hrefs)
            head_html = "<!doctype html>\n<html><head><title>links</title></head><body>\n"
            page = f"{head_html}{body}</body></html>\n"
            return send(200, page.encode(), "text/html; charset=utf-8")
        return send(404, _NGINX_PAGE.format(code=404, reason="Not Found").encode(), "text/html")

    @staticmethod
    def _big(size: int, seconds: float, start: StartResponse) -> Iterable[bytes]:
        line = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-corpus-data-line\n"
        blob = (line * (size // len(line) + 1))[:size]
        start(
            "200 OK", [("Content-Type", "application/octet-stream"), ("Content-Length", str(size))]
        )
        chunks = 8
        step = max(1, size // chunks)

        def body() -> Iterable[bytes]:
            for i in range(0, size, step):
                if seconds:
                    time.sleep(seconds / chunks)
                yield blob[i : i + step]

        return body()


class _ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


def _quiet_handler(log: IO[str]) -> type[WSGIRequestHandler]:
    class Handler(WSGIRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            log.write(format % args + "\n")

        def get_stderr(self) -> IO[str]:
            return log

    return Handler


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_port(port: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False


PHP_SCRIPTS = {
    "ok.php": "<?php\nheader('Content-Type: application/json');\necho json_encode(['status' => 'ok']), \"\\n\";\n",
    "warn.php": "<?php\n$rows = [];\necho 'total: ', $total, \"\\n\";\necho 'first: ', $rows[0], \"\\n\";\n",
    "fatal.php": "<?php\nfunction load_config($p) { return parse_ini_file_strict($p); }\necho load_config('/etc/app.ini');\n",
    "exception.php": "<?php\nfunction charge($amount) {\n  if ($amount > 100) { throw new RuntimeException('payment gateway rejected the charge'); }\n}\ncharge(250);\necho \"charged\\n\";\n",
    "report.php": "<?php\n$rows = [['a', 1], ['b', 2]];\nforeach ($rows as [$k, $v]) { echo \"$k,$v\\n\"; }\n",
}

FILES = {
    "index.html": "<!doctype html><title>corpus</title><p>hello</p>\n",
    "data.json": '{"name": "corpus", "version": 3, "tags": ["a", "b"]}\n',
    "notes.txt": "line one\nline two\n",
}


class Servers:
    """Start the three servers; ``env`` tells the cases where they are."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.env: dict[str, str] = {}
        self._procs: list[subprocess.Popen[bytes]] = []
        self._wsgi: _ThreadingWSGIServer | None = None
        self._log: IO[str] | None = None

    def __enter__(self) -> Servers:
        self.root.mkdir(parents=True, exist_ok=True)
        self._log = (self.root / "servers.log").open("w")
        handler = _quiet_handler(self._log)
        self._wsgi = make_server("127.0.0.1", 0, App(), _ThreadingWSGIServer, handler)
        threading.Thread(target=self._wsgi.serve_forever, daemon=True).start()
        self.env["HTTP_APP"] = f"http://127.0.0.1:{self._wsgi.server_port}"

        files = self.root / "files"
        files.mkdir(exist_ok=True)
        for name, text in FILES.items():
            (files / name).write_text(text)
        (files / "big.bin").write_bytes(bytes(range(256)) * 4096)
        port = _free_port()
        self._spawn(
            [
                sys.executable,
                "-m",
                "http.server",
                "--bind",
                "127.0.0.1",
                "--directory",
                str(files),
                str(port),
            ],
            port,
            "HTTP_FILES",
        )

        php = self.root / "php"
        php.mkdir(exist_ok=True)
        for name, text in PHP_SCRIPTS.items():
            (php / name).write_text(text)
        port = _free_port()
        with contextlib.suppress(FileNotFoundError):
            self._spawn(
                ["php", "-d", "display_errors=1", "-S", f"127.0.0.1:{port}", "-t", str(php)],
                port,
                "HTTP_PHP",
            )
        return self

    def _spawn(self, argv: list[str], port: int, name: str) -> None:
        assert self._log is not None
        proc = subprocess.Popen(argv, stdout=self._log, stderr=self._log, stdin=subprocess.DEVNULL)
        self._procs.append(proc)
        if _wait_port(port):
            self.env[name] = f"http://127.0.0.1:{port}"

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._wsgi is not None:
            self._wsgi.shutdown()
            self._wsgi.server_close()
        for proc in self._procs:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
        if self._log is not None:
            self._log.close()
