package io.dpspectra.experiments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.experiments.plot.BandPlot;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsIoTest {
    @TempDir
    Path dir;

    @Test
    void summaryBandCoversTheMeanWithStudentT() {
        Summary s = Summary.of(new double[] {1, 2, 3, 4});
        assertThat(s.mean()).isEqualTo(2.5);
        assertThat(s.sd()).isCloseTo(Math.sqrt(5.0 / 3.0), org.assertj.core.data.Offset.offset(1e-12));
        // t_{0.975, 3} = 3.1824
        assertThat(s.upper() - s.mean()).isCloseTo(3.1824 * s.sd() / 2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(s.median()).isEqualTo(2.5);
    }

    @Test
    void tQuantileApproachesTheNormalQuantile() {
        assertThat(Summary.tQuantile975(30)).isCloseTo(2.0423, org.assertj.core.data.Offset.offset(1e-4));
        // Cornish-Fisher branch against the tabulated t_{0.975,40} = 2.0211 and t_{0.975,120} = 1.9799
        assertThat(Summary.tQuantile975(40)).isCloseTo(2.0211, org.assertj.core.data.Offset.offset(2e-4));
        assertThat(Summary.tQuantile975(120)).isCloseTo(1.9799, org.assertj.core.data.Offset.offset(1e-4));
    }

    @Test
    void summaryRejectsNonFiniteTrials() {
        assertThatThrownBy(() -> Summary.of(new double[] {1, Double.NaN})).hasMessageContaining("not finite");
        assertThatThrownBy(() -> Summary.of(new double[0])).hasMessageContaining("no trials");
    }

    @Test
    void csvQuotesAndChecksWidth() throws Exception {
        ResultTable t = new ResultTable(ResultTable.withSummaryColumns("method", "eps"));
        t.addSummary(Summary.of(new double[] {0.5}), "a,b", 1.0);
        Path csv = dir.resolve("sub/out.csv");
        t.write(csv);
        assertThat(Files.readAllLines(csv)).containsExactly(
                "method,eps,trials,mean,sd,ci95_low,ci95_high,median", "\"a,b\",1.0,1,0.5,0.0,0.5,0.5,0.5");
        assertThatThrownBy(() -> t.add("x")).hasMessageContaining("8 columns");
    }

    @Test
    void bandPlotWritesAPng() throws Exception {
        Path png = dir.resolve("p.png");
        BandPlot.titled("t", "n", "err").logX().series("m", new double[] {10, 100},
                new Summary[] {Summary.of(new double[] {1, 2}), Summary.of(new double[] {0.5, 0.7})}).writePng(png);
        byte[] b = Files.readAllBytes(png);
        assertThat(b[1]).isEqualTo((byte) 'P');
        assertThat(b.length).isGreaterThan(1000);
        try (var s = Files.list(dir)) {
            assertThat(s.filter(p -> p.getFileName().toString().endsWith(".tmp"))).isEmpty();
        }
    }
}
