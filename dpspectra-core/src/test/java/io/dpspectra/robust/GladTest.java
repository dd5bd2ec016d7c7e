package io.dpspectra.robust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.synthetic.Haystack;
import org.junit.jupiter.api.Test;

class GladTest {
    @Test
    void riemannianGradientMatchesFiniteDifferencesAlongTangentDirections() {
        RandomSource random = RandomSource.seededForReproducibility(11);
        Haystack.Sample s = Haystack.generate(300, 12, 2, 0.3, random);
        Matrix v = Orthonormal.qr(StiefelTest.gaussian(12, 2, random)); // away from every inlier's subspace
        Matrix grad = Glad.riemannianGradient(s.rows(), v);
        assertThat(v.transposeTimes(grad).maxAbs()).isLessThan(1e-13); // tangent
        for (int t = 0; t < 5; t++) {
            Matrix h = Stiefel.tangent(v, StiefelTest.gaussian(12, 2, random));
            double eps = 1e-6;
            double up = Glad.objective(s.rows(), null, Stiefel.exp(v, h.scaled(eps)));
            double down = Glad.objective(s.rows(), null, Stiefel.exp(v, h.scaled(-eps)));
            double fd = (up - down) / (2 * eps);
            assertThat(grad.frobeniusInner(h)).isCloseTo(fd, within(1e-7 * Math.max(1, Math.abs(fd))));
        }
    }

    @Test
    void printedDirectionIsMinusTheGradientSoSteppingAlongItDecreasesTheEnergy() {
        RandomSource random = RandomSource.seededForReproducibility(12);
        Haystack.Sample s = Haystack.generate(400, 10, 2, 0.5, random);
        Matrix v = Orthonormal.qr(StiefelTest.gaussian(10, 2, random));
        Matrix g = Glad.descentDirection(s.rows(), null, v, 400, Glad.DEFAULT_TOLERANCE);
        assertThat(g.plus(Glad.riemannianGradient(s.rows(), v)).maxAbs()).isLessThan(1e-15);
        double f0 = Glad.objective(s.rows(), null, v);
        assertThat(Glad.objective(s.rows(), null, Stiefel.project(v.plus(g.scaled(1e-3))))).isLessThan(f0);
        assertThat(Glad.objective(s.rows(), null, Stiefel.project(v.minus(g.scaled(1e-3))))).isGreaterThan(f0);
    }

    @Test
    void eachRowsTermHasFrobeniusNormAtMostOne() {
        RandomSource random = RandomSource.seededForReproducibility(13);
        Haystack.Sample s = Haystack.generate(200, 8, 3, 0.5, random);
        Matrix v = Orthonormal.qr(StiefelTest.gaussian(8, 3, random));
        for (int i = 0; i < 200; i++) {
            Matrix gi = Glad.descentDirection(s.rows(), new int[] {i}, v, 1, 0);
            assertThat(gi.frobeniusNorm()).isLessThanOrEqualTo(1 + 1e-12);
        }
    }

    @Test
    void parallelBlocksGiveTheSameDirectionAsOneThread() {
        RandomSource random = RandomSource.seededForReproducibility(14);
        Haystack.Sample s = Haystack.generate(3000, 400, 2, 0.5, random); // above the parallel threshold
        Matrix v = Orthonormal.qr(StiefelTest.gaussian(400, 2, random));
        Matrix a = Glad.descentDirection(s.rows(), null, v, 3000, Glad.DEFAULT_TOLERANCE);
        Matrix b = Glad.descentDirection(s.rows(), null, v, 3000, Glad.DEFAULT_TOLERANCE);
        assertThat(a).isEqualTo(b);
    }

    /**
     * The direction is the same, bit for bit, as a plain one-row-at-a-time evaluation with the documented order of
     * the arithmetic (the kernel's loop structure changes speed, never the released values): every r from 1 to 6
     * (one- and four-column passes), D not a multiple of 4, rows on the subspace (ρ = 0, left out), batches with
     * repeated rows and more than one block.
     */
    @Test
    void directionIsBitIdenticalToThePlainOneRowAtATimeEvaluation() {
        RandomSource random = RandomSource.seededForReproducibility(15);
        for (int r = 1; r <= 6; r++) {
            for (int d : new int[] {7, 13, 64, 101}) {
                if (r >= d) {
                    continue;
                }
                Haystack.Sample s = Haystack.generate(300, d, r, 0.5, random);
                double[][] rows = s.rows();
                Matrix v = Orthonormal.qr(StiefelTest.gaussian(d, r, random));
                rows[5] = v.column(0).clone(); // on the subspace: ρ ≈ 0
                int[] idx = new int[290];
                for (int i = 0; i < idx.length; i++) {
                    idx[i] = random.nextInt(rows.length);
                }
                assertThat(Glad.descentDirection(rows, idx, v, 87, Glad.DEFAULT_TOLERANCE).data())
                        .isEqualTo(plainDirection(rows, idx, v, 87, Glad.DEFAULT_TOLERANCE));
                assertThat(Glad.descentDirection(rows, null, v, 300, 0.0).data())
                        .isEqualTo(plainDirection(rows, null, v, 300, 0.0));
            }
        }
    }

    /** The reference: one row at a time, each sum in the documented order, blocks of 128 rows summed in order. */
    private static double[] plainDirection(double[][] rows, int[] idx, Matrix v, double divisor, double tolerance) {
        int m = idx == null ? rows.length : idx.length;
        int d = v.rows();
        int r = v.cols();
        double[] g = new double[d * r];
        for (int from = 0; from < m; from += 128) {
            double[] acc = new double[d * r];
            for (int t = from; t < Math.min(m, from + 128); t++) {
                double[] x = rows[idx == null ? t : idx[t]];
                double[] y = new double[r];
                for (int c = 0; c < r; c++) {
                    double[] s = new double[4];
                    int j = 0;
                    for (; j + 3 < d; j += 4) {
                        for (int l = 0; l < 4; l++) {
                            s[l] += x[j + l] * v.get(j + l, c);
                        }
                    }
                    for (; j < d; j++) {
                        s[0] += x[j] * v.get(j, c);
                    }
                    y[c] = (s[0] + s[1]) + (s[2] + s[3]);
                }
                double[] e = new double[d];
                double[] ss = new double[2];
                for (int j = 0; j < d; j++) {
                    e[j] = x[j];
                    for (int c = 0; c < r; c++) {
                        e[j] -= v.get(j, c) * y[c];
                    }
                    ss[r == 2 && j < (d & ~1) ? j & 1 : 0] += e[j] * e[j];
                }
                double rho = Math.sqrt(ss[0] + ss[1]);
                if (rho > tolerance) {
                    for (int c = 0; c < r; c++) {
                        for (int j = 0; j < d; j++) {
                            acc[c * d + j] += e[j] * (y[c] / rho);
                        }
                    }
                }
            }
            for (int i = 0; i < g.length; i++) {
                g[i] += acc[i];
            }
        }
        for (int i = 0; i < g.length; i++) {
            g[i] *= 1.0 / divisor;
        }
        return g;
    }
}
