#!/bin/sh
# Assembles the images' base root filesystem from Debian packages, with no image registry and no container daemon:
# `apt-get download` fetches the .debs of the host's release, `dpkg-deb -x` unpacks them. What the jlink'd runtime
# links (ldd of bin/java and lib/*.so: libc.so.6, libm, libdl, libpthread, the dynamic loader; libstdc++ and zlib are
# linked into the JDK) is glibc (libc6), plus libgcc-s1, which glibc loads for unwinding when a thread is cancelled.
# Besides: /etc/passwd and /etc/group (root, nonroot 65532), /tmp, /home/nonroot; /etc/os-release (and
# /usr/lib/os-release) from the host's base-files package, so that scanners know the base is Debian and which
# release; /var/lib/dpkg/status.d/<package>, the control file of each package taken (as distroless images have it),
# so that they know which Debian packages, at which versions, the image holds.
# The NVIDIA image also gets shell/: /bin/sh, Debian's busybox-static (one static file, no libraries): its shell runs
# the applets install-hami-core.sh calls (cmp, cp, mv, chmod, mkdir, printf) without links or PATH (Debian builds it
# with FEATURE_SH_STANDALONE), so the init container needs nothing else. dash + coreutils would be ~10 files and
# their libraries; the other images have no shell at all.
# Jib stores no symbolic links (it follows them), so every link is replaced by a copy of its target, resolved
# inside the root. Cached under ~/.cache/hami-java/image-base/<hash of this script>/ and reused when present.
#   usage: base-rootfs.sh    (prints the cache folder on its last line: rootfs/, shell/, packages.txt)
set -eu
packages="libc6 libgcc-s1"
shell_packages="busybox-static"
# Only its os-release is taken.
release_package="base-files"
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
arch=$(dpkg --print-architecture)
hash=$( (cat "$self"; echo "$arch") | sha256sum | cut -c1-16)
cache=${HAMI_CACHE:-$HOME/.cache/hami-java}/image-base/$hash
if [ -f "$cache/done" ]; then
  echo "base-rootfs: cached $cache" >&2
  echo "$cache"
  exit 0
fi
echo "base-rootfs: assembling from Debian packages ($packages; $shell_packages) into $cache" >&2
mkdir -p "$(dirname "$cache")"
work=$(mktemp -d "$(dirname "$cache")/.build.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/debs"
download() {
  (cd "$work/debs" && apt-get download "$@" >"$work/apt.log" 2>&1)
}
if ! download $packages $shell_packages $release_package; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "base-rootfs: apt-get download failed (run 'apt-get update' as root first):" >&2
    cat "$work/apt.log" >&2
    exit 1
  fi
  echo "base-rootfs: apt-get update, then downloading again" >&2
  apt-get update -qq >&2
  download $packages $shell_packages $release_package || { cat "$work/apt.log" >&2; exit 1; }
fi
for p in $packages; do
  deb=$(ls "$work/debs/${p}_"*.deb)
  echo "base-rootfs: $(basename "$deb")" >&2
  dpkg-deb -x "$deb" "$work/rootfs"
done
root=$work/rootfs
# What the JVM never uses: documentation, locales, iconv modules, glibc's tools (ldd, iconv, getconf, ldconfig...).
rm -rf "$root/usr/share" "$root/usr/bin" "$root/usr/sbin" "$root/sbin" "$root/usr/libexec" "$root/etc" \
  "$root/usr/lib/x86_64-linux-gnu/gconv" "$root/usr/lib/x86_64-linux-gnu/audit" "$root/lib/x86_64-linux-gnu/gconv"
# Links become copies of their targets (resolved inside the root: libc6's /lib64 loader link is absolute).
find "$root" -type l | sort | while read -r link; do
  target=$(readlink "$link")
  case "$target" in
    /*) resolved=$root$target ;;
    *) resolved=$(dirname "$link")/$target ;;
  esac
  if [ ! -e "$resolved" ]; then
    rm -f "$link"
    continue
  fi
  cp --remove-destination -p "$resolved" "$link"
done
mkdir -p "$root/etc" "$root/tmp" "$root/home/nonroot" "$root/root"
chmod 1777 "$root/tmp"
printf '%s\n' 'root:x:0:0:root:/root:/sbin/nologin' 'nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin' \
  >"$root/etc/passwd"
printf '%s\n' 'root:x:0:' 'nonroot:x:65532:' >"$root/etc/group"
# glibc's resolver reads these; the kubelet mounts /etc/hosts and /etc/resolv.conf over the pod's.
printf '%s\n' 'passwd: files' 'group: files' 'hosts: files dns' >"$root/etc/nsswitch.conf"
# Debian's /etc/os-release is a link to /usr/lib/os-release: both are copies here.
mkdir -p "$work/release-x" "$root/usr/lib"
dpkg-deb -x "$(ls "$work/debs/${release_package}_"*.deb)" "$work/release-x"
cp "$work/release-x/usr/lib/os-release" "$root/usr/lib/os-release"
cp "$work/release-x/usr/lib/os-release" "$root/etc/os-release"
chmod 644 "$root/usr/lib/os-release" "$root/etc/os-release"
# The packages' control files, one per package (scanners read status.d/ as they read dpkg's status file).
mkdir -p "$root/var/lib/dpkg/status.d"
for p in $packages; do
  dpkg-deb -f "$(ls "$work/debs/${p}_"*.deb)" >"$root/var/lib/dpkg/status.d/$p"
done
mkdir -p "$work/shell-x" "$work/shell/bin" "$work/shell/var/lib/dpkg/status.d"
dpkg-deb -x "$(ls "$work/debs/busybox-static_"*.deb)" "$work/shell-x"
cp -p "$work/shell-x/bin/busybox" "$work/shell/bin/sh"
dpkg-deb -f "$(ls "$work/debs/busybox-static_"*.deb)" >"$work/shell/var/lib/dpkg/status.d/busybox-static"
(cd "$work/debs" && for d in *.deb; do dpkg-deb --showformat="\${Package} \${Version}\n" -W "$d"; done) >"$work/packages.txt"
rm -rf "$work/debs" "$work/shell-x" "$work/release-x" "$work/apt.log"
touch "$work/done"
trap - EXIT
rm -rf "$cache"
mv "$work" "$cache"
echo "base-rootfs: $(du -sk "$cache/rootfs" | cut -f1) KiB rootfs, $(du -sk "$cache/shell" | cut -f1) KiB shell: $cache" >&2
echo "$cache"
