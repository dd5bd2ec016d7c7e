package io.dpspectra.cli.command;

import io.dpspectra.Diagnostics;
import io.dpspectra.cli.options.DiagnosticsOption;
import io.dpspectra.cli.options.Inputs;
import io.dpspectra.cli.options.OutputOption;
import io.dpspectra.cli.options.PrivacyOptions;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.OutputFormat;
import io.dpspectra.cli.output.Release;
import io.dpspectra.data.EdgeListReader;
import io.dpspectra.data.MatrixMarketReader;
import io.dpspectra.linalg.CsrMatrix;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.NoisyPowerMethod;
import io.dpspectra.pca.PowerMethodResult;
import io.dpspectra.pca.PpmNoise;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code dpspectra spectral}: private top-k eigenvectors of an explicit sparse symmetric matrix. */
@Command(name = "spectral", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Estimate the top-k eigenvectors (singular vectors) of a symmetric matrix given explicitly, "
                + "e.g. a graph's adjacency matrix, with the private power method of Hardt & Price (Fig. 3), "
                + "and print them as JSON. One iteration costs O(nnz * p).",
                "The matrix is read from a MatrixMarket coordinate file (.mtx: real/integer/pattern, "
                        + "general/symmetric) or an edge-list CSV (u,v[,weight], 0-based node ids).",
                "Privacy (default --noise entry): one matrix entry changing by at most --sensitivity (default 1) is "
                        + "the unit; use --symmetric-pairs when the unit is an undirected edge (both (u,v) and (v,u))."},
        footer = {"", "Example: dpspectra spectral --algorithm private-power --matrix graph.mtx --components 10 "
                + "--iterations 20 --epsilon 1 --delta 1e-6"})
public final class SpectralCommand extends BaseCommand {
    @Option(names = "--algorithm", paramLabel = "NAME", defaultValue = "private-power",
            description = "private-power (default) or power (the exact power method: NOT private, a reference).")
    String algorithm;

    @Option(names = "--matrix", paramLabel = "FILE", required = true,
            description = "The symmetric matrix: FILE.mtx (MatrixMarket) or FILE.csv (edge list).")
    Path matrix;

    @Option(names = "--matrix-format", paramLabel = "mtx|edges",
            description = "Format of --matrix (default: by extension, .mtx = MatrixMarket, otherwise edge list).")
    String matrixFormat;

    @Option(names = "--nodes", paramLabel = "N",
            description = "Edge lists: the number of nodes (ids in [0, N)); default: largest id + 1. Give it when "
                    + "the node count is public and the largest id might not be.")
    Integer nodes;

    @Option(names = {"--components", "-k"}, paramLabel = "K", required = true,
            description = "Number of eigenvectors k (1 <= k <= d).")
    int components;

    @Option(names = "--iterations", paramLabel = "L", defaultValue = "" + NoisyPowerMethod.DEFAULT_ITERATIONS,
            description = "Number of power iterations L (sigma grows as sqrt(L)). Default: ${DEFAULT-VALUE}.")
    int iterations;

    @Option(names = "--block-size", paramLabel = "P",
            description = "Block size p >= k (default k); p = 2k is the paper's oversampling (sigma grows as sqrt(p)).")
    Integer blockSize;

    @Option(names = "--noise", paramLabel = "entry|spectral|laplace|row-l1", defaultValue = "entry",
            description = "Noise variant and neighbouring relation: entry (Gaussian scaled by ||X||_inf; one entry "
                    + "changes by <= s), spectral (Gaussian; ||A - A'||_2 <= s), laplace (pure epsilon-DP; "
                    + "||A - A'||_2 <= s), row-l1 (entry noise, Nicolas et al.'s row-L1 relation). Default: ${DEFAULT-VALUE}.")
    String noise;

    @Option(names = "--sensitivity", paramLabel = "S",
            description = "The size s of one neighbouring change (default 1); a public bound, never derived from the data.")
    Double sensitivity;

    @Option(names = "--symmetric-pairs",
            description = "--noise entry|row-l1: the privacy unit is a symmetric pair of entries (an undirected edge), "
                    + "each changing by at most s; the noise grows by sqrt(2).")
    boolean symmetricPairs;

    @Mixin
    PrivacyOptions privacy = new PrivacyOptions();

    @Mixin
    OutputOption output = new OutputOption();

    @Mixin
    DiagnosticsOption diagnostics = new DiagnosticsOption();

