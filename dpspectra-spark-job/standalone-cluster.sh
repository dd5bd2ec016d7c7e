#!/usr/bin/env bash
# A standalone Spark cluster on 127.0.0.1 without a Spark distribution: Spark's own jars as Maven resolved
# them for dpspectra-spark-job, laid out as a distribution (SPARK_HOME with jars/ and a RELEASE file), and the
# master and workers started from them as Spark's sbin/ scripts start them (docs/guide/spark.md).
#
#   dpspectra-spark-job/standalone-cluster.sh start [WORKERS [CORES [MEMORY]]]   default: 2 workers, 1 core, 1g each
#   dpspectra-spark-job/standalone-cluster.sh submit [SPARK-SUBMIT OPTIONS --] DPSPECTRA-COMMAND...
#   dpspectra-spark-job/standalone-cluster.sh stop
#   dpspectra-spark-job/standalone-cluster.sh layout     only build the jar and lay out SPARK_HOME (no cluster)
#
# `submit` runs org.apache.spark.deploy.SparkSubmit (what bin/spark-submit runs) against the master, in
# client mode, with dpspectra-spark-job/target/dpspectra-spark-job.jar and the class io.dpspectra.spark.DpPcaJob;
# DRIVER_MEMORY (default 1g) is the driver's heap. Everything (SPARK_HOME, logs, process ids) lives in
# $DPSPECTRA_CLUSTER_DIR (default /tmp/dpspectra-cluster); MASTER_PORT and MASTER_UI_PORT default to 7077
# and 8080. Every process listens on 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
state=${DPSPECTRA_CLUSTER_DIR:-/tmp/dpspectra-cluster}
home=$state/spark-home
master_port=${MASTER_PORT:-7077}
master_ui=${MASTER_UI_PORT:-8080}
jar=$root/dpspectra-spark-job/target/dpspectra-spark-job.jar
# Spark's module flags, as the tests pass them (spark.moduleFlags in the parent pom.xml)
flags=$(sed -n '/<spark.moduleFlags>/,/<\/spark.moduleFlags>/p' pom.xml \
    | sed -e 's/<[^>]*>//g' | tr -s ' \n' ' ')
export SPARK_HOME=$home SPARK_SCALA_VERSION=2.13 SPARK_LOCAL_IP=127.0.0.1
export JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}

layout() {
    mkdir -p "$home/jars" "$state/logs"
    local cp_file=$state/classpath.txt
    # the job's jar, and the classpath of Spark and its dependencies (dpspectra's own modules excluded)
    mvn -B -q -o -pl dpspectra-spark-job -am package -DskipTests dependency:build-classpath \
        -Dmdep.includeScope=test -Dmdep.excludeGroupIds=io.dpspectra -Dmdep.outputFile="$cp_file" >&2
    tr ':' '\n' < "$cp_file" | while read -r j; do
        [[ "$j" == *.jar ]] && ln -sf "$j" "$home/jars/$(basename "$j")"
    done
    echo "Spark $(ls "$home/jars" | sed -n 's/^spark-core_2.13-\(.*\)\.jar$/\1/p'), jars linked by dpspectra" \
        > "$home/RELEASE"
    # Spark's own log lines at WARN and above, on stderr (conf/ comes first on every classpath, as in a distribution)
    mkdir -p "$home/conf"
    cat > "$home/conf/log4j2.properties" <<'LOG4J'
rootLogger.level = warn
rootLogger.appenderRef.console.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n%ex
LOG4J
}

daemon() {   # daemon NAME HEAP CLASS ARGS...: a JVM on Spark's jars in the background, its pid in NAME.pid
    local name=$1 heap=$2 class=$3
    shift 3
    # shellcheck disable=SC2086
    nohup "$JAVA_HOME/bin/java" -Xmx"$heap" $flags -cp "$home/conf:$home/jars/*" "$class" "$@" \
        > "$state/logs/$name.log" 2>&1 &
    echo $! > "$state/$name.pid"
}

wait_for() {   # wait_for WHAT COMMAND...: up to 120 s
    local what=$1
    shift
    for _ in $(seq 1 240); do
        if "$@" > /dev/null 2>&1; then
            return 0
        fi
        sleep 0.5
    done
    echo "standalone-cluster: $what did not come up in 120 s; see $state/logs" >&2
    exit 1
}

alive_workers() {
    curl -sf "http://127.0.0.1:$master_ui/json/" | grep -q "\"aliveworkers\" : $1"
}

case "${1:-}" in
layout)   # only the job's jar and SPARK_HOME (for running the job with java ... --master local[N])
    layout
    echo "SPARK_HOME=$home"
    ;;
start)
    workers=${2:-2}
    cores=${3:-1}
    memory=${4:-1g}
    layout
    daemon master 256m org.apache.spark.deploy.master.Master --host 127.0.0.1 --port "$master_port" \
        --webui-port "$master_ui"
    wait_for "the master" curl -sf "http://127.0.0.1:$master_ui/json/"
    for i in $(seq 1 "$workers"); do
        mkdir -p "$state/work-$i"
        daemon "worker-$i" 256m org.apache.spark.deploy.worker.Worker --host 127.0.0.1 --cores "$cores" \
            --memory "$memory" --webui-port $((master_ui + i)) --work-dir "$state/work-$i" \
            "spark://127.0.0.1:$master_port"
    done
    wait_for "$workers workers" alive_workers "$workers"
    echo "master spark://127.0.0.1:$master_port (web UI http://127.0.0.1:$master_ui), $workers workers of $cores" \
        "core(s) and $memory; SPARK_HOME=$home"
    ;;
submit)
    shift
    options=()
    if [[ " $* " == *" -- "* ]]; then
        while [[ "$1" != "--" ]]; do
            options+=("$1")
            shift
        done
        shift
    fi
    # shellcheck disable=SC2086
    exec "$JAVA_HOME/bin/java" -Xmx"${DRIVER_MEMORY:-1g}" $flags -cp "$home/conf:$home/jars/*" \
        org.apache.spark.deploy.SparkSubmit --master "spark://127.0.0.1:$master_port" \
        --conf spark.driver.host=127.0.0.1 --conf spark.executorEnv.OPENBLAS_NUM_THREADS=1 \
        ${options[@]+"${options[@]}"} --class io.dpspectra.spark.DpPcaJob "$jar" "$@"
    ;;
stop)
    for pid_file in "$state"/worker-*.pid "$state"/master.pid; do
        [[ -f "$pid_file" ]] || continue
        kill "$(cat "$pid_file")" 2>/dev/null || true
        rm -f "$pid_file"
    done
    echo "stopped the cluster in $state"
    ;;
*)
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
