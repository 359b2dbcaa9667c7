#!/usr/bin/env bash
# Installs what the plugin's independent-client test needs: Debian's python3-grpcio, python3-protobuf and
# python3-grpc-tools for /usr/bin/python3 (the test generates its stubs with grpc_tools.protoc).
# Quiet when everything is present; installs with apt-get only what is missing. Without root or apt-get it
# only says so: the test then skips with the same message.
set -euo pipefail

if /usr/bin/python3 -c 'import grpc, google.protobuf, grpc_tools.protoc' >/dev/null 2>&1; then
  exit 0
fi
packages=(python3-grpcio python3-protobuf python3-grpc-tools)
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-test-deps: need ${packages[*]} for /usr/bin/python3; run this script as root on Debian" >&2
  exit 0
fi
echo "install-test-deps: installing ${packages[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q "${packages[@]}" >/dev/null 2>&1; then
  apt-get update -q >/dev/null
  apt-get install -y -q "${packages[@]}" >/dev/null
fi
