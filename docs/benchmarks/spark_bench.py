#!/usr/bin/env python3
"""The Spark benchmark of docs/benchmarks/spark.md in one command: the CLI against the Spark job in local[2]
and on a standalone cluster of two 1-core workers on this machine, on the same CSV files.

    python3 docs/benchmarks/spark_bench.py            # prints the markdown
    python3 docs/benchmarks/spark_bench.py --write    # and puts it into docs/benchmarks/spark.md

What runs (each release with --seed 1, so the releases of a row must be the same file, and are compared):
  1. a 1e6 x 100 CSV (`dpspectra generate --model spiked`, about 2 GB): `fit --algorithm analyze-gauss` and
     `fit --algorithm private-power`, -k 5, epsilon 1, delta 1e-6, --clip-norm 1, through
       - the CLI (`./dpspectra fit ...`, JAVA_OPTS=-Xmx1g),
       - the Spark job in local[2] (`java -Xmx1g ... io.dpspectra.spark.DpPcaJob --master local[2] fit ...`),
       - the Spark job on the cluster (`dpspectra-spark-job/standalone-cluster.sh submit -- fit ...`, 1 GB driver,
         2 workers of 1 core and 1 GB, 512 MB executors);
  2. an 8000 x 2000 CSV (about 120 MB) read as 30 partitions (spark.sql.files.maxPartitionBytes = size / 30):
     analyze-gauss with the default 1 GB driver, the same three ways;
  3. a 500k x 50 CSV: analyze-gauss through the CLI and local[2], against the issue's target "at most 1.5 x the
     CLI's wall time plus Spark's start-up", Spark's start-up being the job's wall time on a 1000 x 50 CSV.
Every Spark run writes Spark's event log, from which the bytes its tasks read from INPUT are summed (Spark's
input metrics): equal to the file's size when the job reads INPUT once.
Wall seconds, median of --runs (default 1), JVM start-up included, as a user runs them; every command runs under
`nice -n 10`. The 1-minute load average is recorded before and after every run: the machine may be shared, and
figures under load are upper bounds. The generated files (in /tmp) are deleted at the end and the cluster is
stopped.
"""
import argparse
import glob
import json
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
CLUSTER = os.path.join(ROOT, "dpspectra-spark-job", "standalone-cluster.sh")
JOB_JAR = os.path.join(ROOT, "dpspectra-spark-job", "target", "dpspectra-spark-job.jar")
BEGIN = "<!-- spark-bench:begin (docs/benchmarks/spark_bench.py --write) -->"
END = "<!-- spark-bench:end -->"
NICE = ["nice", "-n", "10"]
TIMEOUT = 1800


def load():
    return os.getloadavg()[0]


def run(args, env=None, check=True):
    """(wall seconds, stdout, stderr, exit code) of args under nice; exit code None on timeout."""
    t = time.perf_counter()
    try:
        p = subprocess.run(NICE + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT,
                           env=None if env is None else {**os.environ, **env})
        code, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        code, out, err = None, "", "timed out after %d s" % TIMEOUT
    wall = time.perf_counter() - t
    if check and code != 0:
        sys.exit("failed (exit %s): %s\n%s" % (code, " ".join(args), err[-3000:]))
    return wall, out, err, code


def module_flags():
    with open(os.path.join(ROOT, "pom.xml"), encoding="utf-8") as f:
        pom = f.read()
    return re.search(r"<spark.moduleFlags>(.*?)</spark.moduleFlags>", pom, re.S).group(1).split()


def bytes_read(event_dir):
    """Sum of the tasks' input bytes (Spark's input metrics) in the event log under event_dir (Spark 4 writes a
    folder of files); None without a log."""
    total, found = 0, False
    for folder, _, names in os.walk(event_dir):
        for name in names:
            found = True
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                for line in f:
                    if '"SparkListenerTaskEnd"' not in line:
                        continue
                    metrics = json.loads(line).get("Task Metrics") or {}
                    total += (metrics.get("Input Metrics") or {}).get("Bytes Read", 0)
    return total if found else None


