package io.dpspectra.pca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricOperator;
import io.dpspectra.linalg.ThinSvd;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.synthetic.KnownSpectrum;
import org.junit.jupiter.api.Test;

class PrivateLowRankApproximationTest {

    private static double spectralNorm(Matrix m) {
        return ThinSvd.of(m).singular()[0];
    }

    @Test
    void spectralErrorIsNearSigmaKPlusOneForALargeGapAndGrowsAsEpsilonShrinks() {
        // d = 64, k = 2, σ = (4000, 3500, then 100): Cor. 4.3's error σ_{k+1} + O(σ_1 σ √d / (ε gap)) with
        // p = 2k = 4, L + 1 = 9 products: σ ≈ 31/ε, noise ‖G‖ ≈ σ‖X‖∞(√d + 2) ≈ 100/ε for ‖X‖∞ ≈ 0.3
        int d = 64;
        Matrix q = KnownSpectrum.randomBasis(d, d, RandomSource.seededForReproducibility(1));
        Matrix a = KnownSpectrum.symmetric(q, KnownSpectrum.spectrum(d, new double[] {4000, 3500}, 100));
        PrivateLowRankApproximation.Builder b = PrivateLowRankApproximation.builder().rank(2).iterations(8);
        double errGood = 0;
        double errBad = 0;
        for (int t = 0; t < 5; t++) {
            PrivateLowRankApproximation.Result r = b.randomSource(RandomSource.seededForReproducibility(10 + t)).build()
                    .release(SymmetricOperator.dense(a), PrivacyParams.of(4, 1e-6));
            assertThat(r.left().cols()).isEqualTo(4);
            errGood += spectralNorm(a.minus(r.toDense())) / 5;
            PrivateLowRankApproximation.Result r2 = b.randomSource(RandomSource.seededForReproducibility(10 + t)).build()
                    .release(SymmetricOperator.dense(a), PrivacyParams.of(0.05, 1e-6));
            errBad += spectralNorm(a.minus(r2.toDense())) / 5;
        }
        // a rank-2k approximation can never beat σ_{2k+1} = 100; at ε = 4 the noise term is a few hundred at most
        assertThat(errGood).isGreaterThanOrEqualTo(100 - 1e-6).isLessThan(600);
        assertThat(errBad).isGreaterThan(2 * errGood);
    }

    @Test
    void sigmaIsCalibratedForLPlusOneProducts() {
        Matrix a = Matrix.identity(8);
        PrivateLowRankApproximation.Result r = PrivateLowRankApproximation.builder().rank(1).iterations(5)
                .randomSource(RandomSource.seededForReproducibility(3)).build()
                .release(SymmetricOperator.dense(a), PrivacyParams.of(1, 1e-6));
        assertThat(r.guarantee().sensitivity()).contains("p*L = 12 products")
                .contains("sigma = " + PrivatePowerMethod.exactSigma(2, 6, 8, PrivacyParams.of(1, 1e-6)));
        double[] v = {1, 0, 0, 0, 0, 0, 0, 0};
        assertThat(r.times(v)).containsExactly(r.toDense().column(0), org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void rankAboveHalfTheDimensionIsRejected() {
        assertThatThrownBy(() -> PrivateLowRankApproximation.builder().rank(3).build()
                .release(SymmetricOperator.dense(Matrix.identity(5)), PrivacyParams.of(1, 1e-6)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2k <= d = 5");
    }
}
