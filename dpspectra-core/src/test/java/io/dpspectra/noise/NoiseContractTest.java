package io.dpspectra.noise;

import static io.dpspectra.noise.NoiseTestSupport.isMultipleOf;
import static io.dpspectra.noise.NoiseTestSupport.ksCritical;
import static io.dpspectra.noise.NoiseTestSupport.ksStatistic;
import static io.dpspectra.noise.NoiseTestSupport.mean;
import static io.dpspectra.noise.NoiseTestSupport.variance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.linalg.Matrix;
import org.junit.jupiter.api.Test;

/**
 * The properties every floating-point-safe {@link Noise} must have, checked against its continuous
 * target distribution: KS fit at several scales and centres (with a power check), moments, outputs on
 * the power-of-two lattice, no leak of input bits below the lattice, seeded reproducibility, the secure
 * default source, vector and symmetric-matrix noise, and argument validation. Subclasses name the
 * mechanism and its distribution.
 */
abstract class NoiseContractTest {
    static final int N = 20_000;
    private static final double[] SCALES = {1e-3, 1, 1e4};
    private static final double[] CENTRES = {0, 1e6, 0.1};

    /** The mechanism under test, drawing from {@code random}. */
    abstract Noise noise(RandomSource random);

    /** CDF of the continuous target distribution with the mechanism's scale parameter. */
    abstract double cdf(double x, double scale);

    /** Variance of the target distribution at {@code scale}. */
    abstract double varianceAt(double scale);

    /** Standard error of the sample variance of {@code n} draws at {@code scale}. */
    abstract double varianceStandardError(double scale, int n);

    /** The rounding granularity the mechanism uses at {@code scale}. */
    abstract double granularity(double scale);

    static double[] noiseSamples(Noise noise, double centre, double scale, int n) {
        double[] z = new double[n];
        for (int i = 0; i < n; i++) {
            z[i] = noise.addNoise(centre, scale) - centre;
        }
        return z;
    }

    @Test
    void noiseFollowsItsContinuousDistributionByKolmogorovSmirnovAtEveryScaleAndCentre() {
        long seed = 100;
        for (double scale : SCALES) {
            for (double centre : CENTRES) {
                Noise noise = noise(RandomSource.seededForReproducibility(seed++));
                double[] z = noiseSamples(noise, centre, scale, N);
                assertThat(ksStatistic(z, x -> cdf(x, scale))).as("scale %s centre %s", scale, centre)
                        .isLessThan(ksCritical(N));
            }
        }
    }

    @Test
    void kolmogorovSmirnovCheckHasPowerAgainstAFifteenPercentScaleError() {
        // negative control: the same test with a wrong scale must reject, or the KS test above is blind
        Noise noise = noise(RandomSource.seededForReproducibility(99));
        double[] z = noiseSamples(noise, 0.1, 1, N);
        assertThat(ksStatistic(z, x -> cdf(x, 1.15))).isGreaterThan(ksCritical(N));
    }

    @Test
    void meanAndVarianceMatchTheTargetWithinFiveStandardErrors() {
        for (double scale : SCALES) {
            Noise noise = noise(RandomSource.seededForReproducibility(7));
            double[] z = noiseSamples(noise, 0.1, scale, N);
            double var = varianceAt(scale);
            assertThat(mean(z)).isCloseTo(0, within(5 * Math.sqrt(var / N)));
            assertThat(variance(z)).isCloseTo(var, within(5 * varianceStandardError(scale, N)));
        }
    }

    @Test
    void outputsAreExactMultiplesOfTheGranularity() {
        Noise noise = noise(RandomSource.seededForReproducibility(3));
        for (double scale : SCALES) {
            double g = granularity(scale);
            assertThat(g).isGreaterThanOrEqualTo(scale * 0x1.0p-44).isLessThan(scale * 0x1.0p-43);
            // g is a power of two: zero mantissa
            assertThat(Double.doubleToLongBits(g) & 0x000FFFFFFFFFFFFFL).isZero();
            for (double centre : CENTRES) {
                for (int i = 0; i < 1000; i++) {
                    assertThat(isMultipleOf(noise.addNoise(centre, scale), g)).isTrue();
                }
            }
        }
    }

    @Test
    void inputsRoundingToTheSameLatticePointGiveIdenticalOutputs() {
        // the low-order bits of the input cannot leak: x and x + tiny round to the same multiple of g
        double scale = 1;
        double g = granularity(scale);
        double x = 0.1;
        double y = x + g / 8;
        assertThat(y).isNotEqualTo(x);
        Noise a = noise(RandomSource.seededForReproducibility(5));
        Noise b = noise(RandomSource.seededForReproducibility(5));
        for (int i = 0; i < 1000; i++) {
            assertThat(a.addNoise(x, scale)).isEqualTo(b.addNoise(y, scale));
        }
    }

