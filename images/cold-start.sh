#!/usr/bin/env bash
# Measures the worker's cold start as Lambda pays it: a fresh JVM per run, the worker image's class path
# (images/target/worker, from `mvn package`), the worker's environment pointing at moto_server, then
# ColdStart's phases. Usage: images/cold-start.sh [PORT] [RUNS]   (moto on 127.0.0.1:PORT, default 32500)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
port="${1:-32500}"
runs="${2:-3}"
layout="$root/images/target/worker"
classes="$root/images/target/classes"
[[ -d "$layout/deps" && -d "$classes" ]] || { echo "package first: mvn -B -ntp package -DskipTests" >&2; exit 1; }
work="$(mktemp -d)"
moto_server -H 127.0.0.1 -p "$port" >"$work/moto.log" 2>&1 &
moto=$!
trap 'kill "$moto" 2>/dev/null; rm -rf "$work"' EXIT
endpoint="http://127.0.0.1:$port"
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-east-1
for _ in $(seq 1 50); do curl -sf "$endpoint/moto-api/" >/dev/null 2>&1 && break; sleep 0.2; done
# the resources a deployment has (names as the stack would pass them)
read -r queue key < <(python3 - "$endpoint" <<'PY'
import sys, boto3
e = sys.argv[1]
kw = dict(endpoint_url=e, region_name="us-east-1")
boto3.client("s3", **kw).create_bucket(Bucket="lake-results")
boto3.client("dynamodb", **kw).create_table(TableName="lake-jobs",
    KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
    AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}], BillingMode="PAY_PER_REQUEST")
q = boto3.client("sqs", **kw).create_queue(QueueName="lake-jobs")["QueueUrl"]
k = boto3.client("kms", **kw).create_key()["KeyMetadata"]["KeyId"]
print(q, k)
PY
)
export LAKE_AWS_ENDPOINT="$endpoint" LAKE_AWS_REGION=us-east-1 LAKE_RESULT_BUCKET=lake-results \
  LAKE_JOB_TABLE=lake-jobs LAKE_JOB_QUEUE_URL="$queue" LAKE_KMS_KEY_ID="$key" \
  LAKE_REGISTRY="$work/registry.json" LAKE_SPILL_DIR="$work/spill" HOME="$work"
for i in $(seq 1 "$runs"); do
  java --add-opens=java.base/java.nio=ALL-UNNAMED ${LAKE_JAVA_OPTS:-} \
    -cp "$classes:$layout/app/*:$layout/deps/*" dev.lake.images.ColdStart 2>"$work/stderr.$i" \
    || { cat "$work/stderr.$i" >&2; exit 1; }
done
