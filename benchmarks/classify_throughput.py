"""Classifier benchmark: throughput vs a naive baseline, peak memory, latency, hot-reload cost.

    .venv/bin/python benchmarks/classify_throughput.py [--mb 100] [--stream-gb 1] [--quick]

The input is built from the real tool captures in tests/fixtures/captures (and examples/logs),
shuffled and repeated to the requested size. The baseline runs in the same process on the same
bytes: "per line: skip if a noise substring is in it; error if an indicator substring is in it",
using the substring of every built-in rule (a regex rule contributes its literal).
Prints measurements only; nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from autofix.classify.classifier import Classifier
from autofix.parser import ResponseParser
from autofix.patterns.compiled import CompiledRules, compile_rules
from autofix.patterns.defaults import DEFAULT_RULES
from autofix.patterns.loader import PatternStore, defaults
from autofix.patterns.model import PatternSettings, Rule
from autofix.patterns.redos import required_literals

ROOT = Path(__file__).resolve().parent.parent
CHUNK = 1 << 20


def corpus_lines() -> list[bytes]:
    blocks: list[bytes] = []
    for path in sorted((ROOT / "tests" / "fixtures" / "captures").glob("*.std*")):
        if path.stat().st_size:
            blocks.append(path.read_bytes())
    blocks += [p.read_bytes() for p in sorted((ROOT / "examples" / "logs").glob("*.log"))]
    return [b if b.endswith(b"\n") else b + b"\n" for b in blocks]


# Lines that make long stderr long: build steps, compiler commands, downloads, progress bars and
# INFO logs. Some hold rule keys (noise), most hold none (neutral). Each template is filled with
# counters, timestamps, sizes and names drawn per line, so bulk lines are (nearly) all distinct,
# as in a real log: a verdict cache gets no free hits from the generator.
_WORDS = [
    "core",
    "parser",
    "lexer",
    "render",
    "cache",
    "http",
    "client",
    "server",
    "router",
    "auth",
    "session",
    "store",
    "index",
    "query",
    "plan",
    "schema",
    "codec",
    "image",
    "audio",
    "video",
    "net",
    "io",
    "fs",
    "sync",
    "async",
    "pool",
    "queue",
    "worker",
    "task",
    "job",
    "event",
    "model",
    "view",
    "util",
    "config",
    "log",
    "metrics",
    "trace",
    "graph",
    "tree",
    "list",
    "map",
    "set",
    "vec",
    "buf",
    "str",
    "num",
    "time",
    "date",
]


def _name(rng: random.Random) -> str:
    return f"{rng.choice(_WORDS)}_{rng.choice(_WORDS)}{rng.randrange(100)}"


def _bulk_line(rng: random.Random, n: int) -> str:
    kind = rng.randrange(9)
    a, b = _name(rng), _name(rng)
    if kind == 0:
        return f"[{n % 100:3d}%] Building CXX object src/{a}/CMakeFiles/{a}.dir/{b}.cpp.o"
    if kind == 1:
        return (
            f"/usr/bin/c++ -DNDEBUG -I/work/include -I/work/third_party -O2 -g -std=c++17 -fPIC "
            f"-o CMakeFiles/{a}.dir/src/{b}.cpp.o -c /work/src/{a}/{b}.cpp"
        )
    if kind == 2:
        return (
            f"asset vendors-node_modules_{a}_index_js.bundle.js {rng.uniform(1, 900):.2f} KiB "
            f"[emitted] [big] (id hint: vendors)"
        )
    if kind == 3:
        return (
            f"#{n % 40} {n / 1000:.3f} Collecting {a}=={rng.randrange(9)}.{rng.randrange(40)}."
            f"{rng.randrange(9)} (from -r requirements.txt (line {rng.randrange(1, 90)}))"
        )
    if kind == 4:
        return f"Step {n % 12 + 1}/12 : RUN pip install --no-cache-dir {a} {b}"
    if kind == 5:
        p = rng.randrange(100)
        bar, full = "\u2588" * (p // 10), "\u2588" * 10
        return (
            f"\r {p}%|{bar:<10}| {p}/100 [00:0{p % 10}<00:01, {rng.uniform(5, 90):.2f}it/s]"
            f"\r100%|{full}| 100/100 [00:03<00:00, {rng.uniform(5, 90):.2f}it/s]"
        )
    if kind == 6:
        return f"transforming ({n}) node_modules/{a}/{b}.js"
    if kind == 7:
        return f"ok {n} - {a} handles {b} # time={rng.uniform(0, 9):.2f}ms"
    return f"  Running setup.py develop for {a}-{b}"


def _noise_line(rng: random.Random, n: int) -> str:
    kind = rng.randrange(4)
    a = _name(rng)
    if kind == 0:
        return f"   Compiling {a.replace('_', '-')} v{rng.randrange(3)}.{rng.randrange(60)}.{rng.randrange(20)}"
    if kind == 1:
        ms = n * 37
        return (
            f"2024-05-01T{ms // 3_600_000 % 24:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}."
            f"{ms % 1000:03d}Z INFO  http: GET /{a} {rng.choice((200, 204, 304))} {rng.uniform(0, 50):.1f}ms"
        )
    if kind == 2:
        return f"npm warn deprecated {a}@{rng.randrange(9)}.{rng.randrange(9)}.{rng.randrange(9)}: This module is no longer supported"
    total = rng.randrange(1, 5000)
    return f"remote: Counting objects: 100% ({total}/{total}), done."


def build_input(
    megabytes: float, seed: int = 7, dense: bool = False, unique: bool = False
) -> bytes:
    """Mixed: ~75% bulk neutral lines, ~15% bulk noise, ~10% real capture blocks (lines).

    ``dense``: real capture blocks only, nearly every line a candidate (worst case).
    ``unique``: every line (capture lines too) gets a distinct suffix: no line repeats.
    """
    blocks = corpus_lines()
    rng = random.Random(seed)
    out: list[bytes] = []
    size = 0
    target = int(megabytes * 1e6)
    n = 0
    while size < target:
        n += 1
        roll = rng.random()
        if dense or roll < 0.012:
            piece = rng.choice(blocks)
        elif roll < 0.16:
            piece = _noise_line(rng, n).encode() + b"\n"
        else:
            piece = _bulk_line(rng, n).encode() + b"\n"
        out.append(piece)
        size += len(piece)
    data = b"".join(out)[:target].rsplit(b"\n", 1)[0] + b"\n"
    if unique:
        lines = data.split(b"\n")[:-1]
        data = b"".join(line + b" #%d\n" % i for i, line in enumerate(lines))
    return data


def baseline_needles() -> tuple[list[str], list[str]]:
    noise: list[str] = []
    errors: list[str] = []
    for rule in DEFAULT_RULES:
        needles = (
            [rule.pattern]
            if rule.type == "substring"
            else (required_literals(rule.pattern, True) or [])
        )
        (noise if rule.kind == "noise" else errors).extend(needles)
    return noise, errors


def run_baseline(data: bytes) -> tuple[float, float, int]:
    """(wall s, CPU s, error lines)."""
    noise, indicators = baseline_needles()
    started, cpu = time.perf_counter(), time.process_time()
    errors = 0
    for offset in range(0, len(data), CHUNK):
        for line in data[offset : offset + CHUNK].decode("utf-8", "replace").split("\n"):
            if any(n in line for n in noise):
                continue
            if any(i in line for i in indicators):
                errors += 1
    return time.perf_counter() - started, time.process_time() - cpu, errors


def run_classifier(
    data: bytes, rules: CompiledRules | None = None, cache: bool = True
) -> tuple[float, float, int]:
    """(wall s, CPU s, error lines). The rule set is fresh: its verdict cache starts empty."""
    compiled = rules or defaults()
    started, cpu = time.perf_counter(), time.process_time()
    classifier = Classifier(compiled, verdict_cache=cache)
    view = memoryview(data)
    for offset in range(0, len(data), CHUNK):
        classifier.feed(bytes(view[offset : offset + CHUNK]))
    report = classifier.finish()
    return time.perf_counter() - started, time.process_time() - cpu, report.error_lines


def with_user_rules() -> CompiledRules:
    user = [
        Rule(
            id="u1",
            kind="noise",
            type="substring",
            pattern="Browserslist: caniuse-lite is outdated",
            reason="b",
        ),
        Rule(id="u2", kind="noise", type="regex", pattern=r"^retrying request \d+/\d+", reason="b"),
        Rule(id="u3", kind="error", type="regex", pattern=r"^migration \d+ failed: ", reason="b"),
        Rule(
            id="u4",
            kind="error",
            type="substring",
            pattern="LICENSE CHECK FAILED",
            reason="b",
            case_sensitive=True,
        ),
        Rule(
            id="u5",
            kind="noise",
            type="regex",
            pattern=r"\bcache (?:hit|miss) for [\w./-]+",
            reason="b",
        ),
    ]
    return compile_rules(user, PatternSettings(), "bench", DEFAULT_RULES)


def memory_child(gigabytes: float) -> None:
    """In a fresh process: stream ``gigabytes`` through one classifier, print extra peak RSS.

    Each 1 MB chunk gets its own counter on every line, so no line repeats across the stream:
    the verdict cache fills to its bound and is never a free hit.
    """
    chunk = build_input(1.0)
    classifier = Classifier(defaults())
    classifier.feed(chunk[:1000])
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    fed = 0
    target = int(gigabytes * 1e9)
    index = 0
    while fed < target:
        piece = chunk.replace(b"\n", b" #%d\n" % index)
        classifier.feed(piece)
        fed += len(piece)
        index += 1
    report = classifier.finish()
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    seconds = time.perf_counter() - started
    print(f"{(after - before) / 1024:.1f} {fed / 1e6 / seconds:.1f} {report.total_lines}")


def latency(data: bytes, samples: int, cache: bool = True) -> dict[str, float]:
    """ResponseParser.parse on 16 KB slices at random offsets, after 200 warm-up calls.

    Wall time is the target; CPU time per call shows the code's own cost, without the time the
    process spent descheduled on a loaded machine.
    """
    import autofix.classify.classifier as module

    parser = ResponseParser(
        PatternStore(Path(tempfile.gettempdir()) / "autofix-bench-no-such-file.yaml")
    )
    saved = module.VERDICT_CACHE_LINE_CHARS
    if not cache:
        module.VERDICT_CACHE_LINE_CHARS = -1  # nothing is stored, so nothing is found
    size = 16 * 1024
    rng = random.Random(11)
    pieces = [
        data[s : s + size]
        for s in (rng.randrange(0, len(data) - size) for _ in range(samples + 200))
    ]
    try:
        for piece in pieces[:200]:
            parser.parse(0, piece, b"", operation="bench")
        walls, cpus = [], []
        for piece in pieces[200:]:
            began, cpu = time.perf_counter(), time.process_time()
            parser.parse(0, piece, b"", operation="bench")
            cpus.append(time.process_time() - cpu)
            walls.append(time.perf_counter() - began)
    finally:
        module.VERDICT_CACHE_LINE_CHARS = saved
    walls.sort()
    cpus.sort()
    p99 = int(len(walls) * 0.99) - 1
    return {
        "median": statistics.median(walls) * 1e3,
        "p99": walls[p99] * 1e3,
        "cpu_median": statistics.median(cpus) * 1e3,
        "cpu_p99": cpus[p99] * 1e3,
    }


def reload_check_us(calls: int = 100_000) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "p.yaml"
        path.write_text(
            "rules:\n  - {id: a, kind: noise, type: substring, pattern: x, reason: r}\n"
        )
        store = PatternStore(path)
        store.current()
        began = time.perf_counter()
        for _ in range(calls):
            store.current()
        return (time.perf_counter() - began) / calls * 1e6


def main() -> int:
    args = argparse.ArgumentParser()
    args.add_argument("--mb", type=float, default=100.0)
    args.add_argument("--stream-gb", type=float, default=1.0)
    args.add_argument("--quick", action="store_true", help="10 MB and a 0.1 GB stream")
    args.add_argument("--memory-child", type=float, default=None, help=argparse.SUPPRESS)
    opts = args.parse_args()
    if opts.memory_child is not None:
        memory_child(opts.memory_child)
        return 0
    megabytes, stream_gb = (10.0, 0.1) if opts.quick else (opts.mb, opts.stream_gb)
    data = build_input(megabytes)
    lines = data.count(b"\n")
    print(
        f"input: {len(data) / 1e6:.1f} MB, {lines} lines, avg {len(data) / lines:.0f} B/line, "
        f"{len(DEFAULT_RULES)} built-in rules "
        f"({sum(r.type == 'substring' for r in DEFAULT_RULES)} substring, {sum(r.type == 'regex' for r in DEFAULT_RULES)} regex)"
    )
    print(
        f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)"
    )
    mb = len(data) / 1e6

    def show(
        name: str, wall: float, cpu: float, base: tuple[float, float] | None, extra: str = ""
    ) -> None:
        ratio = f"  ratio {base[0] / wall:.1f}x wall, {base[1] / cpu:.1f}x CPU" if base else ""
        print(f"{name:24s} {mb / wall:7.1f} MB/s wall, {mb / cpu:7.1f} MB/s CPU{ratio}{extra}")

    base_w, base_c, base_err = run_baseline(data)
    base = (base_w, base_c)
    show("baseline", base_w, base_c, None, f"  ({base_err} error lines)")
    ours_w, ours_c, ours_err = run_classifier(data)
    show("autofix (defaults)", ours_w, ours_c, base, f"  ({ours_err} error lines)")
    off_w, off_c, _ = run_classifier(data, cache=False)
    show("autofix (cache off)", off_w, off_c, base)
    user_w, user_c, _ = run_classifier(data, with_user_rules())
    show("autofix (+5 user rules)", user_w, user_c, base)
    unique = build_input(megabytes, unique=True)
    mb_saved, mb = mb, len(unique) / 1e6
    ub_w, ub_c, _ = run_baseline(unique)
    uo_w, uo_c, _ = run_classifier(unique)
    show("all-unique: baseline", ub_w, ub_c, None)
    show("all-unique: autofix", uo_w, uo_c, (ub_w, ub_c))
    dense = build_input(min(megabytes, 10.0), dense=True)
    mb = len(dense) / 1e6
    db_w, db_c, _ = run_baseline(dense)
    do_w, do_c, _ = run_classifier(dense)
    show("captures only: baseline", db_w, db_c, None)
    show("captures only: autofix", do_w, do_c, (db_w, db_c))
    mb = mb_saved
    child = subprocess.run(
        [sys.executable, __file__, "--memory-child", str(stream_gb)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    extra_mb, stream_rate, stream_lines = child.stdout.split()
    print(
        f"stream {stream_gb:g} GB:        extra peak RSS {extra_mb} MB, {stream_rate} MB/s, {stream_lines} lines"
    )
    for cache in (True, False):
        lat = latency(data, 2000, cache)
        print(
            f"16 KB parse (cache {'on' if cache else 'off'}): median {lat['median']:.3f} ms, "
            f"p99 {lat['p99']:.3f} ms wall; CPU median {lat['cpu_median']:.3f} ms, p99 {lat['cpu_p99']:.3f} ms"
        )
    print(f"hot-reload check:    {reload_check_us():.2f} µs per PatternStore.current()")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
