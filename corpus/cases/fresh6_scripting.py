"""Sixth fresh batch (ids ``fresh6-*``): shell, git, HTTP and data scenarios (bash, git, curl,
sqlite3, php, ruby, perl, jq, envsubst, script)."""

from __future__ import annotations

from casekit import batch

CASES, add = batch("fresh6")


REPO = "git init -q -b main . && git add -A && git commit -qm init"

add(
    "bash-local-masks-status",
    "bash",
    "exit0_hidden_failure",
    None,
    "a deploy script under set -e assigns 'local out=$(...)', which masks the failing command's status; the build step failed and the script carries on to 'deployed'",
    "bash deploy.sh",
    files={
        "deploy.sh": 'set -euo pipefail\nbuild() {\n  local out=$(python3 -c \'import sys; sys.exit("error: missing asset manifest")\')\n  echo "build output: $out"\n}\nbuild\necho deployed\n'
    },
    confirm=r"error: missing asset manifest",
)
add(
    "bash-arith-zero-errexit",
    "bash",
    "plain_failure",
    None,
    "a counter script under set -e uses ((count++)) starting at 0; the arithmetic returns 1 and the script stops with exit 1 after the first file",
    "bash count.sh",
    files={
        "count.sh": 'set -e\ncount=0\nfor f in a b c; do\n  echo "processing $f"\n  ((count++))\ndone\necho "processed $count"\n'
    },
    expect=1,
    confirm=r"processing a",
)
add(
    "bash-xargs-parallel-one-fails",
    "bash",
    "plain_failure",
    None,
    "xargs -P runs image checks in parallel; one input fails and xargs exits 123",
    "printf 'ok1\\nbad\\nok2\\n' | xargs -P 2 -I{} sh -c 'case {} in bad) echo \"check {}: corrupt header\" >&2; exit 1;; *) echo \"check {}: ok\";; esac'",
    expect=123,
    confirm=r"corrupt header",
)
add(
    "envsubst-missing-var-empty",
    "envsubst",
    "exit0_hidden_failure",
    None,
    "a deploy renders nginx.conf from a template with envsubst; UPSTREAM_HOST is unset, the rendered proxy_pass has an empty host and envsubst exits 0",
    "PORT=8080 envsubst < nginx.conf.tpl > nginx.conf && grep proxy_pass nginx.conf",
    files={
        "nginx.conf.tpl": "server {\n  listen ${PORT};\n  location / { proxy_pass http://${UPSTREAM_HOST}:9000; }\n}\n"
    },
    confirm=r"proxy_pass http://:9000",
)
add(
    "script-pty-pytest-colour",
    "script",
    "coloured_output",
    "failure",
    "the agent runs pytest under script(1) so it gets a pty and colours; a test fails and script passes on the exit status",
    "script -qec 'pytest -q -p no:cacheprovider' /dev/null",
    files={"test_x.py": "def test_sum():\n    assert sum([0.1] * 3) == 0.3\n"},
    expect=1,
)
add(
    "git-merge-conflict-status",
    "git",
    "exit0_hidden_failure",
    None,
    "the agent merges a feature branch and then prints git status --short as the last command; the merge stopped on a conflict",
    "git merge feature -m 'merge feature'; git status --short",
    files={"config.ini": "[db]\nhost = a\n"},
    setup=REPO
    + " && git checkout -qb feature && sed -i 's/a/b/' config.ini && git commit -qam f && git checkout -q main && sed -i 's/a/c/' config.ini && git commit -qam m",
    confirm=r"CONFLICT",
)
add(
    "git-pull-divergent-no-strategy",
    "git",
    "plain_failure",
    None,
    "git pull from a diverged local remote without a reconcile strategy refuses and exits 128",
    "cd work && git pull -q origin main",
    setup="git init -q -b main origin && cd origin && echo a > f && git add f && git commit -qm a && cd .. && git clone -q origin work && cd origin && echo b >> f && git commit -qam b && cd ../work && echo c > g && git add g && git commit -qm c",
    expect=128,
    confirm=r"divergent",
)
add(
    "git-fsck-dangling-ok",
    "git",
    "success_alarming_stderr",
    None,
    "git fsck on a repository with an amended commit reports a dangling commit (normal) and no corruption; it exits 0",
    "git fsck --no-reflogs --no-progress && echo 'fsck clean'",
    files={"a.txt": "1\n"},
    setup=REPO
    + " && echo 2 >> a.txt && git commit -qam second && git commit -q --amend -m amended",
    confirm=r"(?s)(?=.*dangling commit)(?=.*fsck clean)",
)
add(
    "git-clone-progress",
    "git",
    "progress_on_stderr",
    "success",
    "git clone --progress from a local bare repository prints object counting progress on stderr",
    "git clone --progress --no-local src.git dst && git -C dst log --oneline | wc -l",
    setup="git init -q -b main s && cd s && for i in $(seq 1 30); do echo $i > f$i; git add f$i; git commit -qm c$i; done && cd .. && git clone -q --bare s src.git",
    confirm=r"Receiving objects",
)
add(
    "git-diff-colour",
    "git",
    "coloured_output",
    "success",
    "the agent shows its change with git diff --color=always before committing",
    "git diff --color=always --stat && git diff --color=always",
    files={"calc.py": "def add(a, b):\n    return a - b\n"},
    setup=REPO + " && sed -i 's/a - b/a + b/' calc.py",
)
add(
    "curl-retry-refused-fails",
    "curl",
    "failure_noisy_stderr",
    None,
    "curl --retry 2 --retry-connrefused retries a webhook to a closed port, printing a connect error per attempt, then exits 7",
    "curl -sS --retry 2 --retry-delay 1 --retry-connrefused http://127.0.0.1:9/hook",
    expect=7,
    confirm=r"Failed to connect",
)
add(
    "curl-flaky-retry-ok",
    "curl",
    "success_alarming_stderr",
    None,
    "curl --retry 3 gets two 503 error pages from a flaky endpoint (both printed) and the third attempt succeeds",
    'curl -sS --retry 3 --retry-delay 0 "$HTTP_APP/flaky/fresh6-curl/2"',
    confirm=r"(?s)(?=.*503 Service)(?=.*ok after 3 attempts)",
)
add(
    "sqlite3-foreign-key-check-rows",
    "sqlite3",
    "exit0_hidden_failure",
    None,
    "after a migration the agent runs PRAGMA foreign_key_check, which lists orphaned rows and exits 0; the migration left broken references",
    "sqlite3 app.db < migrate.sql && sqlite3 app.db 'PRAGMA foreign_key_check;'",
    files={
        "migrate.sql": "create table users(id integer primary key);\ncreate table orders(id integer primary key, user_id integer references users(id));\ninsert into users values (1);\ninsert into orders values (10, 1), (11, 2), (12, 3);\n"
    },
    confirm=r"orders\|11\|users",
)
add(
    "sqlite3-blob-out-binary",
    "sqlite3",
    "non_utf8",
    "success",
    "sqlite3 writes a stored binary thumbnail column to stdout for a copy step",
    "sqlite3 img.db \"create table t(b blob); insert into t values (x'89504e470d0a1a0affd8c3');\" && sqlite3 img.db 'select b from t'",
)
add(
    "php-uncaught-exception",
    "php",
    "plain_failure",
    None,
    "a PHP import script throws an uncaught InvalidArgumentException on a bad row; PHP prints the fatal error and exits 255",
    "php -d display_errors=stderr import.php",
    files={
        "import.php": "<?php\nfunction row($r) { if (!is_numeric($r[1])) throw new InvalidArgumentException(\"bad price '{$r[1]}' for {$r[0]}\"); return $r; }\nforeach ([['a', '1'], ['b', 'x']] as $r) { row($r); echo \"imported {$r[0]}\\n\"; }\n"
    },
    expect=255,
    confirm=r"InvalidArgumentException",
)
add(
    "php-latin1-output",
    "php",
    "non_utf8",
    "success",
    "a PHP export converts names to ISO-8859-1 with mb_convert_encoding for a legacy importer",
    'php -r \'echo mb_convert_encoding("Zoë;Müller\\nJosé;Peña\\n", "ISO-8859-1", "UTF-8");\'',
)
add(
    "ruby-thread-report-on-exception",
    "ruby",
    "exit0_hidden_failure",
    None,
    "a Ruby job runs uploads in threads and never joins the failing one; the thread dies with an exception Ruby reports on stderr and the script exits 0",
    "ruby upload.rb",
    files={
        "upload.rb": "threads = %w[a.png b.png].map do |f|\n  Thread.new { raise IOError, \"upload of #{f} failed: bucket not found\" if f == 'b.png'; puts \"uploaded #{f}\" }\nend\nsleep 0.3\nputs 'all uploads queued'\n"
    },
    confirm=r"terminated with exception",
)
add(
    "perl-alarm-timeout",
    "perl",
    "killed_signalled",
    None,
    "a Perl poller sets alarm(1) without a handler and blocks; SIGALRM kills it",
    ["perl", "-e", "$| = 1; print qq(polling queue\\n); alarm 1; sleep 10; print qq(done\\n);"],
    expect="SIGALRM",
)
add(
    "perl-warn-uninitialized-ok",
    "perl",
    "success_alarming_stderr",
    None,
    "a Perl report under -w warns about an uninitialized optional column and still writes every line",
    "perl -w report.pl",
    files={
        "report.pl": "my @rows = (['a', 1, 'x'], ['b', 2]);\nfor my $r (@rows) { print join(',', $r->[0], $r->[1], $r->[2]) . \"\\n\"; }\nprint \"report: 2 rows\\n\";\n"
    },
    confirm=r"(?s)(?=.*uninitialized)(?=.*report: 2 rows)",
)
add(
    "timeout-int-long-migration",
    "bash",
    "killed_signalled",
    None,
    "a data backfill is run under timeout -s INT 1; it is interrupted mid-way and timeout exits 124",
    "timeout -s INT 1 python3 -c \"import time\nfor i in range(100): print(f'backfill batch {i}', flush=True); time.sleep(0.1)\"",
    expect=124,
)
