package io.dpspectra.release;

import static io.dpspectra.release.Setting.COMPONENTS;
import static io.dpspectra.release.Setting.DELTA;
import static io.dpspectra.release.Setting.EIGENVALUES;
import static io.dpspectra.release.Setting.IES_FAILURE_PROBABILITY;
import static io.dpspectra.release.Setting.SKIP_LAST_VECTOR;

import io.dpspectra.covariance.IterativeEigenvectorSampling;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.result.PrivateCovariance;
import io.dpspectra.result.PrivateSubspace;
import java.util.EnumSet;
import java.util.List;

/**
 * Private PCA from the iterative eigenvector sampling covariance release of Amin et al. 2019
 * (papers/dp-covariance-estimation.txt: it-u, ad). Only the top k vectors are sampled (the vector budget
 * ε/2 is split over k, not d), and the result is the release's top-k eigenpairs.
 */
final class SamplingAlgorithms {
    private SamplingAlgorithms() {
    }

    static List<PcaAlgorithm> all() {
        return List.of(new Sampling(IterativeEigenvectorSampling.BudgetSplit.UNIFORM),
                new Sampling(IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE));
    }

    /** Refuses add/remove neighbours, as {@code dpspectra covariance} refuses them for the same mechanisms. */
    static void checkReplaceOnly(String name, Neighbouring n, Vocabulary v) {
        PcaAlgorithm.requireReplace(n, v, name + " is proven under replace neighbouring only (Amin et al. 2019)");
    }

    /** it-u (uniform split) or ad (adaptive split). */
    private static final class Sampling extends PcaAlgorithm {
        private final IterativeEigenvectorSampling.BudgetSplit split;

        Sampling(IterativeEigenvectorSampling.BudgetSplit split) {
            super(split == IterativeEigenvectorSampling.BudgetSplit.UNIFORM ? "it-u" : "ad",
                    Family.EIGENVECTOR_SAMPLING, true, false, true,
                    split == IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE
                            ? EnumSet.of(IES_FAILURE_PROBABILITY, SKIP_LAST_VECTOR, EIGENVALUES)
                            : EnumSet.of(SKIP_LAST_VECTOR, EIGENVALUES));
            this.split = split;
        }

        @Override
        public String summary(Vocabulary v) {
            return "Amin et al. 2019 iterative eigenvector sampling (exact Bingham sampler), "
                    + (split == IterativeEigenvectorSampling.BudgetSplit.UNIFORM ? "uniform" : "adaptive")
                    + " budget split; pure epsilon-DP, replace neighbouring";
        }

        @Override
        public boolean releasesSpectrum(PcaOptions o) {
            return split == IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE || o.eigenvalues();
        }

        @Override
        void validate(PcaOptions o, Vocabulary v) {
            double beta = o.iesFailureProbability();
            if (!(beta > 0 && beta < 1)) {
                throw refuse(v.name(IES_FAILURE_PROBABILITY) + " must be in (0, 1), got " + beta,
                        "pass a probability such as 0.05");
            }
        }

        @Override
        public void checkRelation(Neighbouring n, PcaOptions o, Vocabulary v) {
            checkReplaceOnly(name(), n, v);
        }

        @Override
        public PrivateSubspace fit(Input c, PcaOptions o, Vocabulary v) {
            checkRelation(c.neighbouring(), o, v);
            if (c.params().delta() > 0) {
                c.warn().accept(name() + " is pure epsilon-DP; " + v.typed(DELTA, String.valueOf(c.params().delta()))
                        + " is not used");
            }
            int d = c.rows().dimension();
            if (o.skipLastVector() && c.components() < d && c.chooser() == null) {
                c.warn().accept(v.name(SKIP_LAST_VECTOR) + " has no effect with " + v.typed(COMPONENTS,
                        String.valueOf(c.components())) + " < d = " + d + ": only the last of all d vectors is "
                        + "determined by the others");
            }
            IterativeEigenvectorSampling.Builder b = IterativeEigenvectorSampling.builder().split(split)
                    .failureProbability(o.iesFailureProbability()).vectors(c.components())
                    .skipLastVector(o.skipLastVector()).randomSource(c.random());
            int[] k = {c.components()};
            if (c.chooser() != null) {
                b.vectorsChosenBy(ev -> k[0] = c.chooser().applyAsInt(ev)); // from the d released eigenvalues
            }
            IterativeEigenvectorSampling ies = b.build();
            if (split == IterativeEigenvectorSampling.BudgetSplit.UNIFORM && !o.eigenvalues()) {
                return ies.subspace(c.rows(), c.params());
            }
            PrivateCovariance release = ies.release(c.rows(), c.params());
            return release.topK(k[0]);
        }
    }
}
