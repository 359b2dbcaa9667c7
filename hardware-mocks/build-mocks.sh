#!/usr/bin/env bash
# Builds the mock vendor libraries into $1 (default target/native). Needs gcc, make and Debian's libcjson-dev.
set -euo pipefail
cd "$(dirname "$0")"
missing() {
  echo "hardware-mocks: $1. Run scripts/install-native-deps.sh (installs gcc, make and libcjson-dev)." >&2
  exit 1
}
command -v gcc >/dev/null 2>&1 || missing "gcc not found; it compiles the mock libraries"
command -v make >/dev/null 2>&1 || missing "make not found"
[ -f /usr/include/cjson/cJSON.h ] || missing "cJSON headers /usr/include/cjson/cJSON.h not found"
exec make --no-print-directory -s -j2 OUT="${1:-target/native}"
