package io.dpspectra.audit;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;

/**
 * Empirical privacy auditing: runs a mechanism many times on two neighbouring datasets, applies a
 * threshold test to a scalar statistic of its output, and reports a lower bound on ε that holds with
 * the stated confidence (Clopper–Pearson intervals). A lower bound above the claimed ε is a violation.
 *
 * <p>TODO(skeleton): implemented in the algorithms work package; the API below is fixed.
 */
public final class PrivacyAuditor {

    /** One run of the mechanism under test, reduced to a scalar statistic of its output. */
    @FunctionalInterface
    public interface Trial {
        double run(RandomSource random);
    }

    /**
     * @param epsilonLowerBound the empirical lower bound on ε (0 if nothing was detected)
     * @param claimed           the claimed guarantee
     * @param confidence        the confidence of the bound
     * @param trials            runs per dataset
     * @param threshold         the threshold of the best test
     * @param violation         true when epsilonLowerBound &gt; claimed ε
     */
    public record Result(double epsilonLowerBound, PrivacyParams claimed, double confidence, int trials,
                         double threshold, boolean violation) {
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. */
    public static final class Builder {
        public Builder trials(int trials) {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }

        public Builder confidence(double confidence) {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }

        /** Randomness for the mechanism runs (seeded in tests). */
        public Builder randomSource(RandomSource random) {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }

        public PrivacyAuditor build() {
            throw new UnsupportedOperationException("TODO(skeleton)");
        }
    }

    /** Audits {@code onD} against {@code onDPrime} for the claimed guarantee. */
    public Result audit(Trial onD, Trial onDPrime, PrivacyParams claimed) {
        throw new UnsupportedOperationException("TODO(skeleton)");
    }
}
