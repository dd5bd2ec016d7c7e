package io.dpspectra.release;

import io.dpspectra.Diagnostics;
import io.dpspectra.covariance.PrivateSpectrum;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.privacy.ComposedGuarantee;
import io.dpspectra.result.PrivateSubspace;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A private principal-components release, what {@link PrivatePca#fit} (and {@code dpspectra fit}) makes: the
 * estimator's result, the public preprocessing that produced it, the private spectrum behind an automatic k,
 * and the guarantee of the whole release (every private part, composed). A release always has its guarantee.
 *
 * <p>The {@link #diagnostics()} are facts learned from the data WITHOUT privacy (rows, clipped rows, clamped
 * cells, the fit's time), for the data's curator only; they are never part of what may be published.
 */
public final class PcaRelease {
    private final PrivateSubspace subspace;
    private final Preprocessing preprocessing;
    private final PrivateSpectrum spectrum;
    private final ComposedGuarantee guarantee;
    private final Diagnostics diagnostics;
    private final List<String> warnings;

    PcaRelease(PrivateSubspace subspace, Preprocessing preprocessing, PrivateSpectrum spectrum,
               ComposedGuarantee guarantee, Diagnostics diagnostics, List<String> warnings) {
        this.subspace = Objects.requireNonNull(subspace, "subspace");
        this.preprocessing = Objects.requireNonNull(preprocessing, "preprocessing");
        this.spectrum = spectrum;
        this.guarantee = Objects.requireNonNull(guarantee, "guarantee");
        this.diagnostics = Objects.requireNonNull(diagnostics, "diagnostics");
        this.warnings = List.copyOf(warnings);
    }

    /**
     * The estimator's result: components, explained variance, its own guarantee and its diagnostics.
     *
     * @return the subspace
     */
    public PrivateSubspace subspace() {
        return subspace;
    }

    /**
     * The released components, d × k with orthonormal columns (a copy).
     *
     * @return the components
     */
    public Matrix components() {
        return subspace.components();
    }

    /**
     * The number of components released.
     *
     * @return k
     */
    public int k() {
        return subspace.k();
    }

    /**
     * The estimator's name, as in the table of names.
     *
     * @return the name
     */
    public String algorithm() {
        return subspace.algorithm();
    }

    /**
     * The public preprocessing the estimator saw (schema, centring, released mean, bound and its origin).
     *
     * @return the preprocessing
     */
    public Preprocessing preprocessing() {
        return preprocessing;
    }

    /**
     * The private spectrum that chose k, for an automatic k.
     *
     * @return the spectrum, or empty for a fixed k
     */
    public Optional<PrivateSpectrum> spectrum() {
        return Optional.ofNullable(spectrum);
    }

    /**
     * What the whole release satisfies: the estimator's guarantee composed with every private preprocessing
     * step and spectrum.
     *
     * @return the guarantee
     */
    public ComposedGuarantee guarantee() {
        return guarantee;
    }

    /**
     * Facts learned from the data WITHOUT privacy, for the data's curator: rows, clipped rows, clamped cells,
     * the fit's seconds. Never publish them with the release.
     *
     * @return the facts
     */
    public Diagnostics diagnostics() {
        return diagnostics;
    }

    /**
     * The warnings the release raised (settings not certified private, a release that says little).
     *
     * @return the warnings, in order
     */
    public List<String> warnings() {
        return warnings;
    }
}
