#!/usr/bin/env bash
# Install the tools the corpus cases run. Idempotent; safe to rerun.
#   bash tests/corpus/setup_tools.sh      # apt (when root), a scratch venv and a scratch npm prefix
# Everything but the Debian packages goes under $AUTOFIX_CORPUS_TOOLS (default tests/corpus/.tools).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tools="${AUTOFIX_CORPUS_TOOLS:-$here/.tools}"
mkdir -p "$tools"

# Installs the Debian packages named that are missing (as root; else says which).
apt_install() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  if [[ $(id -u) == 0 ]]; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  else
    echo "missing Debian packages (install them as root): ${missing[*]}" >&2
  fi
}
apt_pkgs=(shellcheck jq curl wget sqlite3 rsync tar gzip xz-utils zstd bzip2 zip unzip gawk sed
  grep diffutils patch pv clang lua5.4 ruby php-cli golang-go bc tcl valgrind cmake make gcc g++
  git perl postgresql-client file openssl)
apt_install "${apt_pkgs[@]}"

py="${PYTHON:-python3.11}"
if [[ ! -x "$tools/venv/bin/python" ]]; then
  "$py" -m venv "$tools/venv"
fi
"$tools/venv/bin/pip" install -q --disable-pip-version-check \
  'pytest==8.*' 'ruff==0.*' 'black==24.*' 'mypy==1.*' 'pylint==3.*' 'flake8==7.*' 'isort==5.*' \
  'coverage==7.*' 'yamllint==1.*' 'bandit==1.*' 'autopep8==2.*' 'setuptools' 'wheel'

mkdir -p "$tools/node"
if [[ ! -x "$tools/node/node_modules/.bin/tsc" ]]; then
  (cd "$tools/node" && [[ -f package.json ]] || printf '{"name":"corpus-tools","private":true}\n' > package.json)
  (cd "$tools/node" && npm install --no-audit --no-fund --loglevel=error \
    typescript@5 eslint@8 prettier@3 mocha@10)
fi

# The fresh batch (cases/fresh_*.yaml): tools added after the tune/heldout split was frozen
# (pyflakes, also used there, comes with flake8 above).
fresh_apt=(ninja-build meson autoconf automake shfmt mawk socat openssh-client gnupg busybox
  erlang-base tidy libxml2-utils cppcheck lua-busted ruby-rspec bats strace xmlstarlet tcc
  gfortran)
apt_install "${fresh_apt[@]}"
"$tools/venv/bin/pip" install -q --disable-pip-version-check \
  'nox==2025.*' 'tox==4.*' 'pytest-xdist==3.*' 'hypothesis==6.*' 'sqlfluff==3.*' 'vulture==2.*' \
  'codespell==2.*' 'sqlite-utils==3.*' 'pre-commit==4.*' 'uv==0.*'
if [[ ! -x "$tools/node/node_modules/.bin/vitest" ]]; then
  (cd "$tools/node" && npm install --no-audit --no-fund --loglevel=error \
    vitest@2 jest@29 tsx@4 esbuild@0.24 rollup@4 stylelint@16 markdownlint-cli@0.41 \
    htmlhint@1 jshint@2 c8@10)
fi
# The second fresh batch (cases/fresh2_*.yaml, split fresh): more tools new to the corpus.
fresh2_apt=(ripgrep hyperfine parallel bison flex nasm m4 gdb guile-3.0 elixir luajit zsh phpunit
  php-codesniffer perltidy lua-check rake datamash miller cloc moreutils swi-prolog-nox)
apt_install "${fresh2_apt[@]}"
"$tools/venv/bin/pip" install -q --disable-pip-version-check \
  'robotframework==7.*' 'behave==1.*' 'pycodestyle==2.*' 'pydocstyle==6.*' 'yapf==0.*' \
  'radon==6.*' 'mdformat==0.7.*' 'twine==6.*' 'yq==3.*' 'invoke==2.*'
