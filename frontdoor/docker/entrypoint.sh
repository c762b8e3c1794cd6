#!/bin/sh
# Entry point of the front-door image: `lake serve`, configured by LAKE_* environment variables
# (flag --foo-bar <=> LAKE_FOO_BAR). ECS injects the principals JSON from Secrets Manager as
# LAKE_PRINCIPALS_JSON; it is written to a file only this user can read and removed from the
# environment before the JVM starts, so it never shows in the process environment.
set -eu
if [ -n "${LAKE_PRINCIPALS_JSON:-}" ]; then
  umask 077
  dir="$(mktemp -d)"
  printf '%s' "$LAKE_PRINCIPALS_JSON" > "$dir/principals.json"
  LAKE_PRINCIPALS_FILE="$dir/principals.json"
  export LAKE_PRINCIPALS_FILE
  unset LAKE_PRINCIPALS_JSON
fi
# Arrow needs java.nio opened; heap at half the task memory leaves the rest to Arrow and DuckDB.
exec java --add-opens=java.base/java.nio=ALL-UNNAMED -XX:MaxRAMPercentage=50 ${LAKE_JAVA_OPTS:-} \
  -cp '/opt/lake/app/*:/opt/lake/deps/*' dev.lake.app.LakeCli serve "$@"
