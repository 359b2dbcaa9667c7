#!/bin/sh
# Builds the AOT cache of the hami distribution (JDK 25, JEP 483/514/515): a training run, then the classes it
# loaded, parsed, verified and linked are written to OUTPUT, which `java -XX:AOTCache=OUTPUT -jar DIST_DIR/hami.jar ...`
# maps at start instead of loading them from the jars again.
# By default the training is the device plugin's own start (`hami plugin-training`, a subcommand of the lab's,
# lab/cli): a driver JVM runs an embedded API server, mock hardware and a kubelet socket, and the plugin in the
# trained JVM until it has registered, listed its devices and published, then stops it. The driver has the lab on its
# class path (LAB_DIR: hami-lab-cli.jar and lib/) and runs on DRIVER_JAVA (a JDK: an image's linked runtime has only
# the modules the production jars use); the trained JVM runs JAVA with exactly `-jar DIST_DIR/hami.jar`, the class
# path of the images, which hold no lab. The cache then holds only what a plugin loads, so its classes can be linked
# ahead (-XX:+AOTClassLinking, loaded all at once at start) without loading lab or scheduler classes into a plugin.
# Any other hami arguments are the training itself (e.g. `lab deploy/docker/aot-training.yaml`, `--help`), run by
# JAVA with the lab on the class path after hami.jar, as ./hami runs it; such a cache is built without class linking,
# which would load every cached class at start.
# The cache holds for the JVM that made it and the jars as they are (path, size, time), and for a class path that
# starts with the training's: build it with the runtime and at the paths it will run from. A missing or stale cache
# is reported by the JVM and ignored; nothing fails.
# Run by the device plugin Dockerfiles' build stage and the image build (ImageBuild); locally:
# deploy/docker/aot-cache.sh "$JAVA_HOME/bin/java" cli/target cli/target/hami.aot (the ./hami launcher then uses it
# while it is newer than hami.jar: its class path starts with hami.jar).
#   usage: aot-cache.sh [--driver-java JAVA] [--lab LAB_DIR] JAVA DIST_DIR OUTPUT [--backend VENDOR | HAMI ARGS...]
#   (default: --backend nvidia; DRIVER_JAVA: JAVA; LAB_DIR: lab/cli/target of the repository this script is in)
set -eu
driver=
lab=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)/lab/cli/target
while [ $# -gt 0 ]; do
  case "$1" in
    --driver-java) driver=$2; shift 2 ;;
    --lab) lab=$2; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 3 ]; then
  echo "usage: $0 [--driver-java JAVA] [--lab LAB_DIR] JAVA DIST_DIR OUTPUT [--backend VENDOR | HAMI ARGS...]" >&2
  exit 2
fi
java=$1
dist=$(cd "$2" && pwd)
out=$3
shift 3
[ -n "$driver" ] || driver=$java
if [ ! -f "$dist/hami.jar" ]; then
  echo "aot-cache: $dist/hami.jar is missing (./mvnw -pl cli -am package -DskipTests)" >&2
  exit 1
fi
if [ ! -f "$lab/hami-lab-cli.jar" ] || [ ! -d "$lab/lib" ]; then
  echo "aot-cache: $lab must hold hami-lab-cli.jar and lib/, the lab's commands (./mvnw -pl lab/cli -am package -DskipTests)" >&2
  exit 1
fi
lab=$(cd "$lab" && pwd)
# The lab's jars after hami.jar (whose manifest brings DIST_DIR/lib), but the artifacts (a jar's name up to "-<digit>")
# DIST_DIR/lib holds, in name order: ./hami's class path.
have=" "
for jar in "$dist"/lib/*.jar; do
  name=${jar##*/}
  have="$have${name%%-[0-9]*} "
done
lab_cp=$lab/hami-lab-cli.jar
for jar in "$lab"/lib/*.jar; do
  name=${jar##*/}
  case "$have" in
    *" ${name%%-[0-9]*} "*) ;;
    *) lab_cp="$lab_cp:$jar" ;;
  esac
done
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
  set -- "$driver" --enable-native-access=ALL-UNNAMED -cp "$dist/hami.jar:$lab_cp" io.hami.cli.Main \
    plugin-training "$@" --work-dir "$work/training" \
    -- "$java" $train -XX:+AOTClassLinking -jar "$dist/hami.jar"
else
  # shellcheck disable=SC2086
  set -- "$java" $train -XX:-AOTClassLinking -cp "$dist/hami.jar:$lab_cp" io.hami.cli.Main "$@"
fi
if ! (cd "$work" && "$@" >"$work/training.log" 2>&1) || [ ! -s "$out" ]; then
  echo "aot-cache: the training run failed; its output:" >&2
  tail -n 40 "$work/training.log" >&2
  [ -f "$work/training/plugin.log" ] && tail -n 40 "$work/training/plugin.log" >&2
  exit 1
fi
echo "aot-cache: $out ($(du -k "$out" | cut -f1) KiB)"
