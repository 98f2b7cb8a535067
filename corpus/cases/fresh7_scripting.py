"""Seventh fresh batch (ids ``fresh7-*``): shell, VCS, HTTP and data scenarios (bash, git, curl,
wget, sqlite3, php, perl) and tools new to the corpus (ab, nc, expect, shunit2, gron, just,
ast-grep, gem, erb, podchecker, json_pp, msgfmt, isutf8, mispipe, md5sum)."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh7")

# --- bash ----------------------------------------------------------------------------------------

add(
    "bash-errexit-and-list-continues",
    "bash",
    "exit0_hidden_failure",
    None,
    "a set -e release script copies the changelog with cp ... && echo; cp fails but set -e ignores failures in && lists, so it carries on to 'release staged' and exits 0",
    "bash stage.sh",
    files={
        "stage.sh": dedent("""
            #!/usr/bin/env bash
            set -e
            stage() {
                mkdir -p out
                cp CHANGELOG.md out/ && echo "copied changelog"
                cp build/app.tar.gz out/ && echo "copied artifact"
                ls out/ > out/MANIFEST
            }
            stage
            echo "release staged in out/"
        """),
        "CHANGELOG.md": "## 1.4.0\n- faster sync\n",
    },
    confirm=r"(?s)(?=.*cannot stat 'build/app\.tar\.gz')(?=.*release staged)",
)
add(
    "bash-pipe-while-counter-lost",
    "bash",
    "exit0_hidden_failure",
    None,
    "a config validator counts bad lines inside 'grep | while read', so the counter lives in a subshell; it prints the bad lines, then '0 invalid entries' and exits 0",
    "bash validate.sh",
    files={
        "hosts.conf": "web1 10.0.0.11 8080\nweb2 10.0.0.12 80800\ndb1 10.0.0 5432\ncache1 10.0.0.31 6379\n",
        "validate.sh": dedent("""
            #!/usr/bin/env bash
            invalid=0
            grep -v '^#' hosts.conf | while read -r name ip port; do
                if ! [[ $ip =~ ^([0-9]{1,3}\\.){3}[0-9]{1,3}$ ]] || (( port > 65535 )); then
                    echo "invalid entry: $name $ip $port" >&2
                    invalid=$((invalid + 1))
                fi
            done
            echo "$invalid invalid entries"
            exit $invalid
        """),
    },
    confirm=r"(?s)(?=.*invalid entry: web2)(?=.*\b0 invalid entries)",
)
add(
    "bash-exit-trap-kill-no-such-process",
    "bash",
    "success_alarming_stderr",
    None,
    "a smoke test starts a helper, checks it and exits; the EXIT trap's kill (|| true) finds the helper already gone and bash prints 'No such process', but the smoke test passed",
    "bash smoke.sh",
    files={
        "smoke.sh": dedent("""
            #!/usr/bin/env bash
            set -e
            sh -c 'echo ready > state.txt' &
            helper=$!
            trap 'kill $helper || true' EXIT
            wait $helper
            grep -q ready state.txt
            echo "smoke test passed"
        """),
    },
    confirm=r"(?s)(?=.*No such process)(?=.*smoke test passed)",
)

# --- git -----------------------------------------------------------------------------------------

add(
    "git-push-pre-receive-rejected-progress",
    "git",
    "progress_on_stderr",
    "failure",
    "git push --progress to a bare remote whose pre-receive hook forbids direct pushes to main; the object counts stream and the push is rejected with exit 1",
    "cd work && git push --progress origin main",
    setup=dedent("""
        git init -q --bare remote.git
        printf '#!/bin/sh\\necho "ERROR: direct pushes to main are not allowed; open a merge request" >&2\\nexit 1\\n' > remote.git/hooks/pre-receive
        chmod +x remote.git/hooks/pre-receive
        git init -q -b main work
        cd work
        for i in 1 2 3; do seq 1 2000 | sed "s/$/ line $i/" > f$i.txt; git add .; git commit -qm "c$i"; done
        git remote add origin ../remote.git
    """),
    expect=1,
    confirm=r"(?s)(?=.*Writing objects)(?=.*pre-receive hook declined)",
)
add(
    "git-fetch-progress-ok",
    "git",
    "progress_on_stderr",
    "success",
    "git fetch --progress pulls three new commits from a local upstream; the remote's counting and compressing progress goes to stderr and the fetch succeeds",
    "cd clone && git fetch --progress origin && git log --oneline origin/main | head -3",
    setup=(
        "git init -q -b main up && cd up && seq 1 3000 > data.txt && git add . && git commit -qm base && cd .. "
        '&& git clone -q up clone && cd up && for i in 1 2 3; do seq $i 5000 > data$i.txt; git add .; git commit -qm "update $i"; done'
    ),
    confirm=r"(?s)(?=.*Compressing objects: 100%)(?=.*update 3)",
)
add(
    "git-log-latin1-commit-message",
    "git",
    "non_utf8",
    "success",
    "in a legacy repo configured for ISO-8859-1 (i18n.commitEncoding and logOutputEncoding), git log prints a commit message with umlauts as latin-1 bytes",
    "git log --format='%h %s' -2",
    setup=(
        "git init -q -b main . && echo a > a.txt && git add . && git commit -qm 'initial import' "
        "&& echo b >> a.txt && git add . && printf 'Korrektur f\\xfcr \\xc4nderungen im Men\\xfc\\n' > msg.txt "
        "&& git config i18n.commitEncoding ISO-8859-1 && git config i18n.logOutputEncoding ISO-8859-1 && git commit -q -F msg.txt"
    ),
    confirm=r"initial import",
)

# --- HTTP: curl / wget / ab / nc -----------------------------------------------------------------

add(
    "wget-retry-on-503-recovers",
    "wget",
    "success_alarming_stderr",
    None,
    "wget --retry-on-http-error=503 downloads a report from a route that fails twice; wget logs the 503 errors, retries and saves the file",
    'wget --tries=4 --waitretry=1 --retry-on-http-error=503 -O report.txt "$HTTP_APP/flaky/fresh7-wget/2" && cat report.txt',
    timeout=60,
    confirm=r"(?s)(?=.*503)(?=.*ok after 3 attempts)",
)
add(
    "wget-dot-progress-big-ok",
    "wget",
    "progress_on_stderr",
    "success",
    "wget --progress=dot:binary downloads a 512 KiB artifact slowly enough to print dot progress lines, and saves it",
    'wget --progress=dot:binary -O artifact.bin "$HTTP_APP/big/512/1" && stat -c %s artifact.bin',
    timeout=60,
    confirm=r"(?s)(?=.*100%)(?=.*524288)",
)
add(
    "curl-progress-bar-max-time",
    "curl",
    "progress_on_stderr",
    "failure",
    "curl -# downloads a large export against a 1s --max-time; the slow server does not finish, curl's progress bar stops and it exits 28",
    'curl -# -f --max-time 1 -o export.bin "$HTTP_APP/big/2048/4"',
    timeout=60,
    expect=28,
    confirm=r"Operation timed out",
)
add(
    "ab-load-test-500s-exit0",
    "ab",
    "exit0_hidden_failure",
    None,
    "a load test with ab hits an endpoint that raises on every request; ab prints its report with 'Non-2xx responses: 40' and exits 0",
    'ab -n 40 -c 4 "$HTTP_APP/boom/"',
    timeout=60,
    confirm=r"Non-2xx responses:\s+40",
)
add(
    "ab-progress-ok",
    "ab",
    "progress_on_stderr",
    "success",
    "ab benchmarks a health endpoint with 400 requests; it prints 'Completed N requests' progress on stderr and every request succeeds",
    'ab -n 400 -c 8 "$HTTP_APP/ok"',
    timeout=60,
    confirm=r"(?s)(?=.*Completed 400 requests)(?=.*Failed requests:\s+0)",
)
add(
    "nc-wait-for-db-gives-up-continues",
    "nc",
    "exit0_hidden_failure",
    None,
    "a wait-for-db step polls a port with nc -z three times, gives up with a warning and exits 0 instead of failing; the database never came up",
    'for i in 1 2 3; do nc -z -w 1 127.0.0.1 9 && { echo "db is up"; break; }; echo "waiting for db on 127.0.0.1:9 ($i/3)..."; sleep 0.3; done; [ "$i" = 3 ] && echo "WARNING: db not reachable after 3 attempts, continuing anyway"',
    confirm=r"db not reachable after 3 attempts",
)

# --- expect / shunit2 (new) ----------------------------------------------------------------------

PROMPT_CLI = dedent("""
    #!/usr/bin/env python3
    import getpass, signal, sys

    def too_slow(*_):
        print("\\nTimed out waiting for passphrase; aborting deploy", file=sys.stderr)
        sys.exit(1)

    user = input("Username: ")
    signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(1)
    pw = getpass.getpass("Enter passphrase for key 'deploy': ")
    signal.alarm(0)
    if pw != "s3cret":
        print("Permission denied (publickey).", file=sys.stderr)
        sys.exit(255)
    print(f"Welcome {user}; deploy key unlocked")
