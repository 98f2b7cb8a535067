"""Second fresh batch (split ``fresh``, ids ``fresh2-*``): ripgrep, hyperfine, GNU parallel,
bison, flex, nasm, m4, gdb, guile, elixir, luajit, zsh, phpunit, phpcs, perltidy, luacheck, rake,
datamash, miller, cloc, moreutils (chronic, ts, sponge) and SWI-Prolog."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh2")


# --- ripgrep -------------------------------------------------------------------------------------

RG_SRC = {
    "src/client.py": "RETRY_TIMEOUT = 30\n\ndef fetch(url):\n    breakpoint()\n    return url\n",
    "src/server.py": "import os\nPORT = int(os.environ.get('PORT', 8080))\n",
    "src/jobs.py": "def run():\n    pass  # TODO: schedule\n",
}
add(
    "rg-no-match",
    "rg",
    "plain_failure",
    None,
    "rg looks for the definition of MAX_CONNECTIONS in the sources; there is none and rg exits 1",
    "rg -n 'MAX_CONNECTIONS\\s*=' src",
    files=RG_SRC,
    expect=1,
)
add(
    "rg-debugger-guard-true",
    "rg",
    "exit0_hidden_failure",
    None,
    "pre-merge guard greps for breakpoint() calls and prints an ERROR when found, but ends with '; true' so it never fails",
    "rg -n 'breakpoint\\(\\)' src && echo 'ERROR: remove debugger calls before merging'; true",
    files=RG_SRC,
    confirm=r"remove debugger calls",
)
add(
    "rg-colour-found",
    "rg",
    "coloured_output",
    "success",
    "rg --color=always finds where the retry timeout is defined",
    "rg --color=always -n 'RETRY_TIMEOUT' src",
    files=RG_SRC,
    confirm=r"RETRY_TIMEOUT",
)

# --- hyperfine -----------------------------------------------------------------------------------

add(
    "hyperfine-command-fails",
    "hyperfine",
    "plain_failure",
    None,
    "hyperfine benchmarks a build script that exits 1; hyperfine stops and exits 1",
    "hyperfine --style basic --runs 3 './build.sh'",
    files={
        "build.sh": "#!/bin/bash\necho 'cc: error: main.c: No such file or directory' >&2\nexit 1\n"
    },
)
add(
    "hyperfine-ignore-failure",
    "hyperfine",
    "exit0_hidden_failure",
    None,
    "hyperfine -i benchmarks a build script that fails on every run; it reports timings of the failure and exits 0",
    "hyperfine --style basic -i --runs 3 './build.sh'",
    files={
        "build.sh": "#!/bin/bash\necho 'cc: error: main.c: No such file or directory' >&2\nexit 1\n"
    },
    confirm=r"(?i)non-zero exit code",
)
add(
    "hyperfine-fast-warning",
    "hyperfine",
    "success_alarming_stderr",
    None,
    "hyperfine compares two quick commands; it warns that results may be inaccurate but completes the comparison",
    "hyperfine --style basic -N --warmup 2 --runs 20 'true' 'sleep 0.001'",
    confirm=r"(?s)^(?=.*Warning)(?=.*faster than)",
)

# --- GNU parallel --------------------------------------------------------------------------------

PAR_FILES = {"a.log": "alpha\n" * 50, "b.log": "beta\n" * 50}
add(
    "parallel-missing-file",
    "parallel",
    "plain_failure",
    None,
    "parallel gzips three logs, one of which does not exist; parallel exits 1 (one failed job)",
    "parallel -j2 gzip -k ::: a.log b.log c.log",
    files=PAR_FILES,
    expect=1,
)
add(
    "parallel-tee-jobs",
    "parallel",
    "exit0_hidden_failure",
    None,
    "a resize job runs over three images with parallel, logged through tee; two jobs raise Python errors and tee exits 0",
    "parallel -j2 --tag python3 resize.py ::: 1.jpg 2.jpg 3.jpg 2>&1 | tee resize.log",
    files={
        "resize.py": dedent("""
            import sys
            name = sys.argv[1]
            if name != "1.jpg":
                raise ValueError(f"{name}: truncated JPEG data, cannot resize")
            print(f"{name}: resized to 640x480")
        """),
    },
    confirm=r"truncated JPEG data",
)
add(
    "parallel-bar-ok",
    "parallel",
    "progress_on_stderr",
    "success",
    "parallel --bar checksums 20 files, drawing its progress bar on stderr",
    "parallel --bar -j2 sha256sum ::: f*.txt > sums.txt && wc -l < sums.txt",
    setup="for i in $(seq 1 20); do echo $i > f$i.txt; done",
    confirm=r"100%",
)

# --- bison / flex --------------------------------------------------------------------------------

CALC_Y = dedent("""
    %{
    #include <stdio.h>
    int yylex(void);
    void yyerror(const char *s) { fprintf(stderr, "%s\\n", s); }
    %}
    %token NUM
    %%
    expr: expr '+' expr
        | expr '*' expr
        | NUM
        ;
    %%
