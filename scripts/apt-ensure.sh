# Sourced by the install scripts. hami_apt_ensure NAME PACKAGE[=COMMAND]...: installs with apt-get the Debian
# packages that are missing (or, with =COMMAND, whose command is not on PATH from any source), quietly when
# none is; `apt-get update` only when a first install attempt fails (the
# package lists may be old). Fails with a message naming the packages when they cannot be installed.
hami_apt_ensure() {
  local name=$1 p
  shift
  local missing=()
  for p in "$@"; do
    if [ "${p#*=}" != "$p" ]; then
      command -v "${p#*=}" >/dev/null 2>&1 || missing+=("${p%%=*}")
    else
      dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo_cmd=()
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$name: need ${missing[*]} but apt-get is not available (not a Debian-based system); install them by hand" >&2
    return 1
  fi
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "$name: need ${missing[*]}; run as root or install sudo" >&2; return 1; }
    sudo_cmd=(sudo)
  fi
  echo "$name: installing ${missing[*]}" >&2
  local log
  log=$(mktemp)
  export DEBIAN_FRONTEND=noninteractive
  if ! "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
    if ! { "${sudo_cmd[@]}" apt-get update -q && "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
      tail -n 20 "$log" >&2
      rm -f "$log"
      echo "$name: could not install ${missing[*]} with apt-get" >&2
      return 1
    fi
  fi
  rm -f "$log"
}
