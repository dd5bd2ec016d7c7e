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
       compare.py --sweep [--quick] [--dims 20,100] [--shares 1,0.5,0] OUT.csv   (writes each seed's line as it is measured)
       compare.py --sweep --only-row-level --clip-norm B2 [--dims ...] OUT2.csv   (the row-level route alone)
       compare.py --sweep --dims D --shares S --seeds 1,2,3 OUT.csv   (a part of a sweep)
       compare.py --table OUT.csv[,PART.csv...] [--row-level-from OUT2.csv --row-level-clip B2]   (the table)
(from the repository root; runs ./dpspectra, or the command in the environment variable DPSPECTRA)

--sweep varies how much of each row is the person's: the planted signal V diag(lam) V^T is split into a person part
(share s, shared by all of a person's rows) and a row part (share 1 - s, drawn afresh for every row),
  x = V diag(sqrt(s lam)) z_person + V diag(sqrt((1 - s) lam)) z_row + e,   e ~ N(0, tau^2 I/d),
so every row has the same distribution whatever s (the planted subspace and the non-private floor stay comparable),
and only how alike a person's rows are changes: s = 1 is the data above (rows = a strong person vector plus small
noise), s = 0 is persons whose rows are independent draws pointing in diverse directions. For each s in SHARES and
each d, 10 seeds, each released four ways at the same guarantee for a person: person level with --unit-bound rows,
person level with --unit-bound frobenius (both M = R = 50), row level at (eps/R, delta'), and the non-private floor.
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


SHARES = [1.0, 0.5, 0.0]
nan = float("nan")


def sweep_data(seed, path, d, share):
    rng = np.random.default_rng(seed)
    v, _ = np.linalg.qr(rng.normal(size=(d, K)))
    lam = np.array(LAM)
    persons = (rng.normal(size=(P, K)) * np.sqrt(share * lam)) @ v.T
    ids = np.repeat(np.arange(P), R)
    x = (persons[ids] + (rng.normal(size=(P * R, K)) * np.sqrt((1 - share) * lam)) @ v.T
         + rng.normal(size=(P * R, d)) * math.sqrt(TAU2 / d))
    order = rng.permutation(P * R)
    with open(path, "w") as f:
        f.write("person," + ",".join(f"x{j + 1}" for j in range(d)) + "\n")
        for i in order:
            f.write(f"u{ids[i]}," + ",".join(f"{c:.6g}" for c in x[i]) + "\n")
    return v, x, ids


def frobenius_to_trace(x, ids, bound):
    """Mean over persons of ||P||_F / tr P for the rows clipped to B/M^(1/4) (1: aligned rows; 1/sqrt(M): orthogonal)."""
    r = bound / R ** 0.25
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    c = x * np.minimum(1, r / np.maximum(norms, 1e-300))
    out = []
    for p in range(P):
        y = c[ids == p]
        out.append(np.linalg.norm(y @ y.T) / np.trace(y @ y.T))
    return float(np.mean(out))


def sweep(args):
    quick = "--quick" in args
    only_row = "--only-row-level" in args  # the row-level route alone (e.g. at another --clip-norm)
    dims = [20]
    if "--dims" in args:
        dims = [int(t) for t in args[args.index("--dims") + 1].split(",")]
        del args[args.index("--dims"):args.index("--dims") + 2]
    shares = SHARES
    if "--shares" in args:
        shares = [float(t) for t in args[args.index("--shares") + 1].split(",")]
        del args[args.index("--shares"):args.index("--shares") + 2]
    out = [a for a in args if not a.startswith("--")][0]
    seeds = range(1, 4 if quick else 11)
    if "--seeds" in args:  # a part of a sweep, e.g. to complete an interrupted one
        seeds = [int(t) for t in args[args.index("--seeds") + 1].split(",")]
        out = [a for a in args if not a.startswith("--") and a != args[args.index("--seeds") + 1]][0]
    eps_row = EPS / R
    delta_row = DELTA / (R * math.exp((R - 1) * EPS / R))
    unit = ["--privacy-unit", "person", "--max-rows-per-unit", str(R)]
    rows = []
    header = ("d,person_share_of_planted,person_share_of_row_variance,seed,person_level_rows,person_level_frobenius,"
              "row_level_group_route,non_private_floor,frobenius_over_trace\n")
    with tempfile.TemporaryDirectory() as tmp, open(out, "w") as f:
        f.write(header)
        for d in dims:
            for seed in seeds:  # seed-major: an interrupted sweep has seen every share
                for share in shares:
                    path = os.path.join(tmp, f"persons-{d}-{share}-{seed}.csv")
                    v, x, ids = sweep_data(seed, path, d, share)
                    floor = error(np.linalg.eigh(x.T @ x)[1][:, -K:], v)
                    ratio = frobenius_to_trace(x, ids, B)
                    rows_ = nan if only_row else error(fit(path, unit + ["--unit-bound", "rows"], seed, EPS, DELTA), v)
                    frob = nan if only_row else error(fit(path, unit + ["--unit-bound", "frobenius"], seed, EPS, DELTA),
                                                      v)
                    row = error(fit(path, [], seed, eps_row, delta_row), v)
                    person_var = share * sum(LAM) / (sum(LAM) + TAU2)
                    r = (d, share, person_var, seed, rows_, frob, row, floor, ratio)
                    rows.append(r)
                    # one line per seed as it is measured: an interrupted sweep keeps what it measured
                    f.write(f"{r[0]},{r[1]:g},{r[2]:.4f},{r[3]}," + ",".join(f"{t:.6f}" for t in r[4:]) + "\n")
                    f.flush()
                    print(f"d {d} s {share} seed {seed}: person rows {rows_:.4f}  person frobenius {frob:.4f}  "
                          f"row-level {row:.4f}  non-private {floor:.4f}  ||P||_F/tr P {ratio:.3f}", file=sys.stderr,
                          flush=True)
    table(rows, len(seeds))


def table(rows, nseeds, extra=None, extra_clip=None):
    """The markdown table of the sweep's rows (d, share, share of row variance, seed, four errors, ratio); extra: the
    row-level errors of another run at --clip-norm extra_clip, by (d, share, seed)."""
    eps_row = EPS / R
    delta_row = DELTA / (R * math.exp((R - 1) * EPS / R))
    print(f"epsilon = {EPS:g}, delta = {DELTA:g}, --clip-norm {B:g}, {P} persons x {R} rows, M = {R}; row-level "
          f"eps' = {eps_row:g}, delta' = {delta_row:.4g}; {nseeds} seeds per line (mean, sd in brackets)")
    more = f" row level, group privacy, --clip-norm {extra_clip:g} |" if extra else ""
    print("| d | person effect: share of planted signal (of row variance) | mean ‖P‖_F / tr P | person level, rows | "
          f"person level, frobenius | row level, group privacy |{more} non-private floor | row level / rows | "
          "row level / frobenius |" + (f" row level ({extra_clip:g}) / frobenius |" if extra else "")
          + " rows / frobenius |")
    print("|---" * (10 + (2 if extra else 0)) + "|")
    for d in sorted({r[0] for r in rows}):
        for share in SHARES:
            sel = [r for r in rows if r[0] == d and r[1] == share]
            a = np.array([r[4:] for r in sel])
            if len(a) < 2:
                continue
            m, sd = a.mean(axis=0), a.std(axis=0, ddof=1)
            cells = [f"{m[i]:.4f} ({sd[i]:.4f})" for i in range(4)]
            ratios = [f"{m[2] / m[0]:.2f}×", f"{m[2] / m[1]:.2f}×"]
            if extra:
                matched = [r for r in sel if (d, share, r[3]) in extra]
                e = np.array([extra[(d, share, r[3])] for r in matched])
                f = np.array([r[5] for r in matched])  # frobenius on the same seeds
                sde = f"{e.std(ddof=1):.4f}" if len(e) > 1 else "-"
                cells.insert(3, f"{e.mean():.4f} ({sde}" + (f", {len(e)} seeds)" if len(e) < len(sel) else ")")
                             if len(e) else "not run")
                ratios.append(f"{e.mean() / f.mean():.2f}×" if len(e) else "-")
            ratios.append(f"{m[0] / m[1]:.2f}×")
            print(f"| {d} ({len(a)} seeds) | {share:g} ({share * sum(LAM) / (sum(LAM) + TAU2):.2f}) | {m[4]:.3f} | "
                  + " | ".join(cells + ratios) + " |")


def read_sweep(path):
    with open(path) as f:
        next(f)
        rows = [tuple(float(t) for t in line.split(",")) for line in f if line.strip()]
    return [(int(r[0]),) + r[1:3] + (int(r[3]),) + r[4:] for r in rows]


def main():
    global EPS, B
    args = sys.argv[1:]
    if "--table" in args:  # the table of sweep CSVs (parts of one sweep, e.g. of an interrupted one, concatenated)
        files = args[args.index("--table") + 1].split(",")
        rows = sorted({(r[0], r[1], r[3]): r for f in files for r in read_sweep(f)}.values())
        extra, extra_clip = None, None
        if "--row-level-from" in args:  # a sweep --only-row-level at another --clip-norm, merged as a column
            extra_clip = float(args[args.index("--row-level-clip") + 1])
            extra = {(r[0], r[1], r[3]): r[6] for r in read_sweep(args[args.index("--row-level-from") + 1])}
        return table(rows, "up to 10", extra, extra_clip)
    if "--sweep" in args:
        args.remove("--sweep")
        if "--clip-norm" in args:
            B = float(args[args.index("--clip-norm") + 1])
            del args[args.index("--clip-norm"):args.index("--clip-norm") + 2]
        return sweep(args)
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
