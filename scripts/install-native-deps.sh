#!/usr/bin/env bash
# What building the C mock libraries (hardware-mocks) needs: gcc, make and Debian's cJSON headers.
set -euo pipefail
. "$(dirname "$0")/apt-ensure.sh"
hami_apt_ensure install-native-deps gcc make libcjson-dev
