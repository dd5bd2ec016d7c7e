package io.dpspectra.cli.command;

import io.dpspectra.cli.options.PrivacyOptions;
import io.dpspectra.cli.output.AtomicFiles;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Tables;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.experiments.plot.ScatterPlot;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra demo}: private PCA of the embedded UCI wine data, end to end.
 *
 * <p>Preprocessing uses constants fixed in the code, never statistics computed at run time:
 * <ol>
 *   <li>each of the 13 features is standardised with the per-feature mean and standard deviation
 *       published with the data set (scikit-learn's {@code wine_data.rst}, "Summary Statistics"). Those
 *       summaries were computed by the publisher from these same 178 rows, so they are not independent of
 *       the data: the demo's release is not differentially private with respect to these wines (the
 *       rounded means and SDs say a little about them). It shows the mechanism and the cost of its noise;
 *       a real release takes its constants from outside the data, as {@code docs/schemas/wine.json} does
 *       (bounds from oenology references, stated assumptions where none was found);</li>
 *   <li>every standardised row is divided by the fixed constant {@link #ROW_SCALE} c = 4: a row
 *       whose 13 standardised features are each about one standard deviation from the mean then has
 *       norm about √13 / 4 ≈ 0.9;</li>
 *   <li>rows are clipped to L2 norm ≤ 1, the bound DP-Gauss-1 is calibrated to.</li>
 * </ol>
 * Privacy: (ε, δ)-DP for the released components, add/remove one row (one wine), with the default
 * ε = 1, δ = 1e-5. The exact-PCA comparison printed beside it is NOT private: it is there only to show
 * what the noise costs, and a real release would not print it.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Private PCA (analyze-gauss, k = 2) of the embedded UCI wine data (178 wines, 13 features): "
                + "prints the two private components, their captured variance against exact PCA, the privacy "
                + "spent, and writes a PNG scatter of the private 2-D projection coloured by cultivar.",
                "Features are standardised with the per-feature means and SDs published with the data set "
                        + "(scikit-learn's wine description), divided by the constant c = 4 and clipped to L2 norm "
                        + "<= 1. Nothing is computed from the rows at run time, but the publisher computed those "
                        + "means and SDs from these same 178 wines, so the demo is not private for them: it shows "
                        + "the mechanism and the cost of its noise. For a private release of this file, use "
                        + "'fit --schema docs/schemas/wine.json' (bounds from outside sources)."})
public final class DemoCommand extends BaseCommand {
    static final String[] FEATURES = {"alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium",
        "total_phenols", "flavanoids", "nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue",
        "od280/od315", "proline"};

    /** Published means (scikit-learn wine_data.rst, Summary Statistics), computed by the publisher from these rows. */
    static final double[] PUBLIC_MEAN = {13.0, 2.34, 2.36, 19.5, 99.7, 2.29, 2.03, 0.362, 1.590, 5.06, 0.957,
        2.61, 746};

    /** Published standard deviations (same table). */
    static final double[] PUBLIC_SD = {0.811, 1.12, 0.274, 3.34, 14.28, 0.626, 0.999, 0.124, 0.572, 2.318,
        0.226, 0.710, 315};

    /** The public constant c every standardised row is divided by (≈ √13, rounded up). */
    static final double ROW_SCALE = 4.0;

    /** The L2 bound rows are clipped to. */
    static final double CLIP_NORM = 1.0;

    static final String DATA_RESOURCE = "/io/dpspectra/cli/demo/wine_data.csv";

    @Option(names = "--output-dir", paramLabel = "DIR", defaultValue = ".",
            description = "Directory for the PNG scatter plot dpspectra-demo.png. Default: the current directory.")
    Path outputDir;

    @Option(names = "--epsilon", paramLabel = "E", defaultValue = "1",
            description = "Privacy parameter epsilon of the release. Default: ${DEFAULT-VALUE}.")
    double epsilon;

    @Option(names = "--delta", paramLabel = "D", defaultValue = "1e-5",
            description = "Privacy parameter delta of the release (> 0). Default: ${DEFAULT-VALUE}.")
    double delta;

    @Option(names = "--seed", paramLabel = "S",
            description = "Seed the noise for reproducibility. NOT private against anyone who knows the seed. "
                    + "Default: SecureRandom.")
    Long seed;

    /** The parsed wine data: preprocessed rows and class labels. */
    record Wine(double[][] rows, int[] labels) {
    }

