package io.dpspectra.experiments.dpcovariance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dpspectra.experiments.Reproduction;
import io.dpspectra.linalg.Matrix;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quick reproduction writes every figure's CSV and PNG and a report; the real data load as the paper says. */
class DpCovarianceReproductionTest {
    @TempDir
    Path dir;

    @Test
    @Tag("slow")
    void quickRunWritesEveryFigureAndAReportWithinTwoMinutes() throws Exception {
        DpCovarianceReproduction r = new DpCovarianceReproduction();
        List<String> log = new ArrayList<>();
        // the quick run's budget is two minutes of one core: measured as the process's CPU time, which a loaded
        // shared machine does not inflate (wall time there is several times longer)
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        r.run(new Reproduction.Settings(r.figures(), null, true, dir, 7, log::add));
        double cpuSeconds = (os.getProcessCpuTime() - cpu0) / 1e9;
        assertThat(cpuSeconds).isLessThan(120);
        boolean anyDataset = AminDatasets.NAMES.stream().anyMatch(n -> {
            try {
                return AminDatasets.load(n).isPresent();
            } catch (java.io.IOException e) {
                return false;
            }
        });
        for (String f : List.of("2", "3", "4", "5")) {
            assertThat(dir.resolve("fig" + f + ".csv")).exists();
            assertPng(dir.resolve("fig" + f + ".png"));
        }
        assertThat(dir.resolve("fig1.csv")).exists();
        if (anyDataset) {
            assertPng(dir.resolve("fig1.png"));
        }
        String report = Files.readString(dir.resolve("report.md"));
        assertThat(report).startsWith("<!-- dpspectra reproduce dp-covariance: quick run, seed 7 -->")
                .contains("## Figure 1", "## Figure 2", "## Figure 3", "## Figure 4", "## Figure 5",
                "proposals per sampled vector", "Quick run", "G-3 classic", "G-3 analytic", "trivial predictor");
        // the opening table lists the whole paper before anything else, and with every figure run nothing is
        // "not run" for want of a figure
        assertThat(report.indexOf("## The paper's figures")).isLessThan(report.indexOf("## Set-up"));
        assertThat(report).contains("| Fig. 5, App. C.2 |").doesNotContain("was not requested");
        if (anyDataset) {
            assertThat(report).doesNotContain("| Fig. 5, App. C.2 | regression on wine, airfoil, adult, 80/20 "
                    + "train/test split: test error of AD vs P | **not run");
            assertThat(Files.readString(dir.resolve("fig5.csv"))).containsAnyOf("wine,", "airfoil,", "adult,");
        }
        List<String> csv = Files.readAllLines(dir.resolve("fig2.csv"));
        // 10 methods (L, KT, AD, IT-U, G-x in two calibrations) x 2 n x 2 epsilons, plus the header
        assertThat(csv).hasSize(1 + 10 * 2 * 2);
        for (String line : csv.subList(1, csv.size())) {
            double mean = Double.parseDouble(line.split(",")[5]);
            assertThat(mean).isPositive().isFinite();
        }
        assertThat(dir.resolve("proposals.csv")).exists();
        assertThat(Files.readString(dir.resolve("runs.csv"))).contains("dpspectra reproduce dp-covariance --figure 4",
                "QUICK run");

        // --report-only rebuilds the same claims table from the CSVs alone: every verdict is computed from them
        String table = claimsTable(report);
        Files.delete(dir.resolve("fig1.png"));
        r.run(new Reproduction.Settings(r.figures(), null, false, dir, 7, log::add, List.of(), true));
        String rebuilt = Files.readString(dir.resolve("report.md"));
        assertThat(claimsTable(rebuilt)).isEqualTo(table);
        assertThat(rebuilt).startsWith("<!-- dpspectra reproduce dp-covariance: quick run, seed 7 -->")
                .contains("--report-only", "## Which run produced each figure", "## Figure 5",
                "## Bingham sampler: proposals per sampled vector");
        if (anyDataset) {
            assertPng(dir.resolve("fig1.png"));
        }
    }

    /** The opening claims table of a report: from its heading to the next section. */
    private static String claimsTable(String report) {
        int from = report.indexOf("## The paper's figures");
        assertThat(from).isNotNegative();
        return report.substring(from, report.indexOf("\n## ", from + 1));
    }

    private static void assertPng(Path p) throws Exception {
        byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(p), 4);
        assertThat(head).containsExactly(0x89, 'P', 'N', 'G');
    }

    @Test
    void realDataSetsHaveThePapersShapesAndUnitNormRows() throws Exception {
        int[][] shapes = {{178, 13}, {1503, 6}, {48842, 108}};
        for (int i = 0; i < 3; i++) {
            Optional<Matrix> m = AminDatasets.load(AminDatasets.NAMES.get(i));
            assumeTrue(m.isPresent(), "data set " + AminDatasets.NAMES.get(i) + " absent under " + AminDatasets.root());
            Matrix x = m.get();
            assertThat(x.rows()).isEqualTo(shapes[i][0]);
            assertThat(x.cols()).isEqualTo(shapes[i][1]);
            for (int r = 0; r < x.rows(); r += 97) {
                double s = 0;
                for (int c = 0; c < x.cols(); c++) {
                    s += x.get(r, c) * x.get(r, c);
                }
                assertThat(Math.sqrt(s)).isBetween(0.0, 1.0 + 1e-12);
            }
        }
    }
}
