package io.dpspectra.cli.options;

import io.dpspectra.pca.NoisyPowerMethod;
import io.dpspectra.release.PcaAlgorithm;
import io.dpspectra.release.PcaOptions;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fit} options of the noisy, streaming and private power methods of papers/noisy-power-method.txt
 * (--iterations is shared with the robust methods), translated into core's {@link PcaOptions}.
 */
@Command
public final class PowerMethodFamily implements AlgorithmFamily {
    @Option(names = "--iterations", paramLabel = "L",
            description = "Power methods: number of iterations L (private-power: sigma grows as sqrt(L); robust PCA: T, default n; "
                    + "streaming-power: T = floor(n/L) rows per iteration). Default: "
                    + NoisyPowerMethod.DEFAULT_ITERATIONS + ".")
    Integer iterations;

    @Option(names = "--block-size", paramLabel = "P",
            description = "Power methods: block size p >= k (default k). p = 2k is the paper's oversampling; "
                    + "for private-power sigma grows as sqrt(p).")
    Integer blockSize;

    @Option(names = "--perturbation-sigma", paramLabel = "S",
            description = "noisy-power: standard deviation of the i.i.d. Gaussian test perturbation added to every "
                    + "product (NOT privacy noise; default 0 = exact power method).")
    Double perturbationSigma;

    @Override
    public void fill(PcaOptions.Builder o, Predicate<String> typed, PcaAlgorithm algorithm) {
        if (typed.test("--iterations")) {
            o.iterations(iterations);
        }
        if (typed.test("--block-size")) {
            o.blockSize(blockSize);
        }
        if (typed.test("--perturbation-sigma")) {
            o.perturbationSigma(perturbationSigma);
        }
    }
}
