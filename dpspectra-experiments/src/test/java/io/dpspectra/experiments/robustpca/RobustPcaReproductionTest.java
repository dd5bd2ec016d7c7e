package io.dpspectra.experiments.robustpca;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.experiments.Reproduction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RobustPcaReproductionTest {
    @TempDir
    Path dir;

    @Test
    @Tag("slow")
    void quickRunOfFiguresOneAndFiveWritesCsvPngAndAReportOpeningWithTheCompleteClaimsTable() throws Exception {
        RobustPcaReproduction r = new RobustPcaReproduction();
        r.run(new Reproduction.Settings(List.of("1", "5"), 1, true, dir, 7, m -> { }));
        for (String f : List.of("fig1.csv", "fig1-summary.csv", "fig1.png", "fig5.csv", "fig5.png", "report.md")) {
            assertThat(dir.resolve(f)).exists();
        }
        String report = Files.readString(dir.resolve("report.md"));
        assertThat(report).contains("## The paper's figures, tables and quantitative claims");
        for (String item : List.of("Fig. 1", "Fig. 2", "Fig. 3", "Fig. 4", "Fig. 5", "Fig. 6", "Fig. 7", "Fig. 8",
                "Fig. 9", "Fig. 10", "Thm 6")) {
            assertThat(report).contains("| " + item);
        }
        assertThat(report.indexOf("| Fig. 1")).isLessThan(report.indexOf("## Figure 1"));
    }
}
