#!/usr/bin/env python3
"""One .dpsr pass, before and after a change, side by side in one run: `dpspectra bench pass` of two jars, interleaved.

    python3 docs/benchmarks/pass_ab.py BEFORE.jar AFTER.jar [PAIRS] [ROWS] [DIM] [BLAS_THREADS]

Writes one file of ROWS x DIM benchmark rows (default 200,000 x 200, uniform in [-1, 1), seed 1: 320 MB) in a temporary
directory, then runs `java -jar JAR bench pass --file FILE --repeat 5 --json` PAIRS times (default 3) for each jar,
alternating before / after, with OPENBLAS_NUM_THREADS=BLAS_THREADS (default 1, so that the CPU column, the calling
and read-ahead threads', holds every step's whole work). Prints, per jar, the median over the runs of each step's best CPU and wall
seconds and of each ratio, and the load average (`uptime`) before and after. On a shared machine read the CPU ratios.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

STEPS = ["rawRead", "decode", "decodeClip", "streamingProduct", "fileGram", "inMemoryGram"]
RATIOS = ["decodeOverRaw", "decodeClipOverRaw", "streamingProductOverRaw", "fileGramOverInMemory"]


def bench(jar, path, env):
    p = subprocess.run(["java", "-jar", jar, "bench", "pass", "--file", path, "--repeat", "5", "--json"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (jar, p.stderr))
    return json.loads(p.stdout)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    jars = {"before": os.path.abspath(sys.argv[1]), "after": os.path.abspath(sys.argv[2])}
    pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    rows = sys.argv[4] if len(sys.argv) > 4 else "200000"
    dim = sys.argv[5] if len(sys.argv) > 5 else "200"
    env = dict(os.environ, OPENBLAS_NUM_THREADS=sys.argv[6] if len(sys.argv) > 6 else "1")
    work = tempfile.mkdtemp(prefix="dpspectra-pass-")
    try:
        path = os.path.join(work, "rows.dpsr")
        subprocess.run(["java", "-jar", jars["after"], "bench", "pass", "--file", path, "--rows", rows, "--dim", dim,
                        "--repeat", "1"], check=True, stdout=subprocess.DEVNULL, env=env)
        print("uptime before:", subprocess.run(["uptime"], stdout=subprocess.PIPE, text=True).stdout.strip())
        results = {k: [] for k in jars}
        for _ in range(pairs):
            for k, jar in jars.items():
                results[k].append(bench(jar, path, env))
        print("uptime after: ", subprocess.run(["uptime"], stdout=subprocess.PIPE, text=True).stdout.strip())
        first = results["after"][0]
        print("file: %d x %d (%.3f GB), OPENBLAS_NUM_THREADS=%s, %d runs of each jar, interleaved, each the best of 5"
              % (first["rows"], first["dim"], first["gigabytes"], env["OPENBLAS_NUM_THREADS"], pairs))
        print("backend: %s" % first["backend"])

        def med(k, key):
            return statistics.median(r[key] for r in results[k])

        print("| step | before: CPU s (GB/CPU-s) | after: CPU s (GB/CPU-s) | after / before | before: wall s | after: wall s |")
        print("|---|---|---|---|---|---|")
        gb = first["gigabytes"]
        for s in STEPS:
            b, a = med("before", s + "CpuSeconds"), med("after", s + "CpuSeconds")
            print("| %s | %.4f (%.2f) | %.4f (%.2f) | %.2f | %.4f | %.4f |" % (s, b, gb / b, a, gb / a, a / b,
                  med("before", s + "Seconds"), med("after", s + "Seconds")))
        print("| ratio | before, CPU | after, CPU | | before, wall | after, wall |")
        for r in RATIOS:
            print("| %s | %.2f | %.2f | | %.2f | %.2f |" % (r, med("before", r + "Cpu"), med("after", r + "Cpu"),
                  med("before", r), med("after", r)))
        same = all(r["gramsBitIdentical"] for k in results for r in results[k])
        print("file and in-memory Gram bit-identical in every run: %s" % same)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
