"""git, sqlite3 and psql (no server on this machine)."""

from __future__ import annotations

from casekit import Case, case

CASES: list[Case] = []
add = CASES.append

REPO = (
    "git init -q -b main src && cd src && "
    "for i in $(seq 1 40); do printf 'line %s\\n' $i > f$i.txt; done && "
    "git add . && git commit -qm init && echo two > two.txt && git add two.txt && git commit -qm two"
)
WORK = "git init -q -b main r && cd r && echo a > a.txt && git add a.txt && git commit -qm first"

# --- git ------------------------------------------------------------------------------------

add(
    case(
        "git-clone-progress",
        "git",
        "progress_on_stderr",
        "success",
        "clones a local repository over file:// with --progress (counting/receiving on stderr)",
        "git clone --progress file://$PWD/src dst && ls dst | wc -l",
        setup=REPO,
        confirm="41",
    )
)
add(
    case(
        "git-clone-quiet",
        "git",
        "plain_success",
        None,
        "quiet local clone",
        "git clone -q src dst && git -C dst log --oneline | wc -l",
        setup=REPO,
        confirm="2",
    )
)
add(
    case(
        "git-clone-missing",
        "git",
        "plain_failure",
        None,
        "clone of a path that does not exist",
        "git clone /nonexistent/repo.git dst",
        expect=128,
    )
)
add(
    case(
        "git-clone-bad-branch",
        "git",
        "progress_on_stderr",
        "failure",
        "clone with --progress of a branch that does not exist in the source",
        "git clone --progress --branch release-9 file://$PWD/src dst",
        setup=REPO,
        expect=128,
    )
)
add(
    case(
        "git-push-progress",
        "git",
        "progress_on_stderr",
        "success",
        "pushes to a local bare repository (progress and `To ...` lines on stderr)",
        "git init -q --bare remote.git && cd src && git push --progress ../remote.git main",
        setup=REPO,
        confirm="main -> main",
    )
)
add(
    case(
        "git-push-rejected",
        "git",
        "plain_failure",
        None,
        "a non-fast-forward push is rejected",
        "cd src && git push ../remote.git main",
        setup=REPO
        + " && cd .. && git clone -q --bare src remote.git && cd src && git reset -q --hard HEAD~1 && echo x > x.txt && git add x.txt && git commit -qm diverge",
        expect=1,
    )
)
add(
    case(
        "git-fetch-progress",
        "git",
        "progress_on_stderr",
        "success",
        "fetches new commits from a local remote with --progress",
        "cd dst && git fetch --progress origin",
        setup=REPO
        + " && cd .. && git clone -q src dst && cd src && echo 3 > three.txt && git add . && git commit -qm three",
        confirm="origin/main",
    )
)
add(
    case(
        "git-detached-head",
        "git",
        "success_alarming_stderr",
        None,
        "checks out an older commit; git prints the detached-HEAD advice on stderr",
        "cd src && git -c advice.detachedHead=true checkout HEAD~1",
        setup=REPO,
        confirm="detached HEAD",
    )
)
add(
    case(
        "git-pathspec-error",
        "git",
        "plain_failure",
        None,
        "git add of a file that is not there",
        "cd r && git add missing.txt",
        setup=WORK,
        expect=128,
    )
)
add(
    case(
        "git-merge-conflict",
        "git",
        "plain_failure",
        None,
        "a merge stops with a conflict",
        "cd r && git merge feature",
        setup=WORK
        + " && git checkout -q -b feature && echo b > a.txt && git commit -qam f && git checkout -q main && echo c > a.txt && git commit -qam m",
    )
)
add(
    case(
        "git-merge-ok",
        "git",
        "plain_success",
        None,
        "a fast-forward merge",
        "cd r && git merge feature",
        setup=WORK
        + " && git checkout -q -b feature && echo b > b.txt && git add b.txt && git commit -qm f && git checkout -q main",
        confirm="Fast-forward",
    )
)
add(
    case(
        "git-commit-nothing",
        "git",
        "plain_failure",
        None,
        "commit with nothing staged (exit 1)",
        "cd r && git commit -m 'empty'",
        setup=WORK,
        expect=1,
    )
)
add(
    case(
        "git-status-color",
        "git",
        "coloured_output",
        "success",
        "git status with colour forced",
        "cd r && echo z > z.txt && echo b >> a.txt && git -c color.ui=always status",
        setup=WORK,
    )
)
add(
    case(
        "git-diff-color",
        "git",
        "coloured_output",
        "success",
        "git diff with colour forced",
        "cd r && echo b >> a.txt && git -c color.ui=always diff",
        setup=WORK,
    )
)
add(
    case(
        "git-diff-exit-code-color",
        "git",
        "coloured_output",
        "failure",
        "a CI check that generated files are committed: `git diff --exit-code` finds changes",
        "cd r && echo regenerated >> a.txt && git -c color.ui=always diff --exit-code",
        setup=WORK,
        expect=1,
    )
)
add(
    case(
        "git-apply-fails",
        "git",
        "plain_failure",
        None,
        "git apply of a patch that does not match",
        "cd r && printf -- '--- a/a.txt\\n+++ b/a.txt\\n@@ -1 +1 @@\\n-zzz\\n+yyy\\n' > p.diff && git apply p.diff",
        setup=WORK,
    )
)
add(
    case(
        "git-pull-or-true",
        "git",
        "exit0_hidden_failure",
        None,
        "a deploy script's `git pull || true` fails (no such remote); the old code is deployed",
        "cd r && git pull origin main || true; echo 'deploying HEAD'",
        setup=WORK,
        confirm="fatal",
    )
)
add(
    case(
        "git-latin1-path",
        "git",
        "non_utf8",
        "success",
        "git ls-files with core.quotepath=off prints a latin-1 file name raw",
        "cd r && git -c core.quotepath=off ls-files",
        setup=WORK + " && touch $'caf\\xe9.txt' && git add . && git commit -qm latin",
    )
)
add(
    case(
        "git-latin1-commit-message",
        "git",
        "non_utf8",
        "success",
        "a commit message stored as latin-1 is printed raw by git log --encoding",
        "cd r && git log -1 --format=%B --encoding=ISO-8859-1",
        setup=WORK
        + " && printf 'Fix caf\\xe9 menu\\n' > msg && git -c i18n.commitEncoding=ISO-8859-1 commit -q --allow-empty -F msg",
    )
)
add(
    case(
        "git-clone-shallow-progress",
        "git",
        "progress_on_stderr",
        "success",
        "a shallow --depth 1 clone over file:// with --progress",
        "git clone --progress --depth 1 file://$PWD/src shallow && git -C shallow log --oneline",
        setup=REPO,
        confirm="two",
    )
)
add(
    case(
        "git-bisect-run",
        "git",
        "success_alarming_stderr",
        None,
        "git bisect run finds the bad commit; the test script prints failures for bad commits",
        "cd r && git bisect start HEAD HEAD~3 && git bisect run sh -c 'if grep -q bug a.txt; then echo \"test failed: bug present\" >&2; exit 1; fi'",
        setup=WORK
        + " && echo ok1 >> a.txt && git commit -qam c2 && echo bug >> a.txt && git commit -qam c3 && echo more >> a.txt && git commit -qam c4",
        confirm="is the first bad commit",
    )
)