""")
add(
    "expect-wrong-prompt-timeout-exit0",
    "expect",
    "exit0_hidden_failure",
    None,
    "an expect script waits for 'Password:' and on timeout assumes key auth; the tool asks for a passphrase instead and aborts after 1s, and expect exits 0",
    "expect -f login.exp",
    files={
        "login_cli.py": PROMPT_CLI,
        "login.exp": dedent("""
            set timeout 2
            spawn python3 login_cli.py
            expect "Username:"
            send "deploy\\r"
            expect {
                "Password:" { send "s3cret\\r"; expect eof }
                timeout { puts "no password prompt, assuming key auth" }
                eof
            }
        """),
    },
    timeout=30,
    confirm=r"Timed out waiting for passphrase",
)
add(
    "expect-login-ok",
    "expect",
    "plain_success",
    None,
    "an expect script answers the username and passphrase prompts of an interactive tool and sees the welcome line",
    "expect -f login.exp",
    files={
        "login_cli.py": PROMPT_CLI,
        "login.exp": dedent("""
            set timeout 5
            spawn python3 login_cli.py
            expect "Username:"
            send "deploy\\r"
            expect "passphrase"
            send "s3cret\\r"
            expect {
                "Welcome" { expect eof }
                timeout { puts "timed out"; exit 1 }
            }
        """),
    },
    timeout=30,
    confirm=r"deploy key unlocked",
)
SHUNIT = dedent("""
    #!/bin/sh
    . ./semver.sh
    test_bump_patch() { assertEquals "1.2.4" "$(bump patch 1.2.3)"; }
    test_bump_minor() { assertEquals "1.3.0" "$(bump minor 1.2.3)"; }
    test_bump_major() { assertEquals "2.0.0" "$(bump major 1.9.9)"; }
    . shunit2
