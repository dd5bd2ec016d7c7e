package io.dpspectra.cli.command;

import io.dpspectra.audit.PrivacyAuditor;
import io.dpspectra.cli.options.BoundOptions;
import io.dpspectra.cli.options.Inputs;
import io.dpspectra.cli.options.OutputOption;
import io.dpspectra.cli.options.PrivacyOptions;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.covariance.GaussianCovariance;
import io.dpspectra.covariance.LaplaceCovariance;
import io.dpspectra.data.AdaptiveQuantile;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.PrivateBoundedMean;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra audit}: runs a mechanism many times on a pair of neighbouring datasets and prints the
 * empirical lower bound on ε that {@link PrivacyAuditor} finds, with its confidence.
 */
@Command(name = "audit", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Empirically audit a mechanism: run it --trials times on each of two neighbouring datasets "
                + "D and D', apply the best threshold test to a scalar of its output, and print a lower bound on "
                + "epsilon that holds with the stated confidence (Clopper-Pearson). A bound above the claimed epsilon "
                + "is a violation: the mechanism is not as private as claimed. A bound below it does not prove "
                + "privacy; it says this test found no leak.",
                "The pair is generated (the mechanism's worst case for one row of norm <= --clip-norm) or given with "
                        + "--pair D.csv,D2.csv (two CSV files whose rows are clipped to --clip-norm; they should differ "
                        + "in one row). The scalar is the first coordinate of the release: mean[1], the quantile, or "
                        + "matrix entry (1,1).",
                "Mechanisms: private-mean (--center private), private-quantile (--clip-norm private), "
                        + "laplace-covariance, gaussian-covariance (covariance --algorithm laplace|gaussian)."},
        footer = {"", "Example: dpspectra audit --mechanism private-mean --epsilon 1 --trials 20000"})
public final class AuditCommand extends BaseCommand {
    @Option(names = "--mechanism", paramLabel = "NAME", required = true,
            description = "private-mean, private-quantile, laplace-covariance or gaussian-covariance.")
    String mechanism;

    @Option(names = "--epsilon", paramLabel = "E", required = true, description = "The claimed epsilon (> 0).")
    double epsilon;

    @Option(names = "--delta", paramLabel = "D", defaultValue = "0",
            description = "The claimed delta in [0, 1); > 0 makes private-mean Gaussian. Default: ${DEFAULT-VALUE}.")
    double delta;

    @Option(names = "--neighbouring", paramLabel = "add-remove|replace", defaultValue = "replace",
            description = "The relation of the generated pair and of the mechanism. Default: ${DEFAULT-VALUE}.")
    String neighbouring;

    @Option(names = "--clip-norm", paramLabel = "B", defaultValue = "1",
            description = "The row-norm bound B. Default: ${DEFAULT-VALUE}.")
    double clipNorm;

    @Option(names = "--pair", paramLabel = "D.csv,D2.csv", split = ",",
            description = "Two neighbouring CSV files instead of the generated pair.")
    List<Path> pair;

    @Option(names = "--trials", paramLabel = "N", defaultValue = "20000",
            description = "Runs per dataset (>= 100). More runs give a tighter bound. Default: ${DEFAULT-VALUE}.")
    int trials;

    @Option(names = "--confidence", paramLabel = "C", defaultValue = "0.95",
            description = "Confidence of the lower bound, in (0, 1). Default: ${DEFAULT-VALUE}.")
    double confidence;

    @Option(names = "--seed", paramLabel = "S",
            description = "Seed the runs (reproducible audit). Default: SecureRandom.")
    Long seed;

    @Mixin
    OutputOption output = new OutputOption();

    @Override
    public Integer call() throws Exception {
        output.checkBeforeReading();
        PrivacyParams claimed = PrivacyParams.of(epsilon, delta);
        Neighbouring relation = PrivacyOptions.parseNeighbouring(neighbouring);
        BoundOptions.check("--clip-norm", clipNorm);
        String m = mechanism.toLowerCase(Locale.ROOT);
        if (m.equals("gaussian-covariance")) {
            io.dpspectra.privacy.DpPreconditions.checkPositiveDelta(delta, "gaussian-covariance (--delta)");
        }
        RowSource[] d = pair != null ? readPair() : generatedPair(m, relation);
        PrivacyAuditor.Trial onD = trial(m, d[0], claimed, relation);
        PrivacyAuditor.Trial onDPrime = trial(m, d[1], claimed, relation);
        PrivacyAuditor auditor = PrivacyAuditor.builder().trials(trials).confidence(confidence)
                .randomSource(seed == null ? RandomSource.secure() : RandomSource.seededForReproducibility(seed)).build();
        PrivacyAuditor.Result r = auditor.audit(onD, onDPrime, claimed);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("mechanism", m);
        out.put("claimed", Map.of("epsilon", epsilon, "delta", delta));
        out.put("neighbouring", PrivacyOptions.cliName(relation));
        out.put("pair", pair != null ? pair.toString() : "generated worst case for one row of L2 norm <= " + clipNorm);
        out.put("trials", r.trials());
        out.put("confidence", r.confidence());
        out.put("epsilonLowerBound", r.epsilonLowerBound());
        out.put("violation", r.violation());
        out.put("meaning", r.violation()
                ? "VIOLATION: with confidence " + confidence + " the mechanism's epsilon exceeds the claimed " + epsilon
                : "no violation found: the test shows epsilon >= " + String.format(Locale.ROOT, "%.3f",
                r.epsilonLowerBound()) + " (not a proof of privacy)");
        emit(Json.write(out), output.file);
        return ExitCodes.OK;
    }

