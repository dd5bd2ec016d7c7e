#!/usr/bin/env python3
"""Writes a CSV of visits for the person-level memory measurement (docs/guide/person-level.md, "Input and memory").

Each row belongs to a person drawn uniformly at random from PERSONS (so a person's rows are spread over the whole
file), and is the person's centre plus row noise, in D columns x1..xD after the id column 'person'.

    python3 make-visits.py OUT.csv [--rows N] [--persons P] [--dims D] [--seed S]
"""
import argparse
import random


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--rows", type=int, default=1_200_000)
    ap.add_argument("--persons", type=int, default=100_000)
    ap.add_argument("--dims", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    r = random.Random(a.seed)
    centres = [[0.5 * r.gauss(0, 1) for _ in range(a.dims)] for _ in range(a.persons)]
    with open(a.out, "w") as f:
        f.write("person," + ",".join("x%d" % (j + 1) for j in range(a.dims)) + "\n")
        for _ in range(a.rows):
            p = r.randrange(a.persons)
            c = centres[p]
            f.write("u%d," % p + ",".join("%.4f" % (x + 0.3 * r.gauss(0, 1)) for x in c) + "\n")


if __name__ == "__main__":
    main()
