#!/usr/bin/env python3
"""The Spark benchmark of docs/benchmarks/spark.md in one command: the CLI against the Spark job in local[2]
and on a standalone cluster of two 1-core workers on this machine, on the same CSV files.

    python3 docs/benchmarks/spark_bench.py            # prints the markdown
    python3 docs/benchmarks/spark_bench.py --write    # and puts it into docs/benchmarks/spark.md
    python3 docs/benchmarks/spark_bench.py --only mid # only the 500k x 50 target and Spark's start-up (no cluster)

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
Every Spark run writes Spark's event log (with the blocks each task wrote), from which the bytes its tasks read
are summed (Spark's input metrics) and sorted: a task whose stage holds the persisted rows and that did not write
their block read them back from the persisted rows (Spark counts that as input too); every other task read INPUT.
The bytes read from INPUT equal the file's size when the job reads INPUT once.
Wall seconds, median of --runs (default 1), JVM start-up included, as a user runs them; every command runs under
`nice -n N` (--nice, default 10). The load averages (1, 5, 15 minutes, as `uptime` prints them) are recorded
before and after every run: the machine may be shared, and figures under load are upper bounds. With --write the
results go into docs/benchmarks/spark.md after every case, so that what finished is kept; --stop-at HH:MM (UTC)
starts no run after that time and stops one still running then (its process group), and says so. The generated files (in /tmp) are deleted at the end and the cluster
is stopped.
"""
import argparse
import calendar
import glob
import json
import os
import re
import shutil
import signal
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
NICE = ["nice", "-n", "10"]  # --nice sets the level
TIMEOUT = 1800
STOP_AT = [None]  # --stop-at as a time.time(); no run starts after it, and a running one is stopped then


def load():
    return os.getloadavg()


def run(args, env=None, check=True):
    """(wall seconds, stdout, stderr, exit code) of args under nice; exit code None when it was stopped (after
    TIMEOUT seconds, or at the --stop-at time): the whole process group, so a script's JVM stops with it."""
    t = time.perf_counter()
    limit = TIMEOUT if STOP_AT[0] is None else max(1, min(TIMEOUT, STOP_AT[0] - time.time()))
    p = subprocess.Popen(NICE + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=None if env is None else {**os.environ, **env}, start_new_session=True)
    try:
        out, err = p.communicate(timeout=limit)
        code = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        code, out, err = None, "", "stopped after %d s (%s)" % (limit, "the --stop-at time" if limit < TIMEOUT
                                                                  else "the time limit")
    wall = time.perf_counter() - t
    if check and code != 0:
        sys.exit("failed (exit %s): %s\n%s" % (code, " ".join(args), err[-3000:]))
    return wall, out, err, code


def module_flags():
    with open(os.path.join(ROOT, "pom.xml"), encoding="utf-8") as f:
        pom = f.read()
    return re.search(r"<spark.moduleFlags>(.*?)</spark.moduleFlags>", pom, re.S).group(1).split()


