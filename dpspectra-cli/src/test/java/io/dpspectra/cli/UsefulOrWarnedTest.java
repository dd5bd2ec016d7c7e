package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.options.Pipeline;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.data.RowCursor;
import io.dpspectra.experiments.Datasets;
import io.dpspectra.experiments.RawTables;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Releases that a user without bounds makes at total ε = 1 are useful, or the tool said before spending that
 * they would not be. For each table (the six shipped ones, and generated ones this project never tuned to:
 * heavy-tailed rows, columns on wildly different scales, high d, a weak signal, few rows) and each route:
 * <ol>
 *   <li>{@code fit --algorithm analyze-gauss -k 2 --epsilon 1 --delta 1e-6 --clip-norm private --center private}
 *   on the raw columns; the reference is exact PCA of the centred raw columns;</li>
 *   <li>{@code schema draft --private-epsilon 0.3}, then {@code fit} with the drafted schema at ε = 0.7 (its
 *   public centres); the reference is exact PCA of the z-scored raw columns.</li>
 * </ol>
 * The release's 2-D projection of the rows (through its feature map and released mean, and also through the
 * clipping, as {@code transform} projects them) must have a mean squared canonical correlation of at least 0.5
 * with the exact top-2 principal-component scores, unless the tool warned before spending (fit's usefulness check, or the draft's refusal before spending). A draft refused after spending
 * (a degenerate column) releases nothing and is reported as such. Seeded, so the table is reproducible; the
 * table is printed.
 */
@Tag("slow")
class UsefulOrWarnedTest {
    @TempDir
    Path dir;

    /** One table: a name and its raw numeric columns. */
    record Table(String name, double[][] x) {
    }

    /** One route's outcome: refused says what stopped a release after spending (a draft's refusal), or null. */
    record Outcome(String table, String route, boolean warned, String refused, double mscc, double msccClipped,
                   String why) {
        boolean ok() {
            return warned || mscc >= 0.5 && !(msccClipped < 0.5);
        }
    }

