"""curl and wget against the capture's local servers ($HTTP_APP, $HTTP_FILES, $HTTP_PHP)."""

from __future__ import annotations

from casekit import Case, case

CASES: list[Case] = []
add = CASES.append

# --- curl -----------------------------------------------------------------------------------

add(
    case(
        "curl-ok-silent",
        "curl",
        "plain_success",
        None,
        "fetches a JSON document",
        'curl -sS "$HTTP_APP/json"',
        confirm='"status": "ok"',
    )
)
add(
    case(
        "curl-file-server-ok",
        "curl",
        "plain_success",
        None,
        "downloads a file from python's http.server",
        'curl -sS -o notes.txt "$HTTP_FILES/notes.txt" && cat notes.txt',
        confirm="line two",
    )
)
add(
    case(
        "curl-progress-download",
        "curl",
        "progress_on_stderr",
        "success",
        "downloads 2 MB to a file; curl draws its progress meter on stderr",
        'curl -o big.bin "$HTTP_APP/big/2048/1" && ls -l big.bin',
        confirm="big.bin",
    )
)
add(
    case(
        "curl-progress-bar",
        "curl",
        "progress_on_stderr",
        "success",
        "-# progress bar while downloading 1 MB",
        'curl -# -o f.bin "$HTTP_FILES/big.bin"',
    )
)
add(
    case(
        "curl-progress-fail-404",
        "curl",
        "progress_on_stderr",
        "failure",
        "progress meter, then -f turns the 404 into exit 22",
        'curl -f -o page.html "$HTTP_FILES/missing.html"',
        expect=22,
    )
)
add(
    case(
        "curl-500-page-no-f",
        "curl",
        "exit0_hidden_failure",
        None,
        "the API answers 500 with an error page; without -f curl prints it and exits 0",
        'curl -sS "$HTTP_APP/status/500"',
        confirm="500 Internal Server Error",
    )
)
add(
    case(
        "curl-404-page-no-f",
        "curl",
        "exit0_hidden_failure",
        None,
        "the file does not exist; python's http.server 404 page is printed, exit 0",
        'curl -sS "$HTTP_FILES/release/app-1.2.tar.gz"',
        confirm="404",
    )
)
add(
    case(
        "curl-app-exception-500",
        "curl",
        "exit0_hidden_failure",
        None,
        "the WSGI app raises; its 500 response is printed to stdout, curl exits 0",
        'curl -sS "$HTTP_APP/boom"',
        confirm="server error",
    )
)
add(
    case(
        "curl-api-error-json",
        "curl",
        "exit0_hidden_failure",
        None,
        "the API rejects the request with a 400 JSON error body; curl exits 0",
        'curl -sS -X POST "$HTTP_APP/api-error"',
        confirm="invalid_request",
    )
)
add(
    case(
        "curl-502-saved-to-file",
        "curl",
        "exit0_hidden_failure",
        None,
        "downloading a release saves a 502 page as the artifact; curl exits 0",
        'curl -o release.tar.gz "$HTTP_APP/status/502" && file release.tar.gz',
        confirm="HTML",
    )
)
add(
    case(
        "curl-f-500",
        "curl",
        "plain_failure",
        None,
        "-f: a 500 response fails with exit 22",
        'curl -sSf "$HTTP_APP/status/500"',
        expect=22,
    )
)
add(
    case(
        "curl-connection-refused",
        "curl",
        "plain_failure",
        None,
        "nothing listens on the port",
        "curl -sS http://127.0.0.1:9/health",
        expect=7,
    )
)
add(
    case(
        "curl-timeout",
        "curl",
        "plain_failure",
        None,
        "the endpoint takes 3 s; --max-time 1 gives up (exit 28)",
        'curl -sS --max-time 1 "$HTTP_APP/slow/3"',
        expect=28,
    )
)
add(
    case(
        "curl-retry-recovers",
        "curl",
        "success_alarming_stderr",
        None,
        "two 503s, curl retries and the third attempt succeeds",
        'curl -sSf --retry 3 --retry-delay 1 "$HTTP_APP/flaky/curl-retry/2"',
        confirm="ok after 3 attempts",
    )
)
add(
    case(
        "curl-retry-exhausted",
        "curl",
        "plain_failure",
        None,
        "the endpoint keeps failing past curl's retries",
        'curl -sSf --retry 2 --retry-delay 1 "$HTTP_APP/flaky/curl-exhaust/9"',
        expect=22,
    )
)
add(
    case(
        "curl-retry-progress",
        "curl",
        "progress_on_stderr",
        "success",
        "retry warnings and the progress meter on stderr; the download succeeds",
        'curl -f --retry 2 --retry-delay 1 -o out.txt "$HTTP_APP/flaky/curl-retry-prog/1" && cat out.txt',
        confirm="ok after 2",
    )
)
add(
    case(
        "curl-verbose-ok",
        "curl",
        "success_alarming_stderr",
        None,
        "-v dumps the request and response headers to stderr; the fetch succeeds",
        'curl -v -sS "$HTTP_APP/ok"',
        confirm="HTTP/1",
    )
)
add(
    case(
        "curl-redirects",
        "curl",
        "plain_success",
        None,
        "follows three redirects to /ok",
        'curl -sSL "$HTTP_APP/redirect/3"',
        confirm="ok",
    )
)
add(
    case(
        "curl-php-ok",
        "curl",
        "plain_success",
        None,
        "a PHP endpoint returns JSON",
        'curl -sSf "$HTTP_PHP/ok.php"',
        confirm="ok",
    )
)
add(
    case(
        "curl-php-warning-200",
        "curl",
        "exit0_hidden_failure",
        None,
        "a PHP report page hits undefined variables; PHP prints warnings in the page with 200",
        'curl -sSf "$HTTP_PHP/warn.php"',
        confirm="Warning",
    )
)
add(
    case(
        "curl-php-fatal",
        "curl",
        "exit0_hidden_failure",
        None,
        "a PHP page dies on an undefined function; the fatal error page is printed, exit 0",
        'curl -sS "$HTTP_PHP/fatal.php"',
        confirm="Fatal error",
    )
)
add(
    case(
        "curl-php-exception-f",
        "curl",
        "exit0_hidden_failure",
        None,
        "the PHP charge page dies on an uncaught exception; PHP still answers 200, so even -f exits 0",
        'curl -sSf "$HTTP_PHP/exception.php"',
        confirm="Uncaught RuntimeException",
    )
)
add(
    case(
        "curl-latin1-body",
        "curl",
        "non_utf8",
        "success",
        "fetches a latin-1 encoded text resource",
        'curl -sS "$HTTP_APP/latin1"',
    )
)
add(
    case(
        "curl-binary-stdout",
        "curl",
        "non_utf8",
        "success",
        "fetches a binary file to stdout (bytes 0-255)",
        'curl -sS "$HTTP_FILES/big.bin" | head -c 512',
    )
)
add(
    case(
        "curl-api-200-error-field",
        "curl",
        "exit0_hidden_failure",
        None,
        'the API returns 200 with {"ok": false, "error": ...}: the call did not succeed',
        'curl -sSf "$HTTP_APP/api-error-200"',
        confirm="quota exceeded",
    )
)
add(
    case(
        "curl-headers-color",
        "curl",
        "coloured_output",
        "success",
        "FORCE_COLOR with a tool that colours: jq -C formats the fetched JSON",
        'curl -sS "$HTTP_APP/json" | jq -C .',
        needs=("curl", "jq"),
    )
)
add(
    case(
        "curl-bad-url",
        "curl",
        "plain_failure",
        None,
        "malformed URL (exit 3)",
        "curl -sS 'http://[::1'",
        expect=3,
    )
)
add(
    case(
        "curl-tee-500-pipeline",
        "curl",
        "exit0_hidden_failure",
        None,
        "a deploy script pipes the health check into `tee`: the service returns 503",
        'curl -sS "$HTTP_APP/status/503" | tee health.txt',
        confirm="503",
    )
)

