package io.dpspectra.experiments.noisypower;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.experiments.Reproduction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The --quick reproduction runs end to end into a temporary directory and writes every figure and the report. */
class NoisyPowerReproductionTest {
    @TempDir
    Path dir;

    @Test
    void quickRunWritesACsvAndAPngPerClaimAndAReportWithAVerdictForEach() throws Exception {
        NoisyPowerReproduction r = new NoisyPowerReproduction();
        List<String> progress = new ArrayList<>();
        // two minutes of one core, as the process's CPU time (a loaded shared machine inflates wall time, not this)
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        r.run(new Reproduction.Settings(r.figures(), null, true, dir, 7, progress::add));
        assertThat((os.getProcessCpuTime() - cpu0) / 1e9).isLessThan(120);
        for (Path p : NoisyPowerReproduction.expectedFiles(dir)) {
            assertThat(p).exists();
            assertThat(Files.size(p)).isGreaterThan(100);
        }
        byte[] png = Files.readAllBytes(dir.resolve("privacy.png"));
        assertThat(png[1]).isEqualTo((byte) 'P');
        String report = Files.readString(dir.resolve("report.md"));
        assertThat(report).startsWith("<!-- dpspectra reproduce noisy-power: quick run, seed 7 -->")
                .contains("--quick").contains("(i) Convergence").contains("(i′) Random start").contains("(ii) Block size")
                .contains("(iii) Streaming").contains("(iv) Private power method").contains("(v) Private power method")
                .contains("(vi) Private low-rank").contains("Corollary 3.3").contains("Conjecture 1.5");
        // the opening table lists the paper in order, and with every figure run nothing is missing for want of one
        assertThat(report.indexOf("## The paper's figures")).isLessThan(report.indexOf("## (i)"));
        assertThat(report).contains("| §2, Lemma 2.5 |").contains("| §4.2, Cor. 4.7 |")
                .doesNotContain("this run did not include");
        assertThat(report.split("\\*\\*Verdicts?: ", -1)).as("a verdict line per section").hasSize(8);
        assertThat(report).doesNotContain("**reproduced**").contains("fitted on half the points");
        List<String> csv = Files.readAllLines(dir.resolve("convergence.csv"));
        assertThat(csv.get(0)).startsWith("noise_sigma,cor11_epsilon_mean,iteration,trials,mean");
        assertThat(csv).hasSize(1 + 5 * 30);
        assertThat(progress).contains("convergence done", "block-size done");
    }

    @Test
    void onlyTheRequestedFiguresAreWritten() throws Exception {
        NoisyPowerReproduction r = new NoisyPowerReproduction();
        r.run(new Reproduction.Settings(List.of("privacy"), 1, true, dir, 7, m -> { }));
        assertThat(dir.resolve("privacy.csv")).exists();
        assertThat(dir.resolve("convergence.csv")).doesNotExist();
        assertThat(Files.readString(dir.resolve("report.md"))).contains("(iv)").doesNotContain("(i) Convergence")
                .contains("**not run**: this run did not include --figure convergence");
    }
}
