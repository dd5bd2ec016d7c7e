#!/usr/bin/env python3
"""Person level on a real table: isolet5's speakers (docs/guide/person-level.md, "A real table").

isolet5 (UCI ISOLET, test part; ../shared/datasets/isolet5) has no speaker column, but its rows come in 30 blocks,
one per speaker (121-150), each the letters A A B B ... Z Z (one block has 51 rows): a new speaker starts where the
label goes down. This script writes the table with that speaker as a column and releases the top-2 subspace of XᵀX
three ways at (1, 1e-6) for a speaker, --clip-norm sqrt(617) (public: every feature lies in [-1, 1]):
person level --unit-bound rows and frobenius (M = 52), and row level at (eps/52, delta') by group privacy. The error
is the distance to the exact top-2 subspace of the same rows (a random 2-subspace of R^617: about 0.998).

Usage (from the repository root): isolet5.py [DATASETS_DIR]   (runs ./dpspectra, or the command in DPSPECTRA)
"""
import gzip
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

K, M, EPS, DELTA = 2, 52, 1.0, 1e-6


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "../shared/datasets"
    with gzip.open(os.path.join(root, "isolet5", "isolet5.csv.gz")) as f:
        table = np.loadtxt(f, delimiter=",", skiprows=1)
    labels, x = table[:, -1], table[:, :-1]
    speaker = np.concatenate([[0], np.cumsum(labels[1:] < labels[:-1])])
    print(f"{len(x)} rows, {speaker.max() + 1} speakers, rows per speaker {sorted(set(np.bincount(speaker)))}",
          file=sys.stderr)
    b = math.sqrt(x.shape[1])
    ref = np.linalg.eigh(x.T @ x)[1][:, -K:]
    eps_row = EPS / M
    delta_row = DELTA / (M * math.exp((M - 1) * EPS / M))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "isolet5-speakers.csv")
        with open(path, "w") as f:
            f.write("speaker," + ",".join(f"f{j + 1}" for j in range(x.shape[1])) + "\n")
            for i in range(len(x)):
                f.write(f"s{speaker[i]}," + ",".join(repr(float(c)) for c in x[i]) + "\n")

        def error(extra, eps, delta, seed):
            cmd = os.environ.get("DPSPECTRA", "./dpspectra").split() + [
                "fit", "--algorithm", "analyze-gauss", "-k", str(K), "--clip-norm", repr(b), "--epsilon", repr(eps),
                "--delta", repr(delta), "--seed", str(seed)] + extra + [path]
            u = np.array(json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
                         ["components"]).T
            return np.linalg.norm(u @ u.T - ref @ ref.T) / math.sqrt(2 * K)

        unit = ["--privacy-unit", "speaker", "--max-rows-per-unit", str(M)]
        for seed in (1, 2, 3):
            print(f"seed {seed}: person level rows {error(unit + ['--unit-bound', 'rows'], EPS, DELTA, seed):.4f}  "
                  f"frobenius {error(unit + ['--unit-bound', 'frobenius'], EPS, DELTA, seed):.4f}  "
                  f"row level {error(['--exclude-columns', 'speaker'], eps_row, delta_row, seed):.4f}", flush=True)


if __name__ == "__main__":
    main()
