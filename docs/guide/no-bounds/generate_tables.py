# Tables this project never tuned to, for ../no-bounds.md (writes lognormal-rows.csv, t3-cells.csv, pareto-column.csv here).
import numpy as np
rng = np.random.default_rng(2026)
def factor(n, d, strengths, noise):
    L = rng.standard_normal((len(strengths), d)); L /= np.linalg.norm(L, axis=1, keepdims=True)
    Z = rng.standard_normal((n, len(strengths))) * strengths
    return Z @ L * np.sqrt(d) + noise * rng.standard_normal((n, d))
def write(name, X):
    np.savetxt(name + '.csv', X, delimiter=',', header=','.join('x%d' % (j + 1) for j in range(X.shape[1])), comments='', fmt='%.10g')
# 1: a 2-factor model of 12 columns, each row scaled by a log-normal factor (sigma 0.8)
X = factor(2500, 12, [3, 2], 0.5) * np.exp(0.8 * rng.standard_normal((2500, 1)))
write('lognormal-rows', X)
# 2: 8 columns of a 2-factor model plus Student-t cells (3 degrees of freedom)
X = factor(4000, 8, [3, 2], 0) + rng.standard_t(3, (4000, 8))
write('t3-cells', X)
# 3: 10 columns of a 2-factor model, one of them replaced by a Pareto (alpha 1.5) column on a scale of 50
X = factor(1500, 10, [3, 2], 0.5); X[:, 9] = 50 * (rng.pareto(1.5, 1500) + 1)
write('pareto-column', X)
