"""perl, ruby, php, lua and tcl scripts."""

from __future__ import annotations

from casekit import Case, case, dedent

CASES: list[Case] = []
add = CASES.append

# --- perl -----------------------------------------------------------------------------------

add(
    case(
        "perl-ok",
        "perl",
        "plain_success",
        None,
        "sums numbers from a file",
        "perl -ne '$s += $_; END { print \"sum=$s\\n\" }' n.txt",
        files={"n.txt": "1\n2\n3\n"},
        confirm="sum=6",
    )
)
add(
    case(
        "perl-die",
        "perl",
        "plain_failure",
        None,
        "the script dies opening a missing file",
        'perl -e \'open(my $f, "<", "config.ini") or die "cannot open config.ini: $!\\n"\'',
        expect=2,
    )
)
add(
    case(
        "perl-syntax-error",
        "perl",
        "plain_failure",
        None,
        "a perl syntax error",
        "perl -e 'my $x = ; print $x'",
        expect=255,
    )
)
add(
    case(
        "perl-warnings-ok",
        "perl",
        "success_alarming_stderr",
        None,
        "`use warnings` complains about an uninitialised value; the report is still correct",
        "perl -we 'my %h = (a => 1); my $t = $h{a} + $h{b}; print \"total=$t\\n\"'",
        confirm="total=1",
    )
)
add(
    case(
        "perl-eval-swallow",
        "perl",
        "exit0_hidden_failure",
        None,
        "the upload in eval {} dies; the error is printed and the script exits 0",
        'perl -e \'eval { die "upload failed: 403 Forbidden\\n" }; print STDERR "error: $@" if $@; print "done\\n"\'',
        confirm="403",
    )
)
add(
    case(
        "perl-warn-hidden",
        "perl",
        "exit0_hidden_failure",
        None,
        "the report writer cannot open its output, `warn`s and carries on to exit 0",
        'perl -e \'open(my $o, ">", "/nonexistent/report.txt") or warn "could not write report: $!\\n"; print "finished\\n"\'',
        confirm="could not write report",
    )
)
add(
    case(
        "perl-kill-self",
        "perl",
        "killed_signalled",
        None,
        "perl killed by SIGKILL",
        ["perl", "-e", "print qq(start\\n); kill 'KILL', $$; sleep 3"],
        expect="SIGKILL",
    )
)
add(
    case(
        "perl-latin1-output",
        "perl",
        "non_utf8",
        "success",
        "prints latin-1 bytes on purpose",
        "perl -e 'print \"caf\\xe9 cr\\xe8me\\n\"'",
    )
)
add(
    case(
        "perl-color",
        "perl",
        "coloured_output",
        "success",
        "Term::ANSIColor output from a successful script",
        'perl -MTerm::ANSIColor -e \'print colored("PASS", "green"), " 12 checks\\n"\'',
    )
)
add(
    case(
        "perl-prove-fail",
        "perl",
        "plain_failure",
        None,
        "prove runs a TAP test with a failure",
        "prove t/",
        files={"t/a.t": "use Test::More tests => 2;\nok(1, 'first');\nis(2 + 2, 5, 'sum');\n"},
    )
)
add(
    case(
        "perl-prove-pass",
        "perl",
        "plain_success",
        None,
        "prove runs passing TAP tests",
        "prove t/",
        files={"t/a.t": "use Test::More tests => 2;\nok(1, 'first');\nis(2 + 2, 4, 'sum');\n"},
        group="perl-prove-fail",
    )
)

# --- ruby -----------------------------------------------------------------------------------

add(
    case(
        "ruby-ok",
        "ruby",
        "plain_success",
        None,
        "parses JSON and prints a value",
        'ruby -rjson -e \'puts JSON.parse(File.read("c.json"))["port"]\'',
        files={"c.json": '{"port": 8080}\n'},
        confirm="8080",
    )
)
add(
    case(
        "ruby-exception",
        "ruby",
        "plain_failure",
        None,
        "NoMethodError on nil",
        "ruby app.rb",
        files={"app.rb": "cfg = {}\nputs cfg[:db].fetch(:host)\n"},
    )
)
add(
    case(
        "ruby-syntax-error",
        "ruby",
        "plain_failure",
        None,
        "a ruby syntax error",
        "ruby -e 'def f(; end'",
    )
)
add(
    case(
        "ruby-thread-report",
        "ruby",
        "exit0_hidden_failure",
        None,
        "the worker thread raises; ruby reports it and the main script still exits 0",
        "ruby t.rb",
        files={
            "t.rb": "t = Thread.new { raise IOError, 'sync to bucket failed' }\nsleep 0.2\nputs 'main done'\n"
        },
        confirm="terminated with exception",
    )
)
add(
    case(
        "ruby-rescue-print",
        "ruby",
        "exit0_hidden_failure",
        None,
        "the import rescues its exception, prints the backtrace and exits 0",
        "ruby i.rb",
        files={
            "i.rb": dedent("""
             begin
               Integer("12a")
             rescue => e
               warn "import failed: #{e.message}"
               warn e.backtrace.join("\\n")
             end
             puts "import step finished"
         """)
        },
        confirm="import failed",
    )
)
add(
    case(
        "ruby-warning-ok",
        "ruby",
        "success_alarming_stderr",
        None,
        "-w warnings (unused variable) but the script works",
        "ruby -w -e 'def f; x = 1; 2; end; puts f'",
        confirm="2",
    )
)
add(
    case(
        "ruby-minitest-fail",
        "ruby",
        "plain_failure",
        None,
        "a failing minitest",
        "ruby t_test.rb",
        files={
            "t_test.rb": "require 'minitest/autorun'\nclass T < Minitest::Test\n  def test_sum\n    assert_equal 5, 2 + 2\n  end\nend\n"
        },
    )
)
add(
    case(
        "ruby-minitest-pass",
        "ruby",
        "plain_success",
        None,
        "passing minitests",
        "ruby t_test.rb",
        files={
            "t_test.rb": "require 'minitest/autorun'\nclass T < Minitest::Test\n  def test_sum\n    assert_equal 4, 2 + 2\n  end\nend\n"
        },
        group="ruby-minitest-fail",
    )
)
add(
    case(
        "ruby-segv-signal",
        "ruby",
        "killed_signalled",
        None,
        "ruby killed by SIGTERM",
        ["ruby", "-e", "puts 'running'; $stdout.flush; Process.kill(:TERM, Process.pid); sleep 2"],
        expect="SIGTERM",
    )
)
add(
    case(
        "ruby-latin1-output",
        "ruby",
        "non_utf8",
        "success",
        "writes latin-1 bytes",
        "ruby -e '$stdout.write(\"Zo\\xEB M\\xFCller\\n\".b)'",
    )
)

