package io.dpspectra.cli;

import java.util.List;
import picocli.CommandLine.Command;

/** {@code fit} algorithms and options: the stochastic private k-PCA algorithms of papers/kdp-pca-adaptive-noise.txt (issue 3: k-dp-pca, k-dp-ojas, oja, dp-gauss-2, dp-power-method). */
@Command
final class StochasticPcaFamily implements AlgorithmFamily {
    @Override
    public List<FitAlgorithm> fitAlgorithms() {
        return List.of();
    }
}
