#!/usr/bin/env bash
# Starts moto_server (S3, DynamoDB, SQS, KMS emulation) on a loopback port and prints its endpoint.
#   localstack/start-moto.sh [port]      # default: a free port
# Prints:  LAKE_TEST_AWS_ENDPOINT=http://127.0.0.1:<port>   and the pid file; stop with
#   kill "$(cat "${TMPDIR:-/tmp}/lake-moto.pid")"
# Tests pick the endpoint up from LAKE_TEST_AWS_ENDPOINT; without it they start their own moto.
set -euo pipefail
MOTO="$(command -v moto_server || true)"
if [[ -z "$MOTO" && -x "$HOME/.pyenv/shims/moto_server" ]]; then MOTO="$HOME/.pyenv/shims/moto_server"; fi
if [[ -z "$MOTO" ]]; then
  echo "moto_server not found: pip install 'moto[server]'" >&2
  exit 1
fi
PORT="${1:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}"
LOG="${TMPDIR:-/tmp}/lake-moto.log"
PIDFILE="${TMPDIR:-/tmp}/lake-moto.pid"
# lake's sitecustomize makes moto's DynamoDB linearizable (see the file for why).
SITE="$(cd "$(dirname "$0")/.." && pwd)/shared/aws/src/main/resources/dev/lake/aws/moto"
PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}" "$MOTO" -H 127.0.0.1 -p "$PORT" >"$LOG" 2>&1 &
echo $! >"$PIDFILE"
for _ in $(seq 1 200); do
  if curl -fsS "http://127.0.0.1:$PORT/moto-api/data.json" >/dev/null 2>&1; then
    echo "LAKE_TEST_AWS_ENDPOINT=http://127.0.0.1:$PORT"
    echo "pid file: $PIDFILE (log: $LOG)"
    exit 0
  fi
  if ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
    echo "moto_server exited; see $LOG" >&2
    exit 1
  fi
  sleep 0.1
done
echo "moto_server did not answer on port $PORT within 20 s; see $LOG" >&2
kill "$(cat "$PIDFILE")" 2>/dev/null || true
exit 1
