package io.dpspectra.release;

import io.dpspectra.Diagnostics;
import io.dpspectra.privacy.ComposedGuarantee;
import io.dpspectra.result.PrivateCovariance;
import java.util.Objects;

/**
 * A private second-moment (covariance) release, what {@link PrivateSecondMoment#fit} (and
 * {@code dpspectra covariance}) makes: the released matrix with its eigendecomposition, the public
 * preprocessing that produced it, and the guarantee of the whole release (every private part, composed). A
 * release always has its guarantee.
 *
 * <p>The {@link #diagnostics()} are facts learned from the data WITHOUT privacy, for the data's curator only.
 */
public final class CovarianceRelease {
    private final PrivateCovariance covariance;
    private final Preprocessing preprocessing;
    private final ComposedGuarantee guarantee;
    private final Diagnostics diagnostics;

    CovarianceRelease(PrivateCovariance covariance, Preprocessing preprocessing, ComposedGuarantee guarantee,
                      Diagnostics diagnostics) {
        this.covariance = Objects.requireNonNull(covariance, "covariance");
        this.preprocessing = Objects.requireNonNull(preprocessing, "preprocessing");
        this.guarantee = Objects.requireNonNull(guarantee, "guarantee");
        this.diagnostics = Objects.requireNonNull(diagnostics, "diagnostics");
    }

    /**
     * The mechanism's result: the released XᵀX of the preprocessed rows (a sum over rows), its eigenpairs, its
     * own guarantee and diagnostics.
     *
     * @return the covariance
     */
    public PrivateCovariance covariance() {
        return covariance;
    }

    /**
     * The public preprocessing the mechanism saw.
     *
     * @return the preprocessing
     */
    public Preprocessing preprocessing() {
        return preprocessing;
    }

    /**
     * What the whole release satisfies: the mechanism's guarantee composed with every private preprocessing
     * step.
     *
     * @return the guarantee
     */
    public ComposedGuarantee guarantee() {
        return guarantee;
    }

    /**
     * Facts learned from the data WITHOUT privacy, for the data's curator: rows, clipped rows, clamped cells,
     * the release's seconds. Never publish them with the release.
     *
     * @return the facts
     */
    public Diagnostics diagnostics() {
        return diagnostics;
    }
}