    private RowSource[] readPair() {
        if (pair.size() != 2) {
            throw CliException.usage("--pair needs exactly two files, got " + pair.size(), "--pair d.csv,d2.csv");
        }
        RowSource a = Inputs.open(pair.get(0), null).rows();
        RowSource b = Inputs.open(pair.get(1), null).rows();
        if (a.dimension() != b.dimension()) {
            throw CliException.data("--pair: the files have " + a.dimension() + " and " + b.dimension() + " columns",
                    "neighbouring datasets have the same columns", null);
        }
        return new RowSource[] {InMemoryRows.of(rows(a)).clipL2(clipNorm), InMemoryRows.of(rows(b)).clipL2(clipNorm)};
    }

    private static double[][] rows(RowSource s) {
        List<double[]> out = new ArrayList<>();
        double[] r = new double[s.dimension()];
        try (RowCursor c = s.open()) {
            while (c.next(r)) {
                out.add(r.clone());
            }
        }
        return out.toArray(new double[0][]);
    }

    /** The worst-case pairs of the audit tests: the row moves a release's first coordinate by its sensitivity. */
    private RowSource[] generatedPair(String m, Neighbouring relation) {
        double b = clipNorm;
        boolean replace = relation == Neighbouring.REPLACE_ROW;
        return switch (m) {
            case "private-mean" -> new RowSource[] {
                InMemoryRows.of(new double[][] {{b}, {0}, {0}, {0}}).clipL2(b),
                InMemoryRows.of(replace ? new double[][] {{-b}, {0}, {0}, {0}} : new double[][] {{0}, {0}, {0}})
                        .clipL2(b)};
            case "private-quantile" -> {
                double[][] x = new double[40][1];
                double[][] y = new double[40][1];
                for (int i = 0; i < 40; i++) {
                    x[i][0] = b * (i + 0.5) / 41;
                    y[i][0] = i == 0 ? b : x[i][0];
                }
                yield new RowSource[] {InMemoryRows.of(x), InMemoryRows.of(replace ? y
                        : java.util.Arrays.copyOfRange(x, 1, 40))};
            }
            case "laplace-covariance", "gaussian-covariance" -> new RowSource[] {
                InMemoryRows.of(new double[][] {{0, 0}, {0, 0}, {0, 0}, {0, 0}}).clipL2(b),
                InMemoryRows.of(replace ? new double[][] {{0, 0}, {0, 0}, {0, 0}, {b, 0}}
                        : new double[][] {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {b, 0}}).clipL2(b)};
            default -> throw unknown();
        };
    }

    private PrivacyAuditor.Trial trial(String m, RowSource rows, PrivacyParams claimed, Neighbouring relation) {
        return switch (m) {
            case "private-mean" -> r -> PrivateBoundedMean.of(relation, r).estimate(rows, claimed).mean()[0];
            case "private-quantile" -> {
                // the ladder of --clip-norm private under a public bound: 40 octaves below it
                AdaptiveQuantile.Ladder ladder = AdaptiveQuantile.Ladder.rowNorms(clipNorm);
                yield r -> AdaptiveQuantile.using(r).rowNormQuantile(rows, 0.5, ladder, claimed, relation).value();
            }
            case "laplace-covariance" -> r -> LaplaceCovariance.builder().neighbouring(relation).randomSource(r).build()
                    .release(rows, claimed).matrix().get(0, 0);
            case "gaussian-covariance" -> r -> GaussianCovariance.builder().neighbouring(relation).randomSource(r)
                    .build().release(rows, claimed).matrix().get(0, 0);
            default -> throw unknown();
        };
    }

    private CliException unknown() {
        return CliException.usage("unknown --mechanism '" + mechanism + "'",
                "choose private-mean, private-quantile, laplace-covariance or gaussian-covariance");
    }
}
