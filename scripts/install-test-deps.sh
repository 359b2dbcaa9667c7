#!/usr/bin/env bash
# The independent clients the tests run against our servers: Debian's kubectl (kubernetes-client), and for
# /usr/bin/python3 the gRPC runtime and stub generator (the plugin's Python kubelet) and the Kubernetes client
# (the lab API server), and the Prometheus text parser (python3-prometheus-client: the metrics tests).
set -euo pipefail
. "$(dirname "$0")/apt-ensure.sh"
hami_apt_ensure install-test-deps kubernetes-client=kubectl python3-grpcio python3-protobuf python3-grpc-tools python3-kubernetes python3-prometheus-client
