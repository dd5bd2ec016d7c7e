package io.dpspectra.data.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.RowCursor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A file cut into byte ranges at arbitrary positions, each range read on its own (after a round trip through
 * Java serialization, as a cluster ships the reader), gives the rows of the whole-file reader in the same order,
 * and the first problem of the whole-file reader with its message, line number included.
 */
class CsvRangesTest {
    private static final String NAME = "INPUT data.csv";

    /** A CSV with a header, comment lines, quoted cells and Windows line ends mixed in. */
    private static String file(SplittableRandom r, int rows, int d) {
        StringBuilder b = new StringBuilder();
        for (int j = 0; j < d; j++) {
            b.append(j == 0 ? "" : ",").append("c").append(j + 1);
        }
        b.append('\n');
        for (int i = 0; i < rows; i++) {
            if (r.nextInt(20) == 0) {
                b.append("# a comment\n");
            }
            for (int j = 0; j < d; j++) {
                String v = Double.toString(r.nextGaussian() * Math.pow(10, r.nextInt(7) - 3));
                b.append(j == 0 ? "" : ",").append(r.nextInt(30) == 0 ? "\"" + v + "\"" : v);
            }
            b.append(r.nextInt(10) == 0 ? "\r\n" : "\n");
        }
        return b.toString();
    }

    private static CsvRows layout(byte[] bytes) {
        return CsvRows.fromStream(NAME, new ByteArrayInputStream(bytes)).commentPrefix("#").build();
    }

    private static List<double[]> whole(byte[] bytes) {
        List<double[]> out = new ArrayList<>();
        CsvRows rows = layout(bytes);
        try (RowCursor c = rows.open()) {
            double[] row = new double[rows.dimension()];
            while (c.next(row)) {
                out.add(row.clone());
            }
        }
        return out;
    }

    /** The rows of the ranges cut at {@code cuts} (sorted), each read by a deserialized copy of the reader. */
    private static List<double[]> inRanges(byte[] bytes, long[] cuts) throws Exception {
        CsvRanges ranges = roundTrip(CsvRanges.of(layout(bytes), "make the ranges longer"));
        int d = ranges.dimension();
        List<double[]> out = new ArrayList<>();
        List<CsvRanges.Part> parts = new ArrayList<>();
        for (int k = 0; k <= cuts.length; k++) {
            long start = k == 0 ? 0 : cuts[k - 1];
            long end = k == cuts.length ? Long.MAX_VALUE : cuts[k];
            ByteArrayInputStream in = new ByteArrayInputStream(bytes, (int) start, bytes.length - (int) start);
            CsvRanges.Reader reader = ranges.open(in, NAME, start, end);
            for (double[] piece = reader.next(); piece != null; piece = reader.next()) {
                for (int i = 0; i < piece.length / d; i++) {
                    out.add(Arrays.copyOfRange(piece, i * d, (i + 1) * d));
                }
            }
            parts.add(roundTrip(reader.part()));
        }
        ranges.check(parts);
        return out;
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T value) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    private static long[] cuts(SplittableRandom r, int length, int count) {
        return r.longs(count, 1, length).sorted().distinct().toArray();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 40})
    void rangesCutAnywhereGiveTheWholeFilesRowsInOrder(int ranges) throws Exception {
        SplittableRandom r = new SplittableRandom(ranges);
        byte[] bytes = file(r, 3000, 6).getBytes(StandardCharsets.UTF_8);
        List<double[]> expected = whole(bytes);
        for (int trial = 0; trial < 5; trial++) {
            // at least one cut past the header (a range that starts inside the header is refused, tested below)
            long[] cuts = cuts(r, bytes.length, ranges - 1);
            cuts = Arrays.stream(cuts).filter(c -> c > 40).toArray();
            List<double[]> got = inRanges(bytes, cuts);
            assertThat(got).hasSameSizeAs(expected);
            for (int i = 0; i < got.size(); i++) {
                assertThat(got.get(i)).as("row %d with cuts %s", i, Arrays.toString(cuts)).isEqualTo(expected.get(i));
            }
        }
    }

    @Test
    void aCutAtEveryByteOfASmallFile() throws Exception {
        byte[] bytes = "a,b\n1,2\n3,4\r\n# c\n5,6\n\n".getBytes(StandardCharsets.UTF_8);
        List<double[]> expected = whole(bytes);
        for (int c = 4; c < bytes.length; c++) {
            assertThat(inRanges(bytes, new long[] {c})).as("cut at %d", c).hasSize(expected.size());
            assertThat(inRanges(bytes, new long[] {c, Math.min(bytes.length, c + 1)})).hasSize(expected.size());
        }
    }

    /** The whole-file reader's message for {@code bytes}. */
    private static String wholeMessage(byte[] bytes) {
        try {
            whole(bytes);
        } catch (InvalidDataException e) {
            return e.getMessage();
        }
        throw new AssertionError("the whole-file reader accepted the file");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1,NaN", "1,", "1,x", "1,2,3", "1,1e999", "1,\"2"})
    void aBadLineIsTheWholeFilesProblemWithItsLineWhereverTheCuts(String bad) throws Exception {
        SplittableRandom r = new SplittableRandom(11);
        String good = file(r, 400, 2);
        int at = good.indexOf('\n', good.length() / 2) + 1;
        byte[] bytes = (good.substring(0, at) + bad + "\n" + good.substring(at).replaceFirst("^c1,c2\n", ""))
                .getBytes(StandardCharsets.UTF_8);
        String expected = wholeMessage(bytes);
        assertThat(expected).contains("line ");
        for (int trial = 0; trial < 20; trial++) {
            long[] cuts = Arrays.stream(cuts(r, bytes.length, 1 + r.nextInt(6))).filter(c -> c > 20).toArray();
            assertThatThrownBy(() -> inRanges(bytes, cuts)).as("cuts %s", Arrays.toString(cuts))
                    .isInstanceOf(InvalidDataException.class).hasMessage(expected);
        }
    }

    @Test
    void aBlankLineInsideTheDataIsFoundAcrossRanges() throws Exception {
        String text = "a,b\n1,2\n3,4\n\n\n5,6\n7,8\n";
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        String expected = wholeMessage(bytes);
        for (int c = 4; c < bytes.length; c++) {
            long cut = c;
            assertThatThrownBy(() -> inRanges(bytes, new long[] {cut})).as("cut at %d", c).hasMessage(expected);
        }
        // trailing blank lines are allowed, wherever the cut
        byte[] trailing = "a,b\n1,2\n3,4\n\n\n".getBytes(StandardCharsets.UTF_8);
        for (int c = 4; c < trailing.length; c++) {
            assertThat(inRanges(trailing, new long[] {c})).hasSize(2);
        }
    }

    @Test
    void aHeaderThatRunsPastTheFirstRangeIsRefusedNamingTheFix() {
        byte[] bytes = "alpha,beta\n1,2\n".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> inRanges(bytes, new long[] {5})).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("run past byte 5").hasMessageContaining("make the ranges longer");
    }
}
