package io.dpspectra.cli;

import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.pca.ExactPca;
import java.util.List;

/** The foundation's algorithms: analyze-gauss (DP-Gauss-1) and the non-private exact reference. */
final class CoreFitAlgorithms implements AlgorithmFamily {
    @Override
    public List<FitAlgorithm> fitAlgorithms() {
        return List.of(new AnalyzeGaussFit(), new ExactFit());
    }

    private static final class AnalyzeGaussFit implements FitAlgorithm {
        @Override
        public String name() {
            return "analyze-gauss";
        }

        @Override
        public boolean readsOnce() {
            return true; // one GramPass
        }

        @Override
        public String summary() {
            return "DP-Gauss-1 (Dwork et al. 2014): Gaussian noise on XᵀX, then top-k eigenvectors; needs --delta > 0";
        }

        @Override
        public boolean needsDelta() {
            return true;
        }

        @Override
        public boolean gaussianOnly() {
            return true;
        }

        @Override
        public boolean releasesSpectrum() {
            return true; // the eigenvalues of the noisy XᵀX
        }

        @Override
        public io.dpspectra.pca.PrivateSubspace fit(FitContext c) {
            AnalyzeGauss.Builder b = AnalyzeGauss.builder().components(c.components()).randomSource(c.random());
            if (c.neighbouring() != null) {
                b.neighbouring(c.neighbouring());
            }
            io.dpspectra.pca.PrivateSubspace s = b.build().fit(c.rows(), c.params());
            if (c.chooser() == null) {
                return s;
            }
            // all d eigenpairs of the one noisy matrix: keeping the leading k is post-processing
            return s.leading(c.chooser().applyAsInt(s.explainedVariance().orElseThrow()));
        }
    }

    private static final class ExactFit implements FitAlgorithm {
        @Override
        public String name() {
            return "exact";
        }

        @Override
        public boolean readsOnce() {
            return true; // one GramPass
        }

        @Override
        public String summary() {
            return "exact PCA of XᵀX: NOT private, a reference for comparison";
        }

        @Override
        public boolean isPrivate() {
            return false;
        }

        @Override
        public io.dpspectra.pca.PrivateSubspace fit(FitContext c) {
            return ExactPca.builder().components(c.components()).build().fit(c.rows());
        }
    }
}