if [[ ! -x "$tools/node/node_modules/.bin/sass" ]]; then
  (cd "$tools/node" && npm install --no-audit --no-fund --loglevel=error \
    sass@1 less@4 terser@5 ajv-cli@5 html-validate@8 concurrently@9 @biomejs/biome@1)
fi
# The third fresh batch (cases/fresh3_*.yaml): more tools new to the corpus.
fresh3_apt=(clang-tidy clang-format ocaml-nox ocaml-dune ant nim doxygen lcov gcovr redis-server scons
  cpplint sbcl devscripts)
apt_install "${fresh3_apt[@]}"
"$tools/venv/bin/pip" install -q --disable-pip-version-check \
  'nose2==0.*' 'sphinx==8.*' 'mkdocs==1.*' 'django==5.*' 'alembic==1.*' 'flask==3.*' \
  'pyupgrade==3.*' 'docformatter==1.*' 'flynt==1.*' 'build==1.*' 'pip-tools==7.*' 'nbconvert==7.*' \
  'nbformat' 'ipykernel' 'papermill==2.*' 'ansible-core==2.*' 'interrogate==1.*'
if [[ ! -x "$tools/node/node_modules/.bin/pyright" ]]; then
  (cd "$tools/node" && npm install --no-audit --no-fund --loglevel=error \
    pyright@1 ts-node@10 ava@6 jasmine@5 nyc@17 tap@16 @commitlint/cli@19 \
    @commitlint/config-conventional@19 lint-staged@15 npm-run-all2@6)
fi
# The fourth fresh batch (cases/fresh4_*.yaml): more tools new to the corpus.
fresh4_apt=(graphviz sloccount splint astyle flawfinder pandoc)
apt_install "${fresh4_apt[@]}"
"$tools/venv/bin/pip" install -q --disable-pip-version-check \
  'pytest-timeout==2.*' 'pytest-rerunfailures==15.*' 'pytest-cov==6.*' 'autoflake==2.*' 'xenon==0.*' \
  'import-linter==2.*' 'csvkit==2.*' 'pdoc==15.*' 'rstcheck==6.*' 'doc8==1.*' 'deptry==0.*' \
  'check-jsonschema==0.*' 'validate-pyproject==0.*' 'toml-sort==0.*'
if [[ ! -x "$tools/node/node_modules/.bin/oxlint" ]]; then
  (cd "$tools/node" && npm install --no-audit --no-fund --loglevel=error \
    pnpm@9 yarn@1 webpack@5 webpack-cli@5 @swc/cli@0.5 @swc/core@1 tsup@8 depcheck@1 \
    madge@8 typedoc@0.28 oxlint@0 jscpd@4 @babel/cli@7 @babel/core@7 @babel/preset-env@7 svgo@3 \
    http-server@14)
fi
# The fifth fresh batch (cases/fresh5_*.yaml): more tools new to the corpus.
fresh5_apt=(rubocop libperl-critic-perl protobuf-compiler xsltproc jsonnet composer checkstyle ccache
  asciidoctor mandoc indent)
apt_install "${fresh5_apt[@]}"
"$tools/venv/bin/pip" install -q --disable-pip-version-check \
  'pytest-asyncio==1.*' 'pre-commit-hooks==6.*' 'detect-secrets==1.*' 'lizard==1.*' 'pipdeptree==2.*' \
  'cookiecutter==2.*' 'towncrier==24.*' 'doit==0.*' 'yoyo-migrations==9.*' 'pyinstrument==5.*' \
  'typos==1.*' 'green==4.*' 'bump-my-version==1.*' 'check-wheel-contents==0.*'
if [[ ! -x "$tools/node/node_modules/.bin/uvu" ]]; then
  (cd "$tools/node" && npm install --no-audit --no-fund --loglevel=error \
    cspell@8 tape@5 uvu@0.5 standard@17 @taplo/cli@0.7 sort-package-json@2 license-checker@25 js-yaml@4)
