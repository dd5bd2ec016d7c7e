package io.dpspectra.cli.command;

import io.dpspectra.advice.ReleaseAdvisor;
import io.dpspectra.advice.ReleaseFacts;
import io.dpspectra.cli.options.BoundOptions;
import io.dpspectra.cli.options.OutputOption;
import io.dpspectra.cli.options.PrivacyOptions;
import io.dpspectra.cli.options.ReleaseInput;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.SchemaJson;
import io.dpspectra.cli.output.Tables;
import io.dpspectra.data.AdaptiveQuantile;
import io.dpspectra.data.SchemaFile;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.release.RowBound;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra advise}: what a private PCA release will be worth, from public facts only, before any data
 * is read or budget spent. The logic is {@link ReleaseAdvisor} (core); this command translates options to
 * {@link ReleaseFacts} and prints the advice.
 */
@Command(name = "advise", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Predict, from public facts alone (n, d, k, epsilon, delta, the row bound), what a private PCA "
                + "release will be worth: for each algorithm its noise level in the units of the eigenvalues it "
                + "releases (X^T X of the bounded rows), the share of the variance a direction must hold to be "
                + "recovered (kept at least half in the release: sin^2 <= 1/2), the subspace error "
                + "||UU^T - VV^T||_F at your expected share (a random subspace scores sqrt(2k(1 - k/d))), memory and "
                + "passes; then a recommendation, or what epsilon or n would be needed.",
                "Reads no data and spends nothing. The noise levels come from each mechanism's own calibration; "
                        + "the errors from a spiked model (k directions holding the expected share each, the rest "
                        + "spread evenly), checked by simulation."})
public final class AdviseCommand extends BaseCommand {
    @Option(names = "--rows", paramLabel = "N", required = true,
            description = "n, the number of rows (public under replace neighbouring), or a public bound on it: a "
                    + "lower bound makes the advice cautious, an upper bound optimistic.")
    long rows;

    @Option(names = "--dimension", paramLabel = "D",
            description = "d, the number of features the estimator sees (or give --schema).")
    Integer dimension;

    @Option(names = {"--components", "-k"}, paramLabel = "K", defaultValue = "2",
            description = "k, the number of directions wanted. Default: ${DEFAULT-VALUE}.")
    int components;

    @Option(names = "--epsilon", paramLabel = "E", required = true, description = "The release's total epsilon.")
    double epsilon;

    @Option(names = "--delta", paramLabel = "D", defaultValue = "1e-6",
            description = "The release's delta (0: pure epsilon-DP, only the pure algorithms apply). Default: "
                    + "${DEFAULT-VALUE}.")
    double delta;

    @Option(names = "--neighbouring", paramLabel = "add-remove|replace", defaultValue = "replace",
            description = "The relation (replace: n public, what fit uses when preprocessing spends). Default: "
                    + "${DEFAULT-VALUE}.")
    String neighbouring;

    @ArgGroup(exclusive = true, multiplicity = "0..1", heading = "Row norm bound (one, or a --schema with bounds):%n")
    BoundOptions bounds;

    @Option(names = "--schema", paramLabel = "FILE",
            description = "A public schema: its features give d and, when every numeric column has min and max, "
                    + "the row bound by construction.")
    Path schemaPath;

    @Option(names = "--center", paramLabel = "none|private[:F]", defaultValue = "none",
            description = "none, or private[:F]: a private mean takes a share F of epsilon (default "
                    + ReleaseInput.DEFAULT_CENTER_FRACTION + "), as in fit. Default: ${DEFAULT-VALUE}.")
    String center;

    @Option(names = "--fill", paramLabel = "F",
            description = "The rows' mean squared norm as a share of the bound squared, in (0, 1]. Default: 1 - Q "
                    + "with --clip-norm private:Q (its top 1 - Q rows sit on the bound), else 1 (every row on the "
                    + "bound: the most optimistic).")
    Double fill;

    @Option(names = "--expect-variance-share", paramLabel = "S",
            description = "The share of the variance you expect each of the k directions to hold. Default: "
                    + ReleaseAdvisor.DEFAULT_EXPECTED_SHARE + ", or 2/d when that is more.")
    Double expectedShare;

    @Option(names = "--format", paramLabel = "table|json", defaultValue = "table",
            description = "table (for people) or json. Default: ${DEFAULT-VALUE}.")
    String format;

    @Mixin
    OutputOption output = new OutputOption();

