#!/usr/bin/env bash
# Builds the kubelet of the pinned Kubernetes (tools/control-plane/go.mod) into a cache folder of its own, for the
# real-node variant (a real kubelet with Debian's containerd and runc). Reuses the build while go.mod, go.sum and this
# script are unchanged. Prints the folder holding the binary on its last line.
#
#   scripts/kubelet.sh          build if needed, print the bin folder
#   scripts/kubelet.sh --path   print the bin folder only (exit 1 when it is not built yet)
#
# Cache: $HAMI_CACHE_DIR (default ~/.cache/hami-java)/kubelet/<version>-<hash>/bin. A separate folder and hash from
# scripts/control-plane.sh, so the control plane every CI run reuses is neither rebuilt nor touched; the Go build cache
# the control-plane build filled makes this build mostly a link of packages compiled already.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
module="$root/tools/control-plane"
version=$(sed -n 's/^require k8s.io\/kubernetes \(v[0-9.]*\).*/\1/p' "$module/go.mod")
[ -n "$version" ] || { echo "kubelet: no 'require k8s.io/kubernetes vX.Y.Z' line in $module/go.mod" >&2; exit 1; }
hash=$(cat "$module/go.mod" "$module/go.sum" "$root/scripts/kubelet.sh" | sha256sum | cut -c1-12)
cache="${HAMI_CACHE_DIR:-$HOME/.cache/hami-java}/kubelet"
dir="$cache/$version-$hash"

if [ "${1:-}" = "--path" ]; then
  [ -x "$dir/bin/kubelet" ] || { echo "kubelet: $version is not built; run scripts/kubelet.sh" >&2; exit 1; }
  echo "$dir/bin"
  exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9   # one build at a time; a second caller waits and then reuses it
if [ -x "$dir/bin/kubelet" ]; then
  echo "$dir/bin"
  exit 0
fi

command -v go >/dev/null 2>&1 || {
  echo "kubelet: the Go toolchain is needed to build the kubelet of Kubernetes $version (go is not on PATH)" >&2
  exit 1
}
echo "kubelet: building the kubelet of Kubernetes $version into $dir" >&2
start=$(date +%s)
tmp="$dir.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp/bin"
trap 'rm -rf "$tmp"' EXIT
# tools/control-plane's go.sum covers what the control plane links, not the kubelet's own dependencies (cAdvisor,
# runc's cgroups, the CRI client): resolve them in a copy of the module, at the versions k8s.io/kubernetes' go.mod
# already selects (checked below), verified against the Go checksum database; the committed pins stay untouched.
build="$tmp/module"
mkdir -p "$build"
cp "$module/go.mod" "$module/go.sum" "$build/"
cd "$build"
go mod download
go get "k8s.io/kubernetes/cmd/kubelet@$version" 2>"$tmp/go-get.log" || { cat "$tmp/go-get.log" >&2; exit 1; }
changed=$(grep -vxFf go.mod "$module/go.mod" || true)
[ -z "$changed" ] || {
  printf 'kubelet: resolving the kubelet changed pins of tools/control-plane/go.mod:\n%s\n' "$changed" >&2
  exit 1
}
# The same version stamp as scripts/control-plane.sh: the node reports v1.37.2, not v0.0.0-master, and the API server
# accepts it within the version skew policy.
minor=${version#v1.}; minor=${minor%%.*}
stamp=""
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  stamp="$stamp -X $pkg.gitVersion=$version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"
done
go build -trimpath -ldflags="-s -w $stamp" -o "$tmp/bin/kubelet" k8s.io/kubernetes/cmd/kubelet
"$tmp/bin/kubelet" --version >&2
echo "$version" >"$tmp/VERSION"
mv "$build/go.mod" "$build/go.sum" "$tmp/"   # what this kubelet was built from
rm -rf "$build"
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
find "$cache" -mindepth 1 -maxdepth 1 -type d -name 'v*' ! -path "$dir" -exec rm -rf {} +
echo "kubelet: built in $(( $(date +%s) - start )) s; $(du -sh "$dir" | cut -f1) in $dir" >&2
echo "$dir/bin"
