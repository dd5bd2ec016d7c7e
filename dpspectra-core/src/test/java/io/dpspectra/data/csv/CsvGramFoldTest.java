package io.dpspectra.data.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.Clipping;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.ShiftedRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Gram pass over a CSV folds partial XᵀX on the parser threads ({@link RowCursor#foldGram}): it
 * gives the XᵀX (bit for bit), row count and clipped-row count of the row-by-row pass, the same bits on
 * every run whatever the thread timing, and the row-by-row pass's errors.
 */
class CsvGramFoldTest {
    private static final int D = 6;
    /** About 4.5 MB: several 1 MB pieces, so every lane folds several of them. */
    private static final int N = 50_000;

    @TempDir
    static Path dir;
    static Path csv;

    @BeforeAll
    static void write() throws IOException {
        csv = dir.resolve("rows.csv");
        SplittableRandom rnd = new SplittableRandom(5);
        try (BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.US_ASCII)) {
            w.write("a,b,c,d,e,f\n");
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < N; i++) {
                sb.setLength(0);
                for (int j = 0; j < D; j++) {
                    // norms spread around 1, so that --clip-norm 1 clips some of the rows
                    sb.append(j == 0 ? "" : ",").append(rnd.nextGaussian() * (0.2 + 0.4 * (i % 3)) / Math.sqrt(D));
                }
                w.write(sb.append('\n').toString());
            }
        }
        assertThat(Files.size(csv)).isGreaterThan(4L * CsvPipeline.PIECE_BYTES);
    }

    @Test
    void theFoldGivesTheGramRowsAndClippedCountOfTheRowByRowPass() {
        ClippedRows folded = Clipping.l2(1).clip(CsvRows.open(csv));
        GramPass fold = GramPass.of(folded);
        ClippedRows sequential = Clipping.l2(1).clip(InMemoryRows.copyOf(CsvRows.open(csv)));
        GramPass rowByRow = GramPass.of(sequential);

        assertThat(fold.rows()).isEqualTo(N).isEqualTo(rowByRow.rows());
        assertThat(folded.rowsInLastPass()).isEqualTo(N);
        assertThat(sequential.clippedRows()).isBetween(N / 20L, N / 2L);
        assertThat(folded.clippedRows()).isEqualTo(sequential.clippedRows());
        // the parser threads fold the same canonical blocks of rows: the bits of the row-by-row pass
        assertThat(fold.gram().data()).isEqualTo(rowByRow.gram().data());
    }

    @Test
    void theSameFileGivesTheBitIdenticalGramAndReleaseEveryRunWhateverTheThreadTiming() throws Exception {
        PrivacyParams budget = PrivacyParams.of(1, 1e-6);
        double[] gram = GramPass.of(Clipping.l2(1).clip(CsvRows.open(csv))).gram().data();
        double[] release = AnalyzeGauss.builder().components(2).randomSource(RandomSource.seededForReproducibility(3))
                .build().fit(Clipping.l2(1).clip(CsvRows.open(csv)), budget).components().data();
        // three passes at once, with a busy thread beside them: the pieces finish in other orders
        ExecutorService busy = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 3; round++) {
                List<Future<double[]>> grams = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    grams.add(busy.submit(() -> GramPass.of(Clipping.l2(1).clip(CsvRows.open(csv))).gram().data()));
                }
                Future<?> spin = busy.submit(() -> {
                    double x = 0;
                    for (long i = 0; i < 20_000_000L; i++) {
                        x += Math.sqrt(i);
                    }
                    return x;
                });
                for (Future<double[]> g : grams) {
                    assertThat(g.get()).isEqualTo(gram);
                }
                spin.get();
                double[] again = AnalyzeGauss.builder().components(2)
                        .randomSource(RandomSource.seededForReproducibility(3)).build()
                        .fit(Clipping.l2(1).clip(CsvRows.open(csv)), budget).components().data();
                assertThat(again).isEqualTo(release);
            }
        } finally {
            busy.shutdownNow();
        }
    }

    @Test
    void aFileOfOnePieceGivesTheBitsOfTheRowByRowPass() throws IOException {
        // the Spark job's explicit XᵀX (one partition) is this row-by-row pass: the CLI must match it
        List<String> head = Files.readAllLines(csv).subList(0, 3000);
        Path small = dir.resolve("small.csv");
        Files.write(small, head);
        assertThat(Files.size(small)).isLessThan(CsvPipeline.PIECE_BYTES);
        GramPass fold = GramPass.of(Clipping.l2(1).clip(CsvRows.open(small)));
        GramPass rowByRow = GramPass.of(Clipping.l2(1).clip(InMemoryRows.copyOf(CsvRows.open(small))));
        assertThat(fold.rows()).isEqualTo(2999);
        assertThat(fold.gram().data()).isEqualTo(rowByRow.gram().data());
    }

    @Test
    void aBadCellFailsWithItsLineAfterThePiecesBeforeItWereFolded() throws IOException {
        Path bad = copyWithLine(45_000, "0.1,0.2,oops,0.4,0.5,0.6");
        assertThatThrownBy(() -> GramPass.of(Clipping.l2(1).clip(CsvRows.open(bad))))
                .isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("line 45001").hasMessageContaining("column 3 \"c\"")
                .hasMessageContaining("\"oops\"");
    }

    @Test
    void aRowOverTheBoundUnderRejectIsNamedByRowAndLineAsInTheRowByRowPass() throws IOException {
        Path big = copyWithLine(40_000, "10,0,0,0,0,0");
        String folded = messageOf(() -> GramPass.of(Clipping.l2(5).reject(CsvRows.open(big))));
        String sequential = messageOf(() -> {
            try (RowCursor c = Clipping.l2(5).reject(CsvRows.open(big)).open()) {
                double[] block = new double[256 * D];
                while (c.nextBlock(block, 256, D) > 0) {
                    assertThat(block).isNotNull();
                }
            }
        });
        assertThat(folded).startsWith("row 40000 (" + big + " line 40001) has L2 norm 10.0 > bound 5.0")
                .isEqualTo(sequential);
    }

    @Test
    void theShiftOfACentredPassIsAppliedBeforeTheClipping() {
        double[] mean = {0.1, -0.1, 0.05, 0, 0.2, -0.3};
        GramPass fold = GramPass.of(Clipping.l2(1).clip(ShiftedRows.of(CsvRows.open(csv), mean)));
        GramPass rowByRow = GramPass.of(Clipping.l2(1).clip(ShiftedRows.of(InMemoryRows.copyOf(CsvRows.open(csv)), mean)));
        assertThat(fold.gram().data()).isEqualTo(rowByRow.gram().data());
    }

    private static String messageOf(Runnable r) {
        try {
            r.run();
            return null;
        } catch (InvalidDataException e) {
            return e.getMessage();
        }
    }

    /** The file with data row {@code row} (1-based) replaced by {@code line}. */
    private static Path copyWithLine(int row, String line) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(csv));
        lines.set(row, line);
        Path out = dir.resolve("edited-" + row + "-" + Math.abs(line.hashCode()) + ".csv");
        Files.write(out, lines);
        return out;
    }
}