""")
add(
    "bison-conflicts-ok",
    "bison",
    "success_alarming_stderr",
    None,
    "bison generates the calculator parser; the ambiguous grammar draws conflict warnings but the parser is written",
    "bison -d calc.y && ls calc.tab.c calc.tab.h",
    files={"calc.y": CALC_Y},
    confirm=r"(?s)^(?=.*conflicts?)(?=.*calc\.tab\.c)",
)
LEX_L = dedent("""
    %{
    #include <stdio.h>
    int words = 0;
    %}
    %%
    [a-zA-Z]+   { words++; }
    .|\\n       { }
    %%
    int main(void) { yylex(); printf("tokens: %d\\n", words); return 0; }
    int yywrap(void) { return 1; }
""")
add(
    "flex-gcc-warnings-ok",
    "flex",
    "success_alarming_stderr",
    None,
    "flex generates a word counter, gcc -Wall warns about unused generated functions, and the binary counts the words",
    "flex wc.l && gcc -Wall -o wc lex.yy.c && echo 'one two three' | ./wc",
    files={"wc.l": LEX_L},
    needs=("flex", "gcc"),
    confirm=r"(?s)^(?=.*warning)(?=.*tokens: 3)",
)

# --- nasm ----------------------------------------------------------------------------------------

HELLO_ASM = dedent("""
    section .data
    msg db "hello from nasm", 10
    section .text
    global _start
    _start:
        mov rax, 1
        mov rdi, 1
        mov rsi, msg
        mov rdx, 16
        syscall
        mov rax, 60
        xor rdi, rdi
        syscall
""")
add(
    "nasm-hello-ok",
    "nasm",
    "plain_success",
    None,
    "nasm assembles a hello world, ld links it and it runs",
    "nasm -f elf64 hello.asm -o hello.o && ld hello.o -o hello && ./hello",
    files={"hello.asm": HELLO_ASM},
    needs=("nasm", "ld"),
    confirm=r"hello from nasm",
)

# --- m4 ------------------------------------------------------------------------------------------

M4_SITE = (
    "define(`SITE', `example.org')dnl\ninclude(`ports.m4')dnl\nserver_name SITE;\nlisten PORT;\n"
)
add(
    "m4-include-missing",
    "m4",
    "plain_failure",
    None,
    "m4 renders a config that includes a file that does not exist and exits 1",
    "m4 site.m4 > site.conf",
    files={"site.m4": M4_SITE},
)
add(
    "m4-include-missing-or-true",
    "m4",
    "exit0_hidden_failure",
    None,
    "config render 'm4 site.m4 > site.conf || true' cannot include ports.m4, leaving PORT unexpanded, and exits 0",
    "m4 site.m4 > site.conf || true; cat site.conf",
    files={"site.m4": M4_SITE},
    confirm=r"listen PORT",
)

# --- gdb -----------------------------------------------------------------------------------------

CRASH_C = dedent("""
    #include <stdio.h>
    #include <string.h>
    struct rec { char *name; };
    static size_t name_len(struct rec *r) { return strlen(r->name); }
    int main(void) {
        struct rec recs[2] = {{"ok"}, {NULL}};
        for (int i = 0; i < 2; i++) printf("len %zu\\n", name_len(&recs[i]));
        return 0;
    }
