package io.dpspectra.cli.command;

import io.dpspectra.bench.LdpBenchmark;
import io.dpspectra.cli.output.BenchReport;
import io.dpspectra.noise.RandomSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra bench ldp} ({@link LdpBenchmark}): the local-DP client and server. (1) The randomizer makes n reports of
 * dimension p (benchmark records: seeded uniform entries scaled into the unit ball; not a mechanism) with
 * the secure noise source unless {@code --seeded}, timed alone in memory and again while writing the
 * binary report file. (2) In one run, alternating, the median time of a plain read of that file (the same
 * 4 MiB reads the report reader makes, touching nothing) and of the aggregation (read, CRC-32 check,
 * parameter check, decode, summation), with the aggregation's peak heap.
 */
@Command(name = "ldp", mixinStandardHelpOptions = true,
        description = {"Times the local-DP randomizer (records per minute, secure noise by default) and the streaming "
                + "aggregation of its binary report file against a plain read of the same file (median of --repeat "
                + "alternating runs; ratio = read seconds / aggregate seconds)."})
final class LdpBench implements Callable<Integer> {
    @Option(names = "--reports", defaultValue = "1000000", description = "n, number of reports (default ${DEFAULT-VALUE}).")
    int reports;

    @Option(names = "--dim", defaultValue = "40", description = "p, record dimension (default ${DEFAULT-VALUE}).")
    int dim;

    @Option(names = "--repeat", defaultValue = "3", description = "Timed read/aggregate pairs (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--seeded", description = "Use the seeded noise source instead of the secure one.")
    boolean seeded;

    @Option(names = "--file", description = "The report file: written by the randomizer if missing (then kept), "
            + "reused if present (then the randomize-and-write time is not measured). Default: a temporary file, "
            + "deleted afterwards. It holds n*(52 + 4p(p+1)) bytes: 6.6 GB for the defaults.")
    Path file;

    @Mixin
    BenchReport report;

    @Override
    public Integer call() throws IOException {
        if (reports < 1 || dim < 1 || repeat < 1) {
            System.err.println("--reports, --dim and --repeat must all be >= 1");
            return 2;
        }
        RandomSource random = seeded ? RandomSource.seededForReproducibility(1) : RandomSource.secure();
        report.print(LdpBenchmark.run(reports, dim, repeat, random, seeded, file));
        return 0;
    }
}