fi
# The sixth fresh batch (cases/fresh6_*.yaml): more tools new to the corpus (readelf, nm, objdump,
# ar, sha256sum, envsubst, script, dmypy, stubgen, end-of-file-fixer, check-json, pretty-format-json,
# tomlq, csvjson, virtualenv and pybabel come with packages installed above).
fresh6_apt=(lz4 xxd binutils gettext-base)
apt_install "${fresh6_apt[@]}"
"$tools/venv/bin/pip" install -q --disable-pip-version-check \
  'diff-cover==11.*' 'virtualenv' 'babel' 'rich' 'tqdm'
if [[ ! -x "$tools/node/node_modules/.bin/wait-on" ]]; then
  (cd "$tools/node" && npm install --no-audit --no-fund --loglevel=error \
    knip@5 wait-on@8 sucrase@3)
fi
# The seventh fresh batch (cases/fresh7_*.yaml): more tools new to the corpus (jar, jshell, keytool,
# gem, erb, podchecker, json_pp, mix, erlc, dune, msgfmt, gcov, ar, size, ctest, isutf8, mispipe,
# timeout, md5sum, check-json, check-toml, jsonschema, pygmentize and csvgrep come with packages
# installed above).
fresh7_apt=(apache2-utils expect shunit2 netcat-openbsd gron)
apt_install "${fresh7_apt[@]}"
"$tools/venv/bin/pip" install -q --disable-pip-version-check \
  'httpie==3.*' 'gitlint-core==0.*' 'ast-grep-cli==0.*' 'cmakelang==0.*' \
  'djlint==1.*' 'rust-just==1.*' 'cram==0.*' 'yamale==6.*'
if [[ ! -x "$tools/node/node_modules/.bin/qunit" ]]; then
  # --ignore-scripts: lefthook's postinstall would install its git hooks into the enclosing repo.
  (cd "$tools/node" && npm install --no-audit --no-fund --loglevel=error --ignore-scripts \
    qunit@2 uglify-js@3 clean-css-cli@5 zx@8 lefthook@1 publint@0 jsonlint@1 html-minifier-terser@7)
fi
# The eighth fresh batch (cases/fresh8_*.yaml, split fresh8): more tools new to the corpus (dpkg-deb
# comes with dpkg, dpkg-source with dpkg-dev, Rscript with r-base-core, gnatmake with gnat, groff with
# groff-base, xgettext with gettext).
fresh8_apt=(lintian dpkg-dev siege wrk hey gdc r-base-core clojure gforth fp-compiler restic borgbackup
  unison rdiff-backup duplicity hugo cmark lowdown gprolog aspell aspell-en hunspell hunspell-en-us
  help2man gnuplot-nox yasm lynx txt2man weasyprint asciidoc-base sassc gnat groff-base gettext)
apt_install "${fresh8_apt[@]}"
"$tools/venv/bin/pip" install -q --disable-pip-version-check \
  'basedpyright==1.*' 'ty==0.*' 'refurb==2.*' 'slotscheck==0.*' 'fixit==2.*' 'zizmor==1.*' \
  'pyroma==4.*' 'check-manifest==0.*' 'proselint==0.*' 'pelican==4.*' 'docutils==0.21.*'
if [[ ! -x "$tools/node/node_modules/.bin/newman" ]]; then
  # --ignore-scripts: none of these needs its install script to run the cases.
  (cd "$tools/node" && npm install --no-audit --no-fund --loglevel=error --ignore-scripts \
    newman@6 autocannon@8 loadtest@8 @11ty/eleventy@3 textlint@14 textlint-rule-no-todo@2 \
    remark-cli@12 remark-preset-lint-recommended@7 alex@11 write-good@1 markdown-link-check@3 \
    csso-cli@4 postcss-cli@11 postcss@8 autoprefixer@10 purgecss@7)
fi
# The ninth fresh batch (cases/fresh9_*.yaml, split fresh9): more tools new to the corpus (iverilog
# comes with vvp, csi with chicken-bin, aria2c with aria2, h2load with nghttp2-client, 7zz with 7zip,
# makeinfo with texinfo, ctags with universal-ctags; dpkg-buildpackage and msgmerge come with
# dpkg-dev and gettext, installed above).
fresh9_apt=(gnucobol iverilog chicken-bin clisp ksh fish bmake aria2 httperf nghttp2-client par2 7zip
  texinfo universal-ctags brotli age rsnapshot rclone)
