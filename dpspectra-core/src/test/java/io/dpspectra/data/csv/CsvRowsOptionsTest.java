package io.dpspectra.data.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.SharedDatasets;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Separators (given and detected), skipped lines, comments, ranges, exclusions, header names, streams. */
class CsvRowsOptionsTest {
    @TempDir
    Path dir;

    private Path write(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p;
    }

    static List<double[]> readAll(RowSource src) {
        List<double[]> out = new ArrayList<>();
        try (RowCursor c = src.open()) {
            double[] buf = new double[src.dimension()];
            while (c.next(buf)) {
                out.add(buf.clone());
            }
        }
        return out;
    }

    @Test
    void detectsTabSemicolonWhitespaceAndCommaAndSaysSo() throws IOException {
        assertThat(CsvRows.open(write("t.dat", "1\t2\t3\r\n4\t5\t6\r\n")).separatorName()).isEqualTo("tab");
        assertThat(CsvRows.open(write("s.csv", "a;b\n1,5;2\n")).separatorName()).isEqualTo("semicolon");
        CsvRows ws = CsvRows.open(write("w.txt", " 1  2   3\n4 5 6\n"));
        assertThat(ws.separatorName()).isEqualTo("whitespace");
        assertThat(readAll(ws).get(1)).containsExactly(4, 5, 6);
        // adult's ", " separator is a comma (spaces around cells are ignored)
        CsvRows comma = CsvRows.open(write("c.csv", "39, State-gov, 77516\n50, Self-emp, 83311\n"));
        assertThat(comma.separatorName()).isEqualTo("comma");
        assertThat(comma.separatorDetected()).isTrue();
        assertThat(CsvRows.builder(write("g.csv", "1;2\n")).separator(';').build().separatorDetected()).isFalse();
        // a single column
        assertThat(CsvRows.open(write("one.csv", "x\n1\n2\n")).dimension()).isEqualTo(1);
    }

    @Test
    void skipLinesDropsAPreambleAndLineNumbersStayThoseOfTheFile() throws IOException {
        Path p = write("wine.csv", "178,13,class_0\n1,2\n3,x\n");
        CsvRows rows = CsvRows.builder(p).skipLines(1).header(CsvRows.Header.ABSENT).build();
        assertThat(rows.dimension()).isEqualTo(2);
        assertThatThrownBy(() -> readAll(rows)).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("line 3").hasMessageContaining("\"x\"");
        assertThatThrownBy(() -> CsvRows.builder(p).skipLines(3).build()).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("--skip-lines");
    }

    @Test
    void withoutSkipLinesARaggedPreambleNamesSkipLinesAsTheFix() throws IOException {
        Path p = write("pre.csv", "178,13,class_0\n1,2,3,4\n");
        assertThatThrownBy(() -> readAll(CsvRows.open(p))).hasMessageContaining("line 2").hasMessageContaining("--skip-lines");
    }

    @Test
    void commentLinesAreIgnoredAnywhere() throws IOException {
        Path p = write("c.csv", "# made by hand\na,b\n1,2\n  # a note\n3,4\n#end\n");
        CsvRows rows = CsvRows.builder(p).commentPrefix("#").build();
        assertThat(rows.columnNames()).containsExactly("a", "b");
        List<double[]> all = readAll(rows);
        assertThat(all).hasSize(2);
        assertThat(all.get(1)).containsExactly(3, 4);
    }

