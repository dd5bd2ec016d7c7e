package io.dpspectra.cli.command;

import io.dpspectra.cli.options.BoundOptions;
import io.dpspectra.cli.options.DiagnosticsOption;
import io.dpspectra.cli.options.ExternalInputs;
import io.dpspectra.cli.options.InputOptions;
import io.dpspectra.cli.options.Inputs;
import io.dpspectra.cli.options.OutputOption;
import io.dpspectra.cli.options.PrivacyOptions;
import io.dpspectra.cli.output.AtomicFiles;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.OutputFormat;
import io.dpspectra.cli.output.Progress;
import io.dpspectra.cli.output.Release;
import io.dpspectra.cli.output.Tables;
import io.dpspectra.covariance.GaussianCalibration;
import io.dpspectra.data.RowCursor;
import io.dpspectra.local.InvalidReportException;
import io.dpspectra.local.LocalAggregate;
import io.dpspectra.local.LocalCovarianceRandomizer;
import io.dpspectra.local.LocalPcaAggregator;
import io.dpspectra.local.LocalReportFormat;
import io.dpspectra.local.LocalReportWriter;
import io.dpspectra.local.ReportParameters;
import io.dpspectra.local.SparseFantopePca;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code dpspectra ldp}: PCA under local differential privacy (Wang &amp; Xu), client and server. */
@Command(name = "ldp", mixinStandardHelpOptions = true,
        description = {"PCA under non-interactive local differential privacy (Wang & Xu, Algorithms 1 and 2).",
                "Each client runs 'ldp randomize' on its own record and sends the report; the server runs "
                        + "'ldp aggregate' on the collected reports. Client and server share nothing but the "
                        + "public parameters, which every report carries."},
        subcommands = {LdpCommand.Randomize.class, LdpCommand.Aggregate.class},
        footer = {"", "Example:",
                "  dpspectra ldp randomize --epsilon 1 --delta 1e-6 --clip-norm 1 records.csv --output reports.bin",
                "  dpspectra ldp aggregate --components 5 reports.bin"})
