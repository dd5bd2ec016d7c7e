package io.dpspectra.cli;

import java.util.List;
import picocli.CommandLine.Command;

/** {@code fit} algorithms and options: the noisy, streaming and private power methods of papers/noisy-power-method.txt (issue 4). */
@Command
final class PowerMethodFamily implements AlgorithmFamily {
    @Override
    public List<FitAlgorithm> fitAlgorithms() {
        return List.of();
    }
}
