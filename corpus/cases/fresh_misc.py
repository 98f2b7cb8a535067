"""Fresh batch (split ``fresh``): bats, shfmt, mawk, busybox, socat, ssh-keygen, gpg, tidy,
xmllint, xmlstarlet, rspec, busted, and more runs of bash, php, perl, ruby, curl, git and jq."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh")


# Host and port of the local WSGI app, for raw-socket clients.
APP_HOSTPORT = "hp=${HTTP_APP#http://}; host=${hp%%:*}; port=${hp##*:}"

# --- bats ----------------------------------------------------------------------------------------

BATS_FAIL = {
    "greet.sh": '#!/bin/bash\nname="${1:-world}"\necho "Hello, ${name}!"\n',
    "test/greet.bats": dedent("""
        #!/usr/bin/env bats

        @test "greets the world by default" {
          run ./greet.sh
          [ "$status" -eq 0 ]
          [ "$output" = "Hello, world!" ]
        }

        @test "greets by name" {
          run ./greet.sh Ada
          [ "$output" = "Hello, Ada!" ]
        }

        @test "rejects an empty name" {
          run ./greet.sh ""
          [ "$status" -ne 0 ]
        }
    """),
}
add(
    "bats-fail",
    "bats",
    "plain_failure",
    None,
    "a bats suite expects an empty name to be rejected; the script accepts it and bats exits 1",
    "bats test/",
    files=BATS_FAIL,
    confirm=r"not ok 3",
)
add(
    "bats-tap-tee",
    "bats",
    "exit0_hidden_failure",
    None,
    "bats TAP output is teed into a results file; one test fails and tee exits 0",
    "bats --tap test/ | tee results.tap",
    files=BATS_FAIL,
    confirm=r"not ok 3",
)
add(
    "bats-pass",
    "bats",
    "plain_success",
    None,
    "a bats suite for the greeting script passes",
    "bats test/",
    files={**BATS_FAIL, "test/greet.bats": BATS_FAIL["test/greet.bats"].split('@test "rejects')[0]},
    confirm=r"ok 2 greets by name",
)
add(
    "bats-latin1-output-fail",
    "bats",
    "non_utf8",
    "failure",
    "a bats test compares a legacy tool's Latin-1 output with UTF-8 text; the test fails and shows the bytes",
    "bats test/",
    files={
        "legacy.sh": b"#!/bin/bash\nprintf 'Stra\\xdfe: M\\xfcllerweg 3\\n'\n",
        "test/legacy.bats": '#!/usr/bin/env bats\n\n@test "address line" {\n  run ./legacy.sh\n  echo "got: $output"\n  [ "$output" = "Straße: Müllerweg 3" ]\n}\n',
    },
    expect="nonzero",
    confirm=r"not ok 1",
)

# --- shfmt ---------------------------------------------------------------------------------------

SH_UNFORMATTED = "#!/bin/bash\nif [ -f x ];then\necho yes\nfi\nfor i in 1 2;do echo $i;done\n"
add(
    "shfmt-diff",
    "shfmt",
    "plain_failure",
    None,
    "shfmt -d shows formatting differences in a script and exits 1",
    "shfmt -d -i 2 deploy.sh",
    files={"deploy.sh": SH_UNFORMATTED},
)
add(
    "shfmt-diff-or-true",
    "shfmt",
    "exit0_hidden_failure",
    None,
    "format check 'shfmt -d ... || true' finds an unformatted script and hides the failure",
    "shfmt -d -i 2 . || true",
    files={"deploy.sh": SH_UNFORMATTED},
    confirm=r"\+\+\+ deploy\.sh",
)
add(
    "shfmt-write-list",
    "shfmt",
    "plain_success",
    None,
    "shfmt -l -w rewrites the unformatted script, listing it; a second check is clean",
    "shfmt -l -w -i 2 . && shfmt -d -i 2 . && echo formatted",
    files={"deploy.sh": SH_UNFORMATTED, "ok.sh": "#!/bin/bash\necho ok\n"},
    confirm=r"formatted",
)
add(
    "shfmt-parse-error",
    "shfmt",
    "plain_failure",
    None,
    "shfmt cannot parse a script with an unterminated if and exits 1",
    "shfmt -d broken.sh",
    files={"broken.sh": '#!/bin/bash\nif [ -n "$1" ]; then\n  echo arg\n'},
)

# --- mawk ----------------------------------------------------------------------------------------

add(
    "mawk-missing-input",
    "mawk",
    "plain_failure",
    None,
    "mawk report is given this month's file and last month's, which does not exist; mawk cannot open it and exits 2",
    "mawk -F, '{s[$1]+=$2} END {for (k in s) print k, s[k]}' sales-2024-05.csv sales-2024-04.csv",
    files={"sales-2024-05.csv": "a,10\nb,5\n"},
)
add(
    "mawk-lookup-missing-continue",
    "mawk",
    "exit0_hidden_failure",
    None,
    "awk report joins with a lookup table via getline; the table is missing, it prints a warning and every name comes out unknown",
    "mawk -f join.awk orders.txt",
    files={
        "join.awk": dedent("""
            BEGIN {
                while ((r = getline line < "customers.tsv") > 0) { split(line, f, "\\t"); name[f[1]] = f[2] }
                if (r < 0) print "error: cannot read customers.tsv, names will be unknown" > "/dev/stderr"
            }
            { printf "%s\\t%s\\t%s\\n", $1, ($1 in name ? name[$1] : "UNKNOWN"), $2 }
        """),
        "orders.txt": "c1 19.90\nc2 5.00\n",
    },
    confirm=r"cannot read customers\.tsv",
)
add(
    "mawk-latin1-report",
    "mawk",
    "non_utf8",
    "success",
    "mawk sums a Latin-1 encoded sales file per city and prints the totals in the same encoding",
    "mawk -F';' '{t[$1]+=$2} END {for (c in t) print c \": \" t[c]}' sales.csv | sort",
    files={"sales.csv": "M\xfcnchen;10\nK\xf6ln;4\nM\xfcnchen;5\n".encode("latin-1")},
    confirm=r": 15",
)

# --- busybox -------------------------------------------------------------------------------------

add(
    "busybox-wget-500",
    "busybox",
    "plain_failure",
    None,
    "busybox wget fetches a URL that answers 500 and exits 1",
    'busybox wget -O page.html "$HTTP_APP/boom"',
)
add(
    "busybox-wget-404-gzip-pipe",
    "busybox",
    "exit0_hidden_failure",
    None,
    "backup step pipes busybox wget into gzip; the export URL is 404 so an empty archive is written, gzip exits 0",
    'busybox wget -q -O - "$HTTP_APP/export/latest.json" | busybox gzip > export.json.gz; ls -l export.json.gz',
    confirm=r"404",
)
add(
    "busybox-wget-progress",
    "busybox",
    "progress_on_stderr",
    "success",
    "busybox wget downloads a 512 KiB file, drawing its progress bar on stderr",
    'busybox wget -O big.bin "$HTTP_APP/big/512/0.5" && test "$(busybox stat -c %s big.bin)" = 524288 && echo download-ok',
    confirm=r"download-ok",
)
add(
    "busybox-wget-progress-refused",
    "busybox",
    "progress_on_stderr",
    "failure",
    "busybox wget tries a mirror whose port is closed; the connection is refused and it exits 1",
    "busybox wget -O pkg.tar.gz http://127.0.0.1:1/pkg.tar.gz",
    expect="nonzero",
)

# --- socat ---------------------------------------------------------------------------------------

add(
    "socat-refused",
    "socat",
    "plain_failure",
    None,
    "socat connects to a closed port; the connection is refused and it exits 1",
    "printf 'PING\\r\\n' | socat - TCP:127.0.0.1:1",
)
add(
    "socat-raw-get-ok",
    "socat",
    "progress_on_stderr",
    "success",
    "socat -d -d sends a raw HTTP GET to the local app, logging connection notices on stderr; the JSON comes back",
    APP_HOSTPORT
    + "; printf 'GET /json HTTP/1.0\\r\\nHost: x\\r\\n\\r\\n' | socat -d -d - TCP:$host:$port",
    confirm=r'"status": "ok"',
)
add(
    "socat-raw-500-head",
    "socat",
    "exit0_hidden_failure",
    None,
    "health probe sends a raw request, saves the reply and prints its status line; the app answers 500",
    APP_HOSTPORT
    + "; printf 'GET /boom HTTP/1.0\\r\\nHost: x\\r\\n\\r\\n' | socat - TCP:$host:$port > reply.txt; head -n 1 reply.txt",
    confirm=r"500",
)
add(
    "socat-latin1-body",
    "socat",
    "non_utf8",
    "success",
    "socat fetches the local app's Latin-1 page over a raw socket and prints it as received",
    APP_HOSTPORT
    + "; printf 'GET /latin1 HTTP/1.0\\r\\nHost: x\\r\\n\\r\\n' | socat - TCP:$host:$port",
    confirm=r"200 OK",
)

# --- ssh-keygen, gpg -----------------------------------------------------------------------------

add(
    "ssh-keygen-ok",
    "ssh-keygen",
    "plain_success",
    None,
    "ssh-keygen creates an ed25519 deploy key without a passphrase and prints its fingerprint",
    "ssh-keygen -q -t ed25519 -N '' -C deploy@ci -f ./deploy_key && ssh-keygen -l -f ./deploy_key.pub",
    confirm=r"deploy@ci \(ED25519\)",
)
add(
    "ssh-keygen-not-a-key",
    "ssh-keygen",
    "plain_failure",
    None,
    "ssh-keygen is asked for the fingerprint of a file that is not a public key",
    "ssh-keygen -l -f authorized_keys",
    files={"authorized_keys": "this is not a key\n"},
)
GPG_SETUP = dedent("""
    export GNUPGHOME="$PWD/gnupg"; mkdir -m 700 -p "$GNUPGHOME"
    gpg --batch --quiet --passphrase '' --quick-gen-key 'Release Bot <release@example.invalid>' ed25519 sign never 2>/dev/null
    echo 'artifact v1.4.2' > artifact.txt
    gpg --batch --quiet --detach-sign --armor artifact.txt 2>/dev/null
    gpgconf --kill gpg-agent
