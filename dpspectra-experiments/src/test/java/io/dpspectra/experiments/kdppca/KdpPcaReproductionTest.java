package io.dpspectra.experiments.kdppca;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.experiments.Reproduction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KdpPcaReproductionTest {
    @TempDir
    Path dir;

    /**
     * The CI run: every figure at quick scale writes its CSV and PNG(s) and the report opens with the paper's complete
     * claims table and covers each figure, the variant, the crossover and the cannot-release arithmetic.
     */
    @Test
    @Tag("slow")
    void quickRunWritesEveryFigureAndAReportWithVerdicts() throws Exception {
        KdpPcaReproduction r = new KdpPcaReproduction();
        List<String> progress = new ArrayList<>();
        long t0 = System.nanoTime();
        r.run(new Reproduction.Settings(r.figures(), null, true, dir, 7, progress::add));
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(seconds).isLessThan(300); // a guard against a runaway quick run (was 120 s with 7 figures; 11 now)
        for (String f : r.figures()) {
            assertThat(dir.resolve("figure-" + f + ".csv")).isNotEmptyFile();
            KdpPcaReproduction.Figure fig = r.define(true).stream().filter(x -> x.id().equals(f)).findFirst().orElseThrow();
            for (String png : KdpPcaReproduction.pngNames(fig)) {
                assertThat(dir.resolve(png)).isNotEmptyFile();
            }
            List<String> csv = Files.readAllLines(dir.resolve("figure-" + f + ".csv"));
            assertThat(csv.get(0)).contains("method", "mean", "ci95_low");
            assertThat(csv).anyMatch(l -> l.contains("k-DP-PCA-adaptive, this project's variant"));
        }
        assertThat(Files.readString(dir.resolve("figure-4.csv"))).contains("DP-Gauss-2 paper-literal");
        assertThat(Files.readString(dir.resolve("figure-1a.csv"))).as("DP-Gauss-2 runs on sum clip(A_i) too")
                .contains("DP-Gauss-2 [Dwork et al. calibration]").doesNotContain("DP-Power-Method");
        assertThat(KdpPcaReproduction.pngNames(r.define(true).get(6))).hasSize(2); // Fig. 3: a panel per k
        String report = Files.readString(dir.resolve("report.md"));
        for (String f : r.figures()) {
            assertThat(report).contains("## Figure " + f);
        }
        assertThat(report).contains("QUICK RUN").contains("Verdicts").contains("PrivRange returned ⊥")
                .contains("## Which run produced each figure").contains("DP-Power-Method (clipped to be comparable");
        assertThat(report.indexOf("## The paper's figures, tables and quantitative claims"))
                .isLessThan(report.indexOf("Settings:"));
        assertThat(report).contains("| Fig. 2c [", "| Fig. 4b [", "| Fig. 4c [", "App. G.3", "Why k-DP-PCA cannot release",
                "Crossover of this project's variant", "[classic Gaussian]", "[analytic Gaussian]")
                .doesNotContain("the paper plots up to 5e5");
        assertThat(progress).isNotEmpty();

        // --method: DP-Gauss-2 alone, rerun with another seed into figure 1a, merged; every other method's row stays
        List<String> before = Files.readAllLines(dir.resolve("figure-1a.csv"));
        r.run(new Reproduction.Settings(List.of("1a"), null, true, dir, 8, m -> { }, List.of("dp-gauss-2"), false));
        List<String> after = Files.readAllLines(dir.resolve("figure-1a.csv"));
        assertThat(after).hasSameSizeAs(before);
        assertThat(after.stream().filter(l -> !l.contains("DP-Gauss-2 [")).toList())
                .isEqualTo(before.stream().filter(l -> !l.contains("DP-Gauss-2 [")).toList());
        assertThat(after.stream().filter(l -> l.contains("DP-Gauss-2 [")).toList())
                .isNotEqualTo(before.stream().filter(l -> l.contains("DP-Gauss-2 [")).toList());
        assertThat(io.dpspectra.experiments.RunLog.read(dir)).filteredOn(e -> e.figure().equals("1a"))
                .extracting(io.dpspectra.experiments.RunLog.Entry::methods).containsExactly("all", "dp-gauss-2");

        // --report-only rebuilds the same report from the CSVs, running nothing
        String merged = Files.readString(dir.resolve("report.md"));
        Files.delete(dir.resolve("report.md"));
        Files.delete(dir.resolve("figure-4.png"));
        r.run(new Reproduction.Settings(r.figures(), null, true, dir, 8, m -> { }, List.of(), true));
        assertThat(Files.readString(dir.resolve("report.md"))).isEqualTo(merged);
        assertThat(dir.resolve("figure-4.png")).isNotEmptyFile();
        assertThat(io.dpspectra.experiments.RunLog.read(dir)).hasSize(r.figures().size() + 1);
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