    @Test
    void rangesNamesAndExclusionsSelectColumns() throws IOException {
        Path p = write("r.csv", "f1,f2,f3,f4,label\n1,2,3,4,9\n");
        assertThat(CsvRows.builder(p).columns(List.of("2-4")).build().columnNames()).containsExactly("f2", "f3", "f4");
        assertThat(CsvRows.builder(p).columns(List.of("f1-f3")).build().columnNames()).containsExactly("f1", "f2", "f3");
        CsvRows excl = CsvRows.builder(p).excludeColumns(List.of("label")).build();
        assertThat(excl.columnNames()).containsExactly("f1", "f2", "f3", "f4");
        assertThat(readAll(excl).get(0)).containsExactly(1, 2, 3, 4);
        assertThat(CsvRows.builder(p).columns(List.of("1-4")).excludeColumns(List.of("2")).build().columnNames())
                .containsExactly("f1", "f3", "f4");
        assertThatThrownBy(() -> CsvRows.builder(p).columns(List.of("0")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1-based");
        assertThatThrownBy(() -> CsvRows.builder(p).columns(List.of("4-2")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("backwards");
        assertThatThrownBy(() -> CsvRows.builder(p).excludeColumns(List.of("1-5")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("leaves no column");
    }

    @Test
    void headerNamesNameAHeaderlessFile() throws IOException {
        Path p = write("h.csv", "1,2,3\n4,5,6\n");
        CsvRows rows = CsvRows.builder(p).headerNames(List.of("a", "b", "c")).columns(List.of("c", "a")).build();
        assertThat(rows.hasHeader()).isFalse();
        assertThat(rows.columnNames()).containsExactly("c", "a");
        assertThat(readAll(rows)).hasSize(2);
        assertThat(readAll(rows).get(1)).containsExactly(6, 4);
        assertThatThrownBy(() -> CsvRows.builder(p).headerNames(List.of("a", "b")).build())
                .hasMessageContaining("2 names").hasMessageContaining("3 columns");
    }

    @Test
    void duplicateColumnNamesAreRefusedNamingTheColumns() throws IOException {
        Path p = write("dup.csv", "a,b,a\n1,2,3\n4,5,6\n");
        assertThatThrownBy(() -> CsvRows.open(p)).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("columns 1 and 3 are both named \"a\"").hasMessageContaining("--header-names");
        // selecting by name is ambiguous; leaving one of them out is fine
        assertThatThrownBy(() -> CsvRows.builder(p).columns(List.of("a")).build())
                .hasMessageContaining("ambiguous").hasMessageContaining("columns 1 and 3");
        assertThat(CsvRows.builder(p).excludeColumns(List.of("3")).build().columnNames()).containsExactly("a", "b");
        assertThatThrownBy(() -> CsvRows.builder(write("h.csv", "1,2,3\n")).headerNames(List.of("x", "y", "y")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("columns 2 and 3 are both named "
                        + "\"y\" in --header-names");
    }

    @Test
    void aStreamIsReadOnceWithItsHeaderAndSeparatorDetected() {
        byte[] bytes = "x;y\n1;2\n3;4\n".getBytes(StandardCharsets.UTF_8);
        CsvRows rows = CsvRows.fromStream("standard input", new ByteArrayInputStream(bytes)).build();
        assertThat(rows.columnNames()).containsExactly("x", "y");
        assertThat(readAll(rows)).hasSize(2);
        assertThatThrownBy(rows::open).isInstanceOf(IllegalStateException.class).hasMessageContaining("once");
    }

    /** Many pieces: rows come out in file order, counts and the first bad line are exact across piece borders. */
    @Test
    void aFileOfManyPiecesReadsInOrderAndNamesTheFirstBadLine() throws IOException {
        SplittableRandom rnd = new SplittableRandom(3);
        int n = 60_000;
        int d = 7;
        double[][] x = new double[n][d];
        StringBuilder sb = new StringBuilder("a,b,c,d,e,f,g\n");
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[i][j] = rnd.nextGaussian() * Math.pow(10, rnd.nextInt(10) - 5);
                sb.append(j == 0 ? "" : ",").append(j % 2 == 0 ? Double.toString(x[i][j])
                        : String.format(Locale.ROOT, "%.6e", x[i][j]));
                x[i][j] = Double.parseDouble(j % 2 == 0 ? Double.toString(x[i][j])
                        : String.format(Locale.ROOT, "%.6e", x[i][j]));
            }
            sb.append(i % 3 == 0 ? "\r\n" : "\n");
        }
        Path p = write("big.csv", sb.toString());
        assertThat(Files.size(p)).isGreaterThan(3L * CsvPipeline.PIECE_BYTES);
        CsvRows rows = CsvRows.open(p);
        for (int pass = 0; pass < 2; pass++) {
            List<double[]> all = readAll(rows);
            assertThat(all).hasSize(n);
            for (int i = 0; i < n; i += 997) {
                assertThat(all.get(i)).containsExactly(x[i]);
            }
        }
        try (RowCursor c = rows.open()) {
            double[] block = new double[1000 * d];
            long got = 0;
            int k;
            while ((k = c.nextBlock(block, 1000, d)) > 0) {
                got += k;
            }
            assertThat(got).isEqualTo(n);
            assertThat(c.position()).endsWith("line " + (n + 1));
            assertThat(c.bytesRead()).isEqualTo(Files.size(p));
        }
        String bad = sb.toString().replaceFirst("\n", "\n").lines().limit(n + 1L)
                .map(l -> l).reduce(new StringBuilder(), (acc, l) -> acc.append(l).append('\n'), StringBuilder::append)
                .toString();
        List<String> lines = new ArrayList<>(bad.lines().toList());
        lines.set(45_000, "1,2,3,4,5,6,oops");
        lines.set(50_000, "1,2");
        Path q = write("bad.csv", String.join("\n", lines) + "\n");
        assertThatThrownBy(() -> readAll(CsvRows.open(q))).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("line 45001,").hasMessageContaining("\"oops\"");
    }

    @Test
    void aBlankLineAcrossAPieceBorderBeforeMoreDataIsAnError() throws IOException {
        StringBuilder sb = new StringBuilder();
        int lines = 0;
        while (sb.length() < CsvPipeline.PIECE_BYTES + 100) {
            sb.append("1.25,2.5\n");
            lines++;
        }
        sb.append("\n\n\n");
        sb.append("3,4\n");
        Path p = write("blank.csv", sb.toString());
        assertThatThrownBy(() -> readAll(CsvRows.open(p))).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("line " + (lines + 1) + " is blank").hasMessageContaining("line " + (lines + 4));
        Path trailing = write("trail.csv", sb.substring(0, sb.length() - 4));
        assertThat(readAll(CsvRows.open(trailing))).hasSize(lines);
    }

    @Test
    void theRealDatasetsReadWithTheNewOptions() throws IOException {
        Path airfoil = SharedDatasets.require("airfoil/airfoil_self_noise.dat");
        CsvRows a = CsvRows.open(airfoil);
        assertThat(a.separatorName()).isEqualTo("tab");
        assertThat(a.dimension()).isEqualTo(6);
        assertThat(readAll(a)).hasSize(1503);
        assertThat(readAll(a).get(0)).containsExactly(800, 0, 0.3048, 71.3, 0.00266337, 126.201);

        Path wine = SharedDatasets.require("wine/wine_data.csv");
        CsvRows w = CsvRows.builder(wine).skipLines(1).header(CsvRows.Header.ABSENT).columns(List.of("1-13")).build();
        assertThat(w.dimension()).isEqualTo(13);
        assertThat(readAll(w)).hasSize(178);
        assertThat(readAll(w).get(0)[0]).isEqualTo(14.23);

        Path adult = SharedDatasets.require("adult/adult.data.gz");
        CsvRows ad = CsvRows.builder(adult).headerNames(List.of("age", "workclass", "fnlwgt", "education",
                "education-num", "marital-status", "occupation", "relationship", "race", "sex", "capital-gain",
                "capital-loss", "hours-per-week", "native-country", "income"))
                .columns(List.of("age", "fnlwgt", "education-num", "capital-gain-hours-per-week")).build();
        assertThat(ad.hasHeader()).isFalse();
        assertThat(ad.columnNames()).containsExactly("age", "fnlwgt", "education-num", "capital-gain", "capital-loss",
                "hours-per-week");
        List<double[]> adultRows = readAll(ad);
        assertThat(adultRows).hasSize(32_561);
        assertThat(adultRows.get(0)).containsExactly(39, 77516, 13, 2174, 0, 40);

        Path isolet = SharedDatasets.require("isolet5/isolet5.csv.gz");
        CsvRows iso = CsvRows.builder(isolet).excludeColumns(List.of("label")).build();
        assertThat(iso.dimension()).isEqualTo(617);
        assertThat(CsvRows.builder(isolet).columns(List.of("1-617")).build().columnNames())
                .isEqualTo(iso.columnNames());
        assertThat(readAll(iso)).hasSize(1559);
    }
}