""")
GPG_RUN = 'export GNUPGHOME="$PWD/gnupg"; {cmd}; rc=$?; gpgconf --kill gpg-agent; exit $rc'
add(
    "gpg-verify-good-untrusted",
    "gpg",
    "success_alarming_stderr",
    None,
    "gpg verifies a release signature: Good signature, plus the usual WARNING that the key is not certified",
    GPG_RUN.format(
        cmd="gpg --batch --trust-model always --verify artifact.txt.asc artifact.txt; gpg --batch --trust-model pgp --verify artifact.txt.asc artifact.txt"
    ),
    setup=GPG_SETUP
    + "gpg --batch --yes --quick-set-expire $(gpg --list-keys --with-colons | awk -F: '/^fpr/{print $10; exit}') 0 >/dev/null 2>&1 || true\n",
    confirm=r"(?s)^(?=.*WARNING)(?=.*Good signature)",
)
add(
    "gpg-verify-bad",
    "gpg",
    "plain_failure",
    None,
    "the artifact was changed after signing; gpg --verify reports a BAD signature and exits 1",
    GPG_RUN.format(
        cmd="echo tampered >> artifact.txt; gpg --batch --verify artifact.txt.asc artifact.txt"
    ),
    setup=GPG_SETUP,
    confirm=r"BAD signature",
)
add(
    "gpg-verify-bad-tee",
    "gpg",
    "exit0_hidden_failure",
    None,
    "release script tees gpg --verify into a log; the signature is BAD and tee exits 0",
    GPG_RUN.format(
        cmd="echo tampered >> artifact.txt; gpg --batch --verify artifact.txt.asc artifact.txt 2>&1 | tee verify.log"
    ),
    setup=GPG_SETUP,
    confirm=r"BAD signature",
)

# --- tidy, xmllint, xmlstarlet -------------------------------------------------------------------

HTML_BAD = "<html><head><title>Shop</title></head>\n<body>\n<div><p>Cart <b>empty</p>\n<tabel><tr><td>1</td></tr></tabel>\n</body></html>\n"
add(
    "tidy-errors",
    "tidy",
    "plain_failure",
    None,
    "tidy -e reports an unknown element and misnested tags in a page and exits 2",
    "tidy -q -e page.html",
    files={"page.html": HTML_BAD},
)
add(
    "tidy-errors-head",
    "tidy",
    "exit0_hidden_failure",
    None,
    "HTML check pipes tidy -e into head; the page has errors and head exits 0",
    "tidy -q -e page.html 2>&1 | head -n 20",
    files={"page.html": HTML_BAD},
    confirm=r"tabel",
)
XSD = dedent("""
    <?xml version="1.0"?>
    <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
      <xs:element name="order">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="id" type="xs:integer"/>
            <xs:element name="qty" type="xs:positiveInteger"/>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
    </xs:schema>
