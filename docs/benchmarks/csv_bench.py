#!/usr/bin/env python3
"""Every target of the CSV benchmark (csv.md, "Targets") in one run, through the launcher as a user runs it.

    python3 docs/benchmarks/csv_bench.py            # prints the markdown table
    python3 docs/benchmarks/csv_bench.py --write    # and puts it into docs/benchmarks/csv.md and docs/guide/your-own-data.md

Steps, on a 100,000 x 100 CSV from `dpspectra generate --model spiked --seed 1` (198.5 MB) in a temporary
folder (page cache warm after the first read):
  1. `./dpspectra bench csv --file s.csv --repeat 3 --json`: raw read, parse-only pass, convert, fit on the CSV
     and on the .dpsr, in one JVM (start-up excluded), wall and process CPU seconds;
  2. through the launcher, interleaved, --runs times each (median wall seconds; CPU seconds of the child
     processes): `--help`, a release of a 1,000 x 20 CSV, `fit --algorithm analyze-gauss` on the CSV and on
     its .dpsr copy (the end-to-end ratio, JVM start included, as the targets are stated);
  3. `cat s.csv > /dev/null`, and NumPy's `np.loadtxt(s.csv, delimiter=',', skiprows=1)` when NumPy is
     installed (2 runs, in this Python process).
The machine may be shared: the load average is printed with the figures, and figures taken under load
are upper bounds. The generated files are deleted at the end.
"""
import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAUNCHER = os.path.join(ROOT, "dpspectra")
BEGIN = "<!-- csv-bench:begin (docs/benchmarks/csv_bench.py --write) -->"
END = "<!-- csv-bench:end -->"


