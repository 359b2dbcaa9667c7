#!/usr/bin/env bash
# Installs what the C mock libraries (hardware-mocks) need to build: gcc, make and Debian's cJSON headers.
# Quiet when everything is present; installs with apt-get only what is missing.
set -euo pipefail

missing=()
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
command -v make >/dev/null 2>&1 || missing+=(make)
[ -f /usr/include/cjson/cJSON.h ] || missing+=(libcjson-dev)
[ ${#missing[@]} -eq 0 ] && exit 0

fail() {
  echo "install-native-deps: could not install ${missing[*]}: $1" >&2
  echo "install-native-deps: install them by hand (Debian: apt-get install ${missing[*]})." >&2
  exit 1
}

command -v apt-get >/dev/null 2>&1 || fail "apt-get not found (not a Debian-based system)"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || fail "not root and sudo is not available"
  sudo_cmd=(sudo)
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
if ! "${sudo_cmd[@]}" apt-get update -qq >"$log" 2>&1; then
  cat "$log" >&2
  fail "apt-get update failed"
fi
if ! "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
  cat "$log" >&2
  fail "apt-get install failed"
fi
