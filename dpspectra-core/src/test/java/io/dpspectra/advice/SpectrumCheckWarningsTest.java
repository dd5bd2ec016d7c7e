package io.dpspectra.advice;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.data.AdaptiveQuantile;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.release.RowBound;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * The curator's check warns, on synthetic data built for each, about three ways a release can be useless that the
 * figure at the stand-in bound does not show, and stays silent on twins that differ only in the property:
 * <ul>
 *   <li>few rows for the private bound and mean: the same model with many rows is reliable;</li>
 *   <li>a schema's map whose scales move the reference's top-2 plane: the same rows under scales near their
 *   standard deviations keep it;</li>
 *   <li>a reference whose 2nd and 3rd eigenvalues are closer than the noise: the same noise with a clear gap is
 *   fine, and so is a small gap when the 3rd eigenvalue holds less than half the 2nd's variance.</li>
 * </ul>
 * The thresholds are the check's own (half of the top-2 scores' variance, the lower decile of the draws, Davis and
 * Kahan's sin θ = ‖E‖/gap reaching 1); the data sit far on either side of them.
 */
class SpectrumCheckWarningsTest {
    private static final Neighbouring REPLACE = Neighbouring.REPLACE_ROW;

    /** n rows of independent Gaussian columns with these standard deviations. */
    private static double[][] gaussian(int n, double[] sd, long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed); // test data, not privacy noise
        double[][] x = new double[n][sd.length];
        for (double[] row : x) {
            for (int j = 0; j < sd.length; j++) {
                row[j] = sd[j] * r.standardNormal();
            }
        }
        return x;
    }

    /** n rows of 6 columns: two factors (sd 3 and 2) on columns 1-2 and 3-4, small noise, offset by 5. */
    private static double[][] factors(int n, long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed); // test data, not privacy noise
        double[][] x = new double[n][6];
        for (double[] row : x) {
            double f = 3 * r.standardNormal();
            double g = 2 * r.standardNormal();
            row[0] = 5 + f + 0.3 * r.standardNormal();
            row[1] = 5 + f + 0.3 * r.standardNormal();
            row[2] = 5 + g + 0.3 * r.standardNormal();
            row[3] = 5 + g + 0.3 * r.standardNormal();
            row[4] = 5 + 0.5 * r.standardNormal();
            row[5] = 5 + 0.5 * r.standardNormal();
        }
        return x;
    }

    private static double maxNorm(double[][] x) {
        double m = 0;
        for (double[] r : x) {
            m = Math.max(m, Vectors.norm2(r));
        }
        return m;
    }

    private static double medianNorm(double[][] x) {
        double[] n = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            n[i] = Vectors.norm2(x[i]);
        }
        java.util.Arrays.sort(n);
        return n[(x.length - 1) / 2];
    }

    private static ReleaseFacts facts(int n, int d, double epsilon) {
        return new ReleaseFacts(n, d, 2, PrivacyParams.of(epsilon, 1e-6), REPLACE, Double.NaN, 1);
    }

    /**
     * The route without bounds at total epsilon = 1: a private median bound (0.23) and a private mean (0.1, 1e-7),
     * the estimator the rest, as a plan splits it for a small table.
     */
    private static SpectrumCheck privateRoute(double[][] x) {
        SpectrumCheck.PrivateSteps steps = new SpectrumCheck.PrivateSteps(
                RowBound.PrivateQuantile.ladder(OptionalDouble.empty()), 0.5, AdaptiveQuantile.DEFAULT_BRACKET_SHARE,
                PrivacyParams.pure(0.23), PrivacyParams.of(0.1, 1e-7), REPLACE);
        return SpectrumCheck.of("analyze-gauss", InMemoryRows.of(x), null, medianNorm(x), true, steps,
                new ReleaseFacts(x.length, x[0].length, 2, PrivacyParams.of(0.67, 9e-7), REPLACE, Double.NaN, 1));
    }

    @Test
    void fewRowsMakeThePrivateBoundAndMeanUnreliableAndManyRowsDoNot() {
        SpectrumCheck few = privateRoute(factors(100, 1));
        SpectrumCheck many = privateRoute(factors(20000, 1));
        // at the exact median and mean both look fine ...
        assertThat(few.predictedThroughClipping()).isGreaterThan(0.5);
        assertThat(many.predictedThroughClipping()).isGreaterThan(0.5);
        // ... but on 100 rows the private steps' own noise (a bound drawn orders of magnitude off, a mean far off)
        // makes the release useless one time in ten or more
        assertThat(few.drawn().count()).isEqualTo(SpectrumCheck.DRAWS);
        assertThat(few.drawn().below()).isGreaterThanOrEqualTo(SpectrumCheck.DRAWS / 10);
        assertThat(few.drawnUseless()).as("%s", few.drawn()).isTrue();
        assertThat(few.useless()).isTrue();
        assertThat(many.drawn().count()).isEqualTo(SpectrumCheck.DRAWS);
        assertThat(many.drawn().below()).as("%s", many.drawn()).isZero();
        assertThat(many.drawnUseless()).isFalse();
        assertThat(many.useless()).isFalse();
    }

    @Test
    void nothingPrivateToDrawDrawsNothing() {
        double[][] x = factors(150, 1);
        SpectrumCheck given = SpectrumCheck.of("analyze-gauss", InMemoryRows.of(x), null, maxNorm(x), true, null,
                facts(150, 6, 0.85));
        assertThat(given.drawn()).isEqualTo(SpectrumCheck.Drawn.NONE);
        assertThat(given.drawnUseless()).isFalse();
    }

    /** x with column j divided by scale[j] and centred at zero's neighbourhood (a schema's map). */
    private static double[][] mapped(double[][] x, double[] scale) {
        double[][] y = new double[x.length][x[0].length];
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < scale.length; j++) {
                y[i][j] = (x[i][j] - 5) / scale[j];
            }
        }
        return y;
    }

    private static SpectrumCheck throughMap(double[][] x, double[] scale) {
        double[][] y = mapped(x, scale);
        return SpectrumCheck.of("analyze-gauss", InMemoryRows.of(y), new SpectrumCheck.Reference(InMemoryRows.of(x),
                true), maxNorm(y), true, null, facts(x.length, 6, 0.7));
    }

    @Test
    void aMapWhoseScalesMoveTheZScoredPlaneWarnsAndOneNearTheStandardDeviationsDoesNot() {
        double[][] x = factors(5000, 2);
        // z-scored, the top-2 plane is the two factors (columns 1-2 and 3-4); scales that shrink the last two noise
        // columns twentyfold make them the mapped rows' top two
        SpectrumCheck bad = throughMap(x, new double[] {3, 3, 2, 2, 0.025, 0.025});
        SpectrumCheck good = throughMap(x, new double[] {3.3, 2.8, 2.1, 1.9, 0.55, 0.45});
        assertThat(bad.zScored()).isTrue();
        assertThat(bad.clippingKept()).isLessThan(0.1);
        assertThat(bad.useless()).isTrue();
        assertThat(good.clippingKept()).isGreaterThan(0.95);
        assertThat(good.useless()).isFalse();
        assertThat(good.flat()).isFalse();
    }

    private static SpectrumCheck own(double[][] x, double epsilon) {
        return SpectrumCheck.of("analyze-gauss", InMemoryRows.of(x), new SpectrumCheck.Reference(InMemoryRows.of(x),
                false), maxNorm(x), true, null, facts(x.length, x[0].length, epsilon));
    }

    @Test
    void eigenvaluesTwoAndThreeCloserThanTheNoiseLeaveNoPlaneToRecover() {
        // variances 4, 2, 1.95, 0.5, 0.5: the gap between the 2nd and 3rd is under 1% of the variance; the noise at
        // epsilon = 1 on 2000 rows about 8% (2σ√d over the trace); with 0.5 in place of 1.95 the gap is 20%
        SpectrumCheck flat = own(gaussian(2000, new double[] {2, Math.sqrt(2), Math.sqrt(1.95), Math.sqrt(0.5),
            Math.sqrt(0.5)}, 3), 1);
        SpectrumCheck gap = own(gaussian(2000, new double[] {2, Math.sqrt(2), Math.sqrt(0.5), Math.sqrt(0.5),
            Math.sqrt(0.5)}, 3), 1);
        assertThat(flat.noiseShare()).isBetween(0.01, 0.1);
        assertThat(flat.referenceShare(1) - flat.referenceShare(2)).isLessThan(flat.noiseShare());
        assertThat(flat.flat()).isTrue();
        assertThat(flat.useless()).isTrue();
        assertThat(gap.noiseShare()).isBetween(0.01, 0.1);
        assertThat(gap.referenceShare(1) - gap.referenceShare(2)).isGreaterThan(1.5 * gap.noiseShare());
        assertThat(gap.flat()).isFalse();
    }

    @Test
    void aSmallGapToADirectionHoldingLittleVarianceIsNotFlat() {
        // variances 4, 1, 0.2, 0.2, 0.2 on 60 rows: the noise exceeds the gap, but a release that mixes in the 3rd
        // direction (a fifth of the 2nd's variance) still projects the rows much as the 2nd does
        SpectrumCheck c = own(gaussian(60, new double[] {2, 1, Math.sqrt(0.2), Math.sqrt(0.2), Math.sqrt(0.2)}, 4), 1);
        assertThat(c.referenceShare(1) - c.referenceShare(2)).isLessThan(c.noiseShare());
        assertThat(c.referenceShare(2)).isLessThan(c.referenceShare(1) / 2);
        assertThat(c.flat()).isFalse();
    }
}