def run(args, **kw):
    """Runs a command; returns (wall seconds, CPU seconds of the child, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(args), p.stderr))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.stdout


def dpspectra(*args):
    return run([LAUNCHER, *args])


def fit(output, data):
    return dpspectra("fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6",
                     "--clip-norm", "1", "--output", output, data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="launcher runs of each command (default 7)")
    ap.add_argument("--write", action="store_true", help="write the table into docs/benchmarks/csv.md and docs/guide/your-own-data.md")
    a = ap.parse_args()

    dpspectra("--help")  # builds the jar and the class-data-sharing archive if they are stale
    tmp = tempfile.mkdtemp(prefix="dpspectra-csv-bench-")
    try:
        csv, dpsr, small = (os.path.join(tmp, n) for n in ("s.csv", "s.dpsr", "small.csv"))
        model = os.path.join(tmp, "m.json")
        dpspectra("generate", "--model", "spiked", "--rows", "100000", "--dim", "100", "--seed", "1", "--output", csv)
        dpspectra("generate", "--model", "spiked", "--rows", "1000", "--dim", "20", "--seed", "2", "--output", small)
        dpspectra("convert", csv, dpsr)
        mb = os.path.getsize(csv) / 1e6
        load_before = os.getloadavg()[0]

        _, _, out = dpspectra("bench", "csv", "--file", csv, "--repeat", "3", "--json")
        inproc = json.loads(out)

        times = {k: [] for k in ("help", "small", "fitCsv", "fitDpsr")}
        cpus = {k: [] for k in times}
        ratios = []
        fit(model, small)  # warm the page cache and the archive
        for _ in range(a.runs):
            for key, cmd in (("help", lambda: dpspectra("--help")), ("small", lambda: fit(model, small)),
                             ("fitCsv", lambda: fit(model, csv)), ("fitDpsr", lambda: fit(model, dpsr))):
                w, c, _ = cmd()
                times[key].append(w)
                cpus[key].append(c)
            ratios.append(times["fitCsv"][-1] / times["fitDpsr"][-1])

        cat = [run(["sh", "-c", "cat '%s' > /dev/null" % csv])[0] for _ in range(3)]
        loadtxt = None
        try:
            import numpy as np
            loadtxt = []
            for _ in range(2):
                t = time.perf_counter()
                np.loadtxt(csv, delimiter=",", skiprows=1)
                loadtxt.append(time.perf_counter() - t)
        except ImportError:
            pass
        load_after = os.getloadavg()[0]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    med = {k: statistics.median(v) for k, v in times.items()}
    cpu = {k: statistics.median(v) for k, v in cpus.items()}
    ratio = statistics.median(ratios)
    parse = inproc["parseOnlyPassMBps"]
    inproc_ratio = inproc["fitCsvOverDpsrMedian"]
    np_min = min(loadtxt) if loadtxt else None

    loaded = max(load_before, load_after) > os.cpu_count()

    def verdict(ok):
        # wall-clock targets on a loaded machine: a miss says nothing about the idle machine
        return "**met**" if ok else "**not shown** (load %.0f)" % load_after if loaded else "**not met**"

    lines = [
        "Measured %s UTC, %d cores, load average %.1f before and %.1f after (figures under load are upper bounds)."
        % (time.strftime("%Y-%m-%d %H:%M", time.gmtime()), os.cpu_count(), load_before, load_after),
        "",
        "| what (%.1f MB CSV, 100,000 x 100) | wall s | CPU s |" % mb,
        "|---|---|---|",
        "| `cat` of the file (min of 3) | %.3f | |" % min(cat),
        "| in one JVM: raw read of the bytes | %.3f | %.3f |" % (inproc["readBytesSeconds"], inproc["readBytesCpuSeconds"]),
        "| in one JVM: parse-only pass (%.0f MB/s) | %.3f | %.3f |"
        % (parse, inproc["parseOnlyPassSeconds"], inproc["parseOnlyPassCpuSeconds"]),
        "| in one JVM: `convert` to `.dpsr` | %.3f | %.3f |"
        % (inproc["convertToDpsrSeconds"], inproc["convertToDpsrCpuSeconds"]),
        "| in one JVM: `fit --algorithm analyze-gauss` on the CSV | %.3f | %.3f |"
        % (inproc["fitAnalyzeGaussCsvSeconds"], inproc["fitAnalyzeGaussCsvCpuSeconds"]),
        "| in one JVM: the same fit on the `.dpsr` | %.3f | %.3f |"
        % (inproc["fitAnalyzeGaussDpsrSeconds"], inproc["fitAnalyzeGaussDpsrCpuSeconds"]),
        "| `./dpspectra fit ...` on the CSV (launcher, JVM start included) | %.3f | %.3f |" % (med["fitCsv"], cpu["fitCsv"]),
        "| `./dpspectra fit ...` on the `.dpsr` (launcher) | %.3f | %.3f |" % (med["fitDpsr"], cpu["fitDpsr"]),
        "| `./dpspectra --help` | %.3f | %.3f |" % (med["help"], cpu["help"]),
        "| `./dpspectra fit ...` on a 1,000 x 20 CSV | %.3f | %.3f |" % (med["small"], cpu["small"]),
    ]
    if loadtxt:
        lines.append("| NumPy %s `np.loadtxt` of the CSV alone (min of 2) | %.3f | |" % (np.__version__, np_min))
    lines += [
        "",
        "Medians: %d launcher runs of each command (interleaved); 3 in-process repeats after a warm-up." % a.runs,
        "",
        "| target | measured | |",
        "|---|---|---|",
        "| CSV pass >= 300 MB/s on 2 cores | %.0f MB/s | %s |" % (parse, verdict(parse >= 300)),
        "| fit on the CSV within 1.5x of the fit on the `.dpsr` | %.2fx through the launcher; %.2fx in one JVM | %s |"
        % (ratio, inproc_ratio, "**met through the launcher only**" if ratio <= 1.5 < inproc_ratio
           else verdict(ratio <= 1.5)),
    ]
    if loadtxt:
        vs = np_min / med["fitCsv"]
        vs_inproc = np_min / inproc["fitAnalyzeGaussCsvSeconds"]
        lines.append("| fit on the CSV >= 3x faster than `np.loadtxt` alone | %.1fx through the launcher; %.1fx in one JVM | %s |"
                     % (vs, vs_inproc, "**met in one JVM only**" if vs < 3 <= vs_inproc else verdict(vs >= 3)))
    lines += [
        "| `dpspectra --help` <= 0.15 s | %.3f s | %s |" % (med["help"], verdict(med["help"] <= 0.15)),
        "| a 1,000-row release <= 0.3 s | %.3f s | %s |" % (med["small"], verdict(med["small"] <= 0.3)),
    ]
    table = "\n".join(lines)
    print(table)
    if a.write:
        for path in (os.path.join(ROOT, "docs", "benchmarks", "csv.md"), os.path.join(ROOT, "docs", "guide", "your-own-data.md")):
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
