"""Classifier benchmark (docs/benchmarks.md, "Classifier"): throughput against the seed's own
algorithm, peak memory on a 1 GB stream, 16 KB latency, hot-reload cost.

    taskset -c 1 .venv/bin/python benchmarks/classify_throughput.py [--mb 100] [--repeats 3]
        [--input project|real|v2|quiet|noise-dense|all] [--stream-gb 1] [--quick] [--cpu N]
        [--cost-input noise-dense real ...] [--cost-mb 20]

The seed baseline is the seed's algorithm exactly: per line, skip it if it holds a noise
substring, count it as an error if it holds an indicator substring, with the seed's 12 literals
(engine_prototype.SEED_NOISE/SEED_INDICATORS, from issue 2's examples). It runs in the same
process on the same bytes, and every ratio is against it; the 52-literal baseline (the literals
of the 52 built-in rules docs/benchmarks.md used before) is reported beside it, labelled.
autofix runs with every built-in rule plus 10 user rules (engine_prototype.USER_RULES), on the
engine and on the fallback path. Medians of ``--repeats`` runs; CPU and wall time both; each
ratio is the median of per-round ratios (a round runs every row once, the baselines first).
Inputs (100 MB each):
- project: ``build_input``, the input issue 14 measured (bulk build lines, noise, capture blocks);
- real: the corpus's tune-split stderr, run by run in random order, repeated (real bytes);
- v2: engine_prototype.build_v2 (the project mix plus colour, redrawn bars, long JSON lines,
  non-UTF-8 names, warnings with their source lines, lines for the user rules);
- quiet: the best case, labelled (build lines, almost no hits);
- noise-dense: noise_dense.build_noise_dense, a chatty toolchain's stderr (every line a tool
  warning, a clone or download progress line, or a zero-count summary; 5 MB with ``--quick``).
Beside autofix, each input reports the engine's scan alone (the same database and per-hit
callback the classifier runs, no per-line Python), so the Python share is the difference.
The per-rule cost tables (``--cost-input``; noise-dense and real by default) time the scan of a database holding only that
rule's expressions, minus that of a database holding one literal that never matches, on the
same bytes, CPU, median of 3: each rule's own scan cost, its per-hit callbacks (the
classifier's ``engine.scan_hits``) included. Hyperscan shares work
across the rules of one database, so the rows rank the rules; they do not add up to the
combined scan. Beside it: the rule's raw hits, and the lines it won in a full classify.
Peak extra memory: a fresh process streams real and noise-dense input through one classifier
and reports its peak RSS above the RSS once the input is built (the peak is reset through
/proc/self/clear_refs first; the runs before 2026-11-27 did not reset it, so the input's own
build could hide the classifier's growth).
Prints measurements only; nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from engine_prototype import (
    SEED_INDICATORS,
    SEED_NOISE,
    USER_RULES,
    build_quiet,
    build_v2,
    run_seed,
)
from noise_dense import build_noise_dense

from autofix.classify.classifier import Classifier
from autofix.parser import ResponseParser
from autofix.patterns import engine
from autofix.patterns.compiled import CompiledRules, compile_rules
from autofix.patterns.loader import DEFAULT_RULES, PatternStore
from autofix.patterns.model import PatternSettings
from autofix.patterns.redos import required_literals

ROOT = Path(__file__).resolve().parent.parent
CHUNK = 1 << 20
# The 52 built-in rules the earlier benchmark's literal baseline used (docs/benchmarks.md).
BASELINE_52 = [
    "log-level-info",
    "log-level-info-logfmt",
    "node-warning",
    "node-trace-hint",
    "npm-warn",
    "pip-root-user",
    "pip-notice",
    "pip-deprecation",
    "python-warning",
    "python-warning-bare",
    "compiler-warning",
    "warning-prefix",
    "note-prefix",
    "git-clone",
    "git-progress",
    "cargo-progress",
    "go-download",
    "terminal-noise",
    "locale-noise",
    "python-traceback",
    "python-source-location",
    "python-exception",
    "java-exception",
    "npm-error",
    "typescript-error",
    "located-error",
    "error-label",
    "fatal",
    "log-level-error",
    "error-line-start",
    "panic",
    "crash-signal",
    "killed-by-shell",
    "command-not-found",
    "permission-denied",
    "no-such-file",
    "no-space",
    "out-of-memory",
    "make-error",
    "linker-error",
    "cmake-error",
    "failed-word",
    "failed-to",
    "failure-summary",
    "unittest-failure",
    "go-test-failure",
    "tap-failure",
    "build-failure",
    "uncaught",
    "assertion-failed",
    "exit-status",
    "connection-refused",
]


def corpus_reader() -> Any:
    """tests/corpus/reader.py: the one reader of the corpus's stored runs."""
    tests = str(ROOT / "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    from corpus import reader

    return reader


def corpus_lines() -> list[bytes]:
    """The tool captures' non-empty streams, in the order of the file names they once had."""
    reader = corpus_reader()
    runs = reader.load_runs(reader.TOOL_CAPTURES)
    streams = sorted((f"{run_id}.{name}", data) for run_id, name, data in reader.iter_streams(runs))
    blocks = [data for _, data in streams if data]
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


def baseline52_needles() -> tuple[list[str], list[str]]:
    """The literal of each of the 52 rules (a regex contributes its required literals)."""
    noise: list[str] = []
    errors: list[str] = []
    for rule in DEFAULT_RULES:
        if rule.id not in BASELINE_52:
            continue
        needles = (
            [rule.pattern]
            if rule.type == "substring"
            else (required_literals(rule.pattern, True) or [])
        )
        (noise if rule.kind == "noise" else errors).extend(needles)
    return noise, errors


def build_real(megabytes: float, seed: int = 3) -> bytes:
    """The corpus's tune-split stderr (never the held-out runs), run by run in random order,
    repeated to ``megabytes``: real bytes with their real mix of noise, errors and progress."""
    reader = corpus_reader()
    stored = {run.id: run for run in reader.load_runs()}
    runs = []
    for run_id, row in reader.read_split().items():  # in split.tsv's order
        run = stored.get(run_id)
        if row["split"] == "tune" and run is not None and run.stderr:
            data = run.stderr
            runs.append(data if data.endswith(b"\n") else data + b"\n")
    rng = random.Random(seed)
    out: list[bytes] = []
    size = 0
    while size < megabytes * 1e6:
        rng.shuffle(runs)
        for data in runs:
            out.append(data)
            size += len(data)
    return b"".join(out)[: int(megabytes * 1e6)].rsplit(b"\n", 1)[0] + b"\n"


INPUTS = {
    "project": build_input,
    "real": build_real,
    "v2": build_v2,
    "quiet": build_quiet,
    "noise-dense": build_noise_dense,
}
QUICK_MB = {"noise-dense": 5.0}  # --quick sizes that differ from the default 10 MB


def bench_rules() -> CompiledRules:
    """Every built-in rule plus the 10 user rules (one engine+verify, one fallback)."""
    return compile_rules(list(USER_RULES), PatternSettings(), "bench", DEFAULT_RULES)


def run_autofix(data: bytes, rules: CompiledRules, use_engine: bool) -> int:
    """A fresh classifier over ``data`` in 1 MB feeds; returns its error lines."""
    classifier = Classifier(rules, engine=use_engine)
    view = memoryview(data)
    for offset in range(0, len(data), CHUNK):
        classifier.feed(bytes(view[offset : offset + CHUNK]))
    return classifier.finish().error_lines


def scan_only(data: bytes, rules: CompiledRules) -> int:
    """The engine's scan alone over ``data`` in 1 MB pieces of whole lines; returns its hits."""
    found = rules.ruleset("", "stderr").engine()
    assert found is not None
    hits = 0
    for piece in whole_line_pieces(data):
        hits += len(found.engine.scan(piece))
    return hits


def whole_line_pieces(data: bytes) -> list[bytes]:
    """``data`` cut after the last newline of every 1 MB, as the classifier cuts its feeds."""
    pieces = []
    start = 0
    while start < len(data):
        end = data.rfind(b"\n", start, start + CHUNK) + 1 or len(data)
        pieces.append(data[start:end])
        start = end
    return pieces


def timed(fn: Any) -> tuple[float, float]:
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def throughput(name: str, data: bytes, repeats: int, fallback_mb: float) -> dict[str, Any]:
    rules = bench_rules()
    rules.ruleset("", "stderr").engine()  # compiled once, outside the timing (hot reload: 0.2 s)
    noise52, indicators52 = baseline52_needles()
    small = data[: int(fallback_mb * 1e6)].rsplit(b"\n", 1)[0] + b"\n"
    runs: dict[str, tuple[Any, bytes]] = {
        "seed (12 literals)": (lambda d: run_seed(d), data),
        "52-literal baseline": (lambda d: run_seed(d, noise52, indicators52), data),
        "autofix, engine": (lambda d: run_autofix(d, rules, engine.available()), data),
        "seed, fallback sample": (lambda d: run_seed(d), small),
        "autofix, fallback": (lambda d: run_autofix(d, rules, False), small),
    }
    if engine.available():
        runs = {
            **dict(list(runs.items())[:3]),
            "engine scan only": (lambda d: scan_only(d, rules), data),
            **dict(list(runs.items())[3:]),
        }
    times: dict[str, list[tuple[float, float]]] = {key: [] for key in runs}
    for _ in range(repeats):
        for key, (fn, piece) in runs.items():
            times[key].append(timed(lambda fn=fn, piece=piece: fn(piece)))
    med = {
        key: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
        for key, v in times.items()
    }
    mb = len(data) / 1e6
    rows: dict[str, Any] = {}

    def paired(key: str, base: str, field: int) -> float:
        """The median of per-round ratios: each round's baseline ran just before, so a slow
        spell of the machine (it has them, minutes long) hits both sides of a ratio."""
        return statistics.median(
            b[field] / x[field] for b, x in zip(times[base], times[key], strict=True)
        )

    for key, (w, c) in med.items():
        sample = key.endswith(("sample", "fallback"))
        size = len(small) / 1e6 if sample else mb
        base = "seed, fallback sample" if sample else "seed (12 literals)"
        rows[key] = {
            "mb_s_wall": size / w,
            "mb_s_cpu": size / c,
            "x_seed_wall": paired(key, base, 0),
            "x_seed_cpu": paired(key, base, 1),
            "x_52_cpu": None if sample else paired(key, "52-literal baseline", 1),
        }
    return {"input": name, "mb": mb, "lines": data.count(b"\n"), "rows": rows}


def _status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def reset_peak_kb() -> int:
    """Reset the peak RSS to the current RSS; returns it (KB). Elsewhere: the peak so far."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return _status_kb("VmRSS")
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def peak_kb() -> int:
    try:
        return _status_kb("VmHWM")
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def memory_child(gigabytes: float, name: str) -> None:
    """In a fresh process: stream ``gigabytes`` through one classifier, print extra peak RSS.

    real: each 1 MB chunk gets its own counter on every line, so no line repeats across the
    stream. noise-dense: eight 1 MB chunks of different seeds in turn (a counter appended to
    its lines would change what the end-anchored rules match).
    """
    if name == "noise-dense":
        chunks = [build_noise_dense(1.0, seed) for seed in range(8)]
    else:
        chunk = build_real(1.0)
    rules = bench_rules()
    classifier = Classifier(rules)
    classifier.feed((chunks[0] if name == "noise-dense" else chunk)[:1000])
    gc.collect()
    # Building the input peaks far above the stream's needs; reset the high-water mark (Linux
    # 4.0+) so the figure is the classifier's, not the generator's.
    before = reset_peak_kb()
    started = time.perf_counter()
    fed = 0
    target = int(gigabytes * 1e9)
    index = 0
    while fed < target:
        if name == "noise-dense":
            piece = chunks[index % len(chunks)]
        else:
            piece = chunk.replace(b"\n", b" #%d\n" % index)
        classifier.feed(piece)
        fed += len(piece)
        index += 1
    report = classifier.finish()
    after = peak_kb()
    seconds = time.perf_counter() - started
    print(f"{(after - before) / 1024:.1f} {fed / 1e6 / seconds:.1f} {report.total_lines}")


def parse_slices(data: bytes, count: int) -> list[bytes]:
    """16 KB slices of ``data`` at random offsets (seed 11): the 16 KB parse's inputs."""
    size = 16 * 1024
    rng = random.Random(11)
    return [data[s : s + size] for s in (rng.randrange(0, len(data) - size) for _ in range(count))]


def latency(data: bytes, samples: int) -> dict[str, float]:
    """ResponseParser.parse on 16 KB slices at random offsets, after 200 warm-up calls."""
    parser = ResponseParser(
        PatternStore(Path(tempfile.gettempdir()) / "autofix-bench-no-such-file.yaml")
    )
    pieces = parse_slices(data, samples + 200)
    for piece in pieces[:200]:
        parser.parse(0, piece, b"", operation="bench")
    walls, cpus = [], []
    gc.collect()
    for piece in pieces[200:]:
        began, cpu = time.perf_counter(), time.process_time()
        parser.parse(0, piece, b"", operation="bench")
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - began)
    walls.sort()
    cpus.sort()
    p99 = int(len(walls) * 0.99) - 1
    return {
        "median": statistics.median(walls) * 1e3,
        "p99": walls[p99] * 1e3,
        "cpu_median": statistics.median(cpus) * 1e3,
        "cpu_p99": cpus[p99] * 1e3,
    }


