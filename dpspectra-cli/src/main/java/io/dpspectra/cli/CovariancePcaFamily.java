package io.dpspectra.cli;

import java.util.List;
import picocli.CommandLine.Command;

/** {@code fit} algorithms and options: private PCA from the iterative eigenvector sampling covariance release of papers/dp-covariance-estimation.txt (issue 5: it-u, ad). */
@Command
final class CovariancePcaFamily implements AlgorithmFamily {
    @Override
    public List<FitAlgorithm> fitAlgorithms() {
        return List.of();
    }
}
