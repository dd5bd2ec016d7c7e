#!/usr/bin/env python3
"""dp-SGGD against streaming-power on the same .dpsr, two builds side by side in one run (CPU seconds, interleaved).

    git worktree add --detach /tmp/dpspectra-base main && (cd /tmp/dpspectra-base && ./dpspectra --help)
    python3 docs/benchmarks/robust_bench.py /tmp/dpspectra-base/dpspectra ./dpspectra [RUNS] [ROWS]

Both launchers run `fit --algorithm dp-sggd -k 5 --epsilon 1 --delta 1e-6 --clip-norm 1 --seed 1` (the defaults:
T = N iterations, Poisson batches of B = ceil(N sqrt(eps/(4T))) rows, an Analyze-Gauss start with 20 % of the budget)
and `fit --algorithm streaming-power -k 5 --clip-norm 1` on one haystack file of ROWS x 100 (default 30,000;
`generate --model haystack -k 5 --seed 1`, written as .dpsr), RUNS times each (default 3), interleaved, so that a
change of load hits every command alike. Prints the median wall and CPU seconds (user + system of the launcher and
its JVM) per command, dp-SGGD's CPU over streaming-power's for each build, and the load average before and after;
whether the two builds' dp-SGGD releases are bit-identical is printed too. The generated files are deleted at the end.
"""
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_builds  # noqa: E402  (the one timed runner of the benchmark scripts)


def run(args):
    """Wall and CPU seconds (user + system of the command and its children) of one command; exits if it fails."""
    cpu = []
    wall, _ = compare_builds.run(args, cpu)
    return wall, cpu[0]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    builds = {"first": os.path.abspath(sys.argv[1]), "second": os.path.abspath(sys.argv[2])}
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    rows = int(sys.argv[4]) if len(sys.argv) > 4 else 30000
    tmp = tempfile.mkdtemp(prefix="dpspectra-robust-")
    try:
        data = os.path.join(tmp, "h.dpsr")
        for launcher in builds.values():
            run([launcher, "--help"])  # builds a stale jar before timing
        run([builds["second"], "generate", "--model", "haystack", "-k", "5", "--rows", str(rows), "--dim", "100",
             "--seed", "1", "--output", data])
        commands = {
            "dp-sggd": ["--algorithm", "dp-sggd", "--epsilon", "1", "--delta", "1e-6", "--seed", "1"],
            "streaming-power": ["--algorithm", "streaming-power"],
        }
        load_before = os.getloadavg()
        wall = {(b, c): [] for b in builds for c in commands}
        cpu = {key: [] for key in wall}
        for i in range(runs):
            for b, launcher in builds.items():
                for c, extra in commands.items():
                    out = os.path.join(tmp, "%s-%s.json" % (b, c))
                    w, u = run([launcher, "fit", "-k", "5", "--clip-norm", "1"] + extra + ["--output", out, data])
                    wall[(b, c)].append(w)
                    cpu[(b, c)].append(u)
        load_after = os.getloadavg()
        print("rows %d x 100, k = 5, %d runs each, interleaved; load average before %s, after %s"
              % (rows, runs, " ".join("%.2f" % x for x in load_before), " ".join("%.2f" % x for x in load_after)))
        print("| build | command | wall s (median) | CPU s (median) | CPU s (all runs) |")
        print("|---|---|---|---|---|")
        for b in builds:
            for c in commands:
                print("| %s | %s | %.2f | %.2f | %s |" % (b, c, statistics.median(wall[(b, c)]),
                                                      statistics.median(cpu[(b, c)]),
                                                      " ".join("%.2f" % x for x in cpu[(b, c)])))
        for b in builds:
            print("%s: dp-sggd CPU / streaming-power CPU = %.2f" % (
                b, statistics.median(cpu[(b, "dp-sggd")]) / statistics.median(cpu[(b, "streaming-power")])))
        same = open(os.path.join(tmp, "first-dp-sggd.json")).read() == open(os.path.join(tmp, "second-dp-sggd.json")).read()
        print("dp-sggd releases of the two builds (seed 1) identical: %s" % same)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
