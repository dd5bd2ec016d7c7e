package io.dpspectra.cli.command;

import io.dpspectra.bench.OjaBenchmark;
import io.dpspectra.cli.options.CommonOptions;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.data.BinaryRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.result.PrivateSubspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dpspectra bench oja FILE} ({@link OjaBenchmark}): the streaming cost of k-DP-Ojas (or {@code --algorithm k-dp-pca-adaptive}) against a plain pass that only sums the
 * rows of the same BinaryRows file (the I/O floor). Both read the file in blocks, so the heap stays O(dk)
 * plus one block; run with e.g. {@code JAVA_OPTS=-Xmx64m} to show it.
 */
@Command(name = "oja", mixinStandardHelpOptions = true,
        description = {"Times k-DP-Ojas over a .dpsr file against a plain pass that only sums the rows.",
            "Both stream the file block by block (heap O(dk) + one block: try JAVA_OPTS=-Xmx64m).",
            "The plain pass runs first and last; the ratio uses the faster of the two (page cache)."})
final class OjaBench implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "A .dpsr file (see 'dpspectra convert').")
    Path file;

    @Option(names = {"--components", "-k"}, paramLabel = "K", defaultValue = "5", description = "k (default ${DEFAULT-VALUE}).")
    int k;

    @Option(names = "--clip-norm", paramLabel = "B", defaultValue = "20",
            description = "L2 row bound for the timing run (default ${DEFAULT-VALUE}; choose it from the data's model).")
    double clip;

    @Option(names = "--seeded", description = "Seeded noise (experiments) instead of SecureRandom (the default).")
    boolean seeded;

    @picocli.CommandLine.Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--algorithm", paramLabel = "k-dp-ojas|k-dp-pca-adaptive", defaultValue = "k-dp-ojas",
            description = "The streaming algorithm to time (default ${DEFAULT-VALUE}); k-dp-pca-adaptive uses B = "
                    + "floor(sqrt(n)) and the default step sizes.")
    String algorithm;

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(file)) {
            throw CliException.data("no such file: " + file, "pass a .dpsr file (see 'dpspectra convert')", null);
        }
        if (!OjaBenchmark.ALGORITHMS.contains(algorithm)) {
            System.err.println("--algorithm must be k-dp-ojas or k-dp-pca-adaptive, got '" + algorithm + "'");
            return 2;
        }
        BinaryRows rows = BinaryRows.open(file);
        int d = rows.dimension();
        RandomSource random = seeded ? RandomSource.seededForReproducibility(1) : RandomSource.secure();
        OjaBenchmark.Result r = OjaBenchmark.run(rows, algorithm, k, clip, random);
        double plain1 = r.plainFirst();
        double plain2 = r.plainLast();
        double oja = r.fit();
        double plain = r.plain();
        PrivateSubspace s = r.subspace();
        Runtime rt = Runtime.getRuntime();
        System.out.printf(Locale.ROOT, "%s streaming benchmark: %s, n=%d d=%d k=%d, max heap %d MB, noise %s, backend %s%n",
                algorithm, file.getFileName(), rows.size(), d, k, rt.maxMemory() >> 20, seeded ? "seeded" : "SecureRandom",
                io.dpspectra.linalg.Backend.DEFAULT.describe());
        System.out.printf(Locale.ROOT, "%-34s %10s %12s%n", "pass", "seconds", "MB/s read");
        double mb = rows.size() * (double) d * 8 / 1e6;
        System.out.printf(Locale.ROOT, "%-34s %10.2f %12.0f%n", "plain pass (sum rows), first", plain1, mb / plain1);
        System.out.printf(Locale.ROOT, "%-34s %10.2f %12.0f%n", "plain pass (sum rows), last", plain2, mb / plain2);
        System.out.printf(Locale.ROOT, "%-34s %10.2f %12.0f%n", algorithm + " (eps=1, delta=1e-6)", oja, mb / oja);
        System.out.printf(Locale.ROOT, "ratio %s / plain pass: %.2f (batch %s, %s steps per round)%n", algorithm, oja / plain,
                s.diagnostics().get("batchSize"), s.diagnostics().get("stepsPerRound"));
        return 0;
    }
}
