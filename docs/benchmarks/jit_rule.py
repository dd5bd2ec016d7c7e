#!/usr/bin/env python3
"""The launcher's JIT rule per input kind: C1 only against C2, side by side in one run (CPU seconds, interleaved).

    python3 docs/benchmarks/jit_rule.py ./dpspectra [RUNS] [WORKDIR]

Generates `generate --model spiked --dim 100 --seed 1` files: CSV of 100,000 / 200,000 / 400,000 rows (199, 397 and
794 MB) and .dpsr of 100,000 / 500,000 / 1,000,000 / 2,000,000 rows (80, 400, 800 and 1,600 MB), in WORKDIR (default
a temporary directory, deleted at the end). Each file is fitted with `fit -k 5 --clip-norm 1` and `--algorithm
analyze-gauss --epsilon 1 --delta 1e-6` (both kinds) and `--algorithm streaming-power` (.dpsr), with
DPSPECTRA_JIT=c1 (the launcher's C1-only flags) and DPSPECTRA_JIT=c2 (tiered compilation with C2), RUNS times each
(default 3), interleaved. Prints the median CPU seconds (user + system) of each and C2/C1, with the load average
before and after. A ratio above 1 means C1 only is cheaper at that size.
"""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile


def run(args, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(args), p.stderr))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    launcher = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    own = len(sys.argv) <= 3
    work = tempfile.mkdtemp(prefix="dpspectra-jit-") if own else sys.argv[3]
    try:
        run([launcher, "--help"], os.environ)  # builds a stale jar before timing
        files = [("csv", n) for n in (100000, 200000, 400000)] + [("dpsr", n) for n in (100000, 500000, 1000000, 2000000)]
        paths = {}
        for kind, n in files:
            path = os.path.join(work, "s%d.%s" % (n, kind))
            if not os.path.exists(path):
                run([launcher, "generate", "--model", "spiked", "--rows", str(n), "--dim", "100", "--seed", "1",
                     "--output", path], os.environ)
            paths[(kind, n)] = path
        algorithms = {"analyze-gauss": ["--algorithm", "analyze-gauss", "--epsilon", "1", "--delta", "1e-6"],
                      "streaming-power": ["--algorithm", "streaming-power"]}
        cases = [(kind, n, a) for kind, n in files for a in algorithms if kind == "dpsr" or a == "analyze-gauss"]
        cpu = {(c, jit): [] for c in cases for jit in ("c1", "c2")}
        load_before = os.getloadavg()
        out = os.path.join(work, "m.json")
        for _ in range(runs):
            for c in cases:
                for jit in ("c1", "c2"):
                    env = dict(os.environ, DPSPECTRA_JIT=jit)
                    cpu[(c, jit)].append(run([launcher, "fit", "-k", "5", "--clip-norm", "1"] + algorithms[c[2]]
                                             + ["--output", out, paths[(c[0], c[1])]], env))
        load_after = os.getloadavg()
        print("%d runs each, interleaved; load average before %s, after %s" % (
            runs, " ".join("%.2f" % x for x in load_before), " ".join("%.2f" % x for x in load_after)))
        print("| input | size | algorithm | C1 only: CPU s | C2: CPU s | C2 / C1 |")
        print("|---|---|---|---|---|---|")
        for c in cases:
            size = os.path.getsize(paths[(c[0], c[1])]) / 1e6
            a = statistics.median(cpu[(c, "c1")])
            b = statistics.median(cpu[(c, "c2")])
            print("| .%s, %d x 100 | %.0f MB | %s | %.2f | %.2f | %.2f |" % (c[0], c[1], size, c[2], a, b, b / a))
    finally:
        if own:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
