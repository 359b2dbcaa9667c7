#!/usr/bin/env bash
# Writes a one-layer OCI image archive (an OCI image layout in a tar, what `ctr images import` reads) whose root file
# system is Debian's busybox-static: /bin/busybox and a few applet links. The real-node test imports it into
# containerd as the pod sandbox image and as the pods' image, since no image registry can be reached here. Its default
# command sleeps forever (what a sandbox container does); it is not Kubernetes' pause image.
#
#   scripts/busybox-image.sh OUT.tar REF      e.g. scripts/busybox-image.sh /tmp/busybox.tar docker.io/hami-java/busybox:local
#
# Reproducible: fixed times, owners and order, so the same busybox gives the same digests.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 OUT.tar REF" >&2; exit 2; }
out=$1
ref=$2
busybox=/bin/busybox
[ -x "$busybox" ] || {
  echo "busybox-image: $busybox is missing; install busybox-static (scripts/install-node-deps.sh)" >&2
  exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/etc" "$root/tmp" "$work/oci/blobs/sha256"
cp "$busybox" "$root/bin/busybox"
for applet in sh sleep env cat ls echo grep; do ln -s busybox "$root/bin/$applet"; done
tarball() {   # tarball DIR OUT: a tar of DIR's contents that depends on nothing but the files
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$1" -cf "$2" .
}
blob() {      # blob FILE: stores FILE as a blob, prints "sha256:<hex> <size>"
  local digest
  digest=$(sha256sum "$1" | cut -d' ' -f1)
  cp "$1" "$work/oci/blobs/sha256/$digest"
  echo "sha256:$digest $(stat -c %s "$1")"
}
tarball "$root" "$work/layer.tar"
gzip -n -c "$work/layer.tar" >"$work/layer.tar.gz"
diff_id=sha256:$(sha256sum "$work/layer.tar" | cut -d' ' -f1)
read -r layer layer_size < <(blob "$work/layer.tar.gz")
printf '{"architecture":"amd64","os":"linux","config":{"Env":["PATH=/bin"],"Cmd":["/bin/sleep","infinity"]},"rootfs":{"type":"layers","diff_ids":["%s"]}}' \
  "$diff_id" >"$work/config.json"
read -r config config_size < <(blob "$work/config.json")
printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"%s","size":%s}]}' \
  "$config" "$config_size" "$layer" "$layer_size" >"$work/manifest.json"
read -r manifest manifest_size < <(blob "$work/manifest.json")
printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"%s","size":%s,"annotations":{"org.opencontainers.image.ref.name":"%s"}}]}' \
  "$manifest" "$manifest_size" "$ref" >"$work/oci/index.json"
echo '{"imageLayoutVersion":"1.0.0"}' >"$work/oci/oci-layout"
mkdir -p "$(dirname "$out")"
tarball "$work/oci" "$out.tmp"
mv -f "$out.tmp" "$out"
