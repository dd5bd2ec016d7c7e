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
    void everyStatusCellStartsWithTheVerdictInBoldThenSaysHowTheItemWasRun() {
        String md = new ClaimsTable().ran("Fig. 1", "error falls as 1/n", Verdict.MATCHES, "slope -1.0 ± 0.1", "fig1.png")
                .ranDifferently("Fig. 2", "a | b", Verdict.CONTRADICTED, "the data set is smaller", "AD wins 0 of 9",
                        "fig2.png")
                .notRun("Thm 3", "a lower bound", "it is not an experiment").markdown();
        assertThat(md).contains("| 1 | Fig. 1 | error falls as 1/n | **matches** (reproduced): slope -1.0 ± 0.1 | fig1.png |")
                .contains("| 2 | Fig. 2 | a \\| b | **contradicted** (run differently: the data set is smaller): AD wins 0 "
                        + "of 9 | fig2.png |")
                .contains("| 3 | Thm 3 | a lower bound | **not run**: it is not an experiment |  |");
        for (Verdict v : Verdict.values()) {
            assertThat(md).as("the legend defines every verdict word").contains("**" + v.word() + "**: " + v.meaning());
        }
        assertThatThrownBy(() -> new ClaimsTable().notRun("Fig. 9", "x", " "))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ClaimsTable().ran("Fig. 9", "x", Verdict.NOT_RUN, "numbers", ""))
                .as("'not run' is a verdict and a run status at once").isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ClaimsTable().ran("Fig. 9", "x", Verdict.MATCHES, "", ""))
                .as("a verdict needs its numbers").isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theShareRuleTurnsCountsIntoVerdictsAndThinDataAreNotEstablished() {
        assertThat(Verdict.fromShare(9, 9)).isEqualTo(Verdict.MATCHES);
        assertThat(Verdict.fromShare(3, 9)).isEqualTo(Verdict.PARTLY);
        assertThat(Verdict.fromShare(2, 9)).as("under a third").isEqualTo(Verdict.MOSTLY_CONTRADICTED);
        assertThat(Verdict.fromShare(5, 21)).isEqualTo(Verdict.MOSTLY_CONTRADICTED);
        assertThat(Verdict.fromShare(7, 21)).isEqualTo(Verdict.PARTLY);
        assertThat(Verdict.fromShare(0, 4)).isEqualTo(Verdict.CONTRADICTED);
        assertThatThrownBy(() -> Verdict.fromShare(3, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Verdict.established(Verdict.CONTRADICTED, 1)).isEqualTo(Verdict.NOT_ESTABLISHED);
        assertThat(Verdict.established(Verdict.CONTRADICTED, Verdict.MIN_RUNS_PER_CELL)).isEqualTo(Verdict.CONTRADICTED);
        assertThat(Verdict.established(Verdict.NO_CLAIM, 1)).isEqualTo(Verdict.NO_CLAIM);
        for (Verdict v : Verdict.values()) {
            assertThat(Verdict.ofWord(v.word())).isEqualTo(v);
        }
    }

    @Test
    void aClaimWithoutAFindingIsListedAsNotRunWithTheReasonGiven() {
        ClaimsTable.Findings f = new ClaimsTable.Findings();
        f.put("fig1", ClaimsTable.Finding.ran(Verdict.PARTLY, "3 of 9 cells", "fig1.png"));
        String md = new ClaimsTable().row("Fig. 1", "a claim", f, "fig1", "Figure 1 was not requested")
                .row("Fig. 2", "another claim", f, "fig2", "Figure 2 was not requested").markdown();
        assertThat(md).contains("| 1 | Fig. 1 | a claim | **partly** (reproduced): 3 of 9 cells | fig1.png |")
                .contains("| 2 | Fig. 2 | another claim | **not run**: Figure 2 was not requested |  |");
        assertThat(f.has("fig1")).isTrue();
        f.clear();
        assertThat(f.has("fig1")).isFalse();
    }

    @Test
    void theRunLogKeepsOneEntryPerFigureAndMethodSetAndAWholeFigureRunReplacesThem() throws Exception {
        RunLog.Entry all = new RunLog.Entry("2a", "all", "dpspectra reproduce p --figure 2a", 1, "50", "t0", 3.0, 2.5, 1, 2,
                0.5, 0.7, "");
        RunLog.Entry added = new RunLog.Entry("2a", "DP-Gauss-2", "dpspectra reproduce p --figure 2a --method DP-Gauss-2",
                1, "50", "t1", 1.0, 0.9, 1, 2, 3.0, 4.0, "a, with a comma");
        RunLog.record(dir, all);
        RunLog.record(dir, added);
        RunLog.record(dir, added);
        assertThat(RunLog.read(dir)).containsExactly(all, added);
        RunLog.record(dir, all);
        assertThat(RunLog.read(dir)).as("a whole-figure rerun rewrote the figure's CSV").containsExactly(all);
        assertThat(RunLog.markdown(List.of("2a", "3"), RunLog.read(dir))).contains("| 2a | all | 50 |")
                .contains("| 3 | – | – | no run record |");
    }
}
