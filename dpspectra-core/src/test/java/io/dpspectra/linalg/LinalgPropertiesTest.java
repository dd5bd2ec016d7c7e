package io.dpspectra.linalg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Properties of every linalg kernel, under both the default (native if present) and pure-Java backends. */
class LinalgPropertiesTest {

    static Stream<Backend> backends() {
        return Stream.of(Backend.DEFAULT, Backend.PURE_JAVA);
    }

    private static Matrix random(int rows, int cols, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Matrix m = new Matrix(rows, cols);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                m.set(i, j, rnd.nextDouble(-1, 1));
            }
        }
        return m;
    }

    private static Matrix naiveGram(Matrix x) {
        int d = x.cols();
        Matrix g = new Matrix(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                double s = 0;
                for (int r = 0; r < x.rows(); r++) {
                    s += x.get(r, i) * x.get(r, j);
                }
                g.set(i, j, s);
            }
        }
        return g;
    }

    @ParameterizedTest
    @MethodSource("backends")
    void gramMatchesNaiveProductForOddShapesAndBlockSizes(Backend backend) {
        // d not a multiple of the 4x4 tile, rows not a multiple of the block or kernel panel
        for (int d : new int[] {1, 3, 5, 17, 66}) {
            Matrix x = random(301, d, 11 + d);
            Matrix expected = naiveGram(x);
            Gram g = new Gram(d, backend);
            double[] row = new double[d];
            for (int r = 0; r < x.rows(); r++) {
                for (int j = 0; j < d; j++) {
                    row[j] = x.get(r, j);
                }
                g.add(row);
            }
            Matrix got = g.result();
            assertThat(g.rowCount()).isEqualTo(301);
            assertThat(got.minus(expected).maxAbs()).isLessThan(1e-12 * expected.maxAbs());
            assertThat(got.minus(got.transpose()).maxAbs()).isZero();
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void gramAddBlockOfManyRowsMatchesNaive(Backend backend) {
        int d = 130;
        int n = 1000; // several kernel panels, parallel path
        Matrix x = random(n, d, 5);
        double[] rowMajor = new double[n * d];
        for (int r = 0; r < n; r++) {
            for (int j = 0; j < d; j++) {
                rowMajor[r * d + j] = x.get(r, j);
            }
        }
        Gram g = new Gram(d, backend);
        g.add(x.row(0));
        g.addBlock(rowMajor, n);
        Matrix expected = naiveGram(x);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                expected.add(i, j, x.get(0, i) * x.get(0, j));
            }
        }
        assertThat(g.result().minus(expected).maxAbs()).isLessThan(1e-12 * expected.maxAbs());
    }

    @ParameterizedTest
    @MethodSource("backends")
    void eigenPairsSatisfyDefinitionAreOrthonormalAndSortedDescending(Backend backend) {
        Matrix a = naiveGram(random(40, 12, 3));
        SymmetricEigen e = SymmetricEigen.of(a, backend);
        double scale = e.values()[0];
        for (int k = 0; k < 12; k++) {
            double[] v = e.vectors().column(k);
            double[] av = a.times(v);
            for (int i = 0; i < 12; i++) {
                assertThat(av[i]).isCloseTo(e.values()[k] * v[i], within(1e-10 * scale));
            }
            if (k > 0) {
                assertThat(e.values()[k]).isLessThanOrEqualTo(e.values()[k - 1]);
            }
        }
        Matrix vtv = e.vectors().transposeTimes(e.vectors());
        assertThat(vtv.minus(Matrix.identity(12)).maxAbs()).isLessThan(1e-12);

        SymmetricEigen top = SymmetricEigen.top(a, 3, backend);
        assertThat(top.values()).hasSize(3);
        assertThat(top.vectors().cols()).isEqualTo(3);
        for (int k = 0; k < 3; k++) {
            assertThat(top.values()[k]).isCloseTo(e.values()[k], within(1e-10 * scale));
            double dot = 0;
            for (int i = 0; i < 12; i++) {
                dot += top.vectors().get(i, k) * e.vectors().get(i, k);
            }
            assertThat(Math.abs(dot)).isCloseTo(1.0, within(1e-8));
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void qrGivesOrthonormalBasisOfTheSameColumnSpace(Backend backend) {
        Matrix y = random(30, 5, 8);
        Matrix q = Orthonormal.qr(y, backend);
        assertThat(q.rows()).isEqualTo(30);
        assertThat(q.cols()).isEqualTo(5);
        assertThat(q.transposeTimes(q).minus(Matrix.identity(5)).maxAbs()).isLessThan(1e-12);
        // Y is reconstructed by projecting onto span(Q): Q Qᵀ Y = Y
        Matrix recon = q.times(q.transposeTimes(y));
        assertThat(recon.minus(y).maxAbs()).isLessThan(1e-12);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void thinSvdReconstructsTheMatrixWithSortedSingularValues(Backend backend) {
        Matrix a = random(20, 6, 9);
        ThinSvd s = ThinSvd.of(a, backend);
        Matrix us = s.u().copy();
        for (int k = 0; k < s.singular().length; k++) {
            for (int i = 0; i < us.rows(); i++) {
                us.set(i, k, us.get(i, k) * s.singular()[k]);
            }
            if (k > 0) {
                assertThat(s.singular()[k]).isLessThanOrEqualTo(s.singular()[k - 1]);
            }
        }
        Matrix recon = us.times(s.v().transpose());
        assertThat(recon.minus(a).maxAbs()).isLessThan(1e-12);
        assertThat(s.u().transposeTimes(s.u()).minus(Matrix.identity(6)).maxAbs()).isLessThan(1e-12);
        assertThat(s.v().transposeTimes(s.v()).minus(Matrix.identity(6)).maxAbs()).isLessThan(1e-12);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void projectorEqualsIdentityMinusUUtAppliedExplicitly(Backend backend) {
        int d = 7;
        Matrix u = Orthonormal.qr(random(d, 3, 13), backend);
        Projector p = Projector.complementOf(u);
        Matrix explicit = Matrix.identity(d).minus(u.times(u.transpose()));
        double[] w = random(d, 1, 14).column(0);
        double[] expected = explicit.times(w);
        double[] got = p.apply(w);
        for (int i = 0; i < d; i++) {
            assertThat(got[i]).isCloseTo(expected[i], within(1e-13));
        }
        Matrix m = random(d, 4, 15);
        assertThat(p.apply(m).minus(explicit.times(m)).maxAbs()).isLessThan(1e-13);
        double[] v = p.apply(random(d, 1, 16).column(0)); // orthogonal to U, then normalised
        double norm = Math.sqrt(Vectors.dot(v, v));
        for (int i = 0; i < d; i++) {
            v[i] /= norm;
        }
        Projector p2 = p.extendedBy(v);
        double[] out = p2.apply(v);
        for (double x : out) {
            assertThat(x).isCloseTo(0, within(1e-12));
        }
    }
}
