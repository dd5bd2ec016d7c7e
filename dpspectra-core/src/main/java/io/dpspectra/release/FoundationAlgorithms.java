package io.dpspectra.release;

import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.pca.ExactPca;
import io.dpspectra.result.PrivateSubspace;
import java.util.List;
import java.util.Set;

/** The foundation's estimators: analyze-gauss (DP-Gauss-1) and the non-private exact reference. */
final class FoundationAlgorithms {
    private FoundationAlgorithms() {
    }

    static List<PcaAlgorithm> all() {
        return List.of(new AnalyzeGaussPca(), new Exact());
    }

    /** DP-Gauss-1: one Gaussian release of XᵀX; its d eigenvalues are a released spectrum. */
    private static final class AnalyzeGaussPca extends PcaAlgorithm {
        AnalyzeGaussPca() {
            super("analyze-gauss", Family.FOUNDATION, true, true, true, Set.of());
        }

        @Override
        public String summary(Vocabulary v) {
            return "DP-Gauss-1 (Dwork et al. 2014): Gaussian noise on XᵀX, then top-k eigenvectors; needs "
                    + v.name(Setting.DELTA) + " > 0";
        }

        @Override
        public NoiseKind noise() {
            return NoiseKind.GAUSSIAN;
        }

        @Override
        public boolean readsOnce() {
            return true; // one GramPass
        }

        @Override
        public boolean releasesSpectrum(PcaOptions options) {
            return true; // the eigenvalues of the noisy XᵀX
        }

        @Override
        public PrivateSubspace fit(Input c, PcaOptions options, Vocabulary v) {
            AnalyzeGauss.Builder b = AnalyzeGauss.builder().components(c.components()).randomSource(c.random());
            if (c.neighbouring() != null) {
                b.neighbouring(c.neighbouring());
            }
            PrivateSubspace s = b.build().fit(c.rows(), c.params());
            if (c.chooser() == null) {
                return s;
            }
            // all d eigenpairs of the one noisy matrix: keeping the leading k is post-processing
            return s.leading(c.chooser().applyAsInt(s.explainedVariance().orElseThrow()));
        }
    }

    /** Exact PCA of XᵀX: not private, a reference. */
    private static final class Exact extends PcaAlgorithm {
        Exact() {
            super("exact", Family.FOUNDATION, false, false, true, Set.of());
        }

        @Override
        public String summary(Vocabulary v) {
            return "exact PCA of XᵀX: NOT private, a reference for comparison";
        }

        @Override
        public boolean readsOnce() {
            return true; // one GramPass
        }

        @Override
        public PrivateSubspace fit(Input c, PcaOptions options, Vocabulary v) {
            return ExactPca.builder().components(c.components()).build().fit(c.rows());
        }
    }
}
