#!/usr/bin/env bash
. "$(dirname "$0")/find-jdk.sh"
# Runs a module's JMH benchmarks (src/jmh/java, compiled by the parent pom's `bench` profile).
#
#   scripts/bench.sh <module> [JMH options]
#   scripts/bench.sh protocol -wi 2 -i 3 -f 1 -w 1s -r 1s
#   scripts/bench.sh scheduler FilterLatencyBenchmark -wi 2 -i 3 -f 1     (a class with a summarising main)
#   scripts/bench.sh native-bindings NvmlCallBenchmark -wi 2 -i 3 -f 1
#   scripts/bench.sh vendors/nvidia/node AllocateLatency 1000 200       (a plain main in the test classes)
#   scripts/bench.sh plugin PluginStartup 5                              (starts cli/target/hami.jar: build it first)
#   HAMI_UPSTREAM_SRC=/path/to/HAMi scripts/bench.sh upstream [nodes] [pods] [requests]
#                                     (upstream HAMi's scheduler and ours side by side on one real API server;
#                                      shorthand for: scripts/bench.sh e2e SideBySideBenchmark ...)
#
# JMH options go to org.openjdk.jmh.Main unchanged (-h lists them; a regexp selects benchmarks).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = upstream ]; then
  shift
  set -- e2e SideBySideBenchmark "$@"
fi
module=${1:-}
if [ -z "$module" ] || [ ! -f "$root/$module/pom.xml" ]; then
  echo "usage: scripts/bench.sh <module path, e.g. protocol> [JMH options]" >&2
  exit 2
fi
shift
module=${module%/}
cd "$root"

# JDK 23+ runs annotation processors only when asked, and JMH generates its harness with one. A test
# build made without it leaves up-to-date classes and no (or a stale) benchmark list, so compile the
# module's test classes afresh.
rm -rf "$module/target/test-classes" "$module/target/generated-test-sources/test-annotations"
# One reactor run, so sibling modules (and the protocol test-jar) resolve to their fresh build output.
# The relative output file is written in each module's own directory.
# hardware-mocks joins the build so benchmarks that load a mock library find it built.
./mvnw -q -pl "$module",hardware-mocks -am test-compile dependency:build-classpath -Dmaven.compiler.proc=full \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath

cd "$module"
main=org.openjdk.jmh.Main
# A benchmark class with its own main (it prints a summary) may be named as the first argument.
if [ $# -gt 0 ] && [ -f "$(find target/test-classes -name "$1.class" -print -quit 2>/dev/null)" ]; then
  main=$(find target/test-classes -name "$1.class" -print -quit | sed 's#target/test-classes/##; s#\.class$##; s#/#.#g')
  shift
fi
if [ "$main" = org.openjdk.jmh.Main ] && [ ! -f target/test-classes/META-INF/BenchmarkList ]; then
  echo "bench: no JMH benchmark list was generated in $module/target/test-classes" >&2
  exit 1
fi
exec java --enable-native-access=ALL-UNNAMED -Dhami.mocks.dir="$root/hardware-mocks/target/native" \
  -Dlogback.configurationFile="$root/scheduler/src/test/resources/logback-test.xml" \
  -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" "$main" "$@"
