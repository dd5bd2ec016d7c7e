package io.dpspectra.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.covariance.GaussianCalibration;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import org.junit.jupiter.api.Test;

class LocalCovarianceRandomizerTest {
    private static final PrivacyParams PRIVACY = PrivacyParams.of(1.0, 1e-5);

    private static LocalCovarianceRandomizer randomizer(int p, long seed) {
        return LocalCovarianceRandomizer.builder().dimension(p).privacy(PRIVACY)
                .randomSource(RandomSource.seededForReproducibility(seed)).build();
    }

    @Test
    void sigmaIsTheAnalyticCalibrationForSensitivitySqrtTwo() {
        // spec K8 reference value: analytic sigma for Delta = 1 at (1, 1e-5) is 3.7306; sigma scales with Delta
        double sigma = randomizer(3, 1).parameters().sigma();
        assertThat(sigma / Math.sqrt(2)).isCloseTo(3.7306, org.assertj.core.api.Assertions.within(5e-4));
    }

    @Test
    void reportsAreUnbiasedWithTheCalibratedVariance() {
        // spec 6.4 #8: over many reports of one record, entry means are x_j x_l and variances sigma^2
        int p = 3;
        int n = 20_000;
        double[] x = {0.6, -0.48, 0.64}; // norm 1: not clipped
        LocalCovarianceRandomizer r = randomizer(p, 7);
        double sigma = r.parameters().sigma();
        int m = p * (p + 1) / 2;
        double[] records = new double[n * p];
        for (int i = 0; i < n; i++) {
            System.arraycopy(x, 0, records, i * p, p);
        }
        double[] reports = new double[n * m];
        r.randomize(records, n, reports);
        for (int j = 0; j < p; j++) {
            for (int i = 0; i <= j; i++) {
                int at = LocalReport.index(i, j);
                double mean = 0;
                double sq = 0;
                for (int t = 0; t < n; t++) {
                    double v = reports[t * m + at];
                    mean += v;
                    sq += v * v;
                }
                mean /= n;
                double var = sq / n - mean * mean;
                // 5 standard errors: mean's is sigma/sqrt(n), the variance's is sigma^2 sqrt(2/n)
                assertThat(mean).isCloseTo(x[i] * x[j], org.assertj.core.api.Assertions.within(5 * sigma / Math.sqrt(n)));
                assertThat(var / (sigma * sigma)).isCloseTo(1.0, org.assertj.core.api.Assertions.within(5 * Math.sqrt(2.0 / n)));
            }
        }
    }

    @Test
    void recordsAreClippedToTheClipNormOnTheClient() {
        // a record of norm 10 is scaled to norm 1: its reported diagonal sums to ||x||^2 = 1 on average
        int n = 20_000;
        LocalCovarianceRandomizer r = randomizer(2, 9);
        double[] records = new double[2 * n];
        for (int i = 0; i < n; i++) {
            records[2 * i] = 6;
            records[2 * i + 1] = 8;
        }
        double[] reports = new double[3 * n];
        r.randomize(records, n, reports);
        double trace = 0;
        for (int i = 0; i < n; i++) {
            trace += reports[3 * i] + reports[3 * i + 2];
        }
        double sigma = r.parameters().sigma();
        assertThat(trace / n).isCloseTo(1.0, org.assertj.core.api.Assertions.within(5 * sigma * Math.sqrt(2.0 / n)));
        assertThat(records[0]).isEqualTo(6); // the caller's records are not modified
    }

    @Test
    void nonFiniteRecordIsRefusedNamingRecordAndColumn() {
        LocalCovarianceRandomizer r = randomizer(2, 1);
        assertThatThrownBy(() -> r.randomize(new double[] {0.1, 0.2, Double.NaN, 0}, 2, new double[6]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("record 2")
                .hasMessageContaining("column 1");
    }

    @Test
    void missingPrivacyOrBadParametersAreRefused() {
        assertThatThrownBy(() -> LocalCovarianceRandomizer.builder().dimension(3).build())
                .hasMessageContaining("--epsilon");
        assertThatThrownBy(() -> LocalCovarianceRandomizer.builder().dimension(3).privacy(PrivacyParams.of(1, 0))
                .build()).hasMessageContaining("delta > 0");
        assertThatThrownBy(() -> LocalCovarianceRandomizer.builder().dimension(3).privacy(PRIVACY).clipNorm(0)
                .build()).hasMessageContaining("--clip-norm");
    }

    @Test
    void classicCalibrationAboveOneFallsBackToAnalyticWhenThatIsLarger() {
        LocalCovarianceRandomizer r = LocalCovarianceRandomizer.builder().dimension(2).privacy(PrivacyParams.of(2, 1e-4))
                .calibration(GaussianCalibration.CLASSIC).build();
        double analytic = ReportParameters.calibratedSigma(PrivacyParams.of(2, 1e-4), 1, GaussianCalibration.ANALYTIC);
        assertThat(r.parameters().sigma()).isGreaterThanOrEqualTo(analytic);
    }

    @Test
    void theReportsAreChargedOnceToTheAccountantAndAnOverspendBuildsNothing() {
        io.dpspectra.privacy.PrivacyAccountant budget = io.dpspectra.privacy.PrivacyAccountant.total(PrivacyParams.of(1.5, 1e-5));
        LocalCovarianceRandomizer first = LocalCovarianceRandomizer.builder().dimension(3)
                .privacy(PrivacyParams.of(1, 1e-6)).accountant(budget).build();
        // one charge for the whole batch of distinct records, however many reports follow
        first.randomize(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, 3, new double[18]);
        assertThat(budget.spentEpsilon()).isEqualTo(1.0);
        assertThat(budget.ledger()).hasSize(1);
        assertThatThrownBy(() -> LocalCovarianceRandomizer.builder().dimension(3).privacy(PrivacyParams.of(1, 1e-6))
                .accountant(budget).build()).isInstanceOf(io.dpspectra.privacy.BudgetExceededException.class);
        assertThat(budget.spentEpsilon()).isEqualTo(1.0);
    }
}
