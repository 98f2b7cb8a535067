"""C and C++ toolchains: gcc, g++, clang, make, cmake, valgrind."""

from __future__ import annotations

from casekit import Case, case, dedent

CASES: list[Case] = []
add = CASES.append

HELLO = {"main.c": '#include <stdio.h>\nint main(void) { printf("hello\\n"); return 0; }\n'}
UNUSED = {
    "main.c": '#include <stdio.h>\nint main(void) {\n    int unused;\n    char buf[4];\n    printf("%d\\n", 3.5);\n    return 0;\n}\n'
}
UNDECLARED = {"main.c": "int main(void) {\n    return total + 1;\n}\n"}
LINK = {"main.c": "int compute(int);\nint main(void) { return compute(2); }\n"}
MISSING_H = {"main.c": "#include <zlib_corpus_missing.h>\nint main(void) { return 0; }\n"}
MANY_WARN = {
    "main.c": "#include <stdio.h>\n"
    + "".join(f"static int helper{i}(int x) {{ int tmp{i}; return x; }}\n" for i in range(12))
    + "int main(void) { int r = helper0(1) + missing_fn(2); return r; }\n"
}
SEGV = {
    "crash.c": dedent("""
    #include <stdio.h>
    #include <string.h>
    struct cfg { char *name; };
    int main(void) {
        struct cfg *c = NULL;
        printf("loading config\\n");
        fflush(stdout);
        return (int)strlen(c->name);
    }
""")
}
ASSERT = {
    "a.c": dedent("""
    #include <assert.h>
    #include <stdio.h>
    int parse(const char *s) { return s[0] == '4' ? 4 : -1; }
    int main(void) {
        int v = parse("x");
        assert(v >= 0 && "parse failed");
        printf("%d\\n", v);
        return 0;
    }
""")
}
FPE = {
    "d.c": '#include <stdio.h>\nint main(int argc, char **argv) {\n    int d = argc - 1;\n    printf("%d\\n", 100 / d);\n    return 0;\n}\n'
}
LEAK = {
    "leak.c": dedent("""
    #include <stdlib.h>
    #include <string.h>
    #include <stdio.h>
    int main(void) {
        char *p = malloc(16);
        strcpy(p, "fifteen chars!!");
        int *a = malloc(4 * sizeof(int));
        printf("%c %d\\n", p[0], a[5]);
        free(a);
        return 0;
    }
""")
}
CLEAN_MEM = {
    "ok.c": '#include <stdlib.h>\n#include <stdio.h>\nint main(void) { int *a = calloc(4, sizeof(int)); a[1] = 2; printf("%d\\n", a[1]); free(a); return 0; }\n'
}
OVERFLOW = {
    "o.c": '#include <stdio.h>\n#include <limits.h>\nint main(int argc, char **argv) { int x = INT_MAX; x += argc; printf("%d\\n", x); return 0; }\n'
}

# --- gcc ------------------------------------------------------------------------------------

