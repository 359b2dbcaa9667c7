#!/bin/sh
# Builds the AOT cache of the hami distribution (JDK 25, JEP 483/514/515): a training run, then the classes it
# loaded, parsed, verified and linked are written to OUTPUT, which `java -XX:AOTCache=OUTPUT -jar DIST_DIR/hami.jar ...`
# maps at start instead of loading them from the jars again.
# By default the training is the device plugin's own start (`hami plugin-training`): an embedded API server, mock
# hardware and a kubelet socket in one JVM, and the plugin in the training JVM until it has registered, listed its
# devices and published, then stopped. The cache then holds only what a plugin loads, so its classes can be linked
# ahead (-XX:+AOTClassLinking, loaded all at once at start) without loading lab or scheduler classes into a plugin.
# Any other hami arguments are the training itself (e.g. `lab deploy/docker/aot-training.yaml`, `--help`); such a
# cache is built without class linking, which would load every cached class at start.
# The cache holds for the JVM that made it and the jars as they are (path, size, time): build it with the runtime
# and at the paths it will run from. A missing or stale cache is reported by the JVM and ignored; nothing fails.
# Run by the device plugin Dockerfiles' build stage; locally: deploy/docker/aot-cache.sh "$JAVA_HOME/bin/java"
# cli/target cli/target/hami.aot (the ./hami launcher then uses it while it is newer than hami.jar).
#   usage: aot-cache.sh JAVA DIST_DIR OUTPUT [--backend VENDOR | HAMI ARGS...]   (default: --backend nvidia)
set -eu
if [ $# -lt 3 ]; then
  echo "usage: $0 JAVA DIST_DIR OUTPUT [--backend VENDOR | HAMI ARGS...]" >&2
  exit 2
fi
java=$1
dist=$(cd "$2" && pwd)
out=$3
shift 3
if [ ! -f "$dist/hami.jar" ]; then
  echo "aot-cache: $dist/hami.jar is missing (./mvnw -pl cli -am package -DskipTests)" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case "$out" in /*) ;; *) out="$(pwd)/$out" ;; esac
rm -f "$out"
# The plugins' collector; the cache works with the others too. Output goes to a log.
train="-XX:AOTCacheOutput=$out -XX:+UseSerialGC -Xlog:aot=error --enable-native-access=ALL-UNNAMED"
if [ $# -eq 0 ] || [ "$1" = --backend ]; then
  [ $# -eq 0 ] && set -- --backend nvidia
  # The driver JVM runs without the cache options; only the plugin it starts is trained.
  # shellcheck disable=SC2086 # $train is a list of JVM options
  set -- "$java" --enable-native-access=ALL-UNNAMED -jar "$dist/hami.jar" plugin-training "$@" --work-dir "$work/training" \
    -- "$java" $train -XX:+AOTClassLinking -jar "$dist/hami.jar"
else
  # shellcheck disable=SC2086
  set -- "$java" $train -XX:-AOTClassLinking -jar "$dist/hami.jar" "$@"
fi
if ! (cd "$work" && "$@" >"$work/training.log" 2>&1) || [ ! -s "$out" ]; then
  echo "aot-cache: the training run failed; its output:" >&2
  tail -n 40 "$work/training.log" >&2
  [ -f "$work/training/plugin.log" ] && tail -n 40 "$work/training/plugin.log" >&2
  exit 1
fi
echo "aot-cache: $out ($(du -k "$out" | cut -f1) KiB)"