# Matches no line of any input: the empty database's stand-in (a database needs a pattern).
NEVER = "\\x00\\x01\\x02never"


def rule_costs(data: bytes, rules: CompiledRules, repeats: int = 3) -> list[dict[str, Any]]:
    """Per rule: its own scan cost (a database of that rule's expressions alone, minus one of a
    literal that never matches; median of ``repeats``), its raw hits, and the lines it won in
    a classify. The scan is ``engine.scan_hits``, the classifier's, per-hit callback included."""
    pieces = whole_line_pieces(data)

    def scan_seconds(expressions: tuple[str, ...], caseless: bool) -> tuple[float, int]:
        # engine._compile: the classifier's own compile flags (multi-line, caseless as planned)
        db = engine._compile(
            expressions, [0] * len(expressions), [engine._flags(caseless)] * len(expressions)
        )
        hits = 0
        seconds = []
        for _ in range(repeats):
            gc.collect()
            began = time.process_time()
            hits = sum(len(engine.scan_hits(db, piece)) for piece in pieces)
            seconds.append(time.process_time() - began)
        return statistics.median(seconds), hits

    base_s, base_hits = scan_seconds((NEVER,), False)
    classifier = Classifier(rules)
    for piece in pieces:
        classifier.feed(piece)
    won = classifier.finish().rule_hits
    rows = []
    for compiled in rules.ruleset("", "stderr").rules:
        if compiled.plan is None:
            continue
        # A confirmed expression is timed here as a plain one: its cost without the prefilter.
        expressions = (*compiled.plan.expressions, *(e for _, e in compiled.plan.confirm))
        seconds, hits = scan_seconds(expressions, compiled.plan.caseless)
        rows.append(
            {
                "rule": compiled.id,
                "kind": compiled.rule.kind,
                "mode": compiled.plan.mode,
                "ms": (seconds - base_s) * 1e3,
                "hits": hits - base_hits,
                "won": won.get(compiled.id, 0),
            }
        )
    rows.sort(key=lambda row: -row["ms"])
    return [{"rule": "(never-matching literal)", "ms": base_s * 1e3, "hits": base_hits}, *rows]


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
    args.add_argument("--repeats", type=int, default=3)
    args.add_argument("--input", choices=(*INPUTS, "all"), default="all")
    args.add_argument("--fallback-mb", type=float, default=20.0, help="the fallback's sample")
    args.add_argument("--samples", type=int, default=2000, help="16 KB parses timed")
    args.add_argument("--cpu", type=int, default=None, help="pin to this CPU")
    args.add_argument("--json", default=None, help="also write the numbers here")
    args.add_argument(
        "--quick", action="store_true", help="10 MB (noise-dense 5 MB), 0.1 GB streams, 1 repeat"
    )
    args.add_argument(
        "--cost-input",
        nargs="*",
        choices=INPUTS,
        default=["noise-dense", "real"],
        help="the per-rule cost tables' inputs (none: no table)",
    )
    args.add_argument("--cost-mb", type=float, default=20.0, help="its size (--quick: 5 MB)")
    args.add_argument("--memory-child", type=float, default=None, help=argparse.SUPPRESS)
    args.add_argument("--memory-input", default="real", help=argparse.SUPPRESS)
    opts = args.parse_args()
    if opts.cpu is not None:
        os.sched_setaffinity(0, {opts.cpu})
    if opts.memory_child is not None:
        memory_child(opts.memory_child, opts.memory_input)
        return 0
    megabytes, stream_gb, repeats = (
        (10.0, 0.1, 1) if opts.quick else (opts.mb, opts.stream_gb, opts.repeats)
    )
    fallback_mb = min(opts.fallback_mb, megabytes)
    rules = bench_rules()
    print(
        f"engine: {'hyperscan ' + engine.hyperscan.__version__ if engine.available() else 'none (fallback)'}; "
        f"rules: {len(DEFAULT_RULES)} built-in + {len(USER_RULES)} user; "
        f"seed: {len(SEED_NOISE)} noise + {len(SEED_INDICATORS)} indicator literals; "
        f"CPU affinity {sorted(os.sched_getaffinity(0))}; "
        f"load average at start {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    for compiled in rules.compiled:
        if compiled.plan is not None and compiled.plan.mode != engine.MODE_ENGINE:
            print(f"  {compiled.id}: {compiled.plan.mode} ({compiled.plan.why})")
    results: dict[str, Any] = {"inputs": []}
    names = list(INPUTS) if opts.input == "all" else [opts.input]
    for name in names:
        data = INPUTS[name](QUICK_MB.get(name, megabytes) if opts.quick else megabytes)
        found = throughput(name, data, repeats, fallback_mb)
        results["inputs"].append(found)
        label = " (best case: almost no hits)" if name == "quiet" else ""
        print(
            f"\ninput {name}{label}: {found['mb']:.1f} MB, {found['lines']} lines (median of {repeats})"
        )
        print(
            f"{'':24s} {'MB/s wall':>10s} {'MB/s CPU':>9s} {'x seed wall':>12s} {'x seed CPU':>11s} {'x 52-lit CPU':>13s}"
        )
        for key, row in found["rows"].items():
            x52 = "" if row["x_52_cpu"] is None else f"{row['x_52_cpu']:12.2f}x"
            print(
                f"{key:24s} {row['mb_s_wall']:10.1f} {row['mb_s_cpu']:9.1f} "
                f"{row['x_seed_wall']:11.2f}x {row['x_seed_cpu']:10.2f}x {x52}"
            )
    results["rule_costs"] = {}
    for cost_input in opts.cost_input:
        cost_mb = 5.0 if opts.quick else opts.cost_mb
        costs = rule_costs(INPUTS[cost_input](cost_mb), rules)
        results["rule_costs"][cost_input] = {"mb": cost_mb, "rows": costs}
        print(
            f"\nper-rule scan cost on {cost_input} ({cost_mb:g} MB, CPU ms, median of 3): "
            "the rule's expressions alone minus a never-matching literal; ranks rules, does not add up to the "
            "combined scan; hits: raw engine hits; won: lines the rule decided in a classify"
        )
        print(f"{'rule':32s} {'kind':16s} {'mode':13s} {'ms':>8s} {'hits':>9s} {'won':>9s}")
        for row in costs:
            print(
                f"{row['rule']:32s} {row.get('kind', ''):16s} {row.get('mode', ''):13s} "
                f"{row['ms']:8.1f} {row['hits']:9d} {row.get('won', 0):9d}"
            )
    results["stream"] = {}
    for name, label in (("real", "every line unique"), ("noise-dense", "8 seeds in turn")):
        child = subprocess.run(
            [sys.executable, __file__, "--memory-child", str(stream_gb), "--memory-input", name]
            + ([] if opts.cpu is None else ["--cpu", str(opts.cpu)]),
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        extra_mb, stream_rate, stream_lines = child.stdout.split()
        results["stream"][name] = {
            "gb": stream_gb,
            "extra_mb": float(extra_mb),
            "mb_s": float(stream_rate),
        }
        print(
            f"\nstream {stream_gb:g} GB ({name} input, {label}, 1 MB feeds): extra peak RSS "
            f"{extra_mb} MB, {stream_rate} MB/s wall, {stream_lines} lines"
        )
    results["latency"] = {}
    for name in ("project", "real", "noise-dense"):
        lat = latency(INPUTS[name](min(megabytes, 20.0)), opts.samples if not opts.quick else 500)
        results["latency"][name] = lat
        print(
            f"16 KB ResponseParser.parse ({name}{' (error-dense stderr)' if name == 'real' else ''}): median {lat['median']:.3f} ms, p99 {lat['p99']:.3f} ms "
            f"wall; CPU median {lat['cpu_median']:.3f} ms, p99 {lat['cpu_p99']:.3f} ms"
        )
    results["reload_check_us"] = reload_check_us()
    print(f"hot-reload check: {results['reload_check_us']:.2f} µs per PatternStore.current()")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if opts.json:
        Path(opts.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