add(
    case(
        "gcc-ok",
        "gcc",
        "plain_success",
        None,
        "compiles and runs hello world",
        "gcc -o hello main.c && ./hello",
        files=HELLO,
        confirm="hello",
    )
)
add(
    case(
        "gcc-warnings",
        "gcc",
        "success_alarming_stderr",
        None,
        "-Wall warnings (unused variables, format) but the binary builds",
        "gcc -Wall -Wextra -o app main.c && ls app",
        files=UNUSED,
        confirm="warning",
    )
)
add(
    case(
        "gcc-undeclared",
        "gcc",
        "plain_failure",
        None,
        "undeclared identifier",
        "gcc -o app main.c",
        files=UNDECLARED,
    )
)
add(
    case(
        "gcc-werror",
        "gcc",
        "plain_failure",
        None,
        "warnings promoted to errors by -Werror",
        "gcc -Wall -Werror -o app main.c",
        files=UNUSED,
    )
)
add(
    case(
        "gcc-link-error",
        "gcc",
        "plain_failure",
        None,
        "undefined reference at link time",
        "gcc -o app main.c",
        files=LINK,
    )
)
add(
    case(
        "gcc-missing-header",
        "gcc",
        "plain_failure",
        None,
        "an include that does not exist",
        "gcc -c main.c",
        files=MISSING_H,
    )
)
add(
    case(
        "gcc-many-warnings-one-error",
        "gcc",
        "failure_noisy_stderr",
        None,
        "two dozen warnings and one implicit-declaration link failure",
        "gcc -Wall -Wextra -o app main.c",
        files=MANY_WARN,
    )
)
add(
    case(
        "gcc-error-color",
        "gcc",
        "coloured_output",
        "failure",
        "-fdiagnostics-color=always; undeclared identifier",
        "gcc -fdiagnostics-color=always -o app main.c",
        files=UNDECLARED,
        group="gcc-undeclared",
    )
)
add(
    case(
        "gcc-warning-color",
        "gcc",
        "coloured_output",
        "success",
        "-fdiagnostics-color=always; warnings only, binary builds",
        "gcc -Wall -fdiagnostics-color=always -o app main.c",
        files=UNUSED,
        group="gcc-warnings",
    )
)
add(
    case(
        "gcc-error-or-true",
        "gcc",
        "exit0_hidden_failure",
        None,
        "compile error in a build step ending with `|| true`",
        "gcc -o app main.c || true",
        files=UNDECLARED,
        group="gcc-undeclared",
        confirm="error",
    )
)
add(
    case(
        "gcc-error-then-echo",
        "gcc",
        "exit0_hidden_failure",
        None,
        "script compiles (fails) then prints `build finished`; its last command succeeds",
        "gcc -o app main.c\necho 'build finished'",
        files=LINK,
        group="gcc-link-error",
        confirm="undefined reference",
    )
)
add(
    case(
        "gcc-segfault",
        "gcc",
        "killed_signalled",
        None,
        "the program dereferences NULL and is killed by SIGSEGV",
        "gcc -o crash crash.c && exec ./crash",
        files=SEGV,
        expect="SIGSEGV",
    )
)
add(
    case(
        "gcc-segfault-shell",
        "gcc",
        "killed_signalled",
        None,
        "the same crash under a shell that reports 139",
        "gcc -o crash crash.c && ./crash; exit $?",
        files=SEGV,
        expect=139,
        group="gcc-segfault",
    )
)
add(
    case(
        "gcc-assert-abort",
        "gcc",
        "killed_signalled",
        None,
        "assert() fails and the program aborts (SIGABRT)",
        "gcc -o a a.c && exec ./a",
        files=ASSERT,
        expect="SIGABRT",
        confirm="Assertion",
    )
)
add(
    case(
        "gcc-sigfpe",
        "gcc",
        "killed_signalled",
        None,
        "integer division by zero raises SIGFPE",
        "gcc -O0 -o d d.c && exec ./d",
        files=FPE,
        expect="SIGFPE",
    )
)
add(
    case(
        "gcc-ubsan-hidden",
        "gcc",
        "exit0_hidden_failure",
        None,
        "UBSan reports a signed overflow at run time but the program exits 0",
        "gcc -fsanitize=undefined -o o o.c && ./o",
        files=OVERFLOW,
        confirm="runtime error",
    )
)
add(
    case(
        "gcc-asan-abort",
        "gcc",
        "failure_noisy_stderr",
        None,
        "AddressSanitizer finds a heap buffer overflow and stops the program with a long report",
        "gcc -g -fsanitize=address -o leak leak.c && ./leak",
        files=LEAK,
    )
)
add(
    case(
        "gcc-latin1-filename-error",
        "gcc",
        "non_utf8",
        "failure",
        "compile error in a file whose name is latin-1 bytes",
        "gcc -c $'caf\\xe9.c'",
        setup="printf 'int main(void) { return x; }\\n' > $'caf\\xe9.c'",
    )
)
add(
    case(
        "gcc-latin1-source-warning",
        "gcc",
        "non_utf8",
        "success",
        "a latin-1 string literal triggers a warning that quotes the raw bytes; it builds",
        "gcc -Wall -o s s.c && ./s",
        files={
            "s.c": b'#include <stdio.h>\nint main(void) { int n; printf("caf\xe9 cr\xe8me\\n"); return 0; }\n'
        },
    )
)

# --- g++ ------------------------------------------------------------------------------------

