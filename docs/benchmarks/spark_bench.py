#!/usr/bin/env python3
"""The Spark benchmark of docs/benchmarks/spark.md in one command: the CLI against the Spark job in local[2]
and on a standalone cluster of two 1-core workers on this machine, on the same CSV files.

    python3 docs/benchmarks/spark_bench.py            # prints the markdown table
    python3 docs/benchmarks/spark_bench.py --write    # and puts it into docs/benchmarks/spark.md

What runs (each release with --seed 1, so the three releases of a row must be the same file, and are checked):
  1. a 1e6 x 100 CSV (`dpspectra generate --model spiked --seed 1`, about 2 GB): `fit --algorithm analyze-gauss`
     and `fit --algorithm private-power`, -k 5, epsilon 1, delta 1e-6, --clip-norm 1, through
       - the CLI (`./dpspectra fit ...`),
       - the Spark job in local[2] (`java ... io.dpspectra.spark.DpPcaJob --master local[2] fit ...`, 1 GB heap),
       - the Spark job on the cluster (`dpspectra-spark/standalone-cluster.sh submit -- fit ...`, 1 GB driver,
         2 workers of 1 core and 1 GB, 512 MB executors);
  2. an 8000 x 2000 CSV (about 120 MB) read as 30 partitions (spark.sql.files.maxPartitionBytes = 4 MB):
     analyze-gauss with the default 1 GB driver, the same three ways (the CLI with JAVA_OPTS=-Xmx1g).
Wall seconds, median of --runs (default 3), JVM start-up included, as a user runs them. The load average is
recorded before and after: the machine may be shared, and figures under load are upper bounds. The generated
files are deleted at the end and the cluster is stopped.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.path.join(ROOT, "dpspectra")
CLUSTER = os.path.join(ROOT, "dpspectra-spark", "standalone-cluster.sh")
JOB_JAR = os.path.join(ROOT, "dpspectra-spark", "target", "dpspectra-spark.jar")
BEGIN = "<!-- spark-bench:begin (docs/benchmarks/spark_bench.py --write) -->"
END = "<!-- spark-bench:end -->"


def run(args, env=None):
    t = time.perf_counter()
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env=None if env is None else {**os.environ, **env})
    wall = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit("failed (exit %d): %s\n%s" % (p.returncode, " ".join(args), p.stderr[-3000:]))
    return wall, p.stdout


def module_flags():
    with open(os.path.join(ROOT, "dpspectra-spark", "pom.xml"), encoding="utf-8") as f:
        pom = f.read()
    return re.search(r"<spark.moduleFlags>(.*?)</spark.moduleFlags>", pom, re.S).group(1).split()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--dim", type=int, default=100)
    ap.add_argument("--wide-rows", type=int, default=8000)
    ap.add_argument("--wide-dim", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--write", action="store_true", help="write the table into docs/benchmarks/spark.md")
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="dpspectra-spark-bench-")
    state = os.path.join(tmp, "cluster")
    cluster_env = {"DPSPECTRA_CLUSTER_DIR": state, "DRIVER_MEMORY": "1g"}
    try:
        run([CLI, "--help"])  # builds the CLI's jar if it is stale
        _, started = run([CLUSTER, "start", "2", "1", "1g"], cluster_env)  # builds the job's jar, starts the cluster
        spark_jars = os.path.join(state, "spark-home", "jars", "*")
        tall, wide = os.path.join(tmp, "tall.csv"), os.path.join(tmp, "wide.csv")
        run([CLI, "generate", "--model", "spiked", "--rows", str(a.rows), "--dim", str(a.dim), "--seed", "1",
             "--output", tall])
        run([CLI, "generate", "--model", "spiked", "--rows", str(a.wide_rows), "--dim", str(a.wide_dim), "--seed", "2",
             "--output", wide])
        load_before = os.getloadavg()[0]

        def fit(algorithm, data, out):
            return ["fit", "--algorithm", algorithm, "-k", "5", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1",
                    "--seed", "1", "--output", out, data]

        def ways(algorithm, data, spark_conf):
            outs = {w: os.path.join(tmp, "%s-%s.json" % (algorithm, w)) for w in ("cli", "local", "cluster")}
            conf_props = ["-D%s=%s" % kv for kv in spark_conf]
            conf_args = [x for kv in spark_conf for x in ("--conf", "%s=%s" % kv)]
            return {
                "cli": ([CLI] + fit(algorithm, data, outs["cli"]), {"JAVA_OPTS": "-Xmx1g"}),
                "local": (["java", "-Xmx1g"] + module_flags() + conf_props
                          + ["-cp", JOB_JAR + os.pathsep + spark_jars, "io.dpspectra.spark.DpPcaJob", "--master",
                             "local[2]"] + fit(algorithm, data, outs["local"]), {"OPENBLAS_NUM_THREADS": "1"}),
                "cluster": ([CLUSTER, "submit", "--conf", "spark.executor.memory=512m"] + conf_args + ["--"]
                            + fit(algorithm, data, outs["cluster"]), cluster_env),
            }, outs

        cases = [("analyze-gauss", tall, "%d x %d" % (a.rows, a.dim), []),
                 ("private-power", tall, "%d x %d" % (a.rows, a.dim), []),
                 ("analyze-gauss", wide, "%d x %d, 30 partitions, 1 GB driver" % (a.wide_rows, a.wide_dim),
                  [("spark.sql.files.maxPartitionBytes", str(max(1, os.path.getsize(wide) // 30)))])]
        rows = []
        for algorithm, data, label, conf in cases:
            cmds, outs = ways(algorithm, data, conf)
            times = {w: [] for w in cmds}
            for _ in range(a.runs):
                for w, (cmd, env) in cmds.items():
                    times[w].append(run(cmd, env)[0])
            releases = {w: open(outs[w], encoding="utf-8").read() for w in outs}
            same = releases["cli"] == releases["local"] == releases["cluster"]
            rows.append((label, algorithm, {w: statistics.median(v) for w, v in times.items()}, same))
        load_after = os.getloadavg()[0]
    finally:
        subprocess.run([CLUSTER, "stop"], env={**os.environ, **cluster_env}, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        shutil.rmtree(tmp, ignore_errors=True)

    lines = [
        "Measured %s UTC, %d cores, load average %.1f before and %.1f after (figures under load are upper bounds); "
        "median of %d runs, wall seconds, JVM start-up included." % (time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
                                                                     os.cpu_count(), load_before, load_after, a.runs),
        "",
        "| rows | algorithm | CLI | Spark local[2] | cluster (2 workers x 1 core) | local[2] / CLI | same release |",
        "|---|---|---|---|---|---|---|",
    ]
    for label, algorithm, t, same in rows:
        lines.append("| %s | %s | %.2f | %.2f | %.2f | %.2f | %s |" % (label, algorithm, t["cli"], t["local"], t["cluster"],
                                                                     t["local"] / t["cli"], "yes" if same else "**no**"))
    table = "\n".join(lines)
    print(table)
    if a.write:
        path = os.path.join(ROOT, "docs", "benchmarks", "spark.md")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if BEGIN not in text:
            sys.exit("%s has no %s marker" % (path, BEGIN))
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: BEGIN + "\n" + table + "\n" + END, text,
                      flags=re.S)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote", os.path.relpath(path, ROOT), file=sys.stderr)


if __name__ == "__main__":
    main()
