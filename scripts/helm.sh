#!/usr/bin/env bash
# Builds the pinned helm release from its Go module (tools/helm/go.mod) into a cache folder outside the repository,
# and reuses it while go.mod, go.sum and this script are unchanged. Prints the helm binary's path on its last line.
#
#   scripts/helm.sh          build if needed, print the path of bin/helm
#   scripts/helm.sh --path   print the path only (exit 1 when it is not built yet)
#
# Cache: $HAMI_CACHE_DIR (default ~/.cache/hami-java)/helm/<version>-<hash of go.mod, go.sum, script>/bin/helm.
# Needs Go (the version go.mod names, or newer) and the Go module proxy; nothing is downloaded otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
module="$root/tools/helm"
version=$(sed -n 's/^[[:space:]]*helm\.sh\/helm\/v3 \(v[0-9.]*\).*/\1/p' "$module/go.mod")
[ -n "$version" ] || { echo "helm: no 'helm.sh/helm/v3 vX.Y.Z' requirement in $module/go.mod" >&2; exit 1; }
hash=$(cat "$module/go.mod" "$module/go.sum" "$root/scripts/helm.sh" | sha256sum | cut -c1-12)   # the pins and how they are built
cache="${HAMI_CACHE_DIR:-$HOME/.cache/hami-java}/helm"
dir="$cache/$version-$hash"
bin="$dir/bin/helm"

if [ "${1:-}" = "--path" ]; then
  [ -x "$bin" ] || { echo "helm: $version is not built; run scripts/helm.sh" >&2; exit 1; }
  echo "$bin"
  exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9   # one build at a time; a second caller waits and then reuses it
if [ -x "$bin" ]; then
  echo "$bin"
  exit 0
fi

command -v go >/dev/null 2>&1 || {
  echo "helm: the Go toolchain is needed to build helm $version (go is not on PATH)" >&2
  exit 1
}
echo "helm: building helm $version into $dir (a few minutes on 2 cores; later runs reuse it)" >&2
start=$(date +%s)
tmp="$dir.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp/bin"
trap 'rm -rf "$tmp"' EXIT
cd "$module"
go mod download
# What `helm version` reports and the Kubernetes version `helm template` and `helm lint` assume, stamped as helm's
# release build does (Makefile: the version, and 1.<client-go minor> for the capabilities; unstamped they say
# v3.22 and v1.20.0).
k8s=$(go list -m -f '{{.Version}}' k8s.io/client-go)   # v0.MINOR.PATCH
k8sminor=${k8s#v0.}; k8sminor=${k8sminor%%.*}
stamp="-X helm.sh/helm/v3/internal/version.version=$version -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
for pkg in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
  stamp="$stamp -X $pkg.k8sVersionMajor=1 -X $pkg.k8sVersionMinor=$k8sminor"
done
echo "helm: go build helm.sh/helm/v3/cmd/helm" >&2
CGO_ENABLED=0 go build -trimpath -ldflags="-s -w $stamp" -o "$tmp/bin/helm" helm.sh/helm/v3/cmd/helm
"$tmp/bin/helm" version --short >&2
echo "$version" >"$tmp/VERSION"
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
# Builds of other pins or of an older script are not used again: keep the cache to one build.
find "$cache" -mindepth 1 -maxdepth 1 -type d -name 'v*' ! -path "$dir" -exec rm -rf {} +
echo "helm: built in $(( $(date +%s) - start )) s; $(du -sh "$dir" | cut -f1) in $dir" >&2
echo "$bin"