apt_install "${fresh9_apt[@]}"
"$tools/venv/bin/pip" install -q --disable-pip-version-check \
  'pyrefly==1.*' 'locust==2.*' 'pymarkdownlnt==0.9.*' 'reuse==6.*' 'dotenv-linter==0.*' \
  'pycln==2.*' 'pydoclint==0.*' 'vermin==1.*' 'pylama==8.*' 'sphinx-lint==1.*' \
  'linkchecker==10.*' 'cfn-lint==1.*' 'staticjinja==5.*' 'httpx[cli]==0.28.*' 'yamlfix==1.*' \
  'pip-licenses==5.*' 'openapi-spec-validator==0.9.*'
if [[ ! -x "$tools/node/node_modules/.bin/spectral" ]]; then
  # --ignore-scripts: none of these needs its install script, except quick-lint-js, whose
  # preinstall copies its platform binary inside its own package (the rebuild below runs it).
  (cd "$tools/node" && npm install --no-audit --no-fund --loglevel=error --ignore-scripts \
    @stoplight/spectral-cli@6 linkinator@6 dependency-cruiser@16 npm-package-json-lint@8 \
    lockfile-lint@4 @cucumber/cucumber@11 coffeescript@2 stylus@0 pug-cli@1.0.0-alpha6 peggy@4 \
    markdownlint-cli2@0 es-check@8 jsdoc@4 marked@15 quick-lint-js@3 &&
    npm rebuild --loglevel=error quick-lint-js)
fi
# The tenth fresh batch (cases/fresh10_*.yaml, split fresh10): more tools new to the corpus, in
# three parts. Language toolchains (poly from polyml, ldc2 from ldc, regina from regina-rexx, gp
# from pari-gp, cl65 with sim65 from cc65, gpasm from gputils, pil from picolisp); config testers,
# HTTP probes, archivers, checksum and dedup tools (named-checkzone and named-checkconf come with
# bind9-utils, visudo with sudo, desktop-file-validate with desktop-file-utils; httpstat from PyPI
# runs the system curl); newer Python and JavaScript linters, checkers and formatters (rst-lint
# comes with restructuredtext-lint, cz with commitizen, sqlfmt with shandy-sqlfmt, redocly with
# @redocly/cli, held at 1.25 because the registry lacked a dependency of the newest 1.x,
# lintspaces with lintspaces-cli, attw with @arethetypeswrong/cli).
fresh10_apt=(polyml ldc valac ecl regina-rexx pari-gp nickle jimsh mruby cc65 sdcc gputils f2c ratfor
  picolisp scheme48 haxe nginx haproxy logrotate bind9-utils sudo httping dar lzip lrzip zpaq arj
  cpio pax rhash hashdeep rdfind fdupes jdupes rmlint lftp desktop-file-utils)
apt_install "${fresh10_apt[@]}"
"$tools/venv/bin/pip" install -q --disable-pip-version-check \
  'httpstat==2.*' 'darglint==1.*' 'docsig==0.*' 'pydocstringformatter==0.*' 'tryceratops==2.*' \
  'restructuredtext-lint==1.*' 'commitizen==4.*' 'unimport==1.*' 'xdoctest==1.*' \
  'blacken-docs==1.*' 'djhtml==3.*' 'j2lint==1.*' 'shandy-sqlfmt==0.*' 'ssort==0.*' \
  'liccheck==0.*' 'zuban==0.*'
if [[ ! -x "$tools/node/node_modules/.bin/redocly" ]]; then
  # --ignore-scripts: none of these needs its install script to run the cases.
  (cd "$tools/node" && npm install --no-audit --no-fund --loglevel=error --ignore-scripts \
    @redocly/cli@1.25 solhint@5 syncpack@13 type-coverage@2 lintspaces-cli@1 \
    graphql-schema-linter@3 graphql@16 eclint@2 pug-lint@2 ts-prune@0 @arethetypeswrong/cli@0 \
    documentation@14)
