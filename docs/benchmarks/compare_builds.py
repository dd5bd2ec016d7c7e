#!/usr/bin/env python3
"""Two builds of dpspectra side by side in one run: the CSV fit of csv_bench.py, interleaved, wall and CPU seconds.

    git worktree add --detach /tmp/dpspectra-base main && (cd /tmp/dpspectra-base && ./dpspectra --help)
    python3 docs/benchmarks/compare_builds.py /tmp/dpspectra-base/dpspectra ./dpspectra [RUNS]

Both launchers run `fit --algorithm analyze-gauss -k 2 --epsilon 1 --delta 1e-6 --clip-norm 1` on the same
100,000 x 100 CSV (198.5 MB, `generate --model spiked --seed 1`) and on its .dpsr copy, RUNS times each
(default 9), interleaved, so that a change of load hits both; then `bench csv --json` of each in one JVM.
Prints medians and the ratios second/first, with the load average before and after (CPU seconds are the
steadier figure on a shared machine). The generated files are deleted at the end.
"""
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(args, cpu=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(args), p.stderr))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return time.perf_counter() - t, p.stdout


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    builds = {"first": os.path.abspath(sys.argv[1]), "second": os.path.abspath(sys.argv[2])}
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 9
    tmp = tempfile.mkdtemp(prefix="dpspectra-compare-")
    try:
        csv, dpsr, model = (os.path.join(tmp, n) for n in ("s.csv", "s.dpsr", "m.json"))
        for launcher in builds.values():
            run([launcher, "--help"])  # builds a stale jar before timing
        run([builds["second"], "generate", "--model", "spiked", "--rows", "100000", "--dim", "100", "--seed", "1",
             "--output", csv])
        run([builds["second"], "convert", csv, dpsr])
        load_before = os.getloadavg()[0]
        wall = {(b, k): [] for b in builds for k in ("csv", "dpsr")}
        cpu = {key: [] for key in wall}
        for _ in range(runs):
            for b, launcher in builds.items():
                for k, f in (("csv", csv), ("dpsr", dpsr)):
                    w, _ = run([launcher, "fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1",
                                "--delta", "1e-6", "--clip-norm", "1", "--output", model, f], cpu[(b, k)])
                    wall[(b, k)].append(w)
        inproc = {}
        for b, launcher in builds.items():
            inproc[b] = json.loads(run([launcher, "bench", "csv", "--file", csv, "--repeat", "3", "--json"])[1])
        load_after = os.getloadavg()[0]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("load average %.1f before, %.1f after; %d interleaved runs of each fit (medians)" % (load_before, load_after,
                                                                                            runs))
    for k in ("csv", "dpsr"):
        w = [statistics.median(wall[(b, k)]) for b in builds]
        c = [statistics.median(cpu[(b, k)]) for b in builds]
        print("fit on the %-4s  wall %.3f -> %.3f (x%.3f)   CPU %.3f -> %.3f (x%.3f)" % (k, w[0], w[1], w[1] / w[0], c[0],
                                                                                     c[1], c[1] / c[0]))
    for key in ("fitAnalyzeGaussCsvSeconds", "fitAnalyzeGaussCsvCpuSeconds", "fitAnalyzeGaussDpsrSeconds",
                "fitAnalyzeGaussDpsrCpuSeconds", "parseOnlyPassSeconds"):
        print("in one JVM, %-30s %.3f -> %.3f" % (key, inproc["first"][key], inproc["second"][key]))


if __name__ == "__main__":
    main()