""")
add(
    "gdb-batch-crash-exit0",
    "gdb",
    "exit0_hidden_failure",
    None,
    "CI runs the test binary under 'gdb -batch -ex run -ex bt' to get a backtrace; the program segfaults and gdb exits 0",
    "gcc -g -O0 -o crash crash.c && gdb -q -batch -ex run -ex bt ./crash",
    files={"crash.c": CRASH_C},
    needs=("gdb", "gcc"),
    confirm=r"SIGSEGV",
)
add(
    "gdb-batch-return-code",
    "gdb",
    "plain_failure",
    None,
    "gdb -return-child-result runs the crashing program and passes its failure on as a non-zero exit",
    "gcc -g -O0 -o crash crash.c && gdb -q -batch -return-child-result -ex run -ex bt ./crash",
    files={"crash.c": CRASH_C},
    needs=("gdb", "gcc"),
    confirm=r"SIGSEGV",
)

# --- guile ---------------------------------------------------------------------------------------

add(
    "guile-unbound-variable",
    "guile",
    "plain_failure",
    None,
    "a guile script calls an undefined procedure; guile prints a backtrace and exits 1",
    "guile --no-auto-compile report.scm",
    files={
        "report.scm": "(define (total xs) (apply + xs))\n(display (total (list 1 2 3)))\n(newline)\n(display (average (list 1 2 3)))\n",
    },
    confirm=r"average",
)
add(
    "guile-catch-all-exit0",
    "guile",
    "exit0_hidden_failure",
    None,
    "a guile import script wraps its work in catch #t and only prints the error; the file is never parsed and it exits 0",
    "guile --no-auto-compile import.scm",
    files={
        "import.scm": dedent("""
            (use-modules (ice-9 rdelim))
            (catch #t
              (lambda ()
                (call-with-input-file "records.txt"
                  (lambda (port) (display (read-line port)))))
              (lambda (key . args)
                (format (current-error-port) "import error: ~a ~s~%" key args)))
            (display "import finished\\n")
        """),
    },
    confirm=r"import error: system-error",
)

# --- elixir --------------------------------------------------------------------------------------

add(
    "elixir-raise",
    "elixir",
    "plain_failure",
    None,
    "an elixir script pattern-matches a config that lacks a key; it raises a MatchError and exits 1",
    "elixir config.exs",
    files={
        "config.exs": '%{port: port} = %{host: "localhost"}\nIO.puts("listening on #{port}")\n',
    },
    confirm=r"MatchError",
    timeout=90,
)
add(
    "elixir-task-crash-exit0",
    "elixir",
    "exit0_hidden_failure",
    None,
    "an elixir job starts its import in an unlinked Task; the task crashes with an ArithmeticError, is logged, and the script exits 0",
    "elixir job.exs",
    files={
        "job.exs": dedent("""
            {:ok, _pid} = Task.start(fn ->
              rows = [10, 20, 0]
              Enum.each(rows, fn r -> IO.puts("ratio #{div(100, r)}") end)
            end)
            Process.sleep(500)
            IO.puts("import job submitted")
        """),
    },
    confirm=r"ArithmeticError",
    timeout=90,
)
add(
    "elixir-exunit-logger-error-pass",
    "elixir",
    "success_alarming_stderr",
    None,
    "an ExUnit test checks that a parser logs and rejects bad input; Logger prints [error] lines and the test passes",
    "elixir parser_test.exs",
    files={
        "parser_test.exs": dedent("""
            ExUnit.start(capture_log: false)
            require Logger

            defmodule Parser do
              def parse(s) do
                case Integer.parse(s) do
                  {n, ""} -> {:ok, n}
                  _ ->
                    Logger.error("could not parse #{inspect(s)}: invalid integer")
                    {:error, :invalid}
                end
              end
            end

            defmodule ParserTest do
              use ExUnit.Case
              test "valid", do: assert(Parser.parse("42") == {:ok, 42})
              test "invalid", do: assert(Parser.parse("4x2") == {:error, :invalid})
            end
        """),
    },
    confirm=r"(?s)^(?=.*\[error\])(?=.*2 tests, 0 failures)",
    timeout=90,
)
add(
    "elixir-unused-warning-ok",
    "elixir",
    "success_alarming_stderr",
    None,
    "an elixir script compiles with unused-variable warnings and prints the right total",
    "elixir sum.exs",
    files={
        "sum.exs": 'defmodule Sum do\n  def run(xs) do\n    tmp = 1\n    Enum.sum(xs)\n  end\nend\nIO.puts("total=#{Sum.run([1, 2, 3])}")\n',
    },
    confirm=r"(?s)^(?=.*warning)(?=.*total=6)",
    timeout=90,
)

# --- luajit --------------------------------------------------------------------------------------

add(
    "luajit-nil-index",
    "luajit",
    "plain_failure",
    None,
    "a luajit script indexes a nil field of a config table and exits 1 with a traceback",
    "luajit app.lua",
    files={"app.lua": "local cfg = {db = nil}\nprint('host: ' .. cfg.db.host)\n"},
    confirm=r"attempt to index",
)
add(
    "luajit-pcall-all-fail",
    "luajit",
    "exit0_hidden_failure",
    None,
    "a luajit batch processes each file under pcall and only prints errors; every file fails and it exits 0 with 0 processed",
    "luajit batch.lua",
    files={
        "batch.lua": dedent("""
            local done = 0
            for _, name in ipairs({"a.json", "b.json", "c.json"}) do
              local ok, err = pcall(function()
                local f = assert(io.open(name, "r"))
                return f:read("*a")
              end)
              if ok then done = done + 1 else io.stderr:write("error: ", tostring(err), "\\n") end
            end
            print(("processed %d of 3 files"):format(done))
        """),
    },
    confirm=r"processed 0 of 3",
)

# --- zsh -----------------------------------------------------------------------------------------

add(
    "zsh-command-not-found-continues",
    "zsh",
    "exit0_hidden_failure",
    None,
    "a zsh deploy script without errexit calls a missing kubectl, carries on and prints 'deployed'",
    "zsh deploy.zsh",
    files={
        "deploy.zsh": "#!/bin/zsh\necho 'building image'\nkubectl-corpus apply -f k8s/\necho 'deployed'\n",
    },
    confirm=r"command not found",
)

# --- phpunit / phpcs -----------------------------------------------------------------------------

PHP_SRC = {
    "src/Money.php": dedent("""
        <?php
        final class Money {
            public static function cents(string $amount): int {
                if (!is_numeric($amount)) {
                    error_log("ERROR Money::cents: invalid amount '$amount'");
                    return 0;
                }
                return (int) round(((float) $amount) * 100);
            }
        }
    """),
}
PHP_TEST = dedent("""
    <?php
    use PHPUnit\\Framework\\TestCase;
    require_once __DIR__ . '/../src/Money.php';

    final class MoneyTest extends TestCase {
        public function testCents(): void { $this->assertSame(1999, Money::cents('19.99')); }
        public function testInvalid(): void { $this->assertSame(0, Money::cents('abc')); }
    }
