#!/bin/sh
# Entry point of the front-door image: `lake serve`, configured by LAKE_* environment variables
# (flag --foo-bar <=> LAKE_FOO_BAR). The CDK stack names the principals secret in
# LAKE_PRINCIPALS_SECRET (serve reads and polls it). A deployment may instead inject the principals
# JSON as LAKE_PRINCIPALS_JSON; it is written to a file only this user can read and removed from the
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
# ECS injects the task's TLS certificate chain and PKCS#8 key (PEM) from Secrets Manager as
# LAKE_TLS_CERT_PEM / LAKE_TLS_KEY_PEM: written to private files like the principals, so `serve`
# listens with TLS (--tls-cert/--tls-key) and the variables never reach the JVM.
if [ -n "${LAKE_TLS_CERT_PEM:-}" ] && [ -n "${LAKE_TLS_KEY_PEM:-}" ]; then
  umask 077
  tls="$(mktemp -d)"
  printf '%s\n' "$LAKE_TLS_CERT_PEM" > "$tls/cert.pem"
  printf '%s\n' "$LAKE_TLS_KEY_PEM" > "$tls/key.pem"
  LAKE_TLS_CERT="$tls/cert.pem"
  LAKE_TLS_KEY="$tls/key.pem"
  export LAKE_TLS_CERT LAKE_TLS_KEY
  unset LAKE_TLS_CERT_PEM LAKE_TLS_KEY_PEM
fi
# Arrow needs java.nio opened; heap at half the task memory leaves the rest to Arrow and DuckDB.
exec java --add-opens=java.base/java.nio=ALL-UNNAMED -XX:MaxRAMPercentage=50 ${LAKE_JAVA_OPTS:-} \
  -cp '/opt/lake/app/*:/opt/lake/deps/*' dev.lake.app.LakeCli serve "$@"
