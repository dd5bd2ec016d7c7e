package io.dpspectra.experiments.kdppca;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.experiments.Reproduction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KdpPcaReproductionTest {
    @TempDir
    Path dir;

    /** The CI run: every figure at quick scale writes its CSV and PNG and the report covers each figure. */
    @Test
    void quickRunWritesEveryFigureAndAReportWithVerdicts() throws Exception {
        KdpPcaReproduction r = new KdpPcaReproduction();
        List<String> progress = new ArrayList<>();
        long t0 = System.nanoTime();
        r.run(new Reproduction.Settings(r.figures(), null, true, dir, 7, progress::add));
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(seconds).isLessThan(120);
        for (String f : r.figures()) {
            assertThat(dir.resolve("figure-" + f + ".csv")).isNotEmptyFile();
            assertThat(dir.resolve("figure-" + f + ".png")).isNotEmptyFile();
            List<String> csv = Files.readAllLines(dir.resolve("figure-" + f + ".csv"));
            assertThat(csv.get(0)).contains("method", "mean", "ci95_low");
            assertThat(csv).anyMatch(l -> l.contains("k-DP-PCA")).anyMatch(l -> l.contains("DP-Gauss-2 (paper-literal)"));
        }
        String report = Files.readString(dir.resolve("report.md"));
        for (String f : r.figures()) {
            assertThat(report).contains("## Figure " + f);
        }
        assertThat(report).contains("QUICK RUN").contains("Verdict").contains("PrivRange returned ⊥");
        assertThat(progress).isNotEmpty();
    }

    @Test
    void theAppendixGClippingRulesMatchTheSpecsWorkedExample() {
        // spec §6: beta = 4.58 (sigma = 0.025) / 3.22 (sigma = 0.001); alpha1 = 51.1 / 45.0 at n = 1e5, d = 200
        Method.Model a = new Method.Model(200, 100_000, new double[] {10, 5}, 0.025, false);
        Method.Model b = new Method.Model(200, 100_000, new double[] {10, 5}, 0.001, false);
        assertThat(a.beta()).isBetween(4.57, 4.59);
        assertThat(b.beta()).isBetween(3.21, 3.23);
        assertThat(a.alpha1()).isBetween(51.0, 51.2);
        assertThat(b.alpha1()).isBetween(44.9, 45.1);
    }
}
