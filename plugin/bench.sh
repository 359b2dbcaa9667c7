#!/usr/bin/env bash
# Allocate latency of the NVIDIA plugin against the embedded API server (see README, "Benchmark").
#
#   plugin/bench.sh [rounds, default 1000] [warm-up rounds, default 200]
#
# Builds the plugin's test classes, writes their class path, and runs io.hami.plugin.bench.AllocateLatency.
# The plugin's sibling modules must be installed (README, "Build"); the mock libraries must be built.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/find-jdk.sh"
cd "$root"
./mvnw -q -f plugin/pom.xml test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/bench.classpath
cd plugin
exec java --enable-native-access=ALL-UNNAMED -Dhami.mocks.dir="$root/hardware-mocks/target/native" \
  -Dlogback.configurationFile="$root/plugin/src/test/resources/logback-test.xml" \
  -Djava.util.logging.config.file="$root/plugin/src/test/resources/logging.properties" \
  -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" io.hami.plugin.bench.AllocateLatency "$@"
