#!/bin/sh
# Builds the AOT cache of the hami distribution (JDK 25, JEP 483/514/515): a training run, then the classes it
# loaded, parsed and verified are written to OUTPUT, which `java -XX:AOTCache=OUTPUT -jar DIST_DIR/hami.jar ...`
# maps at start instead of loading them from the jars again. The training runs the lab on mock hardware
# (aot-training.yaml: one node with the NVIDIA and HCU plugins, a few pods scheduled, bound and allocated), so it
# covers what a plugin does from start to registered, and Allocate. Classes are cached but not linked ahead
# (-XX:-AOTClassLinking): a linked cache loads every cached class at start, lab and scheduler ones too, which costs
# a plugin more memory than it saves time.
# The cache holds for the JVM that made it and the jars as they are (path, size, time): build it with the runtime
# and at the paths it will run from. A missing or stale cache is reported by the JVM and ignored; nothing fails.
# Run by the device plugin Dockerfiles' build stage; locally: deploy/docker/aot-cache.sh "$JAVA_HOME/bin/java"
# cli/target cli/target/hami.aot (the ./hami launcher then uses it while it is newer than hami.jar).
#   usage: aot-cache.sh JAVA DIST_DIR OUTPUT [HAMI ARGS...]   (the training's hami arguments; default the lab run)
set -eu
if [ $# -lt 3 ]; then
  echo "usage: $0 JAVA DIST_DIR OUTPUT [HAMI ARGS...]" >&2
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
if [ $# -eq 0 ]; then
  set -- lab "$(cd "$(dirname "$0")" && pwd)/aot-training.yaml" --report-dir "$work/reports"
fi
rm -f "$out"
# The plugins' collector; the cache works with the others too. Output goes to a log: the lab's report is noise here.
if ! (cd "$work" && "$java" -XX:AOTCacheOutput="$out" -XX:-AOTClassLinking -XX:+UseSerialGC -Xlog:aot=error \
      --enable-native-access=ALL-UNNAMED -jar "$dist/hami.jar" "$@" >"$work/training.log" 2>&1) || [ ! -s "$out" ]; then
  echo "aot-cache: the training run failed; its output:" >&2
  tail -n 40 "$work/training.log" >&2
  exit 1
fi
echo "aot-cache: $out ($(du -k "$out" | cut -f1) KiB)"
