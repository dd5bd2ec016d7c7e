package io.dpspectra.local;

import io.dpspectra.covariance.GaussianCalibration;
import io.dpspectra.covariance.SecondMomentSensitivity;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Objects;

/**
 * The public parameters of a local-DP covariance report: everything a client and the server share, and
 * nothing else. Every report carries them ({@link LocalReport}), so that the server can refuse a report
 * made under other parameters.
 *
 * <p>σ is not free: it is the calibrated standard deviation for (ε, δ), the clip norm B and the
 * calibration rule, {@link #calibratedSigma}. A report whose σ differs from that value is inconsistent
 * (a client with another σ rule, or a corrupted report) and is refused like a mismatch.
 *
 * @param version     the report format version, {@link #FORMAT_VERSION}
 * @param dimension   p, the record length; a report holds p(p+1)/2 values
 * @param epsilon     the local ε of each report
 * @param delta       the local δ of each report
 * @param clipNorm    B: each record is scaled into the L2 ball of radius B before it is reported
 * @param calibration the Gaussian calibration rule
 * @param sigma       the standard deviation of the noise on each reported entry
 * @serial exclude
 */
public record ReportParameters(int version, int dimension, double epsilon, double delta, double clipNorm,
                               GaussianCalibration calibration, double sigma) implements java.io.Serializable {
    /** The version this library writes and the only one it reads. */
    public static final int FORMAT_VERSION = 1;
    /** The largest p whose report length p(p+1)/2 fits an array. */
    public static final int MAX_DIMENSION = 65_535;

    /**
     * Validates the parameters (σ is checked against its calibration by {@link #inconsistency()}, not here).
     *
     * @param version     the report format version
     * @param dimension   p, in [1, {@value #MAX_DIMENSION}]
     * @param epsilon     ε, finite and &gt; 0
     * @param delta       δ, in (0, 1)
     * @param clipNorm    B, finite and &gt; 0
     * @param calibration the Gaussian calibration rule
     * @param sigma       σ, finite and &gt; 0
     * @throws IllegalArgumentException for an invalid value, naming it
     */
    public ReportParameters {
        Objects.requireNonNull(calibration, "calibration");
        if (dimension < 1 || dimension > MAX_DIMENSION) {
            throw new IllegalArgumentException("the record dimension p must be in [1, " + MAX_DIMENSION + "], got "
                    + dimension);
        }
        DpPreconditions.checkEpsilon(epsilon);
        DpPreconditions.checkPositiveDelta(delta, "the local Gaussian mechanism");
        DpPreconditions.checkBound("--clip-norm", clipNorm);
        DpPreconditions.checkPositive("sigma", sigma);
    }

    /**
     * The parameters of version {@link #FORMAT_VERSION} with σ calibrated for them.
     *
     * @param dimension   p
     * @param privacy     the local (ε, δ), δ &gt; 0
     * @param clipNorm    B, &gt; 0
     * @param calibration the Gaussian calibration rule
     * @return the parameters
     */
    public static ReportParameters calibrated(int dimension, PrivacyParams privacy, double clipNorm,
            GaussianCalibration calibration) {
        return new ReportParameters(FORMAT_VERSION, dimension, privacy.epsilon(), privacy.delta(), clipNorm,
                calibration, calibratedSigma(privacy, clipNorm, calibration));
    }

    /**
     * The L2 sensitivity of the upper triangle of xxᵀ (diagonal included) between ANY two records of
     * norm ≤ B, as the local model requires: √2·B² (tight at x = B·e₁, x' = B·e₂).
     *
     * @param clipNorm B, &gt; 0
     * @return √2·B²
     */
    public static double sensitivity(double clipNorm) {
        return SecondMomentSensitivity.l2UpperTriangle(clipNorm, Neighbouring.REPLACE_ROW);
    }

    /**
     * σ for (ε, δ) at sensitivity {@link #sensitivity √2·B²} by the given rule.
     *
     * @param privacy     the local (ε, δ), δ &gt; 0
     * @param clipNorm    B, &gt; 0
     * @param calibration the Gaussian calibration rule
     * @return σ, &gt; 0
     */
    public static double calibratedSigma(PrivacyParams privacy, double clipNorm, GaussianCalibration calibration) {
        return calibration.sigma(sensitivity(clipNorm), privacy);
    }

    /**
     * The number of values in a report, p(p+1)/2.
     *
     * @return p(p+1)/2
     */
    public int reportLength() {
        return dimension * (dimension + 1) / 2;
    }

    /**
     * The local budget of each report.
     *
     * @return (ε, δ)
     */
    public PrivacyParams privacy() {
        return PrivacyParams.of(epsilon, delta);
    }

    /**
     * Null when these parameters are valid for this library and σ is the calibrated one; otherwise what
     * is wrong, in words.
     *
     * @return null, or the inconsistency in words
     */
    public String inconsistency() {
        if (version != FORMAT_VERSION) {
            return "report format version " + version + " is not supported (this dpspectra reads version "
                    + FORMAT_VERSION + ")";
        }
        double expected = calibratedSigma(privacy(), clipNorm, calibration);
        if (sigma != expected) {
            return "sigma " + sigma + " is not the " + calibration + " calibration for epsilon " + epsilon
                    + ", delta " + delta + ", clip norm " + clipNorm + " (expected " + expected + ")";
        }
        return null;
    }

    /**
     * Null when {@code other} equals these parameters; otherwise the first field that differs, in words.
     *
     * @param other the parameters of a report
     * @return null, or the first difference in words
     */
    public String mismatch(ReportParameters other) {
        if (equals(other)) {
            return null;
        }
        if (version != other.version) {
            return "version " + other.version + " differs from " + version;
        }
        if (dimension != other.dimension) {
            return "dimension " + other.dimension + " differs from " + dimension;
        }
        if (Double.compare(epsilon, other.epsilon) != 0) {
            return "epsilon " + other.epsilon + " differs from " + epsilon;
        }
        if (Double.compare(delta, other.delta) != 0) {
            return "delta " + other.delta + " differs from " + delta;
        }
        if (Double.compare(clipNorm, other.clipNorm) != 0) {
            return "clip norm " + other.clipNorm + " differs from " + clipNorm;
        }
        if (calibration != other.calibration) {
            return "calibration " + other.calibration + " differs from " + calibration;
        }
        return "sigma " + other.sigma + " differs from " + sigma;
    }
}