def bytes_read(event_dir):
    """(bytes the tasks read from INPUT, bytes they read back from the persisted rows), from the input metrics in
    the event log under event_dir (Spark 4 writes a folder of files); None without a log. A task read the
    persisted rows when its stage holds a persisted RDD and the task wrote no block of it (the pass that writes
    the blocks is the one that reads INPUT); every other task read INPUT."""
    persisted, tasks, found = {}, [], False
    for folder, _, names in os.walk(event_dir):
        for name in sorted(names):
            found = True
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                for line in f:
                    if '"SparkListenerStageSubmitted"' in line:
                        info = json.loads(line).get("Stage Info") or {}
                        ids = set()
                        for rdd in info.get("RDD Info") or []:
                            level = rdd.get("Storage Level") or {}
                            if level.get("Replication", 0) > 0 and (level.get("Use Memory") or level.get("Use Disk")
                                                                    or level.get("Use Off Heap")):
                                ids.add(rdd.get("RDD ID"))
                        persisted[info.get("Stage ID")] = ids
                    elif '"SparkListenerTaskEnd"' in line:
                        ev = json.loads(line)
                        metrics = ev.get("Task Metrics") or {}
                        read = (metrics.get("Input Metrics") or {}).get("Bytes Read", 0)
                        wrote = set()
                        for block in metrics.get("Updated Blocks") or []:
                            m = re.match(r"rdd_(\d+)_\d+$", str(block.get("Block ID", "")))
                            if m:
                                wrote.add(int(m.group(1)))
                        tasks.append((ev.get("Stage ID"), read, wrote))
    if not found:
        return None
    from_input, from_persisted = 0, 0
    for stage, read, wrote in tasks:
        held = persisted.get(stage, set())
        if held and not (held & wrote):
            from_persisted += read
        else:
            from_input += read
    return from_input, from_persisted


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
    ap.add_argument("--nice", type=int, default=10, help="the nice level of every command (default 10)")
    ap.add_argument("--stop-at", help="HH:MM UTC: start no run after it (the rows not run say so)")
    ap.add_argument("--write", action="store_true", help="write the results into docs/benchmarks/spark.md")
    ap.add_argument("--only", choices=["mid"], help="mid: only the 500k x 50 rows against the CLI and Spark's start-up "
                    "(the 1000 x 50 rows), in local[2]; the cluster is not started")
    a = ap.parse_args()
    NICE[2] = str(a.nice)
    stop_at = None
    if a.stop_at:
        hh, mm = (int(x) for x in a.stop_at.split(":"))
        now = time.gmtime()
        stop_at = calendar.timegm((now.tm_year, now.tm_mon, now.tm_mday, hh, mm, 0))
    STOP_AT[0] = stop_at

    tmp = tempfile.mkdtemp(prefix="dpspectra-spark-bench-", dir="/tmp")
    state = os.path.join(tmp, "cluster")
    cluster_env = {"DPSPECTRA_CLUSTER_DIR": state, "DRIVER_MEMORY": "1g", "MASTER_PORT": "7177",
                   "MASTER_UI_PORT": "8180"}
    started = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    results = []   # (label, algorithm, way, [walls], [(load before, load after)], failure or None, bytes read)
    sizes = {}
    try:
        run([CLI, "--help"])  # builds the CLI's jar if it is stale
        if a.only is None:
            run([CLUSTER, "start", "2", "1", "1g"], cluster_env)  # builds the job's jar, starts the cluster
        else:
            # the job's jar and Spark's jars as the cluster script lays them out, without starting the cluster
            run([CLUSTER, "layout"], cluster_env)
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
                                       ("spark.taskMetrics.trackUpdatedBlockStatuses", "true"),
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
        cases = [("mid", "analyze-gauss", "%d x %d" % (a.mid_rows, a.mid_dim), [], ("cli", "local")),
                 ("tiny", "analyze-gauss", "1000 x %d (Spark's start-up)" % a.mid_dim, [], ("local",)),
                 ("tall", "private-power", "%d x %d" % (a.rows, a.dim), [], ("cli", "local", "cluster")),
                 ("wide", "analyze-gauss", "%d x %d, 30 partitions, 1 GB driver" % (a.wide_rows, a.wide_dim),
                  [("spark.sql.files.maxPartitionBytes", "WIDE_SPLIT")], ("cli", "local", "cluster")),
                 ("tall", "analyze-gauss", "%d x %d" % (a.rows, a.dim), [], ("cli", "local", "cluster"))]
        if a.only == "mid":
            cases = [c for c in cases if c[0] in ("mid", "tiny")]
        same = {}
        for name, algorithm, label, conf, ways in cases:
            if stop_at is not None and time.time() >= stop_at:
                for way in ways:
                    results.append((label, algorithm, way, [], [], "not run: the session's deadline (%s UTC) came "
                                    "first" % a.stop_at, None, sizes.get(name, 0)))
                continue
            generate(name)
            conf = [(k, str(max(1, sizes["wide"] // 30)) if v == "WIDE_SPLIT" else v) for k, v in conf]
            outs = {}
            for way in ways:
                walls, loads, failure, read = [], [], None, None
                for r in range(a.runs):
                    if stop_at is not None and time.time() >= stop_at:
                        failure = "not run: the session's deadline (%s UTC) came first" % a.stop_at
                        break
                    out = os.path.join(tmp, "%s-%s-%s.json" % (name, algorithm, way))
                    events = os.path.join(tmp, "events-%s-%s-%s-%d" % (name, algorithm, way, r))
                    os.makedirs(events)
                    cmd, env = command(way, algorithm, files[name], out, conf, events)
                    before = load()
                    wall, _, err, code = run(cmd, env, check=False)
                    loads.append((before, load()))
                    if code is None:
                        failure = "not finished: %s" % err
                        break
                    if code != 0:
                        failure = "exit %s: %s" % (code, first_error(err))
                        break
                    walls.append(wall)
                    outs[way] = out
                    read = bytes_read(events) if way != "cli" else None
                    print("%s %s %s run %d: %.1f s, load %s -> %s%s" % (label, algorithm, way, r + 1, wall,
                          avg(loads[-1][0]), avg(loads[-1][1]), "" if read is None else
                          ", bytes read from INPUT %d (of %d), from the persisted rows %d" % (read[0], sizes[name],
                                                                                             read[1])),
                          file=sys.stderr)
                results.append((label, algorithm, way, walls, loads, failure, read, sizes[name]))
            texts = {w: open(p, encoding="utf-8").read() for w, p in outs.items()}
            same[(label, algorithm)] = len(set(texts.values())) == 1 if len(texts) == len(ways) else None
            report(a, started, results, same, a.write)
    finally:
        subprocess.run([CLUSTER, "stop"], env={**os.environ, **cluster_env}, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        shutil.rmtree(tmp, ignore_errors=True)
    print(report(a, started, results, same, a.write))


def avg(triple):
    return "%.1f/%.1f/%.1f" % tuple(triple)


def report(a, started, results, same, write):
    """The markdown of the results so far; with write, also put into docs/benchmarks/spark.md."""

    def cell(label, algorithm, way):
        for r in results:
            if r[0] == label and r[1] == algorithm and r[2] == way:
                return r
        return None

    def secs(r):
        if r is None:
            return "—"
        if r[5] is not None:
            return r[5] if r[5].startswith("not ") else "**failed** (%s)" % r[5]
        return "%.1f" % statistics.median(r[3])

    def ratio(r, base):
        if r is None or base is None or r[5] or base[5]:
            return "—"
        return "%.2f" % (statistics.median(r[3]) / statistics.median(base[3]))

    def loads(r):
        return "—" if r is None or not r[4] else ", ".join("%s→%s" % (avg(b), avg(e)) for b, e in r[4])

    lines = [
        "Measured %s UTC (started; this table written %s UTC), %d cores, median of %d run(s), wall seconds, JVM "
        "start-up included, every command under `nice -n %d`. The load is the load average over 1/5/15 minutes "
        "(as `uptime` prints it) before→after each run: the machine was shared with other work, and a figure under "
        "a load above the number of cores is an upper bound, not the idle machine's time."
        % (started, time.strftime("%H:%M", time.gmtime()), os.cpu_count(), a.runs, a.nice),
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
    lines += ["", "Bytes Spark's tasks read (input metrics, from the run's event log), sorted into INPUT's and the "
              "persisted rows' (read back by the later passes), against the file's size:", "",
              "| rows | algorithm | way | bytes read from INPUT | file size | reads of INPUT | bytes read back from the "
              "persisted rows |", "|---|---|---|---|---|---|---|"]
    for r in results:
        if r[2] != "cli" and r[6] is not None:
            lines.append("| %s | %s | %s | %d | %d | %.3f | %d |" % (r[0], r[1], r[2], r[6][0], r[7], r[6][0] / r[7],
                                                                    r[6][1]))
    mid_label = "%d x %d" % (a.mid_rows, a.mid_dim)
    c, l = cell(mid_label, "analyze-gauss", "cli"), cell(mid_label, "analyze-gauss", "local")
    t = cell("1000 x %d (Spark's start-up)" % a.mid_dim, "analyze-gauss", "local")
    if c and l and t and not (c[5] or l[5] or t[5]):
        cli_s, local_s, start_s = (statistics.median(x[3]) for x in (c, l, t))
        lines += ["", "Target for %s: local[2] at most 1.5 × the CLI plus Spark's start-up: %.1f s against 1.5 × %.1f "
                  "+ %.1f = %.1f s: **%s**." % (mid_label, local_s, cli_s, start_s, 1.5 * cli_s + start_s,
                                                "met" if local_s <= 1.5 * cli_s + start_s else "missed")]
    table = "\n".join(lines)
    if write:
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
    return table


if __name__ == "__main__":
    main()
