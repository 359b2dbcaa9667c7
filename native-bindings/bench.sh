#!/usr/bin/env bash
# JMH: one nvmlDeviceGetMemoryInfo call into the NVML mock through FFM and through JNA; prints JNA/FFM.
# Arguments go to JMH, e.g.: native-bindings/bench.sh -wi 2 -i 3 -f 1 -w 1s -r 1s
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/find-jdk.sh
./mvnw -q -pl native-bindings,hardware-mocks -am install -DskipTests
./mvnw -q -pl native-bindings dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
cp="native-bindings/target/test-classes:native-bindings/target/classes:$(cat native-bindings/target/bench.classpath)"
exec java --enable-native-access=ALL-UNNAMED -Dhami.mocks.dir=hardware-mocks/target/native \
  -cp "$cp" io.hami.nativebind.NvmlCallBenchmark "$@"