    @Test
    void seededSourceReproducesAndDifferentSeedsDiffer() {
        double[] first = noiseSamples(noise(RandomSource.seededForReproducibility(42)), 1, 1, 100);
        double[] again = noiseSamples(noise(RandomSource.seededForReproducibility(42)), 1, 1, 100);
        double[] other = noiseSamples(noise(RandomSource.seededForReproducibility(43)), 1, 1, 100);
        assertThat(again).containsExactly(first);
        assertThat(other).isNotEqualTo(first);
    }

    @Test
    void secureDefaultSourceGivesTheTargetDistribution() {
        RandomSource secure = RandomSource.secure();
        assertThat(secure.isSeeded()).isFalse();
        int n = 5000;
        double[] z = noiseSamples(noise(secure), 0, 2, n);
        assertThat(ksStatistic(z, x -> cdf(x, 2))).isLessThan(ksCritical(n));
    }

    @Test
    void addNoiseInPlaceNoisesEveryEntryIndependently() {
        Noise noise = noise(RandomSource.seededForReproducibility(8));
        double[] v = new double[N];
        noise.addNoiseInPlace(v, 1.5);
        assertThat(ksStatistic(v, x -> cdf(x, 1.5))).isLessThan(ksCritical(N));
    }

    /**
     * Long arrays take the bulk path (chunks drawn on all cores from splits of the source; the table
     * sampler for the Gaussian): same law, on the lattice, and reproducible with the seeded source.
     */
    @Test
    void bulkPathFollowsTheTargetStaysOnTheLatticeAndReproduces() {
        int n = 5 * LatticeNoise.CHUNK + 17;
        double centre = 0.3;
        double scale = 2.5;
        double[] a = new double[n];
        java.util.Arrays.fill(a, centre);
        double[] b = a.clone();
        noise(RandomSource.seededForReproducibility(21)).addNoiseInPlace(a, scale);
        noise(RandomSource.seededForReproducibility(21)).addNoiseInPlace(b, scale);
        assertThat(a).containsExactly(b);
        double g = granularity(scale);
        double[] z = new double[n];
        for (int i = 0; i < n; i++) {
            assertThat(isMultipleOf(a[i], g)).isTrue();
            z[i] = a[i] - centre;
        }
        assertThat(ksStatistic(z, x -> cdf(x, scale))).isLessThan(ksCritical(n));
        assertThat(variance(z)).isCloseTo(varianceAt(scale), within(5 * varianceStandardError(scale, n)));
    }

    /**
     * A stream of many small arrays (as a descent noises one step at a time) over more than one chunk: the target
     * law, on the lattice, no sample used twice (chunk boundaries fall inside arrays), reproducible with the seeded
     * source, and it refuses to give more values than it was made for.
     */
    @Test
    void streamOverManyArraysFollowsTheTargetReproducesAndStopsAtItsCount() {
        int step = 500;
        int steps = 3 * LatticeNoise.CHUNK / step + 7;
        double centre = 0.3;
        double scale = 2.5;
        double[][] out = new double[2][steps * step];
        for (int run = 0; run < 2; run++) {
            Noise.Stream stream = noise(RandomSource.seededForReproducibility(24)).stream((long) steps * step, scale);
            for (int s = 0; s < steps; s++) {
                double[] v = new double[step];
                java.util.Arrays.fill(v, centre);
                stream.addTo(v);
                System.arraycopy(v, 0, out[run], s * step, step);
            }
            assertThatThrownBy(() -> stream.addTo(new double[1])).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("0 values left");
        }
        assertThat(out[0]).containsExactly(out[1]);
        double g = granularity(scale);
        double[] z = new double[out[0].length];
        for (int i = 0; i < z.length; i++) {
            assertThat(isMultipleOf(out[0][i], g)).isTrue();
            z[i] = out[0][i] - centre;
        }
        assertThat(ksStatistic(z, x -> cdf(x, scale))).isLessThan(ksCritical(z.length));
        assertThat(variance(z)).isCloseTo(varianceAt(scale), within(5 * varianceStandardError(scale, z.length)));
        // consecutive arrays get different samples: no chunk is handed out twice
        assertThat(java.util.Arrays.stream(z).distinct().count()).isGreaterThan(z.length * 99L / 100);
    }

