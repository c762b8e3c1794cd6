#!/usr/bin/env bash
# Runs the lake bench: bench/run.sh [--sf N] [--quick] [--out DIR] [--only P1,P3] [--help]
# Needs `mvn -q -B -pl bench package` first (builds target/lake-bench-*.jar and target/lib/).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$(ls "$here"/target/lake-bench-*.jar 2>/dev/null | grep -v -e sources -e tests | head -n 1 || true)"
if [[ -z "$jar" || ! -d "$here/target/lib" ]]; then
  echo "lake bench is not built: run 'cd $(dirname "$here") && mvn -q -B -pl bench package -DskipTests'" >&2
  exit 2
fi
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
# lake's front door as shipped runs with these glibc malloc settings (bin/lake, the front-door image);
# the client JVMs the bench spawns run without them (ClientRunner). A value in the environment wins;
# LAKE_BENCH_GLIBC_MALLOC=1 runs the server with glibc's defaults instead.
if [[ "${LAKE_BENCH_GLIBC_MALLOC:-}" != "1" ]]; then
  export MALLOC_TRIM_THRESHOLD_="${MALLOC_TRIM_THRESHOLD_:-268435456}"
  export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-67108864}"
fi
# The server JVM holds lake's front door and engine plus the raw Flight server's copy of lineitem
# (about 1 GB of Arrow at SF 1); client loops run in a second JVM spawned by the bench.
exec "$java_bin" --add-opens=java.base/java.nio=ALL-UNNAMED \
  ${LAKE_BENCH_JAVA_OPTS:--Xmx3g -XX:MaxDirectMemorySize=4g} \
  -cp "$jar:$here/target/lib/*" dev.lake.bench.BenchMain "$@"