# --- sqlite3 --------------------------------------------------------------------------------

DB = 'sqlite3 app.db \'create table users(id integer primary key, name text unique); insert into users(name) values ("ann"), ("bob");\''
add(
    case(
        "sqlite3-query-ok",
        "sqlite3",
        "plain_success",
        None,
        "queries a table",
        "sqlite3 app.db 'select count(*) from users;'",
        setup=DB,
        confirm="2",
    )
)
add(
    case(
        "sqlite3-syntax-error",
        "sqlite3",
        "plain_failure",
        None,
        "a SQL syntax error",
        "sqlite3 app.db 'selec * from users;'",
        setup=DB,
    )
)
add(
    case(
        "sqlite3-no-table",
        "sqlite3",
        "plain_failure",
        None,
        "query on a missing table",
        "sqlite3 app.db 'select * from orders;'",
        setup=DB,
    )
)
add(
    case(
        "sqlite3-script-error-continues",
        "sqlite3",
        "plain_failure",
        None,
        "a migration script: the 2nd statement violates a constraint; sqlite3 continues, exits 1",
        "sqlite3 app.db < migrate.sql",
        setup=DB,
        files={
            "migrate.sql": "insert into users(name) values ('cat');\ninsert into users(name) values ('ann');\ninsert into users(name) values ('dan');\n"
        },
    )
)
add(
    case(
        "sqlite3-script-or-true",
        "sqlite3",
        "exit0_hidden_failure",
        None,
        "the same failing migration under `|| true`",
        "sqlite3 app.db < migrate.sql || true",
        setup=DB,
        group="sqlite3-script-error-continues",
        confirm="UNIQUE",
        files={
            "migrate.sql": "insert into users(name) values ('cat');\ninsert into users(name) values ('ann');\n"
        },
    )
)
add(
    case(
        "sqlite3-latin1-data",
        "sqlite3",
        "non_utf8",
        "success",
        "a blob of latin-1 text is printed raw",
        "sqlite3 app.db \"select cast(x'436166e9' as text);\"",
        setup=DB,
    )
)
add(
    case(
        "sqlite3-readonly",
        "sqlite3",
        "plain_failure",
        None,
        "write to a read-only database",
        "sqlite3 -readonly app.db \"insert into users(name) values ('eve');\"",
        setup=DB,
    )
)

# --- psql (no server) -----------------------------------------------------------------------

add(
    case(
        "psql-no-server",
        "psql",
        "plain_failure",
        None,
        "psql cannot connect: no PostgreSQL server runs here",
        "psql -h 127.0.0.1 -p 5999 -U app -c 'select 1'",
        expect=2,
    )
)
add(
    case(
        "psql-no-socket",
        "psql",
        "plain_failure",
        None,
        "psql through a unix socket directory with no server",
        "psql -h /tmp/nosock -d app -c 'select 1'",
        expect=2,
    )
)
add(
    case(
        "psql-or-true",
        "psql",
        "exit0_hidden_failure",
        None,
        "a migration step calls psql, which cannot connect; `|| true` hides it",
        "psql -h 127.0.0.1 -p 5999 -U app -f migrate.sql || true; echo 'migrations applied'",
        files={"migrate.sql": "alter table users add column email text;\n"},
        confirm="Connection refused|could not connect",
    )
)
add(
    case(
        "psql-version",
        "psql",
        "plain_success",
        None,
        "psql --version",
        "psql --version",
        confirm="psql",
    )
)
