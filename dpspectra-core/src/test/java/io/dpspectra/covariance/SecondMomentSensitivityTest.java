package io.dpspectra.covariance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import org.junit.jupiter.api.Test;

/** The derived sensitivities bound what one row can change, and the tight ones are attained. */
class SecondMomentSensitivityTest {
    private static final double BETA = 1.7;

    private static double[] upper(double[] x, double[] y) {
        int d = x.length;
        double[] u = new double[d * (d + 1) / 2];
        int t = 0;
        for (int j = 0; j < d; j++) {
            for (int i = 0; i <= j; i++) {
                u[t++] = x[i] * x[j] - (y == null ? 0 : y[i] * y[j]);
            }
        }
        return u;
    }

    private static double l1(double[] u) {
        double s = 0;
        for (double v : u) {
            s += Math.abs(v);
        }
        return s;
    }

    private static double l2(double[] u) {
        double s = 0;
        for (double v : u) {
            s += v * v;
        }
        return Math.sqrt(s);
    }

    /** A random vector of L2 norm β (direction uniform, heavy-tailed coordinates sometimes). */
    private static double[] onSphere(RandomSource r, int d) {
        double[] x = new double[d];
        double n = 0;
        for (int i = 0; i < d; i++) {
            x[i] = r.nextInt(4) == 0 ? r.standardNormal() * 5 : r.standardNormal();
            n += x[i] * x[i];
        }
        for (int i = 0; i < d; i++) {
            x[i] *= BETA / Math.sqrt(n);
        }
        return x;
    }

    @Test
    void noRowExceedsTheDerivedBoundsInEitherRelation() {
        RandomSource r = RandomSource.seededForReproducibility(3);
        for (int d : new int[] {1, 2, 5, 30}) {
            for (int t = 0; t < 2000; t++) {
                double[] x = onSphere(r, d);
                double[] y = onSphere(r, d);
                double[] add = upper(x, null);
                double[] rep = upper(x, y);
                double tol = 1e-12 * BETA * BETA * d;
                assertThat(l2(add)).isLessThanOrEqualTo(SecondMomentSensitivity.l2UpperTriangle(BETA, Neighbouring.ADD_REMOVE_ROW) + tol);
                assertThat(l2(rep)).isLessThanOrEqualTo(SecondMomentSensitivity.l2UpperTriangle(BETA, Neighbouring.REPLACE_ROW) + tol);
                assertThat(l1(add)).isLessThanOrEqualTo(SecondMomentSensitivity.l1UpperTriangleTight(d, BETA, Neighbouring.ADD_REMOVE_ROW) + tol);
                assertThat(l1(rep)).isLessThanOrEqualTo(SecondMomentSensitivity.l1UpperTriangleTight(d, BETA, Neighbouring.REPLACE_ROW) + tol);
                assertThat(l1(rep)).isLessThanOrEqualTo(SecondMomentSensitivity.l1UpperTrianglePaper(d, BETA) + tol);
            }
        }
    }

    @Test
    void theL2BoundsAreAttained() {
        double[] e1 = {BETA, 0, 0};
        double[] e2 = {0, BETA, 0};
        assertThat(l2(upper(e1, null))).isCloseTo(BETA * BETA, within(1e-12));
        assertThat(l2(upper(e1, e2))).isCloseTo(Math.sqrt(2) * BETA * BETA, within(1e-12));
    }

    @Test
    void theAddRemoveL1BoundIsAttainedByTheFlatVector() {
        int d = 7;
        double[] flat = new double[d];
        java.util.Arrays.fill(flat, BETA / Math.sqrt(d));
        assertThat(l1(upper(flat, null)))
                .isCloseTo(SecondMomentSensitivity.l1UpperTriangleTight(d, BETA, Neighbouring.ADD_REMOVE_ROW), within(1e-12));
    }

    @Test
    void tightReplaceL1BoundIsBelowTheTriangleInequalityAndThePaperConstant() {
        for (int d = 1; d < 50; d++) {
            double tight = SecondMomentSensitivity.l1UpperTriangleTight(d, 1, Neighbouring.REPLACE_ROW);
            assertThat(tight).isLessThan(d + 1.0).isLessThanOrEqualTo(2.0 * d);
        }
    }
}
