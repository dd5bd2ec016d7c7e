package io.dpspectra.experiments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run marker of report.md and the opening claims table. */
class ReportFileTest {
    @TempDir
    Path dir;

    private Reproduction.Settings settings(boolean quick) {
        return new Reproduction.Settings(List.of("1"), null, quick, dir, 42, m -> { });
    }

    @Test
    void theMarkerRecordsTheKindOfRunAndDecidesWhetherAQuickRunMayWrite() throws Exception {
        assertThat(ReportFile.kindOf(dir)).isEmpty();
        assertThat(ReportFile.refusal(settings(true))).isEmpty();
        ReportFile.write("p", settings(false), "# full\n");
        assertThat(Files.readAllLines(dir.resolve("report.md")))
                .containsExactly("<!-- dpspectra reproduce p: full run, seed 42 -->", "# full");
        assertThat(ReportFile.kindOf(dir)).contains(ReportFile.RunKind.FULL);
        assertThat(ReportFile.refusal(settings(true))).hasValueSatisfying(m -> assertThat(m).contains("a full run"));
        assertThat(ReportFile.refusal(settings(false))).isEmpty();
        ReportFile.write("p", settings(true), "# quick\n");
        assertThat(ReportFile.kindOf(dir)).contains(ReportFile.RunKind.QUICK);
        assertThat(ReportFile.refusal(settings(true))).isEmpty();
        Files.writeString(dir.resolve("report.md"), "# by hand\n<!-- dpspectra reproduce p: quick run, seed 1 -->\n");
        assertThat(ReportFile.kindOf(dir)).as("the marker counts only on the first line").isEmpty();
        assertThat(ReportFile.refusal(settings(true))).isPresent();
    }

    @Test
    void theClaimsTableListsEveryRowWithItsStatusInOrder() {
        String md = new ClaimsTable().reproduced("Fig. 1", "error falls as 1/n", "matches: slope -1.0 ± 0.1", "fig1.png")
                .differs("Fig. 2", "a | b", "the data set is smaller", "fig2.png")
                .notRun("Thm 3", "a lower bound", "it is not an experiment").markdown();
        assertThat(md).contains("| 1 | Fig. 1 | error falls as 1/n | **reproduced**: matches: slope -1.0 ± 0.1 | fig1.png |")
                .contains("| 2 | Fig. 2 | a \\| b | **differs because** the data set is smaller | fig2.png |")
                .contains("| 3 | Thm 3 | a lower bound | **not run because** it is not an experiment |  |");
        assertThatThrownBy(() -> new ClaimsTable().notRun("Fig. 9", "x", " "))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aClaimWithoutAFindingIsListedAsNotRunWithTheReasonGiven() {
        ClaimsTable.Findings f = new ClaimsTable.Findings();
        f.put("fig1", ClaimsTable.Status.REPRODUCED, "matches: 3 of 3 cells", "fig1.png");
        String md = new ClaimsTable().row("Fig. 1", "a claim", f, "fig1", "Figure 1 was not requested")
                .row("Fig. 2", "another claim", f, "fig2", "Figure 2 was not requested").markdown();
        assertThat(md).contains("| 1 | Fig. 1 | a claim | **reproduced**: matches: 3 of 3 cells | fig1.png |")
                .contains("| 2 | Fig. 2 | another claim | **not run because** Figure 2 was not requested |  |");
        assertThat(f.has("fig1")).isTrue();
        f.clear();
        assertThat(f.has("fig1")).isFalse();
    }
}
