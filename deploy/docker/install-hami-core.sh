#!/bin/sh
# Installs HAMi-core into the host folder that the NVIDIA device plugin mounts into containers: libvgpu.so (replaced
# with a rename, so running containers keep the file they mapped, and only when it differs) and ld.so.preload, which
# names libvgpu.so by its path inside containers. Run by the NVIDIA DaemonSet's init container; tested by
# InstallHamiCoreTest.
#   usage: install-hami-core.sh SOURCE_DIR HOST_DIR    (SOURCE_DIR holds libvgpu.so)
set -eu
if [ $# -ne 2 ]; then
  echo "usage: $0 SOURCE_DIR HOST_DIR" >&2
  exit 2
fi
src=$1
dest=$2
if [ ! -f "$src/libvgpu.so" ]; then
  echo "install-hami-core: $src/libvgpu.so is missing" >&2
  exit 1
fi
mkdir -p "$dest"
if ! cmp -s "$src/libvgpu.so" "$dest/libvgpu.so"; then
  cp "$src/libvgpu.so" "$dest/.libvgpu.so.new"
  chmod 0755 "$dest/.libvgpu.so.new"
  mv -f "$dest/.libvgpu.so.new" "$dest/libvgpu.so"
  echo "install-hami-core: installed $dest/libvgpu.so"
fi
printf '%s\n' /usr/local/vgpu/libvgpu.so > "$dest/.ld.so.preload.new"
mv -f "$dest/.ld.so.preload.new" "$dest/ld.so.preload"