CPP_OK = {
    "m.cpp": "#include <iostream>\n#include <vector>\nint main() { std::vector<int> v{1, 2, 3}; int s = 0; for (int x : v) s += x; std::cout << s << '\\n'; }\n"
}
CPP_TEMPLATE = {
    "m.cpp": "#include <map>\n#include <string>\nint main() { std::map<std::string, int> m; m.insert(42); }\n"
}
CPP_THROW = {
    "t.cpp": '#include <stdexcept>\nint main() { throw std::runtime_error("invalid state: queue empty"); }\n'
}
add(
    case(
        "gpp-ok",
        "g++",
        "plain_success",
        None,
        "compiles and runs a small C++ program",
        "g++ -std=c++17 -o m m.cpp && ./m",
        files=CPP_OK,
        confirm="6",
    )
)
add(
    case(
        "gpp-template-error",
        "g++",
        "failure_noisy_stderr",
        None,
        "a wrong map insert produces pages of template candidates",
        "g++ -std=c++17 -o m m.cpp",
        files=CPP_TEMPLATE,
    )
)
add(
    case(
        "gpp-template-error-color",
        "g++",
        "coloured_output",
        "failure",
        "the same template error in colour",
        "g++ -fdiagnostics-color=always -o m m.cpp",
        files=CPP_TEMPLATE,
        group="gpp-template-error",
    )
)
add(
    case(
        "gpp-uncaught-exception",
        "g++",
        "killed_signalled",
        None,
        "an uncaught C++ exception calls std::terminate and aborts",
        "g++ -o t t.cpp && exec ./t",
        files=CPP_THROW,
        expect="SIGABRT",
    )
)
add(
    case(
        "gpp-missing-std-include",
        "g++",
        "plain_failure",
        None,
        "uses std::string without including <string>... and a typo'd member",
        "g++ -o m m.cpp",
        files={
            "m.cpp": '#include <iostream>\nint main() { std::strin s = "a"; std::cout << s.size(); }\n'
        },
    )
)
add(
    case(
        "gpp-deprecated-warning",
        "g++",
        "success_alarming_stderr",
        None,
        "a [[deprecated]] function is called; warning only, program runs",
        "g++ -o m m.cpp && ./m",
        files={
            "m.cpp": '#include <cstdio>\n[[deprecated("use area2")]] int area(int w) { return w * w; }\nint main() { std::printf("%d\\n", area(3)); }\n'
        },
        confirm="9",
    )
)

# --- clang ----------------------------------------------------------------------------------

add(
    case(
        "clang-ok",
        "clang",
        "plain_success",
        None,
        "clang compiles and runs hello world",
        "clang -o hello main.c && ./hello",
        files=HELLO,
        confirm="hello",
    )
)
add(
    case(
        "clang-error",
        "clang",
        "plain_failure",
        None,
        "undeclared identifier under clang",
        "clang -o app main.c",
        files=UNDECLARED,
    )
)
add(
    case(
        "clang-error-color",
        "clang",
        "coloured_output",
        "failure",
        "-fcolor-diagnostics; undeclared identifier",
        "clang -fcolor-diagnostics -o app main.c",
        files=UNDECLARED,
        group="clang-error",
    )
)
add(
    case(
        "clang-warnings",
        "clang",
        "success_alarming_stderr",
        None,
        "clang -Wall warnings; binary builds",
        "clang -Wall -o app main.c && ls app",
        files=UNUSED,
        confirm="warning",
    )
)
add(
    case(
        "clang-analyze-clean",
        "clang",
        "plain_success",
        None,
        "the static analyser finds nothing in a correct file",
        "clang --analyze ok.c",
        files=CLEAN_MEM,
    )
)
add(
    case(
        "clang-warning-color",
        "clang",
        "coloured_output",
        "success",
        "-fcolor-diagnostics with warnings only",
        "clang -Wall -fcolor-diagnostics -o app main.c",
        files=UNUSED,
        group="clang-warnings",
    )
)

# --- make -----------------------------------------------------------------------------------

