#!/usr/bin/env bash
# The measurement behind the table "Useful, or warned before spending: measured" in ../no-bounds.md: one line per
# (table, route, seed): the table, the route, the seed, fit's exit status, the warnings it gave before spending, and
# the release's mean squared canonical correlation with the exact top-2 scores (through its feature map and
# released mean, then also through the clipping). Run from a scratch folder, e.g.
#   mkdir -p /tmp/nb && cd /tmp/nb && DATASETS=/path/to/datasets DPSPECTRA=/path/to/dpspectra /path/to/measure.sh
# Needs numpy. Writes t/*.csv (the tables as plain CSV with a header), *.npy (their raw columns) and out/*.json.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
J="${DPSPECTRA:-dpspectra}"
D="${DATASETS:?set DATASETS to the shared datasets folder}"
mkdir -p t out gen
(cd gen && python3 "$here/generate_tables.py")
python3 - "$D" <<'PY'
import csv, gzip, sys, numpy as np
D = sys.argv[1] + '/'
t = {'wine': np.loadtxt(D + 'wine/wine_data.csv', delimiter=',', skiprows=1)[:, :13],
     'adult': np.array([[float(r[i]) for i in (0, 2, 4, 10, 11, 12)]
                        for r in (l.split(',') for l in gzip.open(D + 'adult/adult.data.gz', 'rt') if l.strip())]),
     'airfoil': np.loadtxt(D + 'airfoil/airfoil_self_noise.dat'),
     'popres': np.array([[float(v) for v in row[3:]] for row in list(csv.reader(open(D + 'popres/popres_pcs.csv')))[1:]])}
for n in ['lognormal-rows', 't3-cells', 'pareto-column']:
    t[n] = np.loadtxt('gen/' + n + '.csv', delimiter=',', skiprows=1)
for n, x in t.items():
    np.save(n + '.npy', x)
    np.savetxt('t/' + n + '.csv', x, delimiter=',', header=','.join('x%d' % (j + 1) for j in range(x.shape[1])),
               comments='', fmt='%.17g')
PY
kinds() { local e="$1" k=""
  grep -q "exact spectrum of" <<<"$e" && k="$k own-spectrum"; grep -q "clips so many rows" <<<"$e" && k="$k clipping"
  grep -q "schema's map" <<<"$e" && k="$k map"; grep -q "simulated draws" <<<"$e" && k="$k draws"
  grep -q "almost flat spectrum" <<<"$e" && k="$k flat"; grep -q "predicted to be useless" <<<"$e" && k="$k advisor"
  echo "${k:- -}"; }
# fit's check before spending is the same with and without --refuse-useless (its simulation is seeded), so one run
# per seed gives both the warning and the release
route1() { local t=$1 s=$2 clip=${3:-private} m=out/$1-r1-${3:-private}-$2.json
  e=$($J fit --algorithm analyze-gauss -k 2 --epsilon 1 --delta 1e-6 --clip-norm $clip --center private --seed $s \
      -o $m t/$t.csv 2>&1); rc=$?
  echo "$t clip-norm-$clip $s $rc [$(kinds "$e")] $(python3 "$here/mscc.py" $m $t.npy)"; }
route2() { local t=$1 s=$2 sc=out/$1-schema-$((100 + $2)).json m=out/$1-r2-$2.json
  if ! $J schema draft --private-epsilon 0.3 --seed $((100 + s)) -o $sc t/$t.csv >/dev/null 2>&1; then
    echo "$t schema-draft $s draft-refused [-] - -"; return; fi
  e=$($J fit --algorithm analyze-gauss -k 2 --epsilon 0.7 --delta 1e-6 --schema $sc --seed $s -o $m t/$t.csv 2>&1)
  rc=$?
  echo "$t schema-draft $s $rc [$(kinds "$e")] $(python3 "$here/mscc.py" $m $t.npy z)"; }
for s in $(seq 1 10); do route1 wine $s; done
for s in $(seq 1 10); do route2 adult $s; done
for s in $(seq 1 10); do route1 adult $s; done
for s in $(seq 1 10); do route1 airfoil $s; done
for s in $(seq 1 30); do route1 airfoil $s private:0.9; done
for t in popres lognormal-rows t3-cells pareto-column; do for s in $(seq 1 10); do route1 $t $s; done; done
for t in wine airfoil popres lognormal-rows t3-cells pareto-column; do route2 $t 1; done
