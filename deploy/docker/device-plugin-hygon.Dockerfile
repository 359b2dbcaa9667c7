# syntax=docker/dockerfile:1
# hami-java/device-plugin-hygon: `hami plugin --backend hygon` for the Hygon HCU: ROCm SMI and hydmi from the host's hyhal (librocm_smi64.so.2, libhydmi.so.1),
# on a Java 25 runtime cut down with jlink. The vendor library comes from the host (see the DaemonSet).
# Build from the repository root, after `./mvnw -pl cli -am package -DskipTests`:
#   docker build -f deploy/docker/device-plugin-hygon.Dockerfile -t hami-java/device-plugin-hygon:0.1.0 .
ARG JDK_IMAGE=eclipse-temurin:25-jdk
ARG BASE_IMAGE=debian:trixie-slim

# Build stage: the JDK only links the runtime; nothing of it reaches the final image but /jre.
FROM ${JDK_IMAGE} AS runtime
COPY cli/target/hami.jar /dist/hami.jar
COPY cli/target/lib/ /dist/lib/
COPY deploy/docker/jlink-runtime.sh /usr/local/bin/jlink-runtime.sh
RUN jlink-runtime.sh /dist /jre

FROM ${BASE_IMAGE}
COPY --from=runtime /jre /opt/hami/jre
COPY cli/target/lib/ /opt/hami/lib/
COPY cli/target/hami.jar /opt/hami/hami.jar
ENTRYPOINT ["/opt/hami/jre/bin/java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "--enable-native-access=ALL-UNNAMED", "-jar", "/opt/hami/hami.jar", "plugin", "--backend", "hygon"]
