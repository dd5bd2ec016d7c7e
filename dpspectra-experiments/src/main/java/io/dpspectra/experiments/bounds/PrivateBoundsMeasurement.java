package io.dpspectra.experiments.bounds;

import io.dpspectra.data.AdaptiveQuantile;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.PrivateQuantile;
import io.dpspectra.experiments.RawTables;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How close a private row-norm bound comes to the true quantile of the norms on the shipped tables: for
 * each table and quantile q, {@code runs} independent releases of the adaptive quantile
 * ({@link AdaptiveQuantile}, the default of {@code --clip-norm private}) at the budget share that
 * {@code auto} gives it out of a total ε, against the former flat-grid exponential mechanism
 * ({@link PrivateQuantile} over 0.01·1.1^i up to 10^6 at the former default share 0.1). A run counts as a
 * success when the released bound B satisfies t/2 ≤ B ≤ 2t for the true q-quantile t (the smallest norm
 * with at least q·n norms at or below it).
 *
 * <p>The tables are read as {@link RawTables} gives them (raw features, as a user without bounds would fit
 * them), n is public (replace-one neighbouring, as {@code fit} uses when preprocessing spends), and every
 * run draws from its own seeded source (seed + run index): a measurement, not a release.
 */
public final class PrivateBoundsMeasurement {
    /** The flat grid and share that {@code --clip-norm private:Q} used before. */
    static final double OLD_SHARE = 0.1;

    /**
     * One table and quantile.
     *
     * @param within      runs with t/2 ≤ B ≤ 2t
     * @param ratios      B/t of every run, sorted
     * @param oldWithin   the same count for the former mechanism
     * @param oldRatios   its B/t, sorted
     */
    public record Row(String table, long n, int d, double q, double trueQuantile, AdaptiveQuantile.Plan plan,
                      int runs, int within, double[] ratios, int oldWithin, double[] oldRatios) {
    }

    private PrivateBoundsMeasurement() {
    }

    /** The default public ladder of {@code --clip-norm private} without a bounded schema. */
    public static AdaptiveQuantile.Ladder ladder() {
        return AdaptiveQuantile.Ladder.positive(AdaptiveQuantile.DEFAULT_LO, AdaptiveQuantile.DEFAULT_HI);
    }

    /** Measures every readable table of {@link RawTables#ALL} under {@code root}. */
    public static List<Row> run(Path root, List<String> tables, double[] quantiles, double epsilon, int runs,
                                long seed, java.util.function.Consumer<String> progress) {
        List<Row> out = new ArrayList<>();
        AdaptiveQuantile.Ladder ladder = ladder();
        double[] oldGrid = PrivateQuantile.geometricGrid(1e-2, 1e6, 1.1);
        for (String name : tables) {
            RawTables t = RawTables.named(name);
            if (t.path(root).isEmpty()) {
                progress.accept(name + ": absent, skipped");
                continue;
            }
            InMemoryRows rows = InMemoryRows.of(t.load(root));
            long n = rows.size();
            double[] norms = new double[rows.size()];
            for (int i = 0; i < norms.length; i++) {
                norms[i] = io.dpspectra.linalg.Vectors.norm2(rows.row(i));
            }
            Arrays.sort(norms);
            long[] histogram = AdaptiveQuantile.rowNormHistogram(rows, ladder.edges());
            long[] oldHistogram = PrivateQuantile.rowNormHistogram(rows, oldGrid);
            for (double q : quantiles) {
                double truth = norms[(int) Math.max(0, Math.ceil(q * n) - 1)];
                AdaptiveQuantile.Plan plan = AdaptiveQuantile.plan(n, q, epsilon, ladder);
                PrivacyParams share = PrivacyParams.pure(plan.share() * epsilon);
                PrivacyParams oldShare = PrivacyParams.pure(OLD_SHARE * epsilon);
                double[] ratios = new double[runs];
                double[] oldRatios = new double[runs];
                int within = 0;
                int oldWithin = 0;
                for (int r = 0; r < runs; r++) {
                    RandomSource random = RandomSource.seededForReproducibility(seed + r);
                    double b = AdaptiveQuantile.using(random).bracketShare(plan.bracketShare())
                            .rowNormQuantile(histogram, q, ladder, share, Neighbouring.REPLACE_ROW).value();
                    double old = PrivateQuantile.using(random).rowNormQuantile(oldHistogram, q, oldGrid, oldShare,
                            Neighbouring.REPLACE_ROW).value();
                    ratios[r] = b / truth;
                    oldRatios[r] = old / truth;
                    within += ratios[r] >= 0.5 && ratios[r] <= 2 ? 1 : 0;
                    oldWithin += oldRatios[r] >= 0.5 && oldRatios[r] <= 2 ? 1 : 0;
                }
                Arrays.sort(ratios);
                Arrays.sort(oldRatios);
                out.add(new Row(name, n, rows.dimension(), q, truth, plan, runs, within, ratios, oldWithin, oldRatios));
                progress.accept(String.format(Locale.ROOT, "%s q=%s: %d/%d within 2x (former: %d/%d)", name, q, within,
                        runs, oldWithin, runs));
            }
        }
        return out;
    }

    /** The table as markdown. */
    public static String markdown(List<Row> rows, double epsilon) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "| table | n | d | q | true quantile t | auto share of ε = %s | within 2× of t "
                + "| B/t: min, median, max | former: within 2× | former B/t: min, max |%n", epsilon));
        sb.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %.4g | %.3f%s%s | **%d/%d** | %.3g, %.3g, %.3g | %d/%d "
                            + "| %.3g, %.3g |%n", r.table(), r.n(), r.d(), r.q(), r.trueQuantile(), r.plan().share(),
                    r.plan().bracketShare() >= 1 ? " (octave only)" : "", r.plan().sufficient() ? "" : " (too few rows)",
                    r.within(), r.runs(), r.ratios()[0], r.ratios()[r.runs() / 2], r.ratios()[r.runs() - 1],
                    r.oldWithin(), r.runs(), r.oldRatios()[0], r.oldRatios()[r.runs() - 1]));
        }
        return sb.toString();
    }
}
