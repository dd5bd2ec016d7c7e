package io.dpspectra.data.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CsvRowsTest {

    @TempDir
    Path dir;

    private Path write(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p;
    }

    private static List<double[]> readAll(RowSource src) {
        List<double[]> out = new ArrayList<>();
        try (RowCursor c = src.open()) {
            double[] buf = new double[src.dimension()];
            while (c.next(buf)) {
                out.add(buf.clone());
            }
        }
        return out;
    }

    private static String errorOf(RowSource src) {
        try {
            readAll(src);
        } catch (InvalidDataException e) {
            return e.getMessage();
        }
        throw new AssertionError("expected an InvalidDataException reading " + src.describe());
    }

    @Test
    void autoDetectsATextHeaderAndReadsEveryRowOnEachPass() throws IOException {
        Path p = write("a.csv", "a,b,c\n1,2,3\n4,5,6\n");
        CsvRows rows = CsvRows.open(p);
        assertThat(rows.hasHeader()).isTrue();
        assertThat(rows.columnNames()).containsExactly("a", "b", "c");
        assertThat(rows.dimension()).isEqualTo(3);
        for (int pass = 0; pass < 2; pass++) {
            List<double[]> all = readAll(rows);
            assertThat(all).hasSize(2);
            assertThat(all.get(0)).containsExactly(1, 2, 3);
            assertThat(all.get(1)).containsExactly(4, 5, 6);
        }
    }

    @Test
    void autoTreatsANumericFirstLineAsData() throws IOException {
        Path p = write("b.csv", "1,2\n3.5,-4e-1\n");
        CsvRows rows = CsvRows.open(p);
        assertThat(rows.hasHeader()).isFalse();
        assertThat(rows.columnNames()).containsExactly("x1", "x2");
        List<double[]> all = readAll(rows);
        assertThat(all).hasSize(2);
        assertThat(all.get(1)).containsExactly(3.5, -0.4);
    }

    @Test
    void autoDoesNotMistakeAFirstRowWithAMissingValueForAHeader() throws IOException {
        Path p = write("m.csv", "1,,3\n4,5,6\n");
        CsvRows rows = CsvRows.open(p);
        assertThat(rows.hasHeader()).isFalse();
        assertThat(errorOf(rows)).contains("line 1").contains("column 2").contains("empty");
    }

    @Test
    void autoDecidesOnTheSelectedCellsOnly() throws IOException {
        // an unselected text column (a label) in the first row does not make it a header
        Path p = write("lab.csv", "cat,1,2\ndog,3,4\n");
        CsvRows rows = CsvRows.builder(p).columns(List.of("2", "3")).build();
        assertThat(rows.hasHeader()).isFalse();
        assertThat(readAll(rows)).hasSize(2);
        assertThat(readAll(rows).get(0)).containsExactly(1, 2);
    }

    @Test
    void headerAbsentReadsTheFirstLineAsData() throws IOException {
        Path p = write("c.csv", "1,2\n3,4\n");
        assertThat(readAll(CsvRows.builder(p).header(CsvRows.Header.ABSENT).build())).hasSize(2);
        CsvRows present = CsvRows.builder(p).header(CsvRows.Header.PRESENT).build();
        assertThat(present.columnNames()).containsExactly("1", "2");
        assertThat(readAll(present)).hasSize(1);
    }

    @Test
    void selectsColumnsByNameInTheGivenOrder() throws IOException {
        Path p = write("d.csv", "id,age,income\n7,30,100\n8,40,200\n");
        CsvRows rows = CsvRows.builder(p).columns(List.of("income", "age")).build();
        assertThat(rows.dimension()).isEqualTo(2);
        assertThat(rows.columnNames()).containsExactly("income", "age");
        assertThat(readAll(rows).get(1)).containsExactly(200, 40);
    }

    @Test
    void selectsColumnsByOneBasedNumberAndByZeroBasedIndex() throws IOException {
        Path p = write("e.csv", "id,age,income\n7,30,100\n");
        assertThat(readAll(CsvRows.builder(p).columns(List.of("3", "1")).build()).get(0)).containsExactly(100, 7);
        CsvRows byIndex = CsvRows.builder(p).columnIndices(2, 0).build();
        assertThat(byIndex.columnNames()).containsExactly("income", "id");
        assertThat(readAll(byIndex).get(0)).containsExactly(100, 7);
    }

    @Test
    void selectionSkipsBadCellsInUnselectedColumns() throws IOException {
        Path p = write("f.csv", "name,x\nalice,1\nbob,2\n");
        CsvRows rows = CsvRows.builder(p).columns(List.of("x")).build();
        assertThat(readAll(rows)).extracting(r -> r[0]).containsExactly(1.0, 2.0);
    }

    @Test
    void unknownColumnNameListsTheHeader() throws IOException {
        Path p = write("g.csv", "a,b\n1,2\n");
        assertThatThrownBy(() -> CsvRows.builder(p).columns(List.of("zz")).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zz").hasMessageContaining("[a, b]");
        assertThatThrownBy(() -> CsvRows.builder(p).columns(List.of("5")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("out of range");
        assertThatThrownBy(() -> CsvRows.builder(p).columns(List.of("a", "1")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
    }

    @Test
    void namesOnAHeaderlessFileAreRefused() throws IOException {
        Path p = write("h.csv", "1,2\n3,4\n");
        assertThatThrownBy(() -> CsvRows.builder(p).columns(List.of("age")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("looks like data");
    }

    @Test
    void readsGzipFiles() throws IOException {
        Path p = dir.resolve("z.csv.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write("u,v\n1,2\n3,4\n5,6\n".getBytes(StandardCharsets.UTF_8));
        }
        CsvRows rows = CsvRows.open(p);
        assertThat(rows.columnNames()).containsExactly("u", "v");
        List<double[]> all = readAll(rows);
        assertThat(all).hasSize(3);
        assertThat(all.get(2)).containsExactly(5, 6);
    }

    @Test
    void handlesQuotesWhitespaceSemicolonsAndCrlf() throws IOException {
        Path p = write("q.csv", "\uFEFF\"a\" ; \"b;c\"\r\n \"1.5\" ;  2 \r\n3;4\r\n");
        CsvRows rows = CsvRows.builder(p).separator(';').build();
        assertThat(rows.columnNames()).containsExactly("a", "b;c");
        List<double[]> all = readAll(rows);
        assertThat(all.get(0)).containsExactly(1.5, 2);
        assertThat(all.get(1)).containsExactly(3, 4);
    }

    @Test
    void spaceSeparatorSplitsOnRunsOfWhitespace() throws IOException {
        Path p = write("w.txt", "  1   2\t3\n4 5 6  \n");
        CsvRows rows = CsvRows.builder(p).separator(' ').build();
        assertThat(rows.dimension()).isEqualTo(3);
        assertThat(readAll(rows).get(1)).containsExactly(4, 5, 6);
    }

    @Test
    void trailingBlankLinesAreAllowed() throws IOException {
        Path p = write("t.csv", "x,y\n1,2\n3,4\n\n  \n\n");
        assertThat(readAll(CsvRows.open(p))).hasSize(2);
    }

    @Test
    void aBlankLineInsideTheDataIsAnError() throws IOException {
        Path p = write("bl.csv", "x,y\n1,2\n\n3,4\n");
        assertThat(errorOf(CsvRows.open(p))).contains("bl.csv").contains("line 3").contains("blank");
    }

    @ParameterizedTest(name = "cell \"{0}\" is rejected as {1}")
    @CsvSource(delimiter = '|', value = {
        "abc|is not a number",
        "NaN|NaN",
        "nan|NaN",
        "Infinity|infinite",
        "-inf|infinite",
        "1e999|infinity",
        "0x1p3|is not a number",
        "1d|is not a number",
        "1.2.3|is not a number",
        "NA|missing-value",
    })
    void everyBadCellIsReportedWithFileLineColumnValueAndRemedy(String cell, String kind) throws IOException {
        Path p = write("bad.csv", "id,age,income\n1,2,3\n4," + cell + ",6\n");
        String msg = errorOf(CsvRows.open(p));
        assertThat(msg).contains("bad.csv").contains("line 3").contains("column 2").contains("\"age\"")
                .doesNotContain("0-based").contains("\"" + cell + "\"").contains(kind)
                .contains("--columns");
    }

    @Test
    void anEmptyCellIsAMissingValue() throws IOException {
        Path p = write("e2.csv", "a,b\n1,2\n3,\n");
        assertThat(errorOf(CsvRows.open(p))).contains("line 3").contains("column 2").contains("\"b\"")
                .contains("empty").contains("--columns");
    }

    @Test
    void aRaggedRowNamesItsLineAndTheExpectedWidth() throws IOException {
        Path shortRow = write("r1.csv", "a,b,c\n1,2,3\n4,5\n");
        assertThat(errorOf(CsvRows.open(shortRow))).contains("r1.csv").contains("line 3").contains("2 cells")
                .contains("header has 3");
        Path longRow = write("r2.csv", "1,2\n3,4,5\n");
        assertThat(errorOf(CsvRows.open(longRow))).contains("line 2").contains("3 or more cells")
                .contains("first line has 2");
    }

    @Test
    void anUnclosedQuoteIsReported() throws IOException {
        Path p = write("uq.csv", "a,b\n1,\"2\n");
        assertThat(errorOf(CsvRows.open(p))).contains("line 2").contains("not closed");
    }

    @Test
    void emptyAndHeaderOnlyFilesHaveNoDataRows() throws IOException {
        Path empty = write("empty.csv", "");
        assertThatThrownBy(() -> CsvRows.open(empty)).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("empty.csv").hasMessageContaining("no data rows");
        Path headerOnly = write("ho.csv", "a,b\n\n");
        assertThatThrownBy(() -> CsvRows.open(headerOnly)).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("ho.csv").hasMessageContaining("no data rows");
    }

    @Test
    void aMissingFileIsReportedWithItsPath() {
        Path p = dir.resolve("nope.csv");
        assertThatThrownBy(() -> CsvRows.open(p)).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("nope.csv").hasMessageContaining("check that the file exists");
    }

    @Test
    void positionNamesTheLineOfTheLastRowRead() throws IOException {
        Path p = write("pos.csv", "a\n1\n2\n");
        CsvRows rows = CsvRows.open(p);
        try (RowCursor c = rows.open()) {
            double[] buf = new double[1];
            c.next(buf);
            c.next(buf);
            assertThat(c.position()).endsWith("pos.csv line 3");
            assertThat(c.rowsRead()).isEqualTo(2);
            assertThat(c.next(buf)).isFalse();
        }
    }

    @Test
    void reRequiringABoundReportsTheCsvLineOfTheOffendingRow() throws IOException {
        Path p = write("n.csv", "a,b\n0.1,0.1\n3,4\n");
        String msg = errorOf(CsvRows.open(p).requireL2(1.0));
        assertThat(msg).contains("row 2").contains("n.csv line 3").contains("5.0").contains("1.0")
                .contains("--clip-norm");
    }
}
