"""The noise-dense input of the classifier benchmark (issue 26): a chatty toolchain's stderr.

Every line is a warning of Node, npm, pip, cargo or Python, a git clone or download progress
line, or a zero-count summary; numbers, names and paths vary from line to line, so a cache
keyed on the exact line gets almost no free hits. Each family follows the tool's own format:
- cargo: ``warning: unused variable: `x``` followed by `` --> src/main.rs:3:9`` and its source
  excerpt (rustc's diagnostic layout), and the ``warning: `crate` (bin "x") generated N
  warnings`` trailer;
- pip: ``WARNING: ...`` and ``DEPRECATION: ...`` (pip's logger prefixes);
- npm: ``npm warn deprecated pkg@1.2.3: ...`` (npm 9+ lower-case level);
- node: ``(node:1234) [DEP0040] DeprecationWarning: ...`` and its ``(Use `node --trace-...``
  hint;
- python: ``/path/file.py:12: DeprecationWarning: ...`` (warnings.formatwarning) with the
  indented source line it prints after;
- git: ``Cloning into 'x'...``, ``remote: Counting objects:``, ``Receiving objects:  45%
  (450/1000), 1.2 MiB | 3.4 MiB/s`` and ``Resolving deltas:``;
- curl's progress meter rows and wget's dot/bar progress lines;
- zero-count summaries: ``ok: 0 errors, 0 failures in 12 files`` and kin.

    from noise_dense import build_noise_dense
    data = build_noise_dense(100.0)   # ~100 MB, deterministic for a given seed
"""

from __future__ import annotations

import random
from collections.abc import Callable

_CRATES = ["serde", "tokio", "regex", "clap", "rand", "hyper", "anyhow", "log", "syn", "bytes"]
_PKGS = ["request", "uuid", "glob", "inflight", "rimraf", "har-validator", "querystring", "tar"]
_PY = ["numpy", "pandas", "urllib3", "setuptools", "jinja2", "werkzeug", "attrs", "six"]
_IDENTS = ["buf", "count", "idx", "result", "config", "handle", "path", "total", "entry", "ctx"]
_REPOS = ["core", "web-app", "infra", "tools", "docs-site", "api", "sdk", "cli"]
_NODE_DEPS = [
    ("DEP0040", "The `punycode` module is deprecated. Please use a userland alternative instead."),
    ("DEP0005", "Buffer() is deprecated due to security and usability issues."),
    ("DEP0060", "The `util._extend` API is deprecated. Please use Object.assign() instead."),
    ("DEP0066", "OutgoingMessage.prototype._headers is deprecated"),
]

Line = Callable[[random.Random, int], list[str]]


def _version(rng: random.Random) -> str:
    return f"{rng.randrange(4)}.{rng.randrange(30)}.{rng.randrange(20)}"


def _size(rng: random.Random) -> str:
    return f"{rng.uniform(0.1, 999):.1f} {rng.choice(('KiB', 'MiB'))}"


def _cargo(rng: random.Random, n: int) -> list[str]:
    name = rng.choice(_IDENTS)
    row, col = rng.randrange(1, 900), rng.randrange(1, 40)
    path = f"src/{rng.choice(_IDENTS)}{n % 97}.rs"
    kind = rng.randrange(3)
    if kind == 0:
        head = f"warning: unused variable: `{name}`"
        code, mark = f"    let {name} = {n % 4096};", f"        {'^' * len(name)}"
        hint = f"help: if this is intentional, prefix it with an underscore: `_{name}`"
    elif kind == 1:
        name = f"{name}_{n % 1000}"
        head = f"warning: function `{name}` is never used"
        code, mark = f"fn {name}() -> usize {{", f"   {'^' * len(name)}"
        hint = "note: `#[warn(dead_code)]` on by default"
    else:
        return [
            f"warning: `{rng.choice(_CRATES)}` (lib) generated {rng.randrange(1, 60)} warnings "
            f"(run `cargo fix --lib -p {rng.choice(_CRATES)}` to apply {rng.randrange(1, 9)} "
            "suggestions)"
        ]
    pad = " " * len(str(row))
    return [
        head,
        f"{pad}--> {path}:{row}:{col}",
        f"{pad} |",
        f"{row} | {code}",
        f"{pad} | {mark} {hint}",
        f"{pad} |",
    ]


def _pip(rng: random.Random, n: int) -> list[str]:
    kind = rng.randrange(4)
    pkg = rng.choice(_PY)
    if kind == 0:
        return [
            "WARNING: Running pip as the 'root' user can result in broken permissions and "
            "conflicting behaviour with the system package manager. It is recommended to use "
            "a virtual environment instead: https://pip.pypa.io/warnings/venv"
        ]
    if kind == 1:
        return [
            f"DEPRECATION: {pkg} {_version(rng)} has a non-standard dependency specifier "
            f"{pkg}>={rng.randrange(9)}.*. pip 24.1 will enforce this behaviour change. A "
            "possible replacement is to upgrade to a newer version of the package. Discussion "
            "can be found at https://github.com/pypa/pip/issues/12063"
        ]
    if kind == 2:
        return [
            f"WARNING: Retrying (Retry(total={rng.randrange(5)}, connect=None, read=None, "
            f"redirect=None, status=None)) after connection broken by 'ReadTimeoutError(\"HTTPS"
            f"ConnectionPool(host='pypi.org', port=443): Read timed out. (read timeout=15)\")': "
            f"/simple/{pkg}/"
        ]
    return [
        f"WARNING: The script {pkg}-{n % 1000} is installed in '/home/u{n % 50}/.local/bin' "
        "which is not on PATH."
    ]