    @Override
    public Integer call() throws Exception {
        output.checkBeforeReading();
        if (rows < 1) {
            throw CliException.usage("--rows must be >= 1, got " + rows, "e.g. --rows 10000");
        }
        SchemaFile schema = schemaPath == null ? null : SchemaJson.read(schemaPath);
        boolean centring = !center.equalsIgnoreCase("none");
        int d;
        if (dimension != null) {
            d = DpPreconditions.checkAtLeast("--dimension", dimension, 1);
        } else if (schema != null) {
            d = schema.schema().featureNames().size();
        } else {
            throw CliException.usage("advise needs d: --dimension D or --schema FILE", "e.g. --dimension 617");
        }
        int k = components;
        if (k < 1 || k >= d) {
            throw CliException.usage("--components must be in [1, d) = [1, " + d + "), got " + k, "e.g. -k 2");
        }
        Neighbouring relation = PrivacyOptions.parseNeighbouring(neighbouring);
        PrivacyParams total;
        try {
            total = PrivacyParams.of(epsilon, delta);
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage(), "e.g. --epsilon 1 --delta 1e-6");
        }
        double left = 1;
        List<String> split = new ArrayList<>();
        double bound;
        double rowsFill;
        BoundOptions.PrivateBound pb = bounds == null ? null : bounds.privateBound();
        if (pb != null) {
            java.util.OptionalDouble schemaBound = schema == null ? java.util.OptionalDouble.empty()
                    : schema.schema().rowNormBound(centring);
            double share;
            if (!pb.auto()) {
                share = pb.fraction();
            } else if (relation == Neighbouring.REPLACE_ROW) {
                AdaptiveQuantile.Plan plan = ((RowBound.PrivateQuantile) RowBound.privateQuantile(pb.quantile()))
                        .plan(rows, epsilon, schemaBound); // core's automatic share, as fit plans it
                share = plan.share();
                if (!plan.sufficient()) {
                    split.add(String.format(Locale.ROOT, "the private %s-quantile bound may land beyond the data: n = "
                            + "%d rows are too few to locate it with half of epsilon (a lower Q needs less)",
                            pb.quantile(), rows));
                }
            } else {
                share = BoundOptions.DEFAULT_PRIVATE_FRACTION;
            }
            left -= share;
            split.add(String.format(Locale.ROOT, "private %s-quantile bound: %.3g of epsilon", pb.quantile(), share));
            bound = Double.NaN;
            rowsFill = 1 - pb.quantile();
        } else if (bounds != null) {
            bounds.validate();
            bound = bounds.bound();
            rowsFill = 1;
        } else if (schema != null && schema.schema().rowNormBound(centring).isPresent()) {
            bound = schema.schema().rowNormBound(centring).getAsDouble();
            rowsFill = 1;
        } else {
            throw CliException.usage("advise needs the row bound: --clip-norm B, --clip-norm private[:Q], "
                    + "--norm-bound B or a --schema with bounds", "e.g. --clip-norm private");
        }
        double centreShare = 0;
        if (centring) {
            double f = ReleaseInput.DEFAULT_CENTER_FRACTION;
            if (center.toLowerCase(Locale.ROOT).startsWith("private:")) {
                f = BoundOptions.number(center.substring("private:".length()), "--center " + center);
            } else if (!center.equalsIgnoreCase("private")) {
                throw CliException.usage("--center must be none or private[:F], got '" + center + "'", "see --help");
            }
            if (!(f > 0 && f < 1)) {
                throw CliException.usage("--center " + center + ": the budget share F must be in (0, 1)",
                        "e.g. --center private:0.1");
            }
            left -= f;
            centreShare = f;
            if (fill == null) {
                split.add("after the private mean the bound becomes B + ||mean|| (up to 2B): the centred rows may fill "
                        + "less of it than the fill below; --fill F says how much");
            }
            split.add(String.format(Locale.ROOT, "private mean: %.3g of epsilon%s", f, delta > 0 ? " and of delta" : ""));
        }
        if (!(left > 0)) {
            throw CliException.usage("the preprocessing shares leave nothing for the estimator", "use smaller shares");
        }
        // as fit splits it: the bound is pure; a private mean takes its share of delta too when there is one
        PrivacyParams estimator = PrivacyParams.of(epsilon * left, delta * (1 - centreShare));
        if (fill != null) {
            if (!(fill > 0 && fill <= 1)) {
                throw CliException.usage("--fill must be in (0, 1], got " + fill, "e.g. --fill 0.5");
            }
            rowsFill = fill;
        }
        double expected = expectedShare == null ? ReleaseAdvisor.defaultExpectedShare(d, k) : expectedShare;
        if (!(expected > 0 && expected <= 1)) {
            throw CliException.usage("--expect-variance-share must be in (0, 1], got " + expected, "e.g. 0.1");
        }
        ReleaseFacts facts = new ReleaseFacts(rows, d, k, estimator, relation, bound, rowsFill);
        ReleaseAdvisor.Advice advice = ReleaseAdvisor.advise(facts, expected);
        String text = format.equalsIgnoreCase("json") ? Json.write(json(advice, split))
                : table(advice, split);
        emit(text, output.file);
        return ExitCodes.OK;
    }

    private static String units(ReleaseFacts f) {
        return Double.isNaN(f.rowBound()) ? " B^2" : "";
    }

    private static String table(ReleaseAdvisor.Advice a, List<String> split) {
        ReleaseFacts f = a.facts();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "n = %d, d = %d, k = %d; the estimator's share: epsilon = %s, delta = %s; "
                + "%s neighbouring%n", f.rows(), f.dimension(), f.components(), UsefulnessCheck.fmt(f.budget().epsilon()),
                UsefulnessCheck.fmt(f.budget().delta()), PrivacyOptions.cliName(f.neighbouring())));
        split.forEach(s -> sb.append("  ").append(s).append(System.lineSeparator()));
        sb.append(String.format(Locale.ROOT, "row bound B = %s; rows fill %s of B^2, so the variance they can put into "
                        + "directions is T = fill n B^2 = %s%s%n", Double.isNaN(f.rowBound()) ? "private (not drawn yet: "
                        + "noise and eigenvalues in units of B^2)" : UsefulnessCheck.fmt(f.rowBound()),
                UsefulnessCheck.percent(f.fill()), UsefulnessCheck.fmt(f.trace()), units(f)));
        sb.append(String.format(Locale.ROOT, "expected share of each direction: %s; a random %d-subspace has error %.3f%n%n",
                UsefulnessCheck.percent(a.expectedShare()), f.components(),
                a.predictions().get(0).randomError()));
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"algorithm", "noise sd", "||E|| ~ 2sd sqrt(d)", "share needed", "eigenvalue needed",
            "error at " + UsefulnessCheck.percent(a.expectedShare()), "memory", "passes"});
        for (ReleaseAdvisor.Prediction p : a.predictions()) {
            String name = (p.command().equals("covariance") ? "covariance " : "") + p.algorithm();
            if (!p.applicable()) {
                rows.add(new String[] {name, "n/a", "n/a", "n/a", "n/a", "n/a", "", ""});
                continue;
            }
            if (!p.predicted()) {
                rows.add(new String[] {name, "-", "-", "no prediction", "-", "-", human(p.memoryBytes()),
                    String.valueOf(p.passes())});
                continue;
            }
            rows.add(new String[] {name, Double.isNaN(p.noiseNorm()) ? "-" : UsefulnessCheck.fmt(p.entryNoise()) + units(f),
                Double.isNaN(p.noiseNorm()) ? "-" : UsefulnessCheck.fmt(p.noiseNorm()) + units(f),
                Double.isFinite(p.requiredShare()) ? UsefulnessCheck.percent(p.requiredShare()) : "> " + UsefulnessCheck
                        .percent(1.0 / f.components()) + " (none)",
                Double.isFinite(p.requiredEigenvalue()) ? UsefulnessCheck.fmt(p.requiredEigenvalue()) + units(f) : "-",
                String.format(Locale.ROOT, "%.3f%s", p.predictedError(), p.recoversExpected() ? "" : " (useless)"),
                human(p.memoryBytes()), String.valueOf(p.passes())});
        }
        sb.append(Tables.columns(rows));
        sb.append(System.lineSeparator());
        for (ReleaseAdvisor.Prediction p : a.predictions()) {
            if (!p.applicable()) {
                sb.append("  ").append(p.algorithm()).append(": not applicable, ").append(p.reason())
                        .append(System.lineSeparator());
            } else if (p.note() != null) {
                sb.append("  ").append(p.algorithm()).append(": ").append(p.note()).append(System.lineSeparator());
            }
        }
        sb.append(System.lineSeparator());
        sb.append(recommendation(a)).append(System.lineSeparator());
        return sb.toString();
    }

    static String recommendation(ReleaseAdvisor.Advice a) {
        String floor = Double.isFinite(a.floorShare()) ? UsefulnessCheck.percent(a.floorShare())
                : "1/" + a.facts().components() + " (all of it)";
        StringBuilder sb = new StringBuilder();
        if (!a.useless()) {
            ReleaseAdvisor.Prediction best = a.predictions().stream().filter(p -> p.command().equals("fit")
                    && p.recoversExpected()).min(java.util.Comparator.comparingDouble(
                    ReleaseAdvisor.Prediction::predictedError)).orElseThrow();
            sb.append(String.format(Locale.ROOT, "recommendation: --algorithm %s (predicted error %.3f at %s; it "
                    + "recovers directions holding %s or more)", best.algorithm(), best.predictedError(),
                    UsefulnessCheck.percent(a.expectedShare()), UsefulnessCheck.percent(best.requiredShare())));
            return sb.toString();
        }
        sb.append("no algorithm will recover a direction holding less than ").append(floor)
                .append(" of the variance at this epsilon");
        if (Double.isFinite(a.epsilonNeeded()) || a.rowsNeeded() < Long.MAX_VALUE) {
            sb.append("; for directions holding ").append(UsefulnessCheck.percent(a.expectedShare())).append(" you need");
            if (Double.isFinite(a.epsilonNeeded())) {
                sb.append(" epsilon >= ").append(UsefulnessCheck.fmt(a.epsilonNeeded())).append(" for the estimator");
            }
            if (a.rowsNeeded() < Long.MAX_VALUE) {
                sb.append(Double.isFinite(a.epsilonNeeded()) ? " or" : "").append(" n >= ")
                        .append(String.format(Locale.ROOT, "%,d", a.rowsNeeded()));
            }
        }
        return sb.toString();
    }

    private static String human(double bytes) {
        if (bytes < 1 << 20) {
            return String.format(Locale.ROOT, "%.0f KB", bytes / 1024);
        }
        if (bytes < 1L << 30) {
            return String.format(Locale.ROOT, "%.0f MB", bytes / (1 << 20));
        }
        return String.format(Locale.ROOT, "%.1f GB", bytes / (1L << 30));
    }

    private static Map<String, Object> json(ReleaseAdvisor.Advice a, List<String> split) {
        Map<String, Object> m = new LinkedHashMap<>();
        ReleaseFacts f = a.facts();
        m.put("rows", f.rows());
        m.put("dimension", f.dimension());
        m.put("components", f.components());
        m.put("estimatorEpsilon", f.budget().epsilon());
        m.put("estimatorDelta", f.budget().delta());
        m.put("neighbouring", PrivacyOptions.cliName(f.neighbouring()));
        m.put("rowBound", Double.isNaN(f.rowBound()) ? null : f.rowBound());
        m.put("unitsOfBSquared", Double.isNaN(f.rowBound()));
        m.put("fill", f.fill());
        m.put("budgetSplit", split);
        m.put("expectedShare", a.expectedShare());
        List<Map<String, Object>> ps = new ArrayList<>();
        for (ReleaseAdvisor.Prediction p : a.predictions()) {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("algorithm", p.algorithm());
            q.put("command", p.command());
            q.put("applicable", p.applicable());
            if (p.reason() != null) {
                q.put("reason", p.reason());
            }
            q.put("noiseSd", finite(p.entryNoise()));
            q.put("noiseSpectralNorm", finite(p.noiseNorm()));
            q.put("requiredShare", finite(p.requiredShare()));
            q.put("requiredEigenvalue", finite(p.requiredEigenvalue()));
            q.put("predictedError", finite(p.predictedError()));
            q.put("recoversExpected", p.recoversExpected());
            q.put("randomError", p.randomError());
            q.put("memoryBytes", p.memoryBytes());
            q.put("passes", p.passes());
            if (p.note() != null) {
                q.put("note", p.note());
            }
            ps.add(q);
        }
        m.put("algorithms", ps);
        m.put("useless", a.useless());
        m.put("floorShare", finite(a.floorShare()));
        m.put("epsilonNeeded", finite(a.epsilonNeeded()));
        m.put("rowsNeeded", a.rowsNeeded() == Long.MAX_VALUE ? null : a.rowsNeeded());
        m.put("recommendation", recommendation(a));
        return m;
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
