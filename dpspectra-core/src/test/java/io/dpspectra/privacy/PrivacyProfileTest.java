package io.dpspectra.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.LaplaceNoise;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrivacyProfileTest {
    private static final List<PrivacyProfile> EXAMPLES = List.of(
            new PrivacyProfile.Gaussian(0.0523),
            new PrivacyProfile.Pure(0.5),
            new PrivacyProfile.Point(0.7, 1e-7),
            new PrivacyProfile.DiscreteLaplace(8796093022209L, 1.7592186044416E13),
            new PrivacyProfile.SubsampledGaussian(0.01, 1.23456789, 2000, Neighbouring.REPLACE_ROW),
            new PrivacyProfile.SubsampledGaussian(0.2, 0.5, 3, Neighbouring.ADD_REMOVE_ROW));

    @Test
    void everyKindSurvivesItsTextFormExactly() {
        for (PrivacyProfile p : EXAMPLES) {
            assertThat(PrivacyProfile.decode(p.encode())).isEqualTo(p);
            assertThat(p.encode()).doesNotContain(" ");
        }
        PrivacyProfile all = new PrivacyProfile.Composition(EXAMPLES);
        assertThat(PrivacyProfile.decode(all.encode())).isEqualTo(all);
    }

    @Test
    void compositionMergesGaussiansExactlyAndFlattens() {
        PrivacyProfile c = PrivacyProfile.compose(new PrivacyProfile.Gaussian(0.3), new PrivacyProfile.Pure(0.1),
                PrivacyProfile.compose(new PrivacyProfile.Gaussian(0.4), new PrivacyProfile.Pure(0.2)));
        assertThat(c).isInstanceOf(PrivacyProfile.Composition.class);
        List<PrivacyProfile> parts = ((PrivacyProfile.Composition) c).parts();
        assertThat(parts).hasSize(3);
        assertThat(((PrivacyProfile.Gaussian) parts.get(0)).mu()).isCloseTo(0.5, within(1e-15));
        assertThat(PrivacyProfile.compose(new PrivacyProfile.Gaussian(0.3), new PrivacyProfile.Gaussian(0.4))
                .gaussianMu()).isCloseTo(0.5, within(1e-15));
        assertThat(c.gaussianMu()).isNaN();
    }

    @Test
    void gaussianCalibratedProfileIsTheInverseAnalyticSigma() {
        PrivacyParams p = PrivacyParams.of(0.25, 1e-8);
        double mu = PrivacyProfile.gaussianCalibratedTo(p).gaussianMu();
        assertThat(mu).isGreaterThanOrEqualTo(1 / GaussianNoise.analyticSigma(1, 0.25, 1e-8))
                .isCloseTo(1 / GaussianNoise.analyticSigma(1, 0.25, 1e-8), within(2e-12 * mu));
        // its zCDP cost agrees with the one the zCDP ledger charges, to the padding
        assertThat(PrivacyProfile.gaussianCalibratedTo(p).zcdpRho()).isCloseTo(GaussianNoise.zcdpRho(p),
                within(1e-11 * GaussianNoise.zcdpRho(p)));
        assertThat(PrivacyProfile.gaussianCalibratedTo(PrivacyParams.pure(0.3))).isEqualTo(new PrivacyProfile.Pure(0.3));
    }

    @Test
    void gaussianNoiseProfileCoversTheRoundingOfTheCoordinatesReleased() {
        double sigma = 3.0;
        double delta = 0.7;
        long m = 1000;
        double mu = PrivacyProfile.gaussianNoise(sigma, delta, m).gaussianMu();
        double g = GaussianNoise.granularity(sigma);
        assertThat(mu).isGreaterThanOrEqualTo((delta + Math.sqrt(m) * g) / sigma).isCloseTo(delta / sigma, within(1e-9));
        // a release calibrated by sigmaFor for its coordinates is (epsilon, delta)-DP by its own profile
        PrivacyParams target = PrivacyParams.of(0.8, 1e-6);
        double s = GaussianNoise.sigmaFor(1.0, target, m);
        double muRun = PrivacyProfile.gaussianNoise(s, 1.0, m).gaussianMu();
        assertThat(io.dpspectra.privacy.pld.GaussianPrivacy.delta(muRun, 0.8)).isLessThanOrEqualTo(1e-6 * (1 + 1e-9));
    }

    @Test
    void laplaceNoiseProfileIsTheLatticeMechanismForOneCoordinateAndPureOtherwise() {
        // scaleFor covers the rounding of 2^24 coordinates, so the lattice mechanism on fewer is a little tighter
        double b = LaplaceNoise.scaleFor(1.0, 0.5);
        PrivacyProfile one = PrivacyProfile.laplaceNoise(b, 1.0, 1);
        assertThat(one).isInstanceOf(PrivacyProfile.DiscreteLaplace.class);
        PrivacyProfile.DiscreteLaplace l = (PrivacyProfile.DiscreteLaplace) one;
        assertThat(l.shift() / l.scale()).isLessThanOrEqualTo(0.5).isCloseTo(0.5, within(1e-5));
        PrivacyProfile many = PrivacyProfile.laplaceNoise(b, 1.0, 100);
        assertThat(((PrivacyProfile.Pure) many).epsilon()).isLessThanOrEqualTo(0.5).isCloseTo(0.5, within(1e-5));
    }

    @Test
    void zcdpCostsFollowBunAndSteinke() {
        assertThat(new PrivacyProfile.Gaussian(0.2).zcdpRho()).isCloseTo(0.02, within(1e-15));
        assertThat(new PrivacyProfile.Pure(0.2).zcdpRho()).isCloseTo(0.02, within(1e-15));
        assertThat(new PrivacyProfile.Point(0.2, 1e-6).zcdpRho()).isNaN();
        assertThat(new PrivacyProfile.SubsampledGaussian(0.1, 2, 10, Neighbouring.REPLACE_ROW).zcdpRho())
                .isCloseTo(10 * 1.0 / 2, within(1e-12));
        assertThat(PrivacyProfile.compose(new PrivacyProfile.Gaussian(0.2), new PrivacyProfile.Pure(0.2)).zcdpRho())
                .isCloseTo(0.04, within(1e-12));
    }

    @Test
    void damagedTextIsRefusedWithWhatIsWrong() {
        assertThatThrownBy(() -> PrivacyProfile.decode("gaussian")).hasMessageContaining("not a privacy profile");
        assertThatThrownBy(() -> PrivacyProfile.decode("laplacian(x=1)")).hasMessageContaining("unknown kind");
        assertThatThrownBy(() -> PrivacyProfile.decode("pure(epsilon=abc)")).hasMessageContaining("bad number");
        assertThatThrownBy(() -> PrivacyProfile.decode("point(epsilon=1)")).hasMessageContaining("lacks delta");
        assertThatThrownBy(() -> new PrivacyProfile.SubsampledGaussian(0.1, 1, 1, Neighbouring.MATRIX_ENTRY))
                .hasMessageContaining("add/remove or replace-one");
    }
}
