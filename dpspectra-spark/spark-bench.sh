#!/usr/bin/env bash
# The benchmark of docs/benchmarks/spark.md in one command: DP-Gauss-1 on n x d rows, core in one process,
# then Spark local[1] and local[2], all printed by one run of SparkGramBench.
#   dpspectra-spark/spark-bench.sh [rows dim partitions repeat]      (default 1000000 100 8 3)
# Environment: OPENBLAS_NUM_THREADS (default 1, see the benchmark doc), JAVA_OPTS (default -Xmx5g).
set -euo pipefail
cd "$(dirname "$0")/.."
cp_file=$(mktemp)
trap 'rm -f "$cp_file"' EXIT
mvn -B -q -o -pl dpspectra-spark -am test-compile dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file" >&2
# Spark's module flags, as the tests pass them (spark.moduleFlags in the parent pom.xml)
flags=$(sed -n '/<spark.moduleFlags>/,/<\/spark.moduleFlags>/p' pom.xml \
    | sed -e 's/<[^>]*>//g' | tr -s ' \n' ' ')
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
echo "OPENBLAS_NUM_THREADS=$OPENBLAS_NUM_THREADS, $(nproc) cores" >&2
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:--Xmx5g} $flags \
    -cp "dpspectra-spark/target/test-classes:dpspectra-spark/target/classes:$(cat "$cp_file")" \
    io.dpspectra.spark.SparkGramBench "$@"