# --- wget -----------------------------------------------------------------------------------

add(
    case(
        "wget-ok",
        "wget",
        "progress_on_stderr",
        "success",
        "wget downloads a file; its log and progress dots go to stderr",
        'wget "$HTTP_FILES/data.json" && cat data.json',
        confirm="corpus",
    )
)
add(
    case(
        "wget-big-progress",
        "wget",
        "progress_on_stderr",
        "success",
        "a 2 MB download with the dot progress display",
        'wget --progress=dot:binary -O big.bin "$HTTP_APP/big/2048/1"',
    )
)
add(
    case(
        "wget-quiet-ok",
        "wget",
        "plain_success",
        None,
        "quiet download to stdout",
        'wget -q -O - "$HTTP_APP/json"',
        confirm="items",
    )
)
add(
    case(
        "wget-404",
        "wget",
        "progress_on_stderr",
        "failure",
        "the server answers 404; wget exits 8",
        'wget "$HTTP_FILES/nope.txt"',
        expect=8,
    )
)
add(
    case(
        "wget-500",
        "wget",
        "plain_failure",
        None,
        "the server answers 500",
        'wget -q "$HTTP_APP/status/500"',
        expect=8,
    )
)
add(
    case(
        "wget-refused",
        "wget",
        "plain_failure",
        None,
        "connection refused (exit 4)",
        "wget --tries=1 http://127.0.0.1:9/x",
        expect=4,
    )
)
add(
    case(
        "wget-retry-recovers",
        "wget",
        "success_alarming_stderr",
        None,
        "503 twice, wget retries and gets the file",
        'wget --tries=4 --waitretry=0 --retry-on-http-error=503 -O out.txt "$HTTP_APP/flaky/wget-retry/2" && cat out.txt',
        confirm="ok after 3",
    )
)
add(
    case(
        "wget-404-or-true",
        "wget",
        "exit0_hidden_failure",
        None,
        "the artifact download fails with 404 but the script continues with `|| true`",
        'wget "$HTTP_FILES/artifact.zip" || true; echo "artifact step done"',
        confirm="404",
    )
)
add(
    case(
        "wget-timeout",
        "wget",
        "plain_failure",
        None,
        "--timeout=1 against a 3 s endpoint, one try",
        'wget --tries=1 --timeout=1 "$HTTP_APP/slow/3"',
        expect=4,
    )
)
add(
    case(
        "wget-spider-ok",
        "wget",
        "success_alarming_stderr",
        None,
        "--spider checks that a page exists (it does); wget logs to stderr",
        'wget --spider "$HTTP_FILES/index.html"',
        confirm="200",
    )
)
