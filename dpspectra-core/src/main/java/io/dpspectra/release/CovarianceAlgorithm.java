package io.dpspectra.release;

import static io.dpspectra.release.Setting.ALGORITHM;
import static io.dpspectra.release.Setting.SKIP_LAST_VECTOR;

import io.dpspectra.covariance.CovarianceEstimator;
import io.dpspectra.covariance.GaussianCovariance;
import io.dpspectra.covariance.IterativeEigenvectorSampling;
import io.dpspectra.covariance.KapralovTalwar;
import io.dpspectra.covariance.LaplaceCovariance;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.noise.RandomSource;

/**
 * One covariance mechanism of the table of names ({@link Algorithms#covariance()}): a private release of the
 * second-moment matrix XᵀX of the bounded rows (it-u, ad, kt, laplace, gaussian), with the facts a release
 * plans with and the translation into the core estimator. Every mechanism makes one Gram pass and forms
 * d × d matrices; all noise is the core class's.
 */
public final class CovarianceAlgorithm {
    private final String name;

    CovarianceAlgorithm(String name) {
        this.name = name;
    }

    /**
     * The name: it-u, ad, kt, laplace or gaussian.
     *
     * @return the fact
     */
    public String name() {
        return name;
    }

    /**
     * True for the Gaussian mechanism, which needs δ &gt; 0.
     *
     * @return the fact
     */
    public boolean needsDelta() {
        return name.equals("gaussian");
    }

    /**
     * True for the pure-ε sampling mechanisms of Amin et al. 2019 (it-u, ad) and the Kapralov–Talwar style
     * baseline (kt): they take no δ and are proven under replace-one neighbours only.
     *
     * @return the fact
     */
    public boolean isSampling() {
        return name.equals("it-u") || name.equals("ad") || name.equals("kt");
    }

    /**
     * How the mechanism spends its share, for its zCDP cost: Gaussian for gaussian, pure ε for the others.
     *
     * @return the fact
     */
    public NoiseKind noise() {
        return needsDelta() ? NoiseKind.GAUSSIAN : NoiseKind.PURE;
    }

    /**
     * Whether the mechanism samples eigenvectors one by one, so that the last one can be skipped (it-u, ad).
     *
     * @return the fact
     */
    public boolean samplesVectors() {
        return name.equals("it-u") || name.equals("ad");
    }

    /**
     * Refuses, before any data is read, a relation the mechanism is not proven under (add/remove for it-u, ad and
     * kt).
     *
     * @param neighbouring the relation, or null for the mechanism's own
     * @param v the words of the messages
     */
    public void checkRelation(Neighbouring neighbouring, Vocabulary v) {
        if (isSampling()) {
            SamplingAlgorithms.checkReplaceOnly(name, neighbouring, v);
        }
    }

    /**
     * Refuses skipping the last eigenvector for a mechanism that does not sample eigenvectors.
     *
     * @param skipLastVector whether to spend nothing on the last eigenvector
     * @param v the words of the messages
     */
    public void checkSkipLastVector(boolean skipLastVector, Vocabulary v) {
        if (skipLastVector && !samplesVectors()) {
            throw new ReleaseSettingException(v.name(SKIP_LAST_VECTOR) + " does not apply to "
                    + v.typed(ALGORITHM, name), "drop " + v.name(SKIP_LAST_VECTOR)
                    + ", or choose an algorithm it applies to: it-u, ad");
        }
    }

    /**
     * The core estimator under {@code neighbouring} (null: its own), drawing from {@code random}; {@code
     * skipLastVector} for it-u and ad only.
     *
     * @param neighbouring the relation, or null for the mechanism's own
     * @param random the noise source
     * @param skipLastVector whether to spend nothing on the last eigenvector
     * @return the estimator
     */
    public CovarianceEstimator estimator(Neighbouring neighbouring, RandomSource random, boolean skipLastVector) {
        return switch (name) {
            case "it-u", "ad" -> IterativeEigenvectorSampling.builder().randomSource(random)
                    .split(name.equals("ad") ? IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE
                            : IterativeEigenvectorSampling.BudgetSplit.UNIFORM)
                    .skipLastVector(skipLastVector).build();
            case "kt" -> KapralovTalwar.builder().randomSource(random).build();
            case "gaussian" -> {
                GaussianCovariance.Builder b = GaussianCovariance.builder().randomSource(random);
                if (neighbouring != null) {
                    b.neighbouring(neighbouring);
                }
                yield b.build();
            }
            default -> {
                LaplaceCovariance.Builder b = LaplaceCovariance.builder().randomSource(random);
                if (neighbouring != null) {
                    b.neighbouring(neighbouring);
                }
                yield b.build();
            }
        };
    }

    @Override
    public String toString() {
        return name;
    }
}