public final class LdpCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a subcommand is required: randomize or aggregate");
    }

    /** {@code ldp randomize}: one report per input row, as each client would make it. */
    @Command(name = "randomize", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Make the local-DP report of each row of INPUT, as the client holding that row would: "
                    + "the row is scaled into the L2 ball of radius --clip-norm, and the upper triangle of its "
                    + "outer product x x^T gets independent Gaussian noise calibrated to (epsilon, delta) for the "
                    + "sensitivity sqrt(2)*B^2 between any two records.",
                    "Each report is (epsilon, delta)-LDP for its own row; nothing is composed across rows "
                            + "(a client that reports twice spends twice)."},
            footer = {"", "Example: dpspectra ldp randomize --epsilon 1 --delta 1e-6 --clip-norm 1 records.csv "
                    + "--output reports.bin"})
    static final class Randomize extends BaseCommand {
        @Option(names = "--epsilon", paramLabel = "E", required = true,
                description = "Local privacy parameter epsilon of each report (> 0, finite).")
        double epsilon;

        @Option(names = "--delta", paramLabel = "D", required = true,
                description = "Local privacy parameter delta of each report, in (0, 1) (Gaussian noise needs "
                        + "delta > 0).")
        double delta;

        @Option(names = "--clip-norm", paramLabel = "B", required = true,
                description = "Scale each record into the L2 ball of radius B (from domain knowledge, never "
                        + "from the data; the paper assumes B = 1).")
        double clipNorm;

        @Option(names = "--calibration", paramLabel = "analytic|classic", defaultValue = "analytic",
                description = "Gaussian calibration: analytic (Balle & Wang 2018, valid for every epsilon) or "
                        + "classic (sqrt(2 ln(1.25/delta))/epsilon times the sensitivity, as the paper prints it; "
                        + "for epsilon >= 1 the larger of the two is used). Default: ${DEFAULT-VALUE}.")
        String calibration;

        @Option(names = "--report-format", paramLabel = "binary|json-lines", defaultValue = "binary",
                description = "Report encoding: binary (fixed-size records with a CRC-32 each) or json-lines "
                        + "(one JSON object per line). Default: ${DEFAULT-VALUE}.")
        String reportFormat;

        @Option(names = "--seed", paramLabel = "S",
                description = "Seed the noise for reproducibility. Seeded reports are NOT private against anyone "
                        + "who knows the seed; omit it for real use (default: SecureRandom).")
        Long seed;

        @Option(names = "--ledger", paramLabel = "FILE",
                description = "A privacy-budget ledger (made by 'dpspectra ledger init') for the records of INPUT: "
                        + "(epsilon, delta) is checked against what remains and recorded, atomically, BEFORE the "
                        + "records are read; an overspend is refused (exit 4). The privacy unit is one record and "
                        + "each record gets one report, so a run costs every record (epsilon, delta) once, however "
                        + "many rows INPUT has; randomizing the same records again costs them again (spends compose "
                        + "as the ledger was made: basic, or zCDP, at the Gaussian mechanism's rho). A real client "
                        + "keeps its own ledger for its own record.")
        Path ledger;

        @Mixin
        InputOptions input = new InputOptions();

        @Option(names = {"--output", "-o"}, paramLabel = "REPORTS", required = true,
                description = "Write the reports to REPORTS atomically (nothing is written on failure). A file over "
                        + "100 MB is announced with its size before it is written (a report holds p(p+1)/2 numbers), "
                        + "and one its disk cannot hold is refused before anything is written.")
        Path output;

        @Parameters(index = "0", paramLabel = "INPUT",
                description = "Records, one per row: a .csv/.csv.gz file or a .dpsr binary file.")
        Path inputPath;

        @Override
        public Integer call() throws Exception {
            GaussianCalibration rule = parseCalibration(calibration);
            LocalReportFormat format = parseReportFormat(reportFormat);
            PrivacyParams privacy = PrivacyParams.of(epsilon, delta);
            // what the randomizer checks, checked before the ledger is charged
            io.dpspectra.privacy.DpPreconditions.checkPositiveDelta(delta, "ldp randomize (Gaussian noise)");
            BoundOptions.check("--clip-norm", clipNorm);
            AtomicFiles.checkWritableTarget(output, "--output");
            RandomSource random = RandomSource.secure();
            if (seed != null) {
                warn("--seed " + seed + " makes the noise reproducible; the reports are NOT private against anyone "
                        + "who knows the seed");
                random = RandomSource.seededForReproducibility(seed);
            }
            PrivacyOptions.PendingCharge charge = PrivacyOptions.pendingCharge(ledger, "ldp randomize on "
                    + inputPath, privacy, io.dpspectra.release.NoiseKind.GAUSSIAN.rho(privacy),
                    io.dpspectra.release.NoiseKind.GAUSSIAN.profile(privacy));
            Inputs.Opened opened = Inputs.open(inputPath, input);
            charge.commit(); // a missing or unreadable file is refused free of charge; made before any row is read
            int p = opened.rows().dimension();
            // every record is read once before any report is made: a bad cell is refused before any noise,
            // and the file can say how many reports it holds (so that a truncated copy is refused)
            long n = Inputs.validate(opened.rows());
            checkOutputSize(format, p, n);
            io.dpspectra.data.RowSource source = Progress.track(opened.rows(), "ldp randomize");
            LocalCovarianceRandomizer randomizer = LocalCovarianceRandomizer.builder().dimension(p).privacy(privacy)
                    .clipNorm(clipNorm).calibration(rule).randomSource(random).build();
            ReportParameters parameters = randomizer.parameters();
            int m = parameters.reportLength();
            int block = Math.max(1, Math.min(4096, (1 << 22) / m));
            long[] written = {0};
            AtomicFiles.write(output, out -> {
                try (LocalReportWriter writer = new LocalReportWriter(out, format, n);
                     RowCursor cursor = source.open()) {
                    double[] records = new double[block * p];
                    double[] reports = new double[block * m];
                    int got;
                    while ((got = cursor.nextBlock(records, block, p)) > 0) {
                        randomizer.randomize(records, got, reports);
                        for (int r = 0; r < got; r++) {
                            writer.write(parameters, reports, r * m);
                        }
                        written[0] += got;
                    }
                }
            });
            err().printf(Locale.ROOT, "dpspectra: wrote %d reports (p = %d, epsilon = %s, delta = %s, sigma = %.6g) "
                    + "to %s%n", written[0], p, epsilon, delta, parameters.sigma(), output);
            err().flush();
            return ExitCodes.OK;
        }

        /** Above this size (100 MB) the output's size is stated before it is written; a test hook may lower it. */
        long stateSizeAbove = 100_000_000L;

        /** The usable bytes of the file system holding a path (-1: unknown); a test hook may replace it. */
        java.util.function.ToLongFunction<Path> usableSpace = dir -> {
            try {
                return java.nio.file.Files.getFileStore(dir).getUsableSpace();
            } catch (java.io.IOException e) {
                return -1;
            }
        };

        /**
         * States the size of the report file before it is written when it exceeds 100 MB (a report holds
         * p(p+1)/2 numbers, so the file grows with p²), and refuses (exit 3, nothing written) when the output's
         * file system has not that much usable space.
         */
        private void checkOutputSize(LocalReportFormat format, int p, long n) {
            long bytes = format.fileBytes(p, n);
            String size = megabytes(bytes) + (format == LocalReportFormat.BINARY ? "" : " at most");
            if (bytes > stateSizeAbove) {
                note(String.format(Locale.ROOT, "writing %d reports of p(p+1)/2 = %d numbers each to %s: %s",
                        n, (long) p * (p + 1) / 2, output, size));
            }
            long usable = usableSpace.applyAsLong(output.toAbsolutePath().getParent());
            if (usable >= 0 && bytes > usable) { // unknown: not checked; a failed write still leaves no file behind
                throw CliException.data("--output " + output + " needs " + size + " but its file system has "
                        + megabytes(usable) + " free", "free space there, write to another disk"
                        + (format == LocalReportFormat.BINARY ? "" : ", or use --report-format binary ("
                        + megabytes(LocalReportFormat.BINARY.fileBytes(p, n)) + ")") + "; nothing was written", null);
            }
        }

        private static String megabytes(long bytes) {
            return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
        }
    }

    /** {@code ldp aggregate}: the server's release from the collected reports. */
    @Command(name = "aggregate", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Average the local-DP reports in REPORTS and release the top-k principal subspace of "
                    + "the average (Wang & Xu Algorithm 1), or with --sparse the Fantope-projection sparse PCA "
                    + "(Algorithm 2).",
                    "Every report must carry the same public parameters (version, p, epsilon, delta, clip norm, "
                            + "calibration, sigma), be intact, and hold no entry beyond B^2 + 10 sigma sqrt(2 ln(p+1)) "
                            + "(an honest report exceeds it with probability below 1e-29); a report that does not is "
                            + "refused with its line (JSON lines) or report number (binary), and nothing of it is "
                            + "used. Every report also carries its place in its file (report i of N), so a file cut "
                            + "short, even at a report boundary, or with reports removed, is refused too. By default "
                            + "the first refusal stops the run and nothing is written.",
                    "The release is post-processing of the reports: it carries their (epsilon, delta)-LDP "
                            + "guarantee and spends nothing more. The number of reports n is public in the local "
                            + "model (the server receives every report), so the release states it."},
            footer = {"", "Example: dpspectra ldp aggregate --components 5 reports.bin --output release.json"})
    static final class Aggregate extends BaseCommand {
        @Option(names = {"--components", "-k"}, paramLabel = "K", required = true,
                description = "Dimension k of the released subspace (1 <= k <= p).")
        int components;

        @Option(names = "--sparse",
                description = "Sparse PCA by ADMM over the Fantope with entry-wise soft thresholding (Algorithm 2).")
        boolean sparse;

        @Option(names = "--lambda", paramLabel = "L",
                description = "--sparse only: the l1 penalty (>= 0). Default: sigma/sqrt(n)*sqrt(2 ln(p^2 (p+1))), "
                        + "a bound on the averaged privacy noise of one entry.")
        Double lambda;

        @Option(names = "--max-iterations", paramLabel = "N", defaultValue = "1000",
                description = "--sparse only: ADMM iteration cap. Default: ${DEFAULT-VALUE}.")
        int maxIterations;

        @Option(names = "--skip-invalid",
                description = "Skip refused reports (each is named on stderr) and aggregate the others, instead of "
                        + "stopping at the first one; reports missing from a truncated file are counted and named the "
                        + "same way.")
        boolean skipInvalid;

        @Mixin
        OutputOption output = new OutputOption();

        @Mixin
        DiagnosticsOption diagnostics = new DiagnosticsOption();

        @Option(names = "--format", paramLabel = "json|table", defaultValue = "json",
                description = "Output format: json (machine-readable) or table (for people). Default: ${DEFAULT-VALUE}.")
        OutputFormat format;

        @Parameters(index = "0", paramLabel = "REPORTS",
                description = "Reports written by 'dpspectra ldp randomize' (binary or JSON lines, detected).")
        Path reports;

        @Override
        public Integer call() throws Exception {
            if (!sparse && (lambda != null)) {
                throw CliException.usage("--lambda applies to --sparse only", "add --sparse or drop --lambda");
            }
            if (components < 1) {
                throw CliException.usage("--components must be >= 1, got " + components, "pass e.g. --components 5");
            }
            output.checkBeforeReading();
            diagnostics.checkBeforeReading(output);
            ExternalInputs.Opener external = ExternalInputs.installed().orElse(null);
            if (external != null && skipInvalid) {
                throw CliException.usage("--skip-invalid is not supported when Spark reads the reports",
                        "drop --skip-invalid (a refused report then stops the run), or run dpspectra ldp aggregate");
            }
            if (external == null) {
                Inputs.checkReadable(reports);
            }
            LocalPcaAggregator aggregator = LocalPcaAggregator.create();
            List<InvalidReportException> refused = List.of();
            LocalAggregate summed = null;
            try {
                if (external != null) {
                    summed = external.aggregateReports(reports.toString());
                } else {
                    refused = aggregator.addAll(reports, skipInvalid);
                }
            } catch (io.dpspectra.local.MissingReportsException e) {
                throw CliException.data("reports missing at " + e.getMessage(), "nothing was written; make the reports"
                        + " again, or pass --skip-invalid to aggregate the reports that are there (the number missing "
                        + "is then reported)", null);
            } catch (InvalidReportException e) {
                throw CliException.data("refused report at " + e.getMessage(), skipInvalid
                        ? "the file cannot be read past this point; nothing was written"
                        : "nothing was written; remove the report or pass --skip-invalid to aggregate the others", null);
            }
            long missing = LocalPcaAggregator.missing(refused);
            for (InvalidReportException e : refused) {
                warn((e instanceof io.dpspectra.local.MissingReportsException ? "reports missing at " : "skipped report at ")
                        + e.getMessage());
            }
            if (!refused.isEmpty()) {
                warn(String.format(Locale.ROOT, "aggregated %d reports; %d refused, %d missing from %s",
                        aggregator.count(), refused.size() - refused.stream()
                                .filter(e -> e instanceof io.dpspectra.local.MissingReportsException).count(), missing,
                        reports));
            }
            if (external == null ? aggregator.count() == 0 : summed == null) {
                throw CliException.data("no report in " + reports + " was accepted, so there is nothing to aggregate",
                        "pass the file written by 'dpspectra ldp randomize'", null);
            }
            LocalAggregate aggregate = external == null ? aggregator.aggregate() : summed;
            int p = aggregate.parameters().dimension();
            if (components > p) {
                throw CliException.usage("--components " + components + " exceeds the report dimension p = " + p,
                        "ask for at most " + p + " components");
            }
            PrivateSubspace subspace;
            int[] support = null;
            if (sparse) {
                SparseFantopePca.Builder b = SparseFantopePca.builder().components(components).maxIterations(maxIterations);
                if (lambda != null) {
                    b.l1Penalty(lambda);
                }
                SparseFantopePca.Result r = b.build().fit(aggregate);
                subspace = r.subspace();
                support = SparseFantopePca.support(r.sparse());
                if (!r.converged()) {
                    warn("ADMM did not converge in " + maxIterations + " iterations; raise --max-iterations");
                }
            } else {
                subspace = aggregate.topComponents(components);
            }
            List<String> columns = Inputs.genericNames(p);
            Release release = Release.of("ldp aggregate", subspace, columns);
            // public in the local model: the server receives every report (the guarantee protects what a
            // record holds, not whether or how many clients reported), so n is part of the release
            release.put("reports", aggregate.reports());
            if (support != null) {
                release.put("support", support); // post-processing of the private average
            }
            release.preprocessing(parameters(aggregate.parameters()));
            long missingGaps = refused.stream().filter(e -> e instanceof io.dpspectra.local.MissingReportsException)
                    .count();
            release.diagnostic("input", reports.toString()).diagnostic("refusedReports", refused.size() - missingGaps)
                    .diagnostic("missingReports", missing);
            if (format == OutputFormat.table) {
                StringBuilder sb = new StringBuilder();
                sb.append("algorithm: ").append(subspace.algorithm()).append("  reports: ").append(aggregate.reports())
                        .append('\n');
                sb.append(Tables.matrix(columns, Inputs.genericNames(components).stream()
                        .map(c -> c.replace("x", "pc")).toList(), subspace.components()));
                sb.append(Tables.values("eigenvalues", subspace.explainedVariance().orElseThrow()));
                sb.append(Tables.guarantee(subspace.guarantee().orElseThrow()));
                release.table(sb.toString());
            }
            publish(release, format, output, diagnostics);
            return ExitCodes.OK;
        }

        private static Map<String, Object> parameters(ReportParameters q) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("reportVersion", q.version());
            m.put("dimension", q.dimension());
            m.put("epsilon", q.epsilon());
            m.put("delta", q.delta());
            m.put("clipNorm", q.clipNorm()); // applied by each client before its noise
            m.put("calibration", q.calibration().name().toLowerCase(Locale.ROOT));
            m.put("sigma", q.sigma());
            return m;
        }
    }

    static GaussianCalibration parseCalibration(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "analytic" -> GaussianCalibration.ANALYTIC;
            case "classic" -> GaussianCalibration.CLASSIC;
            default -> throw CliException.usage("--calibration must be analytic or classic, got '" + value + "'",
                    "analytic is valid for every epsilon; classic is the paper's formula");
        };
    }

    static LocalReportFormat parseReportFormat(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "binary" -> LocalReportFormat.BINARY;
            case "json-lines", "jsonl" -> LocalReportFormat.JSON_LINES;
            default -> throw CliException.usage("--report-format must be binary or json-lines, got '" + value + "'",
                    "binary is compact and checksummed; json-lines is readable");
        };
    }
}