MK_OK = {
    "Makefile": "all: hello\n\nhello: main.c\n\tgcc -o $@ $<\n\nclean:\n\trm -f hello\n",
    **HELLO,
}
MK_FAIL = {"Makefile": "all: app\n\napp: main.c\n\tgcc -o $@ $<\n", **UNDECLARED}
MK_IGNORE = {"Makefile": "all:\n\t-gcc -o app main.c\n\t@echo 'build step done'\n", **UNDECLARED}
MK_TESTS = {
    "Makefile": "test:\n\t-python3 -c 'assert 2 + 2 == 5, \"arithmetic is broken\"'\n\t@echo tests finished\n"
}
add(
    case(
        "make-ok",
        "make",
        "plain_success",
        None,
        "make builds a C target",
        "make && ./hello",
        files=MK_OK,
        confirm="hello",
    )
)
add(
    case(
        "make-fail",
        "make",
        "plain_failure",
        None,
        "the recipe's compile fails; make stops",
        "make",
        files=MK_FAIL,
        expect=2,
    )
)
add(
    case(
        "make-ignore-dash",
        "make",
        "exit0_hidden_failure",
        None,
        "a `-` recipe line lets the failed compile pass as `(ignored)`; exit 0",
        "make",
        files=MK_IGNORE,
        confirm="ignored",
    )
)
add(
    case(
        "make-i",
        "make",
        "exit0_hidden_failure",
        None,
        "`make -i` ignores the failing compile and exits 0",
        "make -i",
        files=MK_FAIL,
        group="make-fail",
        confirm="ignored",
    )
)
add(
    case(
        "make-dash-tests",
        "make",
        "exit0_hidden_failure",
        None,
        "the test recipe is prefixed with `-`; the failing assertion is ignored",
        "make test",
        files=MK_TESTS,
        confirm="AssertionError",
    )
)
add(
    case(
        "make-k-fail",
        "make",
        "plain_failure",
        None,
        "`make -k` keeps going past a failed target, then exits 2",
        "make -k",
        files={"Makefile": "all: a b c\na:\n\t@echo built a\nb:\n\tfalse\nc:\n\t@echo built c\n"},
        expect=2,
    )
)
add(
    case(
        "make-no-rule",
        "make",
        "plain_failure",
        None,
        "no rule to make the requested target",
        "make deploy",
        files=MK_OK,
        expect=2,
    )
)
add(
    case(
        "make-missing-makefile",
        "make",
        "plain_failure",
        None,
        "make in a directory without a Makefile",
        "make",
        expect=2,
    )
)
add(
    case(
        "make-nothing-to-do",
        "make",
        "plain_success",
        None,
        "second make call is up to date",
        "make >/dev/null && make",
        files=MK_OK,
        confirm="up to date|Nothing to be done",
    )
)
add(
    case(
        "make-j-progress-fail",
        "make",
        "failure_noisy_stderr",
        None,
        "parallel build of many objects, one fails to compile among warnings",
        "make -j2 -k",
        files={
            "Makefile": "SRCS := $(wildcard src/*.c)\nOBJS := $(SRCS:.c=.o)\nall: $(OBJS)\n%.o: %.c\n\tgcc -Wall -Wextra -c $< -o $@\n",
            **{
                f"src/m{i}.c": f"int f{i}(int x) {{ int unused{i}; return x * {i}; }}\n"
                for i in range(8)
            },
            "src/broken.c": "int g(void) { return nope; }\n",
        },
        expect=2,
    )
)
add(
    case(
        "make-recursive-warnings-ok",
        "make",
        "success_alarming_stderr",
        None,
        "make overrides a recipe (warning: overriding recipe) and builds fine",
        "make",
        files={"Makefile": "all: out.txt\nout.txt:\n\techo one > $@\nout.txt:\n\techo two > $@\n"},
        confirm="warning",
    )
)
add(
    case(
        "make-latin1-target",
        "make",
        "non_utf8",
        "failure",
        "asks for a target whose name is latin-1 bytes and has no rule",
        "make $'caf\\xe9'",
        files=MK_OK,
        expect=2,
    )
)

# --- cmake ----------------------------------------------------------------------------------