# --- php ------------------------------------------------------------------------------------

add(
    case(
        "php-ok",
        "php",
        "plain_success",
        None,
        "a PHP CLI script prints JSON",
        'php -r \'echo json_encode(["ok" => true, "n" => 3]), PHP_EOL;\'',
        confirm="true",
    )
)
add(
    case(
        "php-fatal",
        "php",
        "plain_failure",
        None,
        "calls an undefined function (exit 255)",
        "php -d display_errors=stderr -r 'load_config_missing();'",
        expect=255,
    )
)
add(
    case(
        "php-warning-hidden",
        "php",
        "exit0_hidden_failure",
        None,
        "the export reads a missing file; PHP warns and the script still exits 0",
        'php -d display_errors=stderr -r \'$d = file_get_contents("export.csv"); echo "exported ", strlen((string)$d), " bytes\\n";\'',
        confirm="Failed to open stream",
    )
)
add(
    case(
        "php-deprecated-ok",
        "php",
        "success_alarming_stderr",
        None,
        "a Deprecated notice at run time; the script's output is correct",
        "php -d display_errors=stderr -d error_reporting=-1 -r 'function f($a = 1, $b) { return $b; } echo f(1, 2), PHP_EOL;'",
        confirm="2",
    )
)
add(
    case(
        "php-syntax-error",
        "php",
        "plain_failure",
        None,
        "php -l finds a syntax error",
        "php -l bad.php",
        files={"bad.php": "<?php\nfunction f( {\n"},
    )
)
add(
    case(
        "php-lint-ok",
        "php",
        "plain_success",
        None,
        "php -l on valid code",
        "php -l ok.php",
        files={"ok.php": "<?php\necho 1;\n"},
        confirm="No syntax errors",
    )
)
add(
    case(
        "php-uncaught-exception",
        "php",
        "plain_failure",
        None,
        "an uncaught exception ends the script (exit 255)",
        "php -d display_errors=stderr -r 'throw new RuntimeException(\"queue unavailable\");'",
        expect=255,
    )
)

# --- lua / tcl ------------------------------------------------------------------------------

add(
    case(
        "lua-ok",
        "lua",
        "plain_success",
        None,
        "a lua script computes a sum",
        "lua5.4 -e 'local s = 0 for i = 1, 10 do s = s + i end print(s)'",
        confirm="55",
    )
)
add(
    case(
        "lua-error",
        "lua",
        "plain_failure",
        None,
        "a runtime error with traceback",
        "lua5.4 app.lua",
        files={"app.lua": "local cfg = nil\nprint(cfg.port)\n"},
    )
)
add(
    case(
        "lua-pcall-swallow",
        "lua",
        "exit0_hidden_failure",
        None,
        "pcall catches the failed write and only prints it; exit 0",
        'lua5.4 -e \'local ok, err = pcall(function() error("write failed: disk full") end) if not ok then io.stderr:write("error: ", err, "\\n") end print("done")\'',
        confirm="disk full",
    )
)
add(
    case(
        "lua-syntax-error",
        "lua",
        "plain_failure",
        None,
        "a lua syntax error",
        "lua5.4 -e 'local x = = 1'",
    )
)
add(
    case(
        "tcl-ok",
        "tcl",
        "plain_success",
        None,
        "a tcl script formats a line",
        "echo 'puts [format \"%s=%d\" total 42]' | tclsh",
        confirm="total=42",
    )
)
add(
    case(
        "tcl-error",
        "tcl",
        "plain_failure",
        None,
        "a tcl error with its errorInfo",
        "tclsh app.tcl",
        files={"app.tcl": 'proc load {} { error "config missing" }\nload\n'},
    )
)
add(
    case(
        "tcl-catch-hidden",
        "tcl",
        "exit0_hidden_failure",
        None,
        "catch swallows the failed open; the message is printed and tclsh exits 0",
        "tclsh app.tcl",
        files={
            "app.tcl": 'if {[catch {open /nonexistent/data.txt r} err]} { puts stderr "error: $err" }\nputs done\n'
        },
        confirm="no such file",
    )
)
