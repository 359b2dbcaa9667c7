#!/usr/bin/env bash
# Builds the pinned Kubernetes control plane (etcd, kube-apiserver, kube-scheduler) from the Go modules named in
# tools/control-plane/go.mod into a cache folder outside the repository, and reuses it while go.mod and go.sum are
# unchanged (and this script). Prints the folder holding the binaries on its last line.
#
#   scripts/control-plane.sh          build if needed, print the bin folder
#   scripts/control-plane.sh --path   print the bin folder only (exit 1 when it is not built yet)
#
# Cache: $HAMI_CACHE_DIR (default ~/.cache/hami-java)/control-plane/<version>-<hash of go.mod and go.sum>/bin.
# Needs Go (the version go.mod names, or newer) and the Go module proxy; nothing is downloaded otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
module="$root/tools/control-plane"
version=$(sed -n 's/^require k8s.io\/kubernetes \(v[0-9.]*\).*/\1/p' "$module/go.mod")
[ -n "$version" ] || { echo "control-plane: no 'require k8s.io/kubernetes vX.Y.Z' line in $module/go.mod" >&2; exit 1; }
hash=$(cat "$module/go.mod" "$module/go.sum" "$root/scripts/control-plane.sh" | sha256sum | cut -c1-12)   # the pins and how they are built
cache="${HAMI_CACHE_DIR:-$HOME/.cache/hami-java}/control-plane"
dir="$cache/$version-$hash"
bins=(etcd kube-apiserver kube-scheduler)

built() {
  local b
  for b in "${bins[@]}"; do [ -x "$dir/bin/$b" ] || return 1; done
}

if [ "${1:-}" = "--path" ]; then
  built || { echo "control-plane: $version is not built; run scripts/control-plane.sh" >&2; exit 1; }
  echo "$dir/bin"
  exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9   # one build at a time; a second caller waits and then reuses it
if built; then
  echo "$dir/bin"
  exit 0
fi

command -v go >/dev/null 2>&1 || {
  echo "control-plane: the Go toolchain is needed to build Kubernetes $version (go is not on PATH)" >&2
  exit 1
}
echo "control-plane: building etcd, kube-apiserver and kube-scheduler of Kubernetes $version into $dir" >&2
echo "control-plane: the first build takes 10-20 minutes on 2 cores; later runs reuse it" >&2
start=$(date +%s)
tmp="$dir.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp/bin"
trap 'rm -rf "$tmp"' EXIT
cd "$module"
go mod download
# What `kubectl version` and /version report, as the release build stamps it (a module build would say v0.0.0-master).
minor=${version#v1.}; minor=${minor%%.*}
stamp=""
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  stamp="$stamp -X $pkg.gitVersion=$version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"
done
for spec in etcd=go.etcd.io/etcd/server/v3 kube-apiserver=k8s.io/kubernetes/cmd/kube-apiserver \
            kube-scheduler=k8s.io/kubernetes/cmd/kube-scheduler; do
  name=${spec%%=*}
  echo "control-plane: go build $name ($(( $(date +%s) - start )) s so far)" >&2
  go build -trimpath -ldflags="-s -w $stamp" -o "$tmp/bin/$name" "${spec#*=}"
done
"$tmp/bin/kube-apiserver" --version >&2
echo "$version" >"$tmp/VERSION"
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
# Builds of other pins or of an older script are not used again: keep the cache to one build.
find "$cache" -mindepth 1 -maxdepth 1 -type d -name 'v*' ! -path "$dir" -exec rm -rf {} +
echo "control-plane: built in $(( $(date +%s) - start )) s; $(du -sh "$dir" | cut -f1) in $dir" >&2
echo "$dir/bin"