    @Test
    void everyReleaseIsUsefulOrWarnedBeforeSpending() throws Exception {
        List<Table> tables = new ArrayList<>();
        Path root = Datasets.root();
        for (RawTables t : RawTables.ALL) {
            if (t.path(root).isPresent()) {
                tables.add(new Table(t.name(), t.load(root)));
            }
        }
        tables.addAll(generated());
        List<Outcome> outcomes = new ArrayList<>();
        for (Table t : tables) {
            Path csv = writeCsv(t);
            outcomes.add(routeClipPrivate(t, csv));
            outcomes.add(routeDraft(t, csv));
        }
        StringBuilder sb = new StringBuilder("| table | n | d | route | warned before spending | refused after "
                + "spending | mscc | mscc through the clipping |\n|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < outcomes.size(); i++) {
            Outcome o = outcomes.get(i);
            Table t = tables.get(i / 2);
            sb.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %s | %s | %s |%n", o.table(), t.x().length,
                    t.x()[0].length, o.route(), o.warned() ? "yes (" + o.why() + ")" : "no",
                    o.refused() == null ? "" : o.refused(),
                    Double.isNaN(o.mscc()) ? "-" : String.format(Locale.ROOT, "%.3f", o.mscc()),
                    Double.isNaN(o.msccClipped()) ? "-" : String.format(Locale.ROOT, "%.3f", o.msccClipped())));
        }
        System.out.println(sb);
        assertThat(outcomes).as(sb.toString()).allMatch(Outcome::ok);
    }

    /** A warned release is still made and measured (for the report) up to this d; above it, skipped. */
    private static final int MEASURE_WARNED_UP_TO_D = 1000;

    private static boolean warnedBeforeSpending(Cli.Result r) {
        return r.err().contains("predicted to be useless") || r.err().contains("close to useless")
                || r.err().contains("hold") && r.err().contains("squared norm");
    }

    /** Which warnings came before spending: the advisor's, the exact-spectrum check's, the heavy-tail one's. */
    private static String why(Cli.Result r) {
        List<String> w = new ArrayList<>();
        if (r.err().contains("predicted to be useless")) {
            w.add("advisor");
        }
        if (r.err().contains("predicted to share only")) {
            w.add("own spectrum");
        }
        if (r.err().contains("clips so many rows")) {
            w.add("clipping");
        }
        if (r.err().contains("the schema's map")) {
            w.add("the schema's map");
        }
        if (r.err().contains("simulated draws")) {
            w.add("private steps' draws");
        }
        if (r.err().contains("almost flat spectrum")) {
            w.add("flat spectrum");
        }
        if (r.err().contains("squared norm")) {
            w.add("few rows dominate");
        }
        return String.join(", ", w);
    }

    /** fit, first with --refuse-useless (a refusal is the warning, before anything is spent), then without. */
    private Outcome fit(Table t, Path csv, String route, Path model, String... args) throws Exception {
        List<String> refuse = new ArrayList<>(List.of(args));
        refuse.add("--refuse-useless");
        refuse.add(csv.toString());
        Cli.Result first = Cli.run(refuse.toArray(new String[0]));
        boolean warned = first.exitCode() == ExitCodes.MECHANISM_REFUSED || warnedBeforeSpending(first);
        String why = why(first);
        if (first.exitCode() == ExitCodes.MECHANISM_REFUSED) {
            assertThat(Files.exists(model)).as("a refusal before spending writes nothing").isFalse();
            if (t.x()[0].length > MEASURE_WARNED_UP_TO_D) {
                return new Outcome(t.name(), route, true, null, Double.NaN, Double.NaN, why);
            }
            List<String> again = new ArrayList<>(List.of(args));
            again.add(csv.toString());
            Cli.Result r = Cli.run(again.toArray(new String[0]));
            if (r.exitCode() != 0) {
                return new Outcome(t.name(), route, true, "exit " + r.exitCode() + ": " + firstLine(r.err()), Double.NaN,
                        Double.NaN, why);
            }
        } else if (first.exitCode() != 0) {
            return new Outcome(t.name(), route, warned, "exit " + first.exitCode() + ": " + firstLine(first.err()),
                    Double.NaN, Double.NaN, why);
        }
        boolean z = route.equals("schema draft");
        return new Outcome(t.name(), route, warned, null, mscc(model, csv, t.x(), z), msccClipped(model, csv, t.x(), z),
                why);
    }

    private Outcome routeClipPrivate(Table t, Path csv) throws Exception {
        Path model = dir.resolve(t.name() + "-clip.json");
        return fit(t, csv, "clip-norm private", model, "fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon",
                "1", "--delta", "1e-6", "--clip-norm", "private", "--center", "private", "--seed", "11", "-o",
                model.toString());
    }

    private Outcome routeDraft(Table t, Path csv) throws Exception {
        Path schema = dir.resolve(t.name() + "-schema.json");
        Cli.Result d = Cli.run("schema", "draft", "--private-epsilon", "0.3", "--seed", "12", "-o", schema.toString(),
                csv.toString());
        if (d.exitCode() == ExitCodes.USAGE && d.err().contains("cannot draft")) {
            return new Outcome(t.name(), "schema draft", true, null, Double.NaN, Double.NaN, "draft refused before "
                    + "spending");
        }
        if (d.exitCode() != 0) {
            return new Outcome(t.name(), "schema draft", false, "draft exit " + d.exitCode() + ": " + firstLine(d.err()),
                    Double.NaN, Double.NaN, "");
        }
        Path model = dir.resolve(t.name() + "-draft.json");
        return fit(t, csv, "schema draft", model, "fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "0.7",
                "--delta", "1e-6", "--schema", schema.toString(), "--seed", "13", "-o", model.toString());
    }

    private static String firstLine(String s) {
        String line = s.lines().filter(l -> l.contains("error")).findFirst().orElse(s.lines().findFirst().orElse(""));
        return line.length() > 160 ? line.substring(0, 160) + "..." : line;
    }

    /**
     * The release's projection of the rows against the exact top-2 scores: each row through the release's public
     * feature map (the schema's map, or the CSV's columns) and its released mean, then onto its components; the
     * row-norm clipping, a device of the estimator's privacy, is not applied (a projection through it saturates
     * for every clipped row: {@link #msccClipped} reports that variant).
     */
    static double mscc(Path model, Path csv, double[][] raw, boolean zscore) {
        Json.Model m = Json.readModel(model);
        Pipeline p = m.pipeline();
        io.dpspectra.data.RowSource read = p.read(csv);
        io.dpspectra.data.RowSource rows = p.mean() == null ? read : io.dpspectra.data.ShiftedRows.of(read, p.mean());
        return project(rows, m.components(), raw, zscore);
    }

    /** As {@link #mscc}, through the release's whole preprocessing, clipping included (what transform does). */
    static double msccClipped(Path model, Path csv, double[][] raw, boolean zscore) {
        Json.Model m = Json.readModel(model);
        return project(m.pipeline().apply(csv), m.components(), raw, zscore);
    }

    private static double project(io.dpspectra.data.RowSource rows, Matrix u, double[][] raw, boolean zscore) {
        int n = raw.length;
        Matrix projected = new Matrix(n, u.cols());
        double[] row = new double[u.rows()];
        int i = 0;
        try (RowCursor c = rows.open()) {
            while (c.next(row)) {
                for (int j = 0; j < u.cols(); j++) {
                    double s = 0;
                    for (int a = 0; a < row.length; a++) {
                        s += row[a] * u.get(a, j);
                    }
                    projected.set(i, j, s);
                }
                i++;
            }
        }
        return SubspaceMetrics.meanSquaredCanonicalCorrelation(projected, exactScores(raw, 2, zscore));
    }

    /** The top-k principal-component scores of the centred (or z-scored) rows, via the smaller Gram matrix. */
    static Matrix exactScores(double[][] raw, int k, boolean zscore) {
        int n = raw.length;
        int d = raw[0].length;
        Matrix xm = Matrix.fromRows(RawTables.centredColumns(raw, zscore));
        if (d <= n) {
            Matrix v = SymmetricEigen.top(xm.transposeTimes(xm), k).vectors();
            return xm.times(v);
        }
        // scores are the top eigenvectors of X Xᵀ times their singular values; CCA ignores the scaling
        return SymmetricEigen.top(xm.times(xm.transpose()), k).vectors();
    }

    private Path writeCsv(Table t) throws IOException {
        Path p = dir.resolve(t.name() + ".csv");
        StringBuilder sb = new StringBuilder();
        int d = t.x()[0].length;
        for (int j = 0; j < d; j++) {
            sb.append(j > 0 ? "," : "").append("x").append(j + 1);
        }
        sb.append('\n');
        for (double[] r : t.x()) {
            for (int j = 0; j < d; j++) {
                sb.append(j > 0 ? "," : "").append(r[j]);
            }
            sb.append('\n');
        }
        Files.writeString(p, sb);
        return p;
    }

    /**
     * Tables no part of the tool was tuned to: a factor model under heavy-tailed row scales, columns on scales
     * from 10^-3 to 10^4 with large offsets, high d, a weak signal in high d with few rows, and very few rows.
     */
    static List<Table> generated() {
        List<Table> out = new ArrayList<>();
        out.add(new Table("heavy-tailed", factorRows(3000, 20, new double[] {3, 2}, 0.4, 101, true, false)));
        out.add(new Table("mixed-scales", factorRows(5000, 15, new double[] {2, 1.5, 1}, 0.5, 102, false, true)));
        out.add(new Table("high-d", factorRows(2000, 400, new double[] {6, 4}, 1, 103, false, false)));
        out.add(new Table("weak-high-d", factorRows(400, 200, new double[] {1.5, 1.2}, 5, 104, false, false)));
        out.add(new Table("few-rows", factorRows(120, 5, new double[] {2, 1}, 0.3, 105, false, false)));
        return out;
    }

    /**
     * n rows of d columns: Σ_f z_f·s_f·l_f + noise·N(0, I), loadings l_f random unit vectors; heavy: each row
     * times |t₂| (Student t with 2 degrees of freedom); scales: column j times 10^a_j plus 10^b_j.
     */
    static double[][] factorRows(int n, int d, double[] strengths, double noise, long seed, boolean heavy,
                                 boolean scales) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        double[][] loadings = new double[strengths.length][d];
        for (double[] l : loadings) {
            double norm = 0;
            for (int j = 0; j < d; j++) {
                l[j] = r.standardNormal();
                norm += l[j] * l[j];
            }
            for (int j = 0; j < d; j++) {
                l[j] /= Math.sqrt(norm);
            }
        }
        double[] scale = new double[d];
        double[] offset = new double[d];
        for (int j = 0; j < d; j++) {
            scale[j] = scales ? Math.pow(10, -3 + 7 * r.nextDouble()) : 1;
            offset[j] = scales ? Math.pow(10, 5 * r.nextDouble()) : 0;
        }
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            double t = 1;
            if (heavy) {
                double z = r.standardNormal();
                double chi = 0;
                for (int a = 0; a < 2; a++) {
                    double g = r.standardNormal();
                    chi += g * g;
                }
                t = Math.abs(z / Math.sqrt(chi / 2));
            }
            for (int f = 0; f < strengths.length; f++) {
                double z = r.standardNormal() * strengths[f];
                for (int j = 0; j < d; j++) {
                    x[i][j] += z * loadings[f][j] * Math.sqrt(d);
                }
            }
            for (int j = 0; j < d; j++) {
                x[i][j] = (x[i][j] + noise * r.standardNormal()) * t * scale[j] + offset[j];
            }
        }
        return x;
    }
}
