#!/bin/sh
# Builds the minimal Java runtime of the hami distribution: exactly the JDK modules that hami.jar and lib/*.jar use
# (jdeps), linked with jlink. Run by every Dockerfile's build stage, and by JlinkRuntimeTest against the local JDK.
#   usage: jlink-runtime.sh DIST_DIR OUTPUT_DIR    (DIST_DIR holds hami.jar and lib/; OUTPUT_DIR must not exist)
set -eu
if [ $# -ne 2 ]; then
  echo "usage: $0 DIST_DIR OUTPUT_DIR" >&2
  exit 2
fi
dist=$1
out=$2
if [ ! -f "$dist/hami.jar" ] || [ ! -d "$dist/lib" ]; then
  echo "jlink-runtime: $dist must hold hami.jar and lib/ (./mvnw -pl cli -am package -DskipTests)" >&2
  exit 1
fi
release=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
modules=$(jdeps --multi-release "$release" --ignore-missing-deps --print-module-deps "$dist/hami.jar" "$dist"/lib/*.jar)
if [ -z "$modules" ]; then
  echo "jlink-runtime: jdeps found no modules" >&2
  exit 1
fi
echo "jlink-runtime: modules $modules"
jlink --add-modules "$modules" --strip-debug --no-man-pages --no-header-files --compress=zip-6 --output "$out"