    @Override
    public Integer call() throws Exception {
        String alg = algorithm.toLowerCase(Locale.ROOT);
        if (!alg.equals("private-power") && !alg.equals("power")) {
            throw CliException.usage("unknown --algorithm '" + algorithm + "'", "choose private-power or power");
        }
        if (components < 1) {
            throw CliException.usage("--components must be >= 1, got " + components, "pass e.g. --components 10");
        }
        if (iterations < 1) {
            throw CliException.usage("--iterations must be >= 1, got " + iterations, "pass e.g. --iterations 20");
        }
        if (blockSize != null && blockSize < components) {
            throw CliException.usage("--block-size must be >= --components = " + components + ", got " + blockSize,
                    "omit it (p = k) or pass e.g. --block-size " + (2 * components));
        }
        if (privacy.neighbouring != null) {
            throw CliException.usage("--neighbouring does not apply to an explicit matrix",
                    "choose the matrix relation with --noise entry|spectral|laplace|row-l1");
        }
        if (nodes != null && nodes < 1) {
            throw CliException.usage("--nodes must be >= 1, got " + nodes, "pass the public number of nodes");
        }
        PpmNoise variant = parseNoise(noise);
        boolean isPrivate = alg.equals("private-power");
        PrivacyParams params = null;
        if (isPrivate) {
            params = privacy.params(alg);
            if (variant != PpmNoise.SPECTRAL_LAPLACE) {
                privacy.requirePositiveDelta("private-power with --noise " + noise);
            }
            if (sensitivity != null && (!(sensitivity > 0) || !Double.isFinite(sensitivity))) {
                throw CliException.usage("--sensitivity must be > 0 and finite, got " + sensitivity,
                        "pass the public size of one neighbouring change, e.g. 1");
            }
            if (symmetricPairs && (variant == PpmNoise.SPECTRAL_GAUSSIAN || variant == PpmNoise.SPECTRAL_LAPLACE)) {
                throw CliException.usage("--symmetric-pairs applies to --noise entry or row-l1",
                        "for spectral noise give the spectral-norm size of one change with --sensitivity");
            }
        } else {
            warn("--algorithm power is NOT differentially private: its output reveals the matrix; use it only as a "
                    + "reference");
            if (privacy.epsilon != null || privacy.seed != null || privacy.ledger != null) {
                warn("--epsilon/--delta/--seed/--ledger are ignored by --algorithm power");
            }
        }
        output.checkBeforeReading();
        diagnostics.checkBeforeReading(output);
        String format = matrixFormat != null ? matrixFormat.toLowerCase(Locale.ROOT)
                : matrix.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".mtx") ? "mtx" : "edges";
        if (!format.equals("mtx") && !format.equals("edges")) {
            throw CliException.usage("--matrix-format must be mtx or edges, got '" + matrixFormat + "'",
                    "mtx = MatrixMarket coordinate file, edges = edge-list CSV");
        }
        PrivacyOptions.PendingCharge charge = PrivacyOptions.PendingCharge.NONE;
        if (isPrivate) {
            // the Laplace variant is pure epsilon-DP; the Gaussian ones are p*L Gaussian products whose exact
            // composition meets (epsilon, delta): one Gaussian mechanism calibrated to it dominates them
            io.dpspectra.release.NoiseKind kind = variant == PpmNoise.SPECTRAL_LAPLACE
                    ? io.dpspectra.release.NoiseKind.PURE : io.dpspectra.release.NoiseKind.GAUSSIAN;
            charge = privacy.pendingCharge("spectral --algorithm private-power --noise " + noise + " on " + matrix,
                    params, kind.rho(params), kind.profile(params));
        }
        Inputs.checkReadable(matrix);
        charge.commit(); // a missing or unreadable file is refused free of charge; made before the file is read
        if (isPrivate && format.equals("edges") && nodes == null) {
            warn("the dimension d is taken from the largest node id in " + matrix + ", which depends on the edges; "
                    + "pass the public node count with --nodes N so that the output shape reveals nothing");
        }
        long start = System.nanoTime();
        CsrMatrix a = format.equals("mtx") ? MatrixMarketReader.read(matrix)
                : EdgeListReader.read(matrix, nodes == null ? -1 : nodes);
        double readSeconds = (System.nanoTime() - start) / 1e9;
        if (components > a.dimension()) {
            throw CliException.usage("--components k = " + components + " exceeds the dimension d = " + a.dimension()
                    + " of " + matrix, "ask for at most d components");
        }

        start = System.nanoTime();
        PrivateSubspace result;
        RandomSource random = null;
        if (isPrivate) {
            random = privacy.randomSource(err());
            PrivatePowerMethod.Builder b = PrivatePowerMethod.builder().components(components).iterations(iterations)
                    .noise(variant).randomSource(random);
            if (blockSize != null) {
                b.blockSize(blockSize);
            }
            b.sensitivityScale(sensitivity == null ? 1.0 : sensitivity);
            if (symmetricPairs) {
                b.symmetricPairUnit();
            }
            result = b.build().release(a, params);
        } else {
            NoisyPowerMethod.Builder b = NoisyPowerMethod.builder().components(components).iterations(iterations)
                    .randomSource(RandomSource.secure());
            if (blockSize != null) {
                b.blockSize(blockSize);
            }
            PowerMethodResult r = b.build().run(a);
            result = new PrivateSubspace("power", r.components(), null, null, Diagnostics.builder()
                    .put("private", false)
                    .put("warning", "the exact power method is NOT differentially private")
                    .put("iterations", iterations)
                    .put("singularValuesOfLastProduct", java.util.Arrays.copyOf(r.singularValues(), components))
                    .build());
        }
        double fitSeconds = (System.nanoTime() - start) / 1e9;

        Map<String, Object> preprocessing = new LinkedHashMap<>();
        preprocessing.put("format", format.equals("mtx") ? "MatrixMarket" : "edge list");
        Release release = Release.of("spectral", result, null).preprocessing(preprocessing)
                .noise(isPrivate ? random : null)
                .diagnostic("input", matrix.toString())
                .diagnostic("nonZeros", a.nonZeros())
                .diagnostic("readSeconds", readSeconds)
                .diagnostic("fitSeconds", fitSeconds);
        publish(release, OutputFormat.json, output, diagnostics);
        return ExitCodes.OK;
    }

    private static PpmNoise parseNoise(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "entry", "entry-level" -> PpmNoise.ENTRY_LEVEL_GAUSSIAN;
            case "spectral" -> PpmNoise.SPECTRAL_GAUSSIAN;
            case "laplace" -> PpmNoise.SPECTRAL_LAPLACE;
            case "row-l1" -> PpmNoise.ROW_L1_GAUSSIAN;
            default -> throw CliException.usage("--noise must be entry, spectral, laplace or row-l1, got '" + value + "'",
                    "see 'dpspectra spectral --help'");
        };
    }
}