    /** Up to one chunk, a stream draws on the calling thread as each array comes: the per-value draws, in order. */
    @Test
    void aStreamOfAtMostOneChunkGivesTheSameValuesAsPerValueDraws() {
        Noise.Stream stream = noise(RandomSource.seededForReproducibility(25)).stream(30, 1.5);
        Noise single = noise(RandomSource.seededForReproducibility(25));
        for (int s = 0; s < 3; s++) {
            double[] v = new double[10];
            java.util.Arrays.fill(v, 0.25 * s);
            stream.addTo(v);
            for (double x : v) {
                assertThat(x).isEqualTo(single.addNoise(0.25 * s, 1.5));
            }
        }
    }

    @Test
    void aBadValueGivenToAStreamLeavesTheArrayAndTheStreamAsTheyWere() {
        for (long count : new long[] {20, 3L * LatticeNoise.CHUNK}) {
            Noise.Stream stream = noise(RandomSource.seededForReproducibility(26)).stream(count, 1);
            double[] v = {1.25, Double.NaN};
            assertThatThrownBy(() -> stream.addTo(v)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("NaN");
            assertThat(v[0]).isEqualTo(1.25);
            stream.addTo(new double[(int) Math.min(count, LatticeNoise.CHUNK)]); // the count was not spent
        }
    }

    @Test
    void aBadValueInALongArrayLeavesItUntouched() {
        double[] v = new double[3 * LatticeNoise.CHUNK];
        java.util.Arrays.fill(v, 1.25);
        v[v.length - 1] = Double.NaN;
        double[] before = v.clone();
        assertThatThrownBy(() -> noise(RandomSource.seededForReproducibility(22)).addNoiseInPlace(v, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
        assertThat(v).containsExactly(before);
    }

    @Test
    void preparedNoiseFitsOnlyItsArrayAndIsAddedOnce() {
        Noise.Prepared prepared = noise(RandomSource.seededForReproducibility(23)).prepare(2 * LatticeNoise.CHUNK, 1);
        assertThatThrownBy(() -> prepared.addTo(new double[10])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("prepared for " + 2 * LatticeNoise.CHUNK);
        double[] v = new double[2 * LatticeNoise.CHUNK];
        prepared.addTo(v);
        assertThat(v).doesNotContain(0.0);
        assertThatThrownBy(() -> prepared.addTo(new double[2 * LatticeNoise.CHUNK]))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("once");
    }

    @Test
    void symmetricNoiseIsSymmetricWithTargetDistributedUpperTriangle() {
        int d = 120;
        Matrix m = new Matrix(d, d);
        noise(RandomSource.seededForReproducibility(9)).addSymmetricNoiseInPlace(m, 1);
        double[] upper = new double[d * (d + 1) / 2];
        int idx = 0;
        for (int j = 0; j < d; j++) {
            for (int i = 0; i <= j; i++) {
                upper[idx++] = m.get(i, j);
                assertThat(m.get(j, i)).isEqualTo(m.get(i, j));
            }
        }
        assertThat(ksStatistic(upper, x -> cdf(x, 1))).isLessThan(ksCritical(upper.length));
    }

    @Test
    void nanValueIsRejectedWithRemedy() {
        Noise noise = noise(RandomSource.seededForReproducibility(1));
        assertThatThrownBy(() -> noise.addNoise(Double.NaN, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("value").hasMessageContaining("NaN").hasMessageContaining("check the data");
    }

    /**
     * A finite value of any size is released: one whose units of the granularity are beyond the doubles is itself
     * a multiple of g, and its release is fl(value + k·g). Before, it threw "too large for noise granularity", an
     * error that one extreme record could cause after noise had been drawn.
     */
    @Test
    void everyFiniteValueIsReleasedHoweverLargeAgainstTheScale() {
        Noise noise = noise(RandomSource.seededForReproducibility(24));
        for (double v : new double[] {1e300, -1e300, Double.MAX_VALUE, -Double.MAX_VALUE, 0x1.0p1000}) {
            double out = noise.addNoise(v, 1);
            assertThat(out).as("%s", v).isEqualTo(v); // the noise is far below the ulp of v
            double[] many = new double[2 * LatticeNoise.CHUNK];
            java.util.Arrays.fill(many, v);
            noise.addNoiseInPlace(many, 1);
            assertThat(many).containsOnly(v);
        }
        // at the edge of the units' range the lattice arithmetic still applies
        double g = granularity(1);
        assertThat(isMultipleOf(noise.addNoise(0x1.0p900 * g, 1), g)).isTrue();
    }

    @Test
    void zeroScaleIsRejected() {
        Noise noise = noise(RandomSource.seededForReproducibility(1));
        assertThatThrownBy(() -> noise.addNoise(1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scale").hasMessageContaining("got 0.0");
    }

    @Test
    void infiniteScaleIsRejected() {
        Noise noise = noise(RandomSource.seededForReproducibility(1));
        assertThatThrownBy(() -> noise.addNoise(1, Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Infinity");
    }

}
