# The mean squared canonical correlation of a release's 2-D projection with the exact top-2 principal-component scores
# (centred raw columns; z-scored with a third argument), through the release's feature map and released mean, then also
# through its clipping. Usage: mscc.py MODEL.json RAW.npy [z]. Schemas with categorical columns are not supported.
import json, sys, numpy as np
m = json.load(open(sys.argv[1])); X = np.load(sys.argv[2]); z = len(sys.argv) > 3
U = np.array(m['components'])
pre = m['preprocessing']
if 'schema' in pre:
    feats = []
    j = 0
    for c in pre['schema']['columns']:
        if c['type'] == 'numeric':
            v = X[:, j]
            if c.get('min') is not None: v = np.maximum(v, c['min'])
            if c.get('max') is not None: v = np.minimum(v, c['max'])
            if pre['center'] != 'none': v = v - c.get('center', 0)
            v = v / c.get('scale', 1)
            feats.append(v); j += 1
        elif c['type'] == 'categorical' and c.get('categories'):
            raise SystemExit('categories not supported here')
    Y = np.stack(feats, 1)
else:
    Y = X.copy()
if U.shape[0] != Y.shape[1]:
    U = U.T
mean = np.array(pre['privateMean']) if 'privateMean' in pre else None
inb = pre.get('inputNormBound', pre.get('normBound'))
def cc(A, B):
    A = A - A.mean(0); B = B - B.mean(0)
    qa, _ = np.linalg.qr(A); qb, _ = np.linalg.qr(B)
    s = np.linalg.svd(qa.T @ qb, compute_uv=False)
    return float(np.mean(s ** 2))
R = X - X.mean(0)
if z:
    sd = X.std(0); R = R / np.where(sd > 0, sd, 1)
_, _, vt = np.linalg.svd(R, full_matrices=False); S = R @ vt[:2].T
P1 = (Y - (mean if mean is not None else 0)) @ U
norms = np.linalg.norm(Y, axis=1); f = np.minimum(1, inb / np.maximum(norms, 1e-300)) if inb else 1
Yc = Y * (f[:, None] if inb else 1)
P2 = (Yc - (mean if mean is not None else 0)) @ U
print('%.3f %.3f' % (cc(P1, S), cc(P2, S)))