CM_OK = {
    "CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(demo C)\nadd_executable(demo main.c)\n",
    **HELLO,
}
CM_FATAL = {
    "CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(demo C)\nfind_package(CorpusMissingLib REQUIRED)\n"
}
CM_DEV_WARN = {
    "CMakeLists.txt": "cmake_minimum_required(VERSION 2.8)\nproject(demo C)\nadd_executable(demo main.c)\n",
    **HELLO,
}
add(
    case(
        "cmake-configure-build",
        "cmake",
        "plain_success",
        None,
        "configures and builds a one-file project",
        "cmake -S . -B build && cmake --build build",
        files=CM_OK,
        confirm="Built target demo",
    )
)
add(
    case(
        "cmake-missing-package",
        "cmake",
        "failure_noisy_stderr",
        None,
        "find_package(... REQUIRED) cannot find the package after the compiler checks",
        "cmake -S . -B build",
        files=CM_FATAL,
    )
)
add(
    case(
        "cmake-dev-warning",
        "cmake",
        "success_alarming_stderr",
        None,
        "an old cmake_minimum_required gives a deprecation warning block, then a good build",
        "cmake -S . -B build && cmake --build build",
        files=CM_DEV_WARN,
        confirm="CMake Deprecation Warning|CMake Warning",
    )
)
add(
    case(
        "cmake-build-error",
        "cmake",
        "plain_failure",
        None,
        "configure succeeds but the compile fails",
        "cmake -S . -B build && cmake --build build",
        files={**CM_OK, **UNDECLARED},
    )
)
add(
    case(
        "cmake-build-color",
        "cmake",
        "coloured_output",
        "success",
        "CLICOLOR_FORCE=1 makes the Makefile generator colour its progress",
        "cmake -S . -B build >/dev/null && cmake --build build",
        files=CM_OK,
        env={"CLICOLOR_FORCE": "1"},
        group="cmake-configure-build",
    )
)
add(
    case(
        "cmake-message-fatal",
        "cmake",
        "plain_failure",
        None,
        "the project aborts configuration with message(FATAL_ERROR)",
        "cmake -S . -B build",
        files={
            "CMakeLists.txt": 'cmake_minimum_required(VERSION 3.10)\nproject(x NONE)\nmessage(FATAL_ERROR "unsupported platform: set TARGET_ARCH")\n'
        },
    )
)
add(
    case(
        "cmake-send-error-continue",
        "cmake",
        "exit0_hidden_failure",
        None,
        "message(SEND_ERROR) marks the configure as failed but the wrapper ignores it",
        "cmake -S . -B build; echo configure step done",
        files={
            "CMakeLists.txt": 'cmake_minimum_required(VERSION 3.10)\nproject(x NONE)\nmessage(SEND_ERROR "option FOO requires BAR")\n'
        },
        confirm="CMake Error",
    )
)
add(
    case(
        "cmake-ctest-fail",
        "cmake",
        "plain_failure",
        None,
        "ctest runs two tests and one fails",
        "cmake -S . -B build >/dev/null && cmake --build build >/dev/null && cd build && ctest --output-on-failure",
        files={
            "CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(t C)\nenable_testing()\nadd_executable(t t.c)\nadd_test(NAME ok COMMAND t 0)\nadd_test(NAME bad COMMAND t 1)\n",
            "t.c": '#include <stdio.h>\n#include <stdlib.h>\nint main(int c, char **v) { int r = atoi(v[1]); if (r) fprintf(stderr, "expected 4, got 5\\n"); return r; }\n',
        },
    )
)
add(
    case(
        "cmake-ctest-pass",
        "cmake",
        "plain_success",
        None,
        "ctest runs two passing tests",
        "cmake -S . -B build >/dev/null && cmake --build build >/dev/null && cd build && ctest",
        files={
            "CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(t C)\nenable_testing()\nadd_executable(t t.c)\nadd_test(NAME a COMMAND t)\nadd_test(NAME b COMMAND t)\n",
            "t.c": "int main(void) { return 0; }\n",
        },
        group="cmake-ctest-fail",
    )
)

# --- valgrind -------------------------------------------------------------------------------

add(
    case(
        "valgrind-clean",
        "valgrind",
        "success_alarming_stderr",
        None,
        "no memory errors; valgrind still prints `ERROR SUMMARY: 0 errors`",
        "gcc -g -o ok ok.c && valgrind --leak-check=full ./ok",
        files=CLEAN_MEM,
        confirm="ERROR SUMMARY: 0 errors",
    )
)
add(
    case(
        "valgrind-errors-exit0",
        "valgrind",
        "exit0_hidden_failure",
        None,
        "invalid reads and a leak are reported, but without --error-exitcode valgrind exits 0",
        "gcc -g -o leak leak.c && valgrind --leak-check=full ./leak",
        files=LEAK,
        confirm="Invalid read",
    )
)
add(
    case(
        "valgrind-errors-exitcode",
        "valgrind",
        "failure_noisy_stderr",
        None,
        "same program with --error-exitcode=1: the memory errors fail the run",
        "gcc -g -o leak leak.c && valgrind --error-exitcode=1 --leak-check=full ./leak",
        files=LEAK,
        group="valgrind-errors-exit0",
    )
)
add(
    case(
        "valgrind-segv",
        "valgrind",
        "killed_signalled",
        None,
        "the program under valgrind segfaults (valgrind re-raises SIGSEGV)",
        "gcc -g -o crash crash.c && exec valgrind -q ./crash",
        files=SEGV,
        expect="SIGSEGV",
    )
)
