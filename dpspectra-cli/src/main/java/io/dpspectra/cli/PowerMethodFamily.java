package io.dpspectra.cli;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.NoisyPowerMethod;
import io.dpspectra.pca.Perturbation;
import io.dpspectra.pca.PowerMethodOptions;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.pca.PrivateSubspace;
import io.dpspectra.pca.StreamingPowerMethod;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fit} algorithms and options: the noisy, streaming and private power methods of papers/noisy-power-method.txt (issue 4). */
@Command
final class PowerMethodFamily implements AlgorithmFamily {
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
    public List<FitAlgorithm> fitAlgorithms() {
        return List.of(new PrivatePowerFit(), new StreamingPowerFit(), new NoisyPowerFit());
    }

    private int iterationsOrDefault() {
        return iterations == null ? NoisyPowerMethod.DEFAULT_ITERATIONS : iterations;
    }

    /** k, L, p and the randomness: what the three power methods' builders share. */
    private <B extends PowerMethodOptions<B>> B configure(B builder, FitAlgorithm.FitContext c, RandomSource random) {
        builder.components(c.components()).iterations(iterationsOrDefault()).randomSource(random);
        if (blockSize != null && blockSize < c.components()) {
            throw CliException.usage("--block-size must be >= --components = " + c.components() + ", got " + blockSize,
                    "omit it (p = k) or pass e.g. --block-size " + (2 * c.components()));
        }
        if (blockSize != null) {
            builder.blockSize(blockSize);
        }
        return builder;
    }

    private void validateShared() {
        if (iterations != null && iterations < 1) {
            throw CliException.usage("--iterations must be >= 1, got " + iterations, "pass e.g. --iterations 20");
        }
        if (blockSize != null && blockSize < 1) {
            throw CliException.usage("--block-size must be >= 1, got " + blockSize, "pass p >= k, e.g. 2k");
        }
    }

    /** The options every method but noisy-power reads. */
    private static final List<String> ITERATION_OPTIONS = List.of("--iterations", "--block-size");

    /** A power method on the rows: Xᵀ(XW) per iteration, one pass each, O(dp) memory. */
    private abstract class RowPowerFit extends DeclaredFit {
        RowPowerFit(String name, List<String> options, String summary) {
            super(name, false, false, options, summary);
        }

        @Override
        public int passes() {
            return iterationsOrDefault();
        }
    }

    private final class PrivatePowerFit extends RowPowerFit {
        PrivatePowerFit() {
            super("private-power", ITERATION_OPTIONS, "private power method (Hardt & Price Fig. 3) on XᵀX, applied as "
                    + "Xᵀ(XW) per pass: Gaussian noise composed exactly over the p*L products (delta > 0) or Laplace "
                    + "(delta = 0) for unit spectral change beta²; --iterations, --block-size");
        }

        @Override
        public void validateOptions() {
            validateShared();
        }

        /** Gaussian noise only (composed exactly over the p·L products) when delta > 0; Laplace (pure) otherwise. */
        @Override
        public boolean gaussianOnly() {
            return true;
        }

        @Override
        public PrivateSubspace fit(FitContext c) {
            PrivatePowerMethod.Builder b = configure(PrivatePowerMethod.builder(), c, c.random());
            if (c.neighbouring() != null) {
                b.rowNeighbouring(c.neighbouring());
            }
            return b.build().fit(c.rows(), c.params());
        }
    }

    private final class StreamingPowerFit extends DeclaredFit {
        StreamingPowerFit() {
            super("streaming-power", false, false, ITERATION_OPTIONS, "streaming power method (Mitliagkas et al.; "
                    + "Hardt & Price Fig. 2): one pass, O(dp) memory; NOT private; --iterations, --block-size");
        }

        @Override
        public boolean isPrivate() {
            return false;
        }

        @Override
        public void validateOptions() {
            validateShared();
        }

        @Override
        public PrivateSubspace fit(FitContext c) {
            return configure(StreamingPowerMethod.builder(), c, RandomSource.secure()).build()
                    .fit(c.rows(), c.rowCount());
        }
    }

    private final class NoisyPowerFit extends RowPowerFit {
        NoisyPowerFit() {
            super("noisy-power", List.of(), "noisy power method (Hardt & Price Fig. 1) on XᵀX with an optional "
                    + "Gaussian test perturbation (--perturbation-sigma); NOT private");
        }

        @Override
        public boolean isPrivate() {
            return false;
        }

        @Override
        public void validateOptions() {
            validateShared();
            if (perturbationSigma != null) {
                if (!(perturbationSigma >= 0) || !Double.isFinite(perturbationSigma)) {
                    throw CliException.usage("--perturbation-sigma must be >= 0 and finite, got " + perturbationSigma,
                            "pass e.g. --perturbation-sigma 0.1, or omit it for the exact power method");
                }
            }
        }

        @Override
        public PrivateSubspace fit(FitContext c) {
            return configure(NoisyPowerMethod.builder(), c, RandomSource.secure())
                    .perturbation(perturbationSigma == null ? Perturbation.none()
                            : Perturbation.gaussian(perturbationSigma))
                    .build().fit(c.rows());
        }
    }
}