def first_error(err):
    for line in err.splitlines():
        if line.startswith("dpspectra: error:") or "Exception" in line or "Error" in line:
            return line.strip()[:200]
    return err.strip().splitlines()[-1][:200] if err.strip() else "no message"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--dim", type=int, default=100)
    ap.add_argument("--wide-rows", type=int, default=8000)
    ap.add_argument("--wide-dim", type=int, default=2000)
    ap.add_argument("--mid-rows", type=int, default=500_000)
    ap.add_argument("--mid-dim", type=int, default=50)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--write", action="store_true", help="write the results into docs/benchmarks/spark.md")
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="dpspectra-spark-bench-", dir="/tmp")
    state = os.path.join(tmp, "cluster")
    cluster_env = {"DPSPECTRA_CLUSTER_DIR": state, "DRIVER_MEMORY": "1g", "MASTER_PORT": "7177",
                   "MASTER_UI_PORT": "8180"}
    started = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    results = []   # (label, algorithm, way, [walls], [(load before, load after)], failure or None, bytes read)
    sizes = {}
    try:
        run([CLI, "--help"])  # builds the CLI's jar if it is stale
        run([CLUSTER, "start", "2", "1", "1g"], cluster_env)  # builds the job's jar, starts the cluster
        spark_jars = os.path.join(state, "spark-home", "jars", "*")
        files = {}
        specs = {"tall": (a.rows, a.dim, 1), "wide": (a.wide_rows, a.wide_dim, 2), "mid": (a.mid_rows, a.mid_dim, 3),
                 "tiny": (1000, a.mid_dim, 4)}

        def generate(name):
            if name not in files:
                rows, dim, seed = specs[name]
                files[name] = os.path.join(tmp, name + ".csv")
                run([CLI, "generate", "--model", "spiked", "--rows", str(rows), "--dim", str(dim), "--seed", str(seed),
                     "--output", files[name]])
                sizes[name] = os.path.getsize(files[name])

        def fit(algorithm, data, out):
            return ["fit", "--algorithm", algorithm, "-k", "5", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1",
                    "--seed", "1", "--output", out, data]

        def command(way, algorithm, data, out, spark_conf, events):
            conf = list(spark_conf) + [("spark.eventLog.enabled", "true"), ("spark.eventLog.dir", "file://" + events),
                                       ("spark.eventLog.compress", "false"), ("spark.eventLog.rolling.enabled", "false")]
            if way == "cli":
                return [CLI] + fit(algorithm, data, out), {"JAVA_OPTS": "-Xmx1g"}
            if way == "local":
                return (["java", "-Xmx1g"] + module_flags() + ["-D%s=%s" % kv for kv in conf]
                        + ["-cp", JOB_JAR + os.pathsep + spark_jars, "io.dpspectra.spark.DpPcaJob", "--master",
                           "local[2]"] + fit(algorithm, data, out), {"OPENBLAS_NUM_THREADS": "1"})
            return ([CLUSTER, "submit", "--conf", "spark.executor.memory=512m"]
                    + [x for kv in conf for x in ("--conf", "%s=%s" % kv)] + ["--"] + fit(algorithm, data, out),
                    cluster_env)

        # the targets first (d = 2000 in a 1 GB driver, 500k x 50 against the CLI, private-power reading the
        # tall CSV once), then the tall file's analyze-gauss
        cases = [("wide", "analyze-gauss", "%d x %d, 30 partitions, 1 GB driver" % (a.wide_rows, a.wide_dim),
                  [("spark.sql.files.maxPartitionBytes", "WIDE_SPLIT")], ("cli", "local", "cluster")),
                 ("mid", "analyze-gauss", "%d x %d" % (a.mid_rows, a.mid_dim), [], ("cli", "local")),
                 ("tiny", "analyze-gauss", "1000 x %d (Spark's start-up)" % a.mid_dim, [], ("local",)),
                 ("tall", "private-power", "%d x %d" % (a.rows, a.dim), [], ("cli", "local", "cluster")),
                 ("tall", "analyze-gauss", "%d x %d" % (a.rows, a.dim), [], ("cli", "local", "cluster"))]
        same = {}
        for name, algorithm, label, conf, ways in cases:
            generate(name)
            conf = [(k, str(max(1, sizes["wide"] // 30)) if v == "WIDE_SPLIT" else v) for k, v in conf]
            outs = {}
            for way in ways:
                walls, loads, failure, read = [], [], None, None
                for r in range(a.runs):
                    out = os.path.join(tmp, "%s-%s-%s.json" % (name, algorithm, way))
                    events = os.path.join(tmp, "events-%s-%s-%s-%d" % (name, algorithm, way, r))
                    os.makedirs(events)
                    cmd, env = command(way, algorithm, files[name], out, conf, events)
                    before = load()
                    wall, _, err, code = run(cmd, env, check=False)
                    loads.append((before, load()))
                    if code != 0:
                        failure = "exit %s: %s" % (code, first_error(err))
                        break
                    walls.append(wall)
                    outs[way] = out
                    read = bytes_read(events) if way != "cli" else None
                    print("%s %s %s run %d: %.1f s, load %.1f -> %.1f%s" % (label, algorithm, way, r + 1, wall,
                          loads[-1][0], loads[-1][1], "" if read is None else ", input bytes read %d of %d"
                          % (read, sizes[name])), file=sys.stderr)
                results.append((label, algorithm, way, walls, loads, failure, read, sizes[name]))
            texts = {w: open(p, encoding="utf-8").read() for w, p in outs.items()}
            same[(label, algorithm)] = len(set(texts.values())) == 1 if len(texts) == len(ways) else None
    finally:
        subprocess.run([CLUSTER, "stop"], env={**os.environ, **cluster_env}, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        shutil.rmtree(tmp, ignore_errors=True)

    def cell(label, algorithm, way):
        for r in results:
            if r[0] == label and r[1] == algorithm and r[2] == way:
                return r
        return None

    def secs(r):
        if r is None:
            return "—"
        if r[5] is not None:
            return "**failed** (%s)" % r[5]
        return "%.1f" % statistics.median(r[3])

    def ratio(r, base):
        if r is None or base is None or r[5] or base[5]:
            return "—"
        return "%.2f" % (statistics.median(r[3]) / statistics.median(base[3]))

    def loads(r):
        return "—" if r is None else ", ".join("%.1f→%.1f" % lb for lb in r[4])

    lines = [
        "Measured %s UTC (started), %d cores, median of %d run(s), wall seconds, JVM start-up included, every "
        "command under `nice -n 10`. The load is the 1-minute load average before→after each run: the machine was "
        "shared with other work, and a figure under a load above the number of cores is an upper bound, not the "
        "idle machine's time." % (started, os.cpu_count(), a.runs),
        "",
        "| rows | algorithm | CLI | Spark local[2] | cluster (2 workers × 1 core) | local[2] / CLI | cluster / CLI "
        "| same release | load CLI / local / cluster |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    seen = []
    for r in results:
        if (r[0], r[1]) not in seen:
            seen.append((r[0], r[1]))
    for label, algorithm in seen:
        c, l, k = (cell(label, algorithm, w) for w in ("cli", "local", "cluster"))
        s = same.get((label, algorithm))
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s / %s |" % (
            label, algorithm, secs(c), secs(l), secs(k), ratio(l, c), ratio(k, c),
            "—" if s is None or len([x for x in (c, l, k) if x]) < 2 else ("yes" if s else "**no**"),
            loads(c), loads(l), loads(k)))
    lines += ["", "Bytes Spark's tasks read from INPUT (input metrics, summed over the run's event log) against the "
              "file's size:", "", "| rows | algorithm | way | bytes read | file size | reads |", "|---|---|---|---|---|---|"]
    for r in results:
        if r[2] != "cli" and r[6] is not None:
            lines.append("| %s | %s | %s | %d | %d | %.2f |" % (r[0], r[1], r[2], r[6], r[7], r[6] / r[7]))
    mid_label = "%d x %d" % (a.mid_rows, a.mid_dim)
    c, l = cell(mid_label, "analyze-gauss", "cli"), cell(mid_label, "analyze-gauss", "local")
    t = cell("1000 x %d (Spark's start-up)" % a.mid_dim, "analyze-gauss", "local")
    if c and l and t and not (c[5] or l[5] or t[5]):
        cli_s, local_s, start_s = (statistics.median(x[3]) for x in (c, l, t))
        lines += ["", "Target for %s: local[2] at most 1.5 × the CLI plus Spark's start-up: %.1f s against 1.5 × %.1f "
                  "+ %.1f = %.1f s: **%s**." % (mid_label, local_s, cli_s, start_s, 1.5 * cli_s + start_s,
                                                "met" if local_s <= 1.5 * cli_s + start_s else "missed")]
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
