set -euo pipefail
build() {
  local out=$(python3 -c 'import sys; sys.exit("error: missing asset manifest")')
  echo "build output: $out"
}
build
echo deployed
