package io.dpspectra.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.covariance.GaussianCovariance;
import io.dpspectra.data.EdgeListReader;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.csv.CsvRows;
import io.dpspectra.linalg.CsrMatrix;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.local.LocalCovarianceRandomizer;
import io.dpspectra.local.LocalPcaAggregator;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.CovarianceRidge;
import io.dpspectra.result.PrivateCovariance;
import io.dpspectra.result.PrivateSubspace;
import io.dpspectra.robust.GrassmannDescent;
import io.dpspectra.synthetic.Haystack;
import io.dpspectra.synthetic.SpikedCovariance;
import io.dpspectra.synthetic.SyntheticDataset;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the Java examples of {@code docs/guide/java-api.md}, one per family of algorithms, and checks that
 * the guide shows exactly the code that runs here (each example sits between {@code // guide:NAME:begin}
 * and {@code // guide:NAME:end} below, and in the guide in the {@code java} block after
 * {@code <!-- example: NAME -->}; the README's quickstart, run by {@link ReadmeQuickstartTest}, is the example
 * {@code readme-quickstart}). Every example draws its noise from the secure source, as a user's
 * program does, so each assertion is one that the mechanism meets with overwhelming probability at these
 * sizes (the margins are stated beside them).
 */
class GuideExamplesTest {
    private static final Path GUIDE = Path.of("..", "docs", "guide", "java-api.md");
    private static final Path SOURCE = Path.of("src", "test", "java", "io", "dpspectra", "docs",
            "GuideExamplesTest.java");

    @TempDir
    Path dir;

    /** Principal components: DP-Gauss-1 on a spiked sample, against the population's top-2 subspace. */
    @Test
    void pca() {
        // guide:pca:begin
        // 50,000 rows of 20 features with a planted 2-dimensional signal (eigenvalues 10 and 5, noise SD 0.5)
        SyntheticDataset data = SpikedCovariance.rankK(20, new double[] {10, 5}, 0.5).sample(50_000, 7);
        // the bound comes from the model (E|x|^2 = 10 + 5 + 20 * 0.25 = 20), never from the rows
        RowSource rows = data.rows().clipL2(8.0);
        PrivateSubspace pcs = AnalyzeGauss.builder().components(2).build()
                .fit(rows, PrivacyParams.of(1.0, 1e-6));
        double captured = SubspaceMetrics.capturedVarianceRatio(pcs.components(), data.populationSecondMoment());
        PrivacyGuarantee guarantee = pcs.guarantee().orElseThrow();   // (1, 1e-6), add/remove one row
        // guide:pca:end
        // the noise's spectral norm (~ sigma * sqrt(d), sigma ~ 64 * 5 / 1) is tiny against n * 5 = 250,000:
        // exact PCA of this sample captures ~ 0.999 of the population's top-2 variance
        assertThat(captured).isGreaterThan(0.98);
        assertThat(guarantee.epsilon()).isEqualTo(1.0);
        assertThat(pcs.k()).isEqualTo(2);
    }

    /** Covariance release (the Gaussian mechanism) and ridge regressions from it, on a CSV with a linear target. */
    @Test
    void covarianceAndRidge() throws IOException {
        Path csv = dir.resolve("sales.csv");
        RandomSource r = RandomSource.seededForReproducibility(3);   // test data, not noise
        try (TextFile w = new TextFile(csv)) {
            w.println("x1,x2,x3,y");
            for (int i = 0; i < 20_000; i++) {
                double x1 = r.nextDouble() - 0.5;
                double x2 = r.nextDouble() - 0.5;
                double x3 = r.nextDouble() - 0.5;
                double y = 0.5 * x1 - 0.25 * x2 + 0.05 * r.standardNormal();
                w.println(String.format(Locale.ROOT, "%.6f,%.6f,%.6f,%.6f", x1, x2, x3, y));
            }
        }
        CovarianceRidge ridge = covarianceAndRidge(csv);
        assertThat(ridge.features()).containsExactly(0, 1, 2);
        // XᵀX's diagonal is ~ 20,000 / 12 ~ 1,667; the noise per entry has SD sigma ~ 5 (beta = 1, (1, 1e-6)),
        // so the weights stay within ~ 0.02 of (0.5, -0.25, 0) (alpha = 10 shrinks them by under 1 %)
        assertThat(ridge.weights()[0]).isBetween(0.4, 0.6);
        assertThat(ridge.weights()[1]).isBetween(-0.35, -0.15);
        assertThat(ridge.weights()[2]).isBetween(-0.1, 0.1);
    }

    private static CovarianceRidge covarianceAndRidge(Path csv) {
        // guide:covariance-ridge:begin
        RowSource rows = CsvRows.open(csv).clipL2(1.0);     // x1..x3 in [-0.5, 0.5] and |y| < 1 by design
        PrivateCovariance cov = GaussianCovariance.builder().build()   // the Gaussian mechanism on XᵀX
                .release(rows, PrivacyParams.of(1.0, 1e-6));                 // (1, 1e-6), replace one row
        Matrix xtx = cov.matrix();               // the released XᵀX, d x d
        double[] lambda = cov.eigenvalues();     // its private eigenvalues
        CovarianceRidge ridge = cov.ridge(3, 10.0);   // y (column 4) on x1..x3: post-processing, no budget
        double[] w = ridge.weights();            // for the columns ridge.features() = {0, 1, 2}
        // guide:covariance-ridge:end
        assertThat(xtx.rows()).isEqualTo(4);
        assertThat(lambda).hasSize(4);
        assertThat(w).hasSize(3);
        return ridge;
    }

    /** Outlier-robust PCA: dp-SGGD on a haystack (half the rows inliers in a 2-dimensional subspace). */
    @Test
    void robust() {
        Haystack.Sample sample = Haystack.generate(4000, 20, 2, 0.5, RandomSource.seededForReproducibility(7));
        double[][] table = sample.rows();
        PrivateSubspace inliers = robust(table);
        // a random 2-dimensional subspace of R^20 has projector distance ~ 2 to the truth (sqrt(2k) at most);
        // dp-SGGD at eps = 1 recovers it to well under 1 at n = 4000
        assertThat(SubspaceMetrics.projectorDistance(inliers.components(), sample.truth())).isLessThan(1.0);
    }

    private static PrivateSubspace robust(double[][] table) {
        // guide:robust:begin
        RowSource rows = InMemoryRows.of(table);   // each row is mapped to the unit sphere (no bound needed)
        PrivateSubspace inliers = GrassmannDescent.dpSggd().components(2).build()
                .fit(rows, PrivacyParams.of(1.0, 1e-5));   // (1, 1e-5), replace one row, incl. a private start
        // guide:robust:end
        return inliers;
    }

    /** Local DP: each client randomizes its record; the server aggregates the reports. */
    @Test
    void localDp() {
        RandomSource r = RandomSource.seededForReproducibility(2);   // test data, not noise
        List<double[]> records = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            double f = r.standardNormal();
            records.add(new double[] {0.4 * f + 0.1 * r.standardNormal(), 0.4 * f + 0.1 * r.standardNormal(),
                0.1 * r.standardNormal(), 0.1 * r.standardNormal(), 0.1 * r.standardNormal()});
        }
        PrivateSubspace pc = localDp(records);
        // the first two coordinates share a factor of variance 0.16: the top direction is ~ (1, 1, 0, 0, 0)/√2,
        // and the averaged noise (sigma ~ 1.7 / sqrt(20,000) per entry) is far below the eigengap ~ 0.3
        double[] u = pc.components().column(0);
        assertThat(Math.abs(u[0] + u[1]) / Math.sqrt(2)).isGreaterThan(0.9);
    }

    private static PrivateSubspace localDp(List<double[]> records) {
        // guide:local-dp:begin
        // on each client: a report of its own record, (4, 1e-6)-LDP; only the report leaves the client
        LocalCovarianceRandomizer client = LocalCovarianceRandomizer.builder()
                .dimension(5).privacy(PrivacyParams.of(4.0, 1e-6)).clipNorm(1.0).build();
        // on the server: checks each report's parameters and averages them (post-processing, spends nothing)
        LocalPcaAggregator server = LocalPcaAggregator.expecting(client.parameters());
        for (int i = 0; i < records.size(); i++) {
            server.add(client.randomize(records.get(i)), "report " + (i + 1));
        }
        PrivateSubspace pc = server.aggregate().topComponents(1);
        // guide:local-dp:end
        return pc;
    }

    /** The private power method on a graph with two planted communities; the unit is one undirected edge. */
    @Test
    void powerMethodOnAGraph() throws IOException {
        int n = 2000;
        Path edges = dir.resolve("communities.csv");
        RandomSource r = RandomSource.seededForReproducibility(1);   // test data, not noise
        try (TextFile w = new TextFile(edges)) {
            w.println("u,v");
            for (int u = 0; u < n; u++) {
                for (int v = u + 1; v < n; v++) {
                    if (r.nextDouble() < ((u < n / 2) == (v < n / 2) ? 0.3 : 0.03)) {
                        w.println(u + "," + v);
                    }
                }
            }
        }
        PrivateSubspace top = powerMethodOnAGraph(edges, n);
        double[] second = top.components().column(1);
        int agree = 0;
        for (int i = 0; i < n; i++) {
            agree += (second[i] > 0) == (i < n / 2) ? 1 : 0;
        }
        // the second eigenvalue ~ (0.3 - 0.03) * n / 2 = 270 against a noise of spectral norm ~ 2 sigma ||X||_inf
        // sqrt(n) ~ 2 * 23.5 * 0.05 * 45 ~ 105: the signs of the second component split the communities (chance
        // is 50 %; the README's command-line run of the same graph recovered 97.4 %)
        assertThat(Math.max(agree, n - agree)).isGreaterThan((int) (0.9 * n));
    }

    private static PrivateSubspace powerMethodOnAGraph(Path edges, int nodes) {
        // guide:power-graph:begin
        CsrMatrix graph = EdgeListReader.read(edges, nodes);   // "u,v" lines; or MatrixMarketReader.read(path)
        PrivateSubspace top = PrivatePowerMethod.builder().components(2).blockSize(4).iterations(10)
                .symmetricPairUnit()                            // the unit: one undirected edge
                .build().release(graph, PrivacyParams.of(2.0, 1e-6));
        // guide:power-graph:end
        return top;
    }

    /** The guide shows exactly the examples above, with imports that the examples use. */
    @Test
    void theGuideShowsExactlyTheExamplesThatRun() throws IOException {
        Assumptions.assumeTrue(Files.exists(GUIDE) && Files.exists(SOURCE), "run from the dpspectra-core module");
        List<String> src = Files.readAllLines(SOURCE, StandardCharsets.UTF_8);
        Map<String, String> tested = new LinkedHashMap<>();
        for (int i = 0; i < src.size(); i++) {
            String line = src.get(i).strip();
            if (line.startsWith("// guide:") && line.endsWith(":begin")) {
                String name = line.substring("// guide:".length(), line.length() - ":begin".length());
                int end = i + 1;
                while (!src.get(end).strip().equals("// guide:" + name + ":end")) {
                    end++;
                }
                tested.put(name, src.subList(i + 1, end).stream().map(String::strip).collect(Collectors.joining("\n")));
            }
        }
        // the README's quickstart, which ReadmeQuickstartTest runs, may be shown too
        List<String> quickstart = Files.readAllLines(SOURCE.resolveSibling("ReadmeQuickstartTest.java"),
                StandardCharsets.UTF_8);
        tested.put("readme-quickstart", quickstart.subList(indexOf(quickstart, "// README:begin") + 1,
                indexOf(quickstart, "// README:end")).stream().map(String::strip).collect(Collectors.joining("\n")));
        List<String> imports = new ArrayList<>(src.stream().filter(l -> l.startsWith("import ")).toList());
        imports.addAll(quickstart.stream().filter(l -> l.startsWith("import ")).toList());
        List<String> md = Files.readAllLines(GUIDE, StandardCharsets.UTF_8);
        Map<String, String> shown = new LinkedHashMap<>();
        for (int i = 0; i < md.size(); i++) {
            String line = md.get(i).strip();
            if (line.startsWith("<!-- example: ")) {
                String name = line.substring("<!-- example: ".length(), line.indexOf(" -->")).strip();
                int open = i + 1;
                assertThat(md.get(open).strip()).as("the line after the marker of " + name).isEqualTo("```java");
                int close = open + 1;
                while (!md.get(close).strip().equals("```")) {
                    close++;
                }
                List<String> block = md.subList(open + 1, close);
                for (String l : block) {
                    if (l.startsWith("import ")) {
                        assertThat(imports).as("an import the guide shows for " + name).contains(l.strip());
                    }
                }
                shown.put(name, block.stream().map(String::strip).filter(l -> !l.startsWith("import ") && !l.isEmpty())
                        .collect(Collectors.joining("\n")));
            }
        }
        assertThat(shown).isEqualTo(tested);
    }

    private static int indexOf(List<String> lines, String marker) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().startsWith(marker)) {
                return i;
            }
        }
        throw new AssertionError("marker " + marker + " not found");
    }

    /** A UTF-8 writer for the test's input files. */
    private static final class TextFile extends PrintWriter {
        TextFile(Path path) throws IOException {
            super(Files.newBufferedWriter(path, StandardCharsets.UTF_8));
        }
    }
}
