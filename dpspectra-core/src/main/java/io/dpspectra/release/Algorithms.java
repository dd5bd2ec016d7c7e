package io.dpspectra.release;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The one table of algorithm names: a name means the same core algorithm, with the same defaults and the
 * same checks, in Java, on the command line ({@code dpspectra fit}, {@code dpspectra covariance}) and in
 * Spark. Each {@link PcaAlgorithm} and {@link CovarianceAlgorithm} states the facts a release plans with
 * (private, needs δ, zCDP cost, forms d × d, passes, reads once, releases a spectrum).
 */
public final class Algorithms {
    private static final List<PcaAlgorithm> PCA;
    private static final List<CovarianceAlgorithm> COVARIANCE = List.of(new CovarianceAlgorithm("it-u"),
            new CovarianceAlgorithm("ad"), new CovarianceAlgorithm("kt"), new CovarianceAlgorithm("laplace"),
            new CovarianceAlgorithm("gaussian"));

    static {
        List<PcaAlgorithm> all = new ArrayList<>();
        all.addAll(FoundationAlgorithms.all());
        all.addAll(StochasticAlgorithms.all());
        all.addAll(PowerAlgorithms.all());
        all.addAll(SamplingAlgorithms.all());
        all.addAll(RobustAlgorithms.all());
        PCA = List.copyOf(all);
    }

    /**
     * The principal-components estimators that honour a {@linkplain PrivacyUnit person as the unit}: those that
     * read the bounded rows only through their second moment XᵀX, whose sensitivity derivation needs no more than
     * a positive semi-definite contribution of trace ≤ B² (see {@link PrivacyUnit}); the non-private reference
     * exact is grouped alike, for comparison.
     */
    public static final java.util.Set<String> PERSON_LEVEL_PCA = java.util.Set.of("analyze-gauss", "it-u", "ad",
            "exact");

    /**
     * The principal-components estimators that honour a person whose contribution is bounded in the Frobenius norm
     * only ({@link PrivacyUnit#frobenius}): analyze-gauss, whose Gaussian noise is calibrated to the L2 norm of the
     * Gram's upper triangle, and the non-private reference exact. it-u and ad need a trace or operator bound.
     */
    public static final java.util.Set<String> FROBENIUS_PCA = java.util.Set.of("analyze-gauss", "exact");

    /**
     * The covariance mechanisms that honour a person bounded in the Frobenius norm only: the Gaussian mechanism (the
     * others need an L1, operator or trace bound).
     */
    public static final java.util.Set<String> FROBENIUS_COVARIANCE = java.util.Set.of("gaussian");

    /** The covariance mechanisms that honour a person as the unit: all, for the same reason. */
    public static final java.util.Set<String> PERSON_LEVEL_COVARIANCE = java.util.Set.of("it-u", "ad", "kt",
            "laplace", "gaussian");

    private Algorithms() {
    }

    /**
     * Every principal-components estimator, private or a non-private reference, grouped by paper.
     *
     * @return the estimators, in the order of the help
     */
    public static List<PcaAlgorithm> pca() {
        return PCA;
    }

    /**
     * The names of the private principal-components estimators, in {@link #pca()}'s order.
     *
     * @return the names
     */
    public static List<String> privatePcaNames() {
        return PCA.stream().filter(PcaAlgorithm::isPrivate).map(PcaAlgorithm::name).toList();
    }

    /**
     * The estimator named {@code name} (any case), or empty.
     *
     * @param name the name
     * @return the estimator, or empty
     */
    public static Optional<PcaAlgorithm> findPca(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return PCA.stream().filter(a -> a.name().equals(n)).findFirst();
    }

    /**
     * The estimator named {@code name} (any case).  @throws ReleaseSettingException for an unknown name, naming
     * the setting through {@code v}
     *
     * @param name the name
     * @param v the words of the messages
     * @return the estimators, in the order of the help
     */
    public static PcaAlgorithm pca(String name, Vocabulary v) {
        return findPca(name).orElseThrow(() -> new ReleaseSettingException("unknown " + v.name(Setting.ALGORITHM)
                + " '" + name + "'", "choose one of: " + String.join(", ", PCA.stream().map(PcaAlgorithm::name)
                .toList())));
    }

    /**
     * The covariance mechanisms, in the order of {@code dpspectra covariance}'s help.
     *
     * @return the mechanism(s)
     */
    public static List<CovarianceAlgorithm> covariance() {
        return COVARIANCE;
    }

    /**
     * The names of {@link #covariance()}.
     *
     * @return the names
     */
    public static List<String> covarianceNames() {
        return COVARIANCE.stream().map(CovarianceAlgorithm::name).toList();
    }

    /**
     * The covariance mechanism named {@code name} (lower case).  @throws ReleaseSettingException for an unknown
     * name, naming the setting through {@code v}
     *
     * @param name the name
     * @param v the words of the messages
     * @return the mechanism(s)
     */
    public static CovarianceAlgorithm covariance(String name, Vocabulary v) {
        return COVARIANCE.stream().filter(a -> a.name().equals(name)).findFirst()
                .orElseThrow(() -> new ReleaseSettingException("unknown " + v.name(Setting.ALGORITHM) + " '" + name
                        + "'", "choose " + String.join(", ", covarianceNames())));
    }
}