fi
# The eleventh fresh batch (cases/fresh11_*.yaml, split fresh11): more tools new to the corpus, in
# three parts. Media, document and filesystem-image tools (pdfinfo and pdftotext come with
# poppler-utils, gs with ghostscript, oggenc and ogginfo with vorbis-tools, exiftool with
# libimage-exiftool-perl, cwebp and dwebp with webp, tiffinfo with libtiff-tools, mkfs.fat and
# fsck.fat with dosfstools, qemu-img with qemu-utils, sfdisk with fdisk, mke2fs and e2fsck with
# e2fsprogs); build, packaging, security-audit, broker and data-validation tools (autoreconf and
# autoupdate come with automake, libtoolize with libtool, rpmbuild with rpm, mosquitto_pub and
# mosquitto_sub with mosquitto-clients); language toolchains, HDL tools and Python build tools
# (scheme from chezscheme, a68g from algol68g; groovy's launcher needs JAVA_HOME, which its cases
# set).
fresh11_apt=(qpdf poppler-utils ghostscript flac sox vorbis-tools mp3val lame pngcheck optipng
  jpeginfo libimage-exiftool-perl webp gifsicle libtiff-tools dosfstools qemu-utils fdisk e2fsprogs
  automake libtool quilt rpm rpmlint lynis chkrootkit aide sslscan nmap mosquitto mosquitto-clients
  pkgconf fakeroot chezscheme pypy3 tinyscheme yabasic bwbasic verilator yosys ghdl groovy algol68g
  newlisp pforth)
apt_install "${fresh11_apt[@]}"
"$tools/venv/bin/pip" install -q --disable-pip-version-check \
  'frictionless==5.*' 'pip-audit==2.*' 'pdm==2.*' 'datasette==0.*' 'cython==3.*' 'hy==1.*' \
  'coconut==3.*' 'pyinstaller==6.*' 'pex==2.*' 'shiv==1.*'
# The twelfth fresh batch (cases/fresh12_*.yaml, split fresh12): more tools new to the corpus, in
# three parts. Server config testers, probes and log tools (unbound-checkconf comes with unbound,
# nsd-checkconf and nsd-checkzone with nsd, varnishd with varnish, sshd with openssh-server,
# fail2ban-regex with fail2ban, dnsmasq with dnsmasq-base; redis-benchmark with redis-tools,
# which setup_tools.sh does not install: its cases need redis-server too); document and diagram
# generators and Python notebook and code-hygiene tools (abc2midi and abc2abc come with abcmidi);
# JavaScript linters, bundlers and analyzers (ncc comes with @vercel/ncc, linthtml with
# @linthtml/linthtml, coffeelint with @coffeelint/cli).
fresh12_apt=(lighttpd squid unbound nsd varnish openssh-server monit fail2ban goaccess iperf3
  dnsmasq-base jo wget2 redis-server redis-tools enscript a2ps mscgen abcmidi plantuml abcm2ps)
apt_install "${fresh12_apt[@]}"
"$tools/venv/bin/pip" install -q --disable-pip-version-check \
  'jc==1.*' 'docstr-coverage==2.*' 'jupytext==1.*' 'nbstripout==0.*' 'nbqa==1.*' \
  'pyproject-fmt==2.*' 'add-trailing-comma==3.*' 'reorder-python-imports==3.*' 'setup-cfg-fmt==2.*'
if [[ ! -x "$tools/node/node_modules/.bin/dpdm" ]]; then
  # --ignore-scripts: none of these needs its install script to run the cases.
  (cd "$tools/node" && npm install --no-audit --no-fund --loglevel=error --ignore-scripts \
    dpdm@3 @linthtml/linthtml@0 markuplint@4 @vercel/ncc@0 javascript-obfuscator@4 semistandard@17 \
    jslint@0 @coffeelint/cli@5 lesshint@6 csslint@1 xo@0 tslint@6 size-limit@11 @size-limit/file@11)
fi
echo "tools ready in $tools"
