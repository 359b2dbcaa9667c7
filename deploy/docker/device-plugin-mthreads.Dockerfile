# syntax=docker/dockerfile:1
# hami-java/device-plugin-mthreads: `hami plugin --backend mthreads` for the Moore Threads GPU: MTML from the host's driver (libmtml.so.2),
# on a Java 25 runtime cut down with jlink. The vendor library comes from the host (see the DaemonSet).
# Build from the repository root, after `./mvnw -pl lab/cli -am package -DskipTests` (cli/target and lab/cli/target):
#   docker build -f deploy/docker/device-plugin-mthreads.Dockerfile -t hami-java/device-plugin-mthreads:0.1.0 .
ARG JDK_IMAGE=eclipse-temurin:25-jdk
ARG BASE_IMAGE=debian:trixie-slim

# Build stage: the JDK links the runtime, then the AOT cache is trained with that runtime on the distribution at
# the paths it runs from (the cache holds only for them); /opt/hami is what reaches the final image.
FROM ${JDK_IMAGE} AS runtime
COPY cli/target/hami.jar /opt/hami/hami.jar
COPY cli/target/lib/ /opt/hami/lib/
COPY deploy/docker/jlink-runtime.sh deploy/docker/aot-cache.sh /usr/local/bin/
RUN jlink-runtime.sh /opt/hami /opt/hami/jre
# The training runs this plugin on the lab's C mock libraries, which need cJSON.
RUN apt-get update && apt-get install -y --no-install-recommends libcjson1 && rm -rf /var/lib/apt/lists/*
# The training's driver (embedded API server, mock hardware, kubelet socket) is the lab's: it runs on the JDK with
# the lab's jars from /lab, which stay in this stage; the trained plugin runs on /opt/hami only, as in the image.
COPY lab/cli/target/hami-lab-cli.jar /lab/hami-lab-cli.jar
COPY lab/cli/target/lib/ /lab/lib/
RUN aot-cache.sh --driver-java java --lab /lab /opt/hami/jre/bin/java /opt/hami /opt/hami/hami.aot --backend mthreads

FROM ${BASE_IMAGE}
COPY --from=runtime /opt/hami /opt/hami
# A small, mostly idle process: one GC thread, C1 only (less memory and compile time at start), the AOT cache;
# the heap is the DaemonSet's (JDK_JAVA_OPTIONS).
ENTRYPOINT ["/opt/hami/jre/bin/java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:AOTCache=/opt/hami/hami.aot", "-XX:+ExitOnOutOfMemoryError", "--enable-native-access=ALL-UNNAMED", "-jar", "/opt/hami/hami.jar", "plugin", "--backend", "mthreads"]
