#!/usr/bin/env bash
# Builds upstream HAMi's scheduler (cmd/scheduler) and NVIDIA device plugin (cmd/device-plugin/nvidia) from the
# upstream source checkout named by HAMI_UPSTREAM_SRC, for the mixed-cluster tests (e2e, package `mixed`) and
# `scripts/bench.sh upstream`. Nothing of upstream's source is in this repository: the checkout lives outside it
# (a clone of Project-HAMi/HAMi, or an export of one); its Go dependencies come from the Go module proxy.
# Prints the folder holding the binaries (`scheduler`, `nvidia-device-plugin`) on its last line.
#
#   HAMI_UPSTREAM_SRC=/path/to/HAMi scripts/upstream-hami.sh          build if needed, print the bin folder
#   HAMI_UPSTREAM_SRC=/path/to/HAMi scripts/upstream-hami.sh --path   print the bin folder only (exit 1 if not built)
#
# Cache: $HAMI_CACHE_DIR (default ~/.cache/hami-java)/upstream-hami/<version>-<id>/bin, where <id> is the
# checkout's commit (git) or a hash of its Go sources (an export without .git) and of this script. Builds are
# serialised with flock like the control plane's; a second caller waits and reuses the first one's build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=${HAMI_UPSTREAM_SRC:-}
fail() { echo "upstream-hami: $*" >&2; exit 1; }
[ -n "$src" ] || fail "HAMI_UPSTREAM_SRC is not set; point it at a checkout of upstream HAMi (github.com/Project-HAMi/HAMi)"
[ -d "$src" ] || fail "HAMI_UPSTREAM_SRC=$src is not a folder"
src=$(cd "$src" && pwd)
grep -q '^module github.com/Project-HAMi/HAMi$' "$src/go.mod" 2>/dev/null \
  || fail "$src/go.mod does not declare module github.com/Project-HAMi/HAMi; HAMI_UPSTREAM_SRC must be upstream HAMi's source"
for d in cmd/scheduler cmd/device-plugin/nvidia; do
  [ -d "$src/$d" ] || fail "$src has no $d; this checkout is not a HAMi release with both commands"
done

version=$(tr -d ' \n' <"$src/VERSION" 2>/dev/null || true)
version=${version:-unknown}
if commit=$(git -C "$src" rev-parse --verify -q HEAD 2>/dev/null) && [ -z "$(git -C "$src" status --porcelain 2>/dev/null)" ]; then
  id=${commit:0:12}
else
  # An export (or a checkout with local changes): the Go sources and module files decide the build.
  id=$(cd "$src" && { find . -path ./.git -prune -o -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) -print \
        | LC_ALL=C sort | xargs sha256sum; } | sha256sum | cut -c1-12)
fi
id=$id-$(sha256sum "$root/scripts/upstream-hami.sh" | cut -c1-8)
cache="${HAMI_CACHE_DIR:-$HOME/.cache/hami-java}/upstream-hami"
dir="$cache/$version-$id"
bins=(scheduler nvidia-device-plugin)

built() {
  local b
  for b in "${bins[@]}"; do [ -x "$dir/bin/$b" ] || return 1; done
}

if [ "${1:-}" = "--path" ]; then
  built || fail "upstream HAMi $version ($id) is not built; run scripts/upstream-hami.sh"
  echo "$dir/bin"
  exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if built; then
  echo "$dir/bin"
  exit 0
fi

command -v go >/dev/null 2>&1 || fail "the Go toolchain is needed to build upstream HAMi (go is not on PATH)"
command -v gcc >/dev/null 2>&1 || fail "gcc is needed: upstream's NVIDIA plugin links go-nvml with cgo"
echo "upstream-hami: building upstream HAMi $version ($id) from $src into $dir" >&2
echo "upstream-hami: the first build takes 5-15 minutes on 2 cores; later runs reuse it" >&2
start=$(date +%s)
tmp="$dir.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp/bin"
trap 'rm -rf "$tmp"' EXIT
cd "$src"
# GOFLAGS=-mod=mod: an export has no vendor folder; the proxy serves every module go.sum pins.
export GOFLAGS=-mod=mod CGO_ENABLED=1
go mod download
ldflags="-s -w -X github.com/Project-HAMi/HAMi/pkg/version.version=$version"
for spec in scheduler=./cmd/scheduler nvidia-device-plugin=./cmd/device-plugin/nvidia; do
  name=${spec%%=*}
  echo "upstream-hami: go build $name ($(( $(date +%s) - start )) s so far)" >&2
  go build -trimpath -ldflags="$ldflags" -o "$tmp/bin/$name" "${spec#*=}"
done
echo "$version $id" >"$tmp/VERSION"
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
find "$cache" -mindepth 1 -maxdepth 1 -type d ! -path "$dir" ! -name '*.tmp.*' -exec rm -rf {} +
echo "upstream-hami: built in $(( $(date +%s) - start )) s; $(du -sh "$dir" | cut -f1) in $dir" >&2
echo "$dir/bin"
