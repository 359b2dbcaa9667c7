#!/usr/bin/env bash
# What the real-node test (e2e RealNodeTest; .ci/run installs them) runs besides the kubelet (scripts/kubelet.sh):
# Debian's containerd and runc, the CNI plugins (bridge, host-local, loopback: the pod network of the one node) and
# busybox-static (the root file system of the sandbox and pod image, scripts/busybox-image.sh).
set -euo pipefail
. "$(dirname "$0")/apt-ensure.sh"
hami_apt_ensure install-node-deps containerd runc containernetworking-plugins busybox-static