    @Override
    public Integer call() throws Exception {
        PrivacyParams params = PrivacyParams.of(epsilon, delta);
        io.dpspectra.privacy.DpPreconditions.checkPositiveDelta(delta, "demo (analyze-gauss)");
        if (!Files.isDirectory(outputDir)) {
            throw CliException.usage("--output-dir " + outputDir + " is not a directory", "create it first");
        }
        Path png = AtomicFiles.checkWritableTarget(outputDir.resolve("dpspectra-demo.png"), "--output-dir");
        RandomSource random;
        if (seed == null) {
            random = RandomSource.secure();
        } else {
            warn("--seed " + seed + " makes the noise reproducible; the release is for reproducibility only and "
                    + "is NOT private against anyone who knows the seed");
            random = RandomSource.seededForReproducibility(seed);
        }

        Wine wine = loadWine();
        ClippedRows rows = InMemoryRows.of(wine.rows()).clipL2(CLIP_NORM);
        PrivateSubspace priv = AnalyzeGauss.builder().components(2).randomSource(random).build().fit(rows, params);

        // Non-private reference, for the demonstration only.
        GramPass pass = GramPass.of(rows);
        Matrix c = pass.gram().scaled(1.0 / pass.rows());
        Matrix exact = SymmetricEigen.top(c, 2).vectors();
        Matrix u = priv.components();
        double captured = SubspaceMetrics.capturedVarianceRatio(u, c);
        double distance = SubspaceMetrics.projectorDistance(u, exact);

        ScatterPlot plot = ScatterPlot.titled(String.format(Locale.ROOT,
                "UCI wine, private PCA (analyze-gauss, eps=%s, delta=%s)", epsilon, delta), "private PC1", "private PC2");
        for (int i = 0; i < wine.rows().length; i++) {
            double[] x = wine.rows()[i].clone();
            io.dpspectra.data.Clipping.l2(CLIP_NORM).clipInPlace(x);
            double[] y = priv.transform(x);
            plot.add("cultivar " + (wine.labels()[i] + 1), y[0], y[1]);
        }
        plot.writePng(png, 800, 600);

        PrivacyGuarantee g = priv.guarantee().orElse(null);
        StringBuilder sb = new StringBuilder();
        sb.append("dpspectra demo: private PCA of the UCI wine data (n = ").append(wine.rows().length)
                .append(" wines, d = 13 features)\n");
        sb.append("preprocessing: z = (x - mean) / SD with the means and SDs published with the data set (computed "
                + "from these same wines: the demo is not private for them; see 'dpspectra demo --help'); row / ")
                .append(ROW_SCALE).append("; clip to L2 norm <= ").append(CLIP_NORM).append(" (")
                .append(rows.clippedRows()).append(" rows clipped)\n\n");
        sb.append("Private components (analyze-gauss, k = 2):\n");
        sb.append(Tables.matrix(List.of(FEATURES), List.of("PC1", "PC2"), u)).append('\n');
        sb.append(String.format(Locale.ROOT, "captured variance vs exact PCA (1 = perfect): %.3f%n", captured));
        sb.append(String.format(Locale.ROOT, "subspace distance ||UU^T - VV^T||_F (0 = perfect, max 2): %.3f%n",
                distance));
        sb.append("  (the exact-PCA comparison is NOT private; it is printed only to show the cost of the noise)\n\n");
        if (g != null) {
            sb.append(String.format(Locale.ROOT, "privacy spent: epsilon = %s, delta = %s, neighbouring = %s%n",
                    g.epsilon(), g.delta(), PrivacyOptions.cliName(g.neighbouring())));
            sb.append("  mechanism: ").append(g.mechanism()).append("\n  unit:      ").append(g.privacyUnit())
                    .append('\n');
        }
        sb.append("\nscatter plot of the private 2-D projection: ").append(png).append('\n');
        out().print(sb);
        out().flush();
        return ExitCodes.OK;
    }

    /** Reads the embedded data and applies the public preprocessing (without clipping). */
    static Wine loadWine() throws IOException {
        try (InputStream in = DemoCommand.class.getResourceAsStream(DATA_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("embedded resource " + DATA_RESOURCE + " is missing from the jar");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            r.readLine(); // scikit-learn's shape line "178,13,class_0,class_1,class_2", not a header
            List<double[]> rows = new ArrayList<>();
            List<Integer> labels = new ArrayList<>();
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                String[] cells = line.split(",");
                double[] z = new double[FEATURES.length];
                for (int j = 0; j < z.length; j++) {
                    z[j] = (Double.parseDouble(cells[j].trim()) - PUBLIC_MEAN[j]) / PUBLIC_SD[j] / ROW_SCALE;
                }
                rows.add(z);
                labels.add(Integer.parseInt(cells[FEATURES.length].trim()));
            }
            return new Wine(rows.toArray(new double[0][]), labels.stream().mapToInt(Integer::intValue).toArray());
        }
    }
}
