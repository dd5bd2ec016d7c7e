#!/usr/bin/env python3
"""Person-level vs row-level analyze-gauss on synthetic data with a person effect (docs/guide/person-level.md).

Each of P persons has a person vector p = V diag(sqrt(lam)) z (z standard normal, V a planted d x k orthonormal
basis) and R rows x = p + e, e ~ N(0, tau^2 I/d): a person's rows share their person vector plus row noise. Rows are
shuffled (a person's rows are not adjacent). For each seed the same file is released twice through the CLI:
  person level: --privacy-unit person --max-rows-per-unit M at (eps, delta);
  row level:    one row as the unit at (eps/R, delta') with delta' = delta / (R e^{(R-1) eps/R}), the group-privacy
                route to the same (eps, delta) guarantee for a person with R rows.
Both use --clip-norm B. The error is the subspace distance to the planted V, ||UU^T - VV^T||_F / sqrt(2k) in [0, 1]
(0: the planted subspace; a random k-subspace of R^d: about sqrt(1 - k/d)).

The non-private floor is the same distance for the exact top-k of the rows' XᵀX (numpy), the sampling error
that no release can remove.

Usage: compare.py [--quick] [--no-m10] [--epsilon E] [--clip-norm B] OUT.csv   (--no-m10: skip the M = 10 run)
(from the repository root; runs ./dpspectra, or the command in the environment variable DPSPECTRA)
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

P, R, D, K = 400, 50, 20, 2
LAM = [0.30, 0.15]   # person-vector variance along the planted directions
TAU2 = 0.25          # row-noise variance (total, spread over d coordinates)
EPS, DELTA, B = 1.0, 1e-6, 1.0


def data(seed, path):
    rng = np.random.default_rng(seed)
    v, _ = np.linalg.qr(rng.normal(size=(D, K)))
    persons = (rng.normal(size=(P, K)) * np.sqrt(LAM)) @ v.T
    ids = np.repeat(np.arange(P), R)
    x = persons[ids] + rng.normal(size=(P * R, D)) * math.sqrt(TAU2 / D)
    order = rng.permutation(P * R)
    with open(path, "w") as f:
        f.write("person," + ",".join(f"x{j + 1}" for j in range(D)) + "\n")
        for i in order:
            f.write(f"u{ids[i]}," + ",".join(f"{c:.6g}" for c in x[i]) + "\n")
    return v, x


def fit(path, extra, seed, eps, delta):
    cmd = os.environ.get("DPSPECTRA", "./dpspectra").split() + ["fit", "--algorithm", "analyze-gauss", "-k", str(K), "--clip-norm", str(B), "--epsilon",
           repr(eps), "--delta", repr(delta), "--seed", str(seed), "--exclude-columns", "person"] + extra + [path]
    if extra:  # the person's column is grouped by, never a feature
        cmd.remove("--exclude-columns")
        cmd.remove("person")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return np.array(json.loads(out)["components"]).T  # d x k (the JSON lists the k columns)


def error(u, v):
    return np.linalg.norm(u @ u.T - v @ v.T) / math.sqrt(2 * K)


def main():
    global EPS, B
    args = sys.argv[1:]
    if "--clip-norm" in args:
        B = float(args[args.index("--clip-norm") + 1])
        del args[args.index("--clip-norm"):args.index("--clip-norm") + 2]
    quick = "--quick" in args
    if "--epsilon" in args:
        EPS = float(args[args.index("--epsilon") + 1])
        del args[args.index("--epsilon"):args.index("--epsilon") + 2]
    out = [a for a in args if not a.startswith("--")][0]
    seeds = range(1, 4 if quick else 11)
    eps_row = EPS / R
    delta_row = DELTA / (R * math.exp((R - 1) * EPS / R))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            path = os.path.join(tmp, f"persons-{seed}.csv")
            v, x = data(seed, path)
            floor = error(np.linalg.eigh(x.T @ x)[1][:, -K:], v)
            person = error(fit(path, ["--privacy-unit", "person", "--max-rows-per-unit", str(R)], seed, EPS, DELTA), v)
            person10 = float("nan") if "--no-m10" in args else error(fit(path, ["--privacy-unit", "person",
                                                                              "--max-rows-per-unit", "10"], seed, EPS, DELTA), v)
            row = error(fit(path, [], seed, eps_row, delta_row), v)
            rows.append((seed, person, person10, row, floor))
            print(f"seed {seed}: person M={R} {person:.4f}  person M=10 {person10:.4f}  row-level {row:.4f}  "
                  f"non-private {floor:.4f}", file=sys.stderr)
    with open(out, "w") as f:
        f.write("seed,person_level_M50,person_level_M10,row_level_group_route,non_private_floor\n")
        for r in rows:
            f.write(f"{r[0]},{r[1]:.6f},{r[2]:.6f},{r[3]:.6f},{r[4]:.6f}\n")
    a = np.array([r[1:] for r in rows])
    print(f"epsilon = {EPS:g}, delta = {DELTA:g}, --clip-norm {B:g}; row-level eps' = {eps_row:g}, delta' = {delta_row:.4g}; "
          f"{len(rows)} seeds")
    print(f"| | person level, M = 50 (ε = {EPS:g}) | person level, M = 10 (ε = {EPS:g}) | row level, ε/50 = {eps_row:g} "
          f"(group privacy) | non-private floor |")
    print("|---|---|---|---|---|")
    print("| mean error | " + " | ".join(f"{m:.4f}" for m in a.mean(axis=0)) + " |")
    print("| sd | " + " | ".join(f"{s:.4f}" for s in a.std(axis=0, ddof=1)) + " |")
    print(f"| ratio row/person (M = 50) | | | {a[:, 2].mean() / a[:, 0].mean():.2f} | |")


if __name__ == "__main__":
    main()
