# syntax=docker/dockerfile:1
# hami-java/scheduler: `hami scheduler` (extender, webhook, metrics) on a Java 25 runtime cut down with jlink.
# Build from the repository root, after `./mvnw -pl cli -am package -DskipTests`:
#   docker build -f deploy/docker/scheduler.Dockerfile -t hami-java/scheduler:0.1.0 .
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
USER 65532:65532
# The heap and the collector are the Deployment's (JDK_JAVA_OPTIONS), next to its memory limit.
ENTRYPOINT ["/opt/hami/jre/bin/java", "-XX:+ExitOnOutOfMemoryError", "--enable-native-access=ALL-UNNAMED", "-jar", "/opt/hami/hami.jar", "scheduler"]