""")
add(
    "xmllint-schema-invalid",
    "xmllint",
    "plain_failure",
    None,
    "xmllint validates an order against its schema; qty is 0 so it fails to validate",
    "xmllint --noout --schema order.xsd order.xml",
    files={"order.xsd": XSD, "order.xml": "<order><id>7</id><qty>0</qty></order>\n"},
    confirm=r"fails to validate",
)
add(
    "xmllint-schema-valid",
    "xmllint",
    "plain_success",
    None,
    "xmllint validates a correct order against its schema",
    "xmllint --noout --schema order.xsd order.xml",
    files={"order.xsd": XSD, "order.xml": "<order><id>7</id><qty>2</qty></order>\n"},
    confirm=r"validates",
)
add(
    "xmllint-schema-sed-indent",
    "xmllint",
    "exit0_hidden_failure",
    None,
    "the validation step indents xmllint's output through sed; the order fails to validate and sed exits 0",
    "xmllint --noout --schema order.xsd order.xml 2>&1 | sed 's/^/    /'",
    files={"order.xsd": XSD, "order.xml": "<order><id>x7</id><qty>2</qty></order>\n"},
    confirm=r"fails to validate",
)
add(
    "xmllint-latin1-encode",
    "xmllint",
    "non_utf8",
    "success",
    "xmllint re-encodes a UTF-8 feed to ISO-8859-1 for a legacy consumer and prints it",
    "xmllint --encode ISO-8859-1 feed.xml",
    files={
        "feed.xml": '<?xml version="1.0" encoding="UTF-8"?>\n<feed><item>Crème brûlée</item><item>Smørrebrød</item></feed>\n'
    },
    confirm=r"ISO-8859-1",
)
add(
    "xmlstarlet-select-ok",
    "xmlstarlet",
    "plain_success",
    None,
    "xmlstarlet extracts the dependency versions from a pom-like file",
    "xmlstarlet sel -t -m '//dep' -v '@name' -o '=' -v '@version' -n deps.xml",
    files={
        "deps.xml": '<deps><dep name="guava" version="33.0"/><dep name="junit" version="5.10"/></deps>\n'
    },
    confirm=r"junit=5\.10",
)
add(
    "xmlstarlet-malformed",
    "xmlstarlet",
    "plain_failure",
    None,
    "xmlstarlet validates a file with a mismatched closing tag; it is not well-formed",
    "xmlstarlet val -e -w deps.xml",
    files={"deps.xml": '<deps><dep name="guava" version="33.0"></deps>\n'},
)

# --- rspec, busted -------------------------------------------------------------------------------

RSPEC_FAIL = {
    "lib/invoice.rb": "class Invoice\n  def initialize(lines) = @lines = lines\n  def total = @lines.sum { |l| l[:price] * l[:qty] }\n  def tax = (total * 0.2).round(2)\nend\n",
    "spec/invoice_spec.rb": dedent("""
        require_relative '../lib/invoice'

        RSpec.describe Invoice do
          let(:inv) { Invoice.new([{ price: 10, qty: 2 }, { price: 5, qty: 1 }]) }

          it 'sums the lines' do
            expect(inv.total).to eq(25)
          end

          it 'computes tax on the total' do
            expect(inv.tax).to eq(4.5)
          end
        end
    """),
}
add(
    "rspec-fail",
    "rspec",
    "plain_failure",
    None,
    "an rspec example expects the wrong tax amount; rspec exits 1",
    "rspec",
    files=RSPEC_FAIL,
    confirm=r"1 failure",
)
add(
    "rspec-color-fail",
    "rspec",
    "coloured_output",
    "failure",
    "rspec --force-color --format documentation runs the invoice specs with one failing",
    "rspec --force-color --format documentation",
    files=RSPEC_FAIL,
    expect="nonzero",
    confirm=r"1 failure",
)
add(
    "rspec-exit0-wrapper",
    "rspec",
    "exit0_hidden_failure",
    None,
    "a CI wrapper runs rspec and then 'exit 0'; an example fails",
    'rspec --format progress; echo "rspec finished"; exit 0',
    files=RSPEC_FAIL,
    confirm=r"1 failure",
)
add(
    "rspec-pass-warns-stderr",
    "rspec",
    "success_alarming_stderr",
    None,
    "specs check that a bad import row is skipped; the importer warns ERROR lines to stderr and all examples pass",
    "rspec",
    files={
        "lib/importer.rb": dedent("""
            class Importer
              def self.run(rows)
                rows.filter_map do |r|
                  Integer(r[:qty])
                  r
                rescue ArgumentError => e
                  warn "ERROR importer: skipping row #{r[:id]}: #{e.message}"
                  nil
                end
              end
            end
        """),
        "spec/importer_spec.rb": dedent("""
            require_relative '../lib/importer'

            RSpec.describe Importer do
              it 'skips rows with a non-numeric qty' do
                rows = [{ id: 1, qty: '2' }, { id: 2, qty: 'two' }]
                expect(Importer.run(rows).map { |r| r[:id] }).to eq([1])
              end
            end
        """),
    },
    confirm=r"(?s)^(?=.*ERROR importer)(?=.*1 example, 0 failures)",
)
BUSTED_SPEC = {
    "stack.lua": "local S = {}\nfunction S.new() return {n = 0, items = {}} end\nfunction S.push(s, v) s.n = s.n + 1; s.items[s.n] = v end\nfunction S.pop(s) local v = s.items[s.n]; s.items[s.n] = nil; s.n = s.n - 1; return v end\nreturn S\n",
    "spec/stack_spec.lua": dedent("""
        package.path = './?.lua;' .. package.path
        local S = require('stack')
        describe('stack', function()
          it('pops what was pushed', function()
            local s = S.new(); S.push(s, 1); S.push(s, 2)
            assert.are.equal(2, S.pop(s))
          end)
          it('pop on empty returns nil and keeps size 0', function()
            local s = S.new()
            assert.is_nil(S.pop(s))
            assert.are.equal(0, s.n)
          end)
        end)
    """),
}
add(
    "busted-fail",
    "busted",
    "plain_failure",
    None,
    "a busted spec expects pop on an empty stack to keep size 0; it goes negative and busted exits 1",
    "busted spec/",
    files=BUSTED_SPEC,
    confirm=r"1 failure",
)
add(
    "busted-tap-tee",
    "busted",
    "exit0_hidden_failure",
    None,
    "busted TAP output is teed into a file; the empty-pop spec fails and tee exits 0",
    "busted -o TAP spec/ | tee busted.tap",
    files=BUSTED_SPEC,
    confirm=r"not ok",
)
add(
    "busted-pass-stderr-errors",
    "busted",
    "success_alarming_stderr",
    None,
    "busted specs of a parser pass; the parser writes ERROR lines to stderr for the invalid inputs the spec feeds it",
    "busted spec/",
    files={
        "parse.lua": "local P = {}\nfunction P.int(s)\n  local n = tonumber(s)\n  if not n then io.stderr:write('ERROR parse: not a number: ' .. tostring(s) .. '\\n') end\n  return n\nend\nreturn P\n",
        "spec/parse_spec.lua": "package.path = './?.lua;' .. package.path\nlocal P = require('parse')\ndescribe('int', function()\n  it('parses digits', function() assert.are.equal(12, P.int('12')) end)\n  it('rejects words', function() assert.is_nil(P.int('twelve')) end)\nend)\n",
    },
    confirm=r"(?s)^(?=.*ERROR parse)(?=.*2 successes / 0 failures)",
)

# --- php, perl, ruby -----------------------------------------------------------------------------

add(
    "php-json-import-zero",
    "php",
    "exit0_hidden_failure",
    None,
    "importer decodes a truncated JSON export, logs json_last_error_msg and reports 0 records imported, exit 0",
    "php import.php",
    files={
        "import.php": dedent("""
            <?php
            $data = json_decode(file_get_contents('export.json'), true);
            if ($data === null) {
                error_log('import: cannot decode export.json: ' . json_last_error_msg());
                $data = [];
            }
            echo 'imported ' . count($data) . " records\\n";
        """),
        "export.json": '[{"id": 1, "name": "ada"}, {"id": 2, "na',
    },
    confirm=r"cannot decode export\.json",
)
add(
    "php-memory-limit",
    "php",
    "killed_signalled",
    None,
    "a PHP report builds an ever-growing array under memory_limit=32M and dies with 'Allowed memory size exhausted'",
    "php -d memory_limit=32M build.php",
    files={
        "build.php": "<?php\n$rows = [];\nfor ($i = 0; ; $i++) { $rows[] = str_repeat('x', 1024) . $i; }\n"
    },
    expect=255,
    confirm=r"Allowed memory size",
)
add(
    "php-user-deprecated-ok",
    "php",
    "success_alarming_stderr",
    None,
    "a PHP script warns about a deprecated config key via trigger_error and writes its output file anyway",
    "php -d display_errors=stderr render.php && cat out.html",
    files={
        "render.php": "<?php\n$cfg = ['tpl_dir' => 'views', 'cache' => true];\nif (isset($cfg['cache'])) trigger_error('config key \"cache\" is deprecated, use \"cache_ttl\"', E_USER_DEPRECATED);\nfile_put_contents('out.html', \"<h1>ok</h1>\\n\");\necho \"rendered out.html\\n\";\n",
    },
    confirm=r"(?s)^(?=.*[Dd]eprecated)(?=.*<h1>ok</h1>)",
)
add(
    "perl-system-unchecked",
    "perl",
    "exit0_hidden_failure",
    None,
    "a Perl deploy script calls system('cp ...') without checking it; the copy fails and it prints 'deployed'",
    "perl deploy.pl",
    files={
        "deploy.pl": "use strict; use warnings;\nsystem('cp', 'build/app.tar.gz', 'releases/');\nprint \"deployed app.tar.gz to releases/\\n\";\n"
    },
    confirm=r"cannot stat",
)
add(
    "perl-test-more-diag-pass",
    "perl",
    "success_alarming_stderr",
    None,
    "a Test::More suite passes; diag() prints the ERROR lines the code under test is expected to produce",
    "prove -v t/",
    files={
        "t/parse.t": dedent("""
            use strict; use warnings;
            use Test::More tests => 2;
            sub parse_port { my $s = shift; return $s =~ /^\\d+$/ ? $s : do { diag("ERROR: invalid port '$s'"); undef } }
            is(parse_port('8080'), 8080, 'numeric port');
            is(parse_port('http'), undef, 'non-numeric port rejected');
        """),
    },
    confirm=r"(?s)^(?=.*ERROR: invalid port)(?=.*Result: PASS)",
)
add(
    "ruby-timeout-rescued",
    "ruby",
    "exit0_hidden_failure",
    None,
    "a Ruby sync job rescues the read timeout from a slow endpoint, prints it, and exits 0 without the data",
    "ruby sync.rb",
    files={
        "sync.rb": dedent("""
            require 'net/http'
            uri = URI("#{ENV['HTTP_APP']}/slow/3")
            begin
              body = Net::HTTP.start(uri.host, uri.port, read_timeout: 1) { |h| h.get(uri.path).body }
              puts "synced #{body.bytesize} bytes"
            rescue Net::ReadTimeout => e
              warn "sync failed: #{e.class}: #{e.message}"
            end
            puts 'sync job complete'
        """),
    },
    confirm=r"ReadTimeout",
)
add(
    "ruby-retry-backtrace",
    "ruby",
    "success_alarming_stderr",
    None,
    "a Ruby client retries a flaky endpoint, printing each error with its backtrace; the third attempt succeeds",
    "ruby fetch.rb",
    files={
        "fetch.rb": dedent("""
            require 'net/http'
            uri = URI("#{ENV['HTTP_APP']}/flaky/fresh-ruby-retry/2")
            attempts = 0
            begin
              attempts += 1
              res = Net::HTTP.get_response(uri)
              raise "HTTP #{res.code} #{res.message}" unless res.is_a?(Net::HTTPSuccess)
              puts "fetched: #{res.body}"
            rescue => e
              warn "attempt #{attempts} failed: #{e.message}"
              warn e.backtrace.join("\\n")
              retry if attempts < 5
              raise
            end
        """),
    },
    confirm=r"(?s)^(?=.*attempt 1 failed)(?=.*fetched: ok after 3)",
)
add(
    "ruby-ulimit-nomemory",
    "ruby",
    "killed_signalled",
    None,
    "a Ruby job under a 300 MB address-space limit keeps growing a string and runs out of memory",
    'ulimit -v 300000; ruby -e \'s = +""; loop { s << ("x" * 1_000_000) }\'',
    expect="nonzero",
)

# --- curl, git, jq, bash -------------------------------------------------------------------------

add(
    "curl-status-code-only",
    "curl",
    "exit0_hidden_failure",
    None,
    "health check prints only the HTTP status code; the service answers 503",
    'curl -s -o /dev/null -w "%{http_code}\\n" "$HTTP_APP/status/503"',
    confirm=r"^503",
)
add(
    "bash-mirror-fallback",
    "bash",
    "success_alarming_stderr",
    None,
    "download script tries the primary mirror (curl reports the 503), falls back to the secondary, which works",
    "bash fetch.sh && cat pkg.txt",
    files={
        "fetch.sh": dedent("""
            #!/bin/bash
            set -u
            for url in "$HTTP_APP/status/503" "$HTTP_APP/ok"; do
              if curl -fsS -o pkg.txt "$url"; then echo "downloaded from $url"; exit 0; fi
              echo "mirror $url failed, trying next" >&2
            done
            exit 1
        """),
    },
    confirm=r"(?s)^(?=.*curl: \(22\))(?=.*downloaded from .*/ok)",
)
add(
    "bash-json-validate-loop",
    "bash",
    "exit0_hidden_failure",
    None,
    "config validation loops over JSON files and echoes 'invalid' for bad ones without failing; one file is invalid",
    'for f in conf/*.json; do python3 -m json.tool "$f" >/dev/null || echo "invalid: $f"; done; echo \'validation finished\'',
    files={"conf/a.json": '{"a": 1}\n', "conf/b.json": '{"b": [1, 2,]}\n', "conf/c.json": "{}\n"},
    confirm=r"invalid: conf/b\.json",
)
add(
    "git-stash-pop-conflict",
    "git",
    "plain_failure",
    None,
    "git stash pop conflicts with a commit made on the same line; the stash is kept and git exits 1",
    "git stash pop",
    setup=dedent("""
        git init -q . && echo 'port = 80' > app.conf && git add . && git commit -qm init
        echo 'port = 8080' > app.conf && git stash -q
        echo 'port = 443' > app.conf && git commit -qam 'use tls'
    """),
    confirm=r"CONFLICT",
)
add(
    "git-commit-hook-warns",
    "git",
    "success_alarming_stderr",
    None,
    "a pre-commit hook prints non-blocking ERROR/WARNING notes but exits 0; the commit is made",
    "git commit -m 'add feature' && git log --oneline -1",
    setup=dedent("""
        git init -q . && git commit -q --allow-empty -m init
        printf '#!/bin/sh\\necho "WARNING: TODO markers found in 1 file" >&2\\necho "ERROR budget: 0 errors, 1 warning (non-blocking)" >&2\\nexit 0\\n' > .git/hooks/pre-commit
        chmod +x .git/hooks/pre-commit
        echo 'x = 1  # TODO tidy' > feature.py && git add feature.py
    """),
    confirm=r"(?s)^(?=.*WARNING)(?=.*add feature)",
)
add(
    "git-push-prereceive-rejected-tail",
    "git",
    "exit0_hidden_failure",
    None,
    "push to a bare remote whose pre-receive hook rejects direct pushes to main, piped into tail",
    "git push origin main 2>&1 | tail -n 6",
    setup=dedent("""
        git init -q --bare remote.git
        printf '#!/bin/sh\\necho "ERROR: direct pushes to main are not allowed, open a merge request" >&2\\nexit 1\\n' > remote.git/hooks/pre-receive
        chmod +x remote.git/hooks/pre-receive
        git init -q -b main . && git commit -q --allow-empty -m init
        git remote add origin "$PWD/remote.git"
    """),
    confirm=r"pre-receive hook declined",
)
add(
    "jq-iterate-null",
    "jq",
    "plain_failure",
    None,
    "jq iterates .items of an API response that has no items field and exits 5",
    "jq -r '.items[].name' resp.json",
    files={"resp.json": '{"error": null, "data": {"items": [{"name": "a"}]}}\n'},
)
add(
    "jq-zero-errors-summary",
    "jq",
    "success_alarming_stderr",
    None,
    "jq summarises a healthy status report whose fields are named errors and failures, all zero",
    "jq -r '.services[] | \"\\(.name): errors=\\(.errors) failures=\\(.failures) status=\\(.status)\"' status.json",
    files={
        "status.json": '{"services": [{"name": "api", "errors": 0, "failures": 0, "status": "ok"}, {"name": "worker", "errors": 0, "failures": 0, "status": "ok"}]}\n'
    },
    confirm=r"worker: errors=0",
)