def _npm(rng: random.Random, n: int) -> list[str]:
    pkg = rng.choice(_PKGS)
    if rng.randrange(3):
        return [
            f"npm warn deprecated {pkg}@{_version(rng)}: This module is not supported, and "
            f"leaks memory. Do not use it. Check out lru-cache if you want a good and tested way "
            f"to coalesce async requests by a key value ({n})."
        ]
    return [
        f"npm warn ERESOLVE overriding peer dependency {pkg}@{_version(rng)} while resolving "
        f"{rng.choice(_PKGS)}@{_version(rng)}"
    ]


def _node(rng: random.Random, n: int) -> list[str]:
    code, text = rng.choice(_NODE_DEPS)
    return [
        f"(node:{rng.randrange(1000, 99999)}) [{code}] DeprecationWarning: {text}",
        "(Use `node --trace-deprecation ...` to show where the warning was created)",
    ]


def _python(rng: random.Random, n: int) -> list[str]:
    pkg = rng.choice(_PY)
    row = rng.randrange(1, 3000)
    kind = rng.choice(("DeprecationWarning", "FutureWarning", "UserWarning"))
    return [
        f"/usr/lib/python3.11/site-packages/{pkg}/{rng.choice(_IDENTS)}.py:{row}: {kind}: "
        f"{rng.choice(_IDENTS)}() is deprecated and will be removed in {pkg} {_version(rng)}",
        f"  warnings.warn(msg, {kind}, stacklevel={rng.randrange(2, 4)})",
    ]


def _git(rng: random.Random, n: int) -> list[str]:
    total = rng.randrange(100, 90000)
    done = rng.randrange(total + 1)
    pct = done * 100 // total
    kind = rng.randrange(4)
    if kind == 0:
        return [f"Cloning into '{rng.choice(_REPOS)}-{n % 1000}'..."]
    if kind == 1:
        return [f"remote: Counting objects: {pct:3d}% ({done}/{total}), done."]
    if kind == 2:
        return [
            f"Receiving objects: {pct:3d}% ({done}/{total}), {_size(rng)} | "
            f"{rng.uniform(0.1, 40):.1f} MiB/s"
        ]
    return [f"Resolving deltas: {pct:3d}% ({done}/{total})"]


def _download(rng: random.Random, n: int) -> list[str]:
    pct = rng.randrange(101)
    if rng.randrange(2):  # curl's progress meter row
        total = rng.randrange(10, 999)
        return [
            f"{pct:3d} {total}M {pct:3d} {total * pct // 100}M    0     0  "
            f"{rng.randrange(1, 99)}.{rng.randrange(10)}M      0  0:00:{rng.randrange(10, 59)} "
            f"0:00:{rng.randrange(10, 59)} --:--:-- {rng.randrange(1, 99)}.{rng.randrange(10)}M"
        ]
    done = rng.randrange(50, 90000)  # wget's default (dot) progress
    dots = " ".join("." * 10 for _ in range(5))
    return [f"{done:6d}K {dots} {pct:3d}% {rng.uniform(0.1, 99):.1f}M {rng.randrange(1, 59)}s"]


def _summary(rng: random.Random, n: int) -> list[str]:
    files = rng.randrange(1, 5000)
    kind = rng.randrange(4)
    if kind == 0:
        return [f"ok: 0 errors, 0 failures in {files} files"]
    if kind == 1:
        return [f"Found 0 errors in {files} files (checked {rng.randrange(1, 900)} source files)"]
    if kind == 2:
        return [f"0 errors, 0 warnings, {files} files checked in {rng.uniform(0, 9):.2f}s"]
    return [f"Success: no issues found in {files} source files"]


FAMILIES: tuple[Line, ...] = (_cargo, _pip, _npm, _node, _python, _git, _download, _summary)


def build_noise_dense(megabytes: float, seed: int = 26) -> bytes:
    """About ``megabytes`` MB of whole lines, every one from ``FAMILIES``; same seed, same bytes."""
    rng = random.Random(seed)
    target = int(megabytes * 1e6)
    out: list[str] = []
    size = 0
    n = 0
    while size < target:
        n += 1
        for line in rng.choice(FAMILIES)(rng, n):
            out.append(line)
            size += len(line) + 1
    return ("\n".join(out) + "\n").encode()[:target].rsplit(b"\n", 1)[0] + b"\n"