""")
add(
    "shunit2-semver-fail",
    "shunit2",
    "plain_failure",
    None,
    "shunit2 runs the semver bump tests for a shell helper; the minor bump does not reset the patch and shunit2 exits 1",
    "sh test_semver.sh",
    files={
        "semver.sh": 'bump() {\n  IFS=. read -r ma mi pa <<EOF\n$2\nEOF\n  case $1 in\n    patch) echo "$ma.$mi.$((pa+1))";;\n    minor) echo "$ma.$((mi+1)).$pa";;\n    major) echo "$((ma+1)).0.0";;\n  esac\n}\n',
        "test_semver.sh": SHUNIT,
    },
    needs=("shunit2",),
    expect=1,
    confirm=r"test_bump_minor",
)
add(
    "shunit2-semver-pass",
    "shunit2",
    "plain_success",
    None,
    "shunit2 runs the semver bump tests for a shell helper; all three pass",
    "sh test_semver.sh",
    files={
        "semver.sh": 'bump() {\n  IFS=. read -r ma mi pa <<EOF\n$2\nEOF\n  case $1 in\n    patch) echo "$ma.$mi.$((pa+1))";;\n    minor) echo "$ma.$((mi+1)).0";;\n    major) echo "$((ma+1)).0.0";;\n  esac\n}\n',
        "test_semver.sh": SHUNIT,
    },
    needs=("shunit2",),
    confirm=r"(?s)Ran .*3.* tests\..*OK",
)

# --- data tools: gron / sqlite3 / md5sum / isutf8 / json_pp --------------------------------------

add(
    "gron-grep-feature-flags",
    "gron",
    "plain_success",
    None,
    "gron flattens a service config so the agent can grep the feature flags that are enabled",
    "gron config.json | grep 'features' | grep true",
    files={
        "config.json": '{"service": "billing", "features": {"invoices_v2": true, "dunning": false, "tax_api": true}, "db": {"pool": 10}}\n',
    },
    confirm=r"invoices_v2 = true",
)
add(
    "gron-invalid-json",
    "gron",
    "plain_failure",
    None,
    "gron is given an API response that was cut off mid-object; it cannot parse it and exits non-zero",
    "gron response.json",
    files={"response.json": '{"items": [{"id": 1, "name": "a"}, {"id": 2, "na'},
    expect="nonzero",
    confirm=r"failed to form statements|unexpected EOF",
)
add(
    "sqlite3-seed-script-error-continues",
    "sqlite3",
    "plain_failure",
    None,
    "a seed script is piped into sqlite3; an insert names a table that was renamed, sqlite3 reports the error, runs the rest and exits 1",
    "sqlite3 app.db < seed.sql && echo seeded",
    files={
        "seed.sql": "create table customers (id integer primary key, name text);\ninsert into customers(name) values ('acme'), ('globex');\ninsert into accounts(customer_id, plan) values (1, 'pro');\nselect count(*) || ' customers' from customers;\n",
    },
    expect=1,
    confirm=r"no such table: accounts",
)
add(
    "md5sum-check-grep-failed-lines",
    "md5sum",
    "exit0_hidden_failure",
    None,
    "a release check runs md5sum -c and greps out the OK lines to show only problems; one artifact is corrupt, grep prints the FAILED line and exits 0",
    "md5sum -c SUMS 2>&1 | grep -v ': OK$'",
    files={"a.tar": "alpha\n", "b.tar": "bravo\n", "c.tar": "charlie\n"},
    setup="md5sum a.tar b.tar c.tar > SUMS && echo corrupted > b.tar",
    confirm=r"b\.tar: FAILED",
)
add(
    "isutf8-latin1-filenames",
    "isutf8",
    "non_utf8",
    "failure",
    "a pre-commit encoding check runs isutf8 over the translation files; a latin-1 file (with a latin-1 name) is not UTF-8 and isutf8 exits 1",
    "isutf8 i18n/*",
    files={
        "i18n/en.txt": "greeting=Hello\n",
        "i18n/fr.txt": "greeting=Bonjour, ça va ?\n",
    },
    setup="printf 'greeting=Gr\\xfc\\xdf Gott\\n' > \"i18n/$(printf 'd\\xe9')-AT.txt\"",
    expect=1,
    confirm=r"line 1",
)
add(
    "json-pp-malformed",
    "json_pp",
    "plain_failure",
    None,
    "json_pp pretty-prints a fixture that has single-quoted keys; it reports a malformed JSON string and exits non-zero",
    "json_pp < fixture.json",
    files={"fixture.json": "{'id': 7, 'tags': ['a', 'b']}\n"},
    expect="nonzero",
    confirm=r"unexpected end of string while parsing JSON",
)

# --- PHP / Ruby / Perl / gettext -----------------------------------------------------------------

add(
    "php-dynamic-property-deprecated-ok",
    "php",
    "success_alarming_stderr",
    None,
    "a PHP 8.2 import script sets dynamic properties on a DTO; PHP prints 'Deprecated: Creation of dynamic property' for each and the import completes",
    "php -d display_errors=stderr -d error_reporting=E_ALL import.php",
    files={
        "import.php": dedent("""
            <?php
            class Customer { public string $name; }
            $rows = [['acme', 'de'], ['globex', 'us']];
            $out = [];
            foreach ($rows as [$name, $country]) {
                $c = new Customer();
                $c->name = $name;
                $c->country = $country;
                $out[] = $c;
            }
            printf("imported %d customers\\n", count($out));
        """),
    },
    confirm=r"(?s)(?=.*Deprecated: Creation of dynamic property)(?=.*imported 2 customers)",
)
add(
    "php-strict-types-typeerror",
    "php",
    "plain_failure",
    None,
    "a PHP CLI with strict_types passes a numeric string to an int parameter; PHP throws an uncaught TypeError and exits 255",
    "php -d display_errors=stderr bin/invoice.php 1999",
    files={
        "bin/invoice.php": dedent("""
            <?php
            declare(strict_types=1);
            function format_cents(int $cents): string {
                return sprintf('$%d.%02d', intdiv($cents, 100), $cents % 100);
            }
            echo format_cents($argv[1]), PHP_EOL;
        """),
    },
    expect=255,
    confirm=r"TypeError",
)
add(
    "gem-build-metadata-warnings-ok",
    "gem",
    "success_alarming_stderr",
    None,
    "gem build packages a gem whose gemspec lacks a license and homepage; RubyGems prints WARNING lines and the .gem is built",
    "gem build tiny_slug.gemspec",
    files={
        "tiny_slug.gemspec": dedent("""
            Gem::Specification.new do |s|
              s.name = "tiny_slug"
              s.version = "0.2.0"
              s.summary = "Slugify strings"
              s.authors = ["Corpus"]
              s.files = ["lib/tiny_slug.rb"]
            end
        """),
        "lib/tiny_slug.rb": "module TinySlug\n  def self.call(s) = s.downcase.gsub(/[^a-z0-9]+/, '-')\nend\n",
    },
    timeout=60,
    confirm=r"(?s)(?=.*WARNING)(?=.*File: tiny_slug-0\.2\.0\.gem)",
)
add(
    "erb-template-undefined-variable",
    "erb",
    "plain_failure",
    None,
    "erb renders an nginx config template that references a variable not passed on the command line; Ruby raises NameError and erb exits 1",
    "erb server_name=example.test nginx.conf.erb",
    files={
        "nginx.conf.erb": "server {\n  listen 80;\n  server_name <%= server_name %>;\n  location / {\n    proxy_pass http://127.0.0.1:<%= upstream_port %>;\n  }\n}\n",
    },
    expect=1,
    confirm=r"NameError",
)
add(
    "podchecker-unclosed-over",
    "podchecker",
    "plain_failure",
    None,
    "podchecker validates a module's POD; an =over without =back and a bad link are errors and it exits 1",
    "podchecker lib/Report.pm",
    files={
        "lib/Report.pm": dedent("""
            package Report;
            use strict;
            1;
            __END__

            =head1 NAME

            Report - render weekly reports

            =head1 OPTIONS

            =over 4

            =item B<--format>

            Output format, see L<|Report::Format>.

            =head1 AUTHOR

            Corpus
        """),
    },
    expect=1,
    confirm=r"ERROR",
)
add(
    "msgfmt-check-format-mismatch",
    "msgfmt",
    "plain_failure",
    None,
    "msgfmt -c compiles a German catalog whose translation drops a %d placeholder; the format check fails and msgfmt exits 1",
    "msgfmt -c -o de.mo de.po",
    files={
        "de.po": dedent("""
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

            #, c-format
            msgid "%d file uploaded"
            msgid_plural "%d files uploaded"
            msgstr[0] "Eine Datei hochgeladen"
            msgstr[1] "%s Dateien hochgeladen"
        """),
    },
    expect=1,
    confirm=r"msgfmt: found \d+ fatal error",
)
add(
    "msgfmt-statistics-fuzzy-ok",
    "msgfmt",
    "success_alarming_stderr",
    None,
    "msgfmt --statistics compiles a French catalog and reports fuzzy and untranslated entries, which fall back to English; the .mo is written",
    "msgfmt --statistics -o fr.mo fr.po && ls fr.mo",
    files={
        "fr.po": dedent("""
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"

            msgid "Save"
            msgstr "Enregistrer"

            #, fuzzy
            msgid "Delete account"
            msgstr "Supprimer le compte"

            msgid "Export failed"
            msgstr ""
        """),
    },
    confirm=r"(?s)(?=.*1 fuzzy translation)(?=.*1 untranslated message)(?=.*fr\.mo)",
)

# --- just / mispipe / ast-grep (new) -------------------------------------------------------------

add(
    "just-ignored-error-line",
    "just",
    "exit0_hidden_failure",
    None,
    "the justfile's deploy recipe prefixes the migration line with '-' so its failure is ignored; the migration fails and just exits 0 after 'deployed'",
    "just deploy",
    files={
        "justfile": "deploy:\n    @echo 'building image'\n    -sh -c 'echo \"migration 0042_add_orders_index failed: lock timeout\" >&2; exit 1'\n    @echo 'deployed v1.8.0'\n",
    },
    confirm=r"(?s)(?=.*lock timeout)(?=.*deployed v1\.8\.0)",
)
add(
    "mispipe-make-tee-keeps-status",
    "mispipe",
    "plain_failure",
    None,
    "mispipe runs make into tee so the log is kept and make's status is returned; the build fails and mispipe exits 2",
    "mispipe 'make 2>&1' 'tee build.log'",
    files={
        "Makefile": "app: main.o\n\tcc -o app main.o\nmain.o: main.c\n\tcc -c main.c\n",
        "main.c": '#include <stdio.h>\nint main(void) { printf("%d\\n", undefined_total); return 0; }\n',
    },
    needs=("mispipe", "make", "cc"),
    expect=2,
    confirm=r"undefined_total",
)
add(
    "ast-grep-scan-error-rule",
    "ast-grep",
    "plain_failure",
    None,
    "ast-grep scan applies a project rule banning '== null'; it finds one and exits 1",
    "ast-grep scan",
    files={
        "sgconfig.yml": "ruleDirs: [rules]\n",
        "rules/no-loose-null.yml": "id: no-loose-null\nlanguage: javascript\nseverity: error\nmessage: Use === null or === undefined\nrule:\n  pattern: $A == null\n",
        "src/user.js": "export function isMissing(u) {\n  return u == null;\n}\nexport const name = (u) => (u === null ? '' : u.name);\n",
    },
    expect=1,
    confirm=r"no-loose-null",
)
add(
    "ast-grep-rewrite-applied",
    "ast-grep",
    "plain_success",
    None,
    "ast-grep rewrites every console.log call to logger.debug across src with --update-all and reports the changes applied",
    "ast-grep run -p 'console.log($$$A)' -r 'logger.debug($$$A)' -l js --update-all src && grep -c logger.debug src/*.js",
    files={
        "src/a.js": "export function f(x) {\n  console.log('f', x);\n  return x * 2;\n}\n",
        "src/b.js": "export const g = (y) => {\n  console.log('g', y);\n  console.log('done');\n  return y;\n};\n",
    },
    confirm=r"Applied 3 changes",
)

# --- more successes: sqlite3 / perl / ruby / jsonlint / just / gron ------------------------------

add(
    "sqlite3-legacy-latin1-names",
    "sqlite3",
    "non_utf8",
    "success",
    "sqlite3 lists customer names from a database filled by a legacy importer that stored ISO-8859-1 bytes; the query succeeds and prints them raw",
    "sqlite3 legacy.db 'select id, name from customers order by id'",
    setup=(
        "sqlite3 legacy.db 'create table customers (id integer primary key, name text)' && "
        "sqlite3 legacy.db \"insert into customers(name) values (cast(x'4dfc6c6c657220476d6248' as text)), (cast(x'43616ff96520436c6169726520' as text)), ('Smith Ltd')\""
    ),
    confirm=r"Smith Ltd",
)
add(
    "perl-syntax-check-used-once-warning",
    "perl",
    "success_alarming_stderr",
    None,
    "perl -wc syntax-checks a deploy helper; it warns that a variable is used only once (a config global) and reports 'syntax OK'",
    "perl -wc deploy.pl",
    files={
        "deploy.pl": dedent("""
            use strict;
            our $VERBOSE;
            $main::DRY_RUN = 1;
            sub release { my ($tag) = @_; print "releasing $tag\\n"; return 1 }
            release($ARGV[0] // 'v0.0.0');
        """),
    },
    confirm=r"(?s)(?=.*used only once: possible typo)(?=.*syntax OK)",
)
add(
    "ruby-method-redefined-warning-ok",
    "ruby",
    "success_alarming_stderr",
    None,
    "ruby -w runs a report script that monkey-patches a helper; it warns 'method redefined' and prints the report",
    "ruby -w report.rb",
    files={
        "helpers.rb": "module Fmt\n  def self.money(c) = format('$%.2f', c / 100.0)\nend\n",
        "report.rb": dedent("""
            require_relative 'helpers'
            module Fmt
              def self.money(c) = format('EUR %.2f', c / 100.0)
            end
            [1999, 500].each { |c| puts Fmt.money(c) }
            puts 'report done'
        """),
    },
    confirm=r"(?s)(?=.*warning: method redefined)(?=.*report done)",
)
add(
    "jsonlint-valid-pretty",
    "jsonlint",
    "plain_success",
    None,
    "jsonlint validates a package manifest and prints it pretty-formatted",
    "jsonlint manifest.json",
    files={"manifest.json": '{"name":"app","version":"2.1.0","permissions":["storage","tabs"]}\n'},
    confirm=r"\"permissions\"",
)
add(
    "just-test-recipe-ok",
    "just",
    "plain_success",
    None,
    "just runs the test recipe, which depends on a build recipe; both succeed",
    "just test",
    files={
        "justfile": "build:\n    mkdir -p out && cp src/*.sh out/\n    @echo 'built out/'\n\ntest: build\n    sh out/greet.sh World | grep -q 'Hello, World'\n    @echo 'tests passed'\n",
        "src/greet.sh": 'echo "Hello, $1"\n',
    },
    confirm=r"tests passed",
)
add(
    "gron-colorize-config",
    "gron",
    "coloured_output",
    "success",
    "gron --colorize prints a service config as coloured assignments for the agent to inspect",
    "gron --colorize config.json",
    files={"config.json": '{"service": "billing", "replicas": 3, "features": {"tax_api": true}}\n'},
    confirm=r"replicas",
)
