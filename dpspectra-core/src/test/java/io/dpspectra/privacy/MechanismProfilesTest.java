package io.dpspectra.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.covariance.GaussianCovariance;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.PrivateBoundedMean;
import io.dpspectra.data.PrivateTrace;
import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.pca.ClippedPowerMethod;
import io.dpspectra.pca.KDpOja;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.privacy.pld.GaussianPrivacy;
import io.dpspectra.privacy.pld.ProfileAccounting;
import org.junit.jupiter.api.Test;

/**
 * Every mechanism states the profile of what it runs in its guarantee: a profile that implies the (ε, δ) it claims
 * (so the ledger is never told less than what was spent), and, for the Gaussian ones calibrated to (ε, δ), no looser
 * than it: μ within a relative 1e−5 of the largest μ meeting (ε, δ) (the sampler's rounding of at most 2^40
 * coordinates is what separates them).
 */
class MechanismProfilesTest {
    private static final PrivacyParams BUDGET = PrivacyParams.of(0.7, 1e-6);

    private static RowSource rows() {
        RandomSource r = RandomSource.seededForReproducibility(11);
        double[][] x = new double[200][5];
        for (double[] row : x) {
            for (int j = 0; j < row.length; j++) {
                row[j] = r.nextDouble() - 0.5;
            }
        }
        return InMemoryRows.of(x).clipL2(1.0);
    }

    private static void assertImpliesItsClaim(PrivacyGuarantee g) {
        if (g.params().isPure()) {
            assertThat(g.profile().pureEpsilon()).as("%s: %s", g.mechanism(), g.profile())
                    .isLessThanOrEqualTo(g.params().epsilon());
            return;
        }
        assertThat(ProfileAccounting.fits(g.profile(), g.params(), 1e-4)).as("%s: %s", g.mechanism(), g.profile())
                .isTrue();
    }

    private static void assertTightGaussian(PrivacyGuarantee g) {
        assertImpliesItsClaim(g);
        double mu = g.profile().gaussianMu();
        assertThat(mu).as(g.mechanism()).isCloseTo(GaussianPrivacy.mu(g.params()), within(1e-5 * mu));
    }

    @Test
    void gaussianReleasesStateTheirGaussianMechanism() {
        RandomSource r = RandomSource.seededForReproducibility(1);
        assertTightGaussian(AnalyzeGauss.builder().components(2).randomSource(r).build().fit(rows(), BUDGET)
                .guarantee().orElseThrow());
        assertTightGaussian(GaussianCovariance.builder().randomSource(r).build().release(rows(), BUDGET).guarantee());
        assertTightGaussian(PrivateTrace.of(Neighbouring.REPLACE_ROW, r).release(rows(), BUDGET).guarantee());
        assertTightGaussian(PrivateBoundedMean.of(Neighbouring.REPLACE_ROW, r).estimate(rows(), BUDGET).guarantee());
        assertTightGaussian(KDpOja.builder().components(1).randomSource(r).build().fit(rows(), BUDGET)
                .guarantee().orElseThrow());
        assertTightGaussian(PrivatePowerMethod.builder().components(2).randomSource(r).build().fit(rows(), BUDGET)
                .guarantee().orElseThrow());
    }

    @Test
    void compositeAndLooselyCalibratedReleasesStateWhatRanAndStillImplyTheirClaim() {
        RandomSource r = RandomSource.seededForReproducibility(2);
        // add/remove: the sum and the count, each at half the budget
        PrivacyGuarantee mean = PrivateBoundedMean.of(Neighbouring.ADD_REMOVE_ROW, r).estimate(rows(), BUDGET).guarantee();
        assertImpliesItsClaim(mean);
        assertThat(mean.profile().gaussianMu()).isLessThan(GaussianPrivacy.mu(BUDGET));
        // Fig. 3's sigma through zCDP: more noise than the exact composition needs
        PrivacyGuarantee power = ClippedPowerMethod.builder().components(2).randomSource(r).build().fit(rows(), BUDGET)
                .guarantee().orElseThrow();
        assertImpliesItsClaim(power);
        assertThat(power.profile().gaussianMu()).isLessThan(0.7 * GaussianPrivacy.mu(BUDGET));
        // pure epsilon: the lattice Laplace mechanism, at most epsilon
        PrivacyGuarantee trace = PrivateTrace.of(Neighbouring.REPLACE_ROW, r).release(rows(), PrivacyParams.pure(0.5))
                .guarantee();
        assertImpliesItsClaim(trace);
        assertThat(trace.profile()).isInstanceOf(PrivacyProfile.DiscreteLaplace.class);
        // a guarantee made without a profile states its (epsilon, delta) point
        PrivacyGuarantee plain = new PrivacyGuarantee("m", BUDGET, Neighbouring.REPLACE_ROW, "u", "s", "r");
        assertThat(plain.profile()).isEqualTo(new PrivacyProfile.Point(0.7, 1e-6));
    }
}
