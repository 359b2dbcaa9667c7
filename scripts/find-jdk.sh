# Sourced by every script of the project (mvnw, hami, .ci/run, scripts/*).
# Sets JAVA_HOME to a JDK of version 22 or later: JAVA_HOME if it qualifies, else the newest under /usr/lib/jvm.
# Fails with a clear message when there is none.

hami_jdk_major() { # prints the major version of the JDK at $1, or nothing
  [ -x "$1/bin/javac" ] && [ -x "$1/bin/java" ] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

hami_find_jdk() {
  local min=22 v best="" bestv=0 d
  if [ -n "${JAVA_HOME:-}" ]; then
    v=$(hami_jdk_major "$JAVA_HOME")
    if [ -n "$v" ] && [ "$v" -ge "$min" ]; then return 0; fi
  fi
  # find, not a glob: mvnw runs with `set -f`.
  for d in $(find /usr/lib/jvm -mindepth 1 -maxdepth 1 2>/dev/null | sort); do
    [ -d "$d" ] || continue
    v=$(hami_jdk_major "$d")
    if [ -n "$v" ] && [ "$v" -ge "$min" ] && [ "$v" -gt "$bestv" ]; then best=$d; bestv=$v; fi
  done
  if [ -z "$best" ]; then
    echo "hami: no JDK $min or later found (JAVA_HOME=${JAVA_HOME:-unset}, searched /usr/lib/jvm/*)." >&2
    echo "hami: install one (for example Temurin 25) and set JAVA_HOME to it." >&2
    return 1
  fi
  export JAVA_HOME="$best"
}

hami_find_jdk || exit 1
export PATH="$JAVA_HOME/bin:$PATH"