""")
add(
    "phpunit-error-log-pass",
    "phpunit",
    "success_alarming_stderr",
    None,
    "phpunit tests pass; the code under test writes an ERROR line via error_log for the invalid amount",
    "phpunit tests",
    files={**PHP_SRC, "tests/MoneyTest.php": PHP_TEST},
    confirm=r"(?s)^(?=.*ERROR Money::cents)(?=.*OK \(2 tests)",
)
add(
    "phpunit-fail",
    "phpunit",
    "plain_failure",
    None,
    "a phpunit test expects rounding up, the code rounds half-down on this value, and phpunit exits 1",
    "phpunit tests",
    files={
        **PHP_SRC,
        "tests/MoneyTest.php": PHP_TEST.replace(
            "Money::cents('19.99')", "Money::cents('19.994')"
        ).replace("1999", "2000"),
    },
    confirm=r"FAILURES!",
)
add(
    "phpunit-fail-tail",
    "phpunit",
    "exit0_hidden_failure",
    None,
    "CI pipes phpunit into 'tail -n 20'; a test fails and tail exits 0",
    "phpunit tests | tail -n 20",
    files={
        **PHP_SRC,
        "tests/MoneyTest.php": PHP_TEST.replace(
            "Money::cents('19.99')", "Money::cents('19.994')"
        ).replace("1999", "2000"),
    },
    confirm=r"FAILURES!",
)
PHPCS_SRC = {"src/util.php": "<?php\nfunction do_thing($a,$b){\nif($a){return $b;}\n}\n"}
add(
    "phpcs-errors",
    "phpcs",
    "plain_failure",
    None,
    "phpcs checks a file against PSR12 and finds errors, exiting non-zero",
    "phpcs --standard=PSR12 --no-colors src",
    files=PHPCS_SRC,
)
add(
    "phpcs-ignore-errors-on-exit",
    "phpcs",
    "exit0_hidden_failure",
    None,
    "phpcs is configured with ignore_errors_on_exit, reports PSR12 errors and exits 0",
    "phpcs --standard=PSR12 --no-colors --runtime-set ignore_errors_on_exit 1 --runtime-set ignore_warnings_on_exit 1 src",
    files=PHPCS_SRC,
    confirm=r"ERROR",
)
add(
    "phpcs-colour-errors",
    "phpcs",
    "coloured_output",
    "failure",
    "phpcs --colors reports PSR12 errors in colour and exits non-zero",
    "phpcs --standard=PSR12 --colors -s src",
    files=PHPCS_SRC,
    expect="nonzero",
)

# --- perltidy ------------------------------------------------------------------------------------

add(
    "perltidy-then-compile-ok",
    "perltidy",
    "plain_success",
    None,
    "perltidy reformats a script in place and perl -c confirms it still compiles",
    "perltidy -b -bext='/' report.pl && perl -c report.pl",
    files={
        "report.pl": 'use strict;use warnings;my %h=(a=>1,b=>2);for my $k(sort keys %h){print "$k=$h{$k}\\n"}\n'
    },
    needs=("perltidy", "perl"),
    confirm=r"syntax OK",
)

# --- luacheck ------------------------------------------------------------------------------------

LUA_SRC = {
    "src/app.lua": "local json = require('json')\nfunction handler(req)\n  local unused = 1\n  return respnse\nend\n",
    "src/ok.lua": "local M = {}\nfunction M.add(a, b)\n  return a + b\nend\nreturn M\n",
}
add(
    "luacheck-warnings",
    "luacheck",
    "plain_failure",
    None,
    "luacheck finds an unused variable and an undefined global and exits 1",
    "luacheck --no-color src",
    files=LUA_SRC,
)
add(
    "luacheck-or-true",
    "luacheck",
    "exit0_hidden_failure",
    None,
    "lint step 'luacheck src || true' finds an undefined global (a typo) and the step still exits 0",
    "luacheck --no-color src || true",
    files=LUA_SRC,
    confirm=r"respnse",
)
add(
    "luacheck-clean",
    "luacheck",
    "success_alarming_stderr",
    None,
    "luacheck checks a clean module and prints its '0 warnings / 0 errors' summary",
    "luacheck --no-color src/ok.lua",
    files=LUA_SRC,
    confirm=r"0 warnings / 0 errors",
)

# --- rake ----------------------------------------------------------------------------------------

RAKE_TEST = {
    "test/test_slug.rb": dedent("""
        require "minitest/autorun"
        def slug(s) = s.downcase.gsub(" ", "-")
        class SlugTest < Minitest::Test
          def test_spaces = assert_equal("a-b", slug("A B"))
          def test_punct = assert_equal("a-b", slug("A, B"))
        end
    """),
}
add(
    "rake-sh-block-swallows",
    "rake",
    "exit0_hidden_failure",
    None,
    "a Rakefile runs the tests with an sh block that only prints the status; a test fails and rake exits 0",
    "rake test",
    files={
        **RAKE_TEST,
        "Rakefile": 'task :test do\n  sh "ruby test/test_slug.rb" do |ok, res|\n    puts "tests finished (status #{res.exitstatus})" unless ok\n  end\nend\n',
    },
    confirm=r"1 failures",
)
add(
    "rake-trace-aborted",
    "rake",
    "failure_noisy_stderr",
    None,
    "rake --trace runs a failing test task; it prints its invoke/execute trace and a long backtrace and exits 1",
    "rake --trace test",
    files={**RAKE_TEST, "Rakefile": 'task :test do\n  sh "ruby test/test_slug.rb"\nend\n'},
    confirm=r"rake aborted",
)

# --- datamash / miller / cloc --------------------------------------------------------------------

SALES = {"sales.csv": "region,amount\nnorth,10\nsouth,n/a\nnorth,5\n"}
add(
    "datamash-invalid-number",
    "datamash",
    "plain_failure",
    None,
    "datamash sums a column that contains 'n/a' and exits 1",
    "datamash -t, --header-in sum 2 < sales.csv",
    files=SALES,
)
add(
    "datamash-fallback-zero",
    "datamash",
    "exit0_hidden_failure",
    None,
    "report step falls back to a total of 0 when datamash fails; the column has 'n/a' and the report says 0",
    'datamash -t, --header-in sum 2 < sales.csv > total.txt || echo 0 > total.txt; echo "total: $(cat total.txt)"',
    files=SALES,
    confirm=r"invalid numeric value",
)
add(
    "mlr-colour-sort",
    "mlr",
    "coloured_output",
    "success",
    "miller sorts a CSV by amount and pretty-prints it in forced colour",
    "mlr -C --icsv --opprint sort -nr amount then head -n 2 sales.csv",
    files={"sales.csv": "region,amount\nnorth,10\nsouth,7\neast,12\n"},
    confirm=r"east",
)
add(
    "cloc-count",
    "cloc",
    "plain_success",
    None,
    "cloc counts the lines of a small mixed-language tree",
    "cloc --quiet src",
    files={**RG_SRC, "src/app.lua": LUA_SRC["src/ok.lua"]},
    confirm=r"Python",
)

# --- moreutils -----------------------------------------------------------------------------------

add(
    "chronic-fail-or-true",
    "chronic",
    "exit0_hidden_failure",
    None,
    "cron-style 'chronic ./backup.sh || true': the backup fails, chronic shows its output, and the step exits 0",
    "chronic ./backup.sh || true",
    files={
        "backup.sh": "#!/bin/bash\necho 'dumping database'\necho 'pg_dump: error: connection to server on socket \"/run/postgresql/.s.PGSQL.5432\" failed: No such file or directory' >&2\nexit 1\n",
    },
    confirm=r"pg_dump: error",
)
add(
    "chronic-quiet-success",
    "chronic",
    "plain_success",
    None,
    "chronic runs a successful backup quietly and a final echo confirms it",
    "chronic ./backup.sh && echo 'backup ok'",
    files={"backup.sh": "#!/bin/bash\necho 'dumping database'\necho 'done'\n"},
    confirm=r"backup ok",
)
add(
    "ts-pipe-hides-exit",
    "ts",
    "exit0_hidden_failure",
    None,
    "a job's output is timestamped by piping it into ts; the job's Node step throws and exits 1, ts exits 0",
    "./job.sh 2>&1 | ts '[%Y-%m-%d %H:%M:%S]'",
    files={
        "job.sh": "#!/bin/bash\necho 'starting sync'\nnode -e 'const c = JSON.parse(\"{bad\"); console.log(c)'\n",
    },
    needs=("ts", "node"),
    confirm=r"SyntaxError",
)
add(
    "sponge-truncates-config",
    "sponge",
    "exit0_hidden_failure",
    None,
    "'jq ... config.json | sponge config.json' on a broken filter: jq fails, sponge writes an empty file and exits 0",
    "jq '.replicas = (.replicas + )' config.json | sponge config.json; wc -c config.json",
    files={"config.json": '{"replicas": 2, "image": "web:1.0"}\n'},
    needs=("sponge", "jq"),
    confirm=r"(?s)^(?=.*jq: error)(?=.*\b0 config\.json)",
)

# --- SWI-Prolog ----------------------------------------------------------------------------------

add(
    "swipl-goal-raises",
    "swipl",
    "plain_failure",
    None,
    "a Prolog program's main goal raises an arithmetic error; swipl prints it and exits non-zero",
    "swipl -g main -t halt app.pl",
    files={"app.pl": "main :- X is 10 / 0, format('~w~n', [X]).\n"},
    confirm=r"(?i)zero",
)
add(
    "swipl-plunit-pass",
    "swipl",
    "plain_success",
    None,
    "plunit tests of a list predicate pass",
    "swipl -g run_tests -t halt lists.pl",
    files={
        "lists.pl": dedent("""
            :- use_module(library(plunit)).
            double([], []).
            double([X|Xs], [Y|Ys]) :- Y is 2*X, double(Xs, Ys).
            :- begin_tests(double).
            test(empty) :- double([], []).
            test(three) :- double([1,2,3], [2,4,6]).
            :- end_tests(double).
        """),
    },
    confirm=r"(?i)passed",
)
