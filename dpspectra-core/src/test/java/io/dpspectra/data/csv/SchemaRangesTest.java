package io.dpspectra.data.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.Schema;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A table read through a schema, cut into byte ranges at arbitrary positions and each range read on its own (after a
 * round trip through Java serialization, as a cluster ships the reader) by {@link SchemaRows#ranges}, gives the rows
 * and ids of {@link SchemaRows#forEachRowWithId} in the same order, and the first problem of the whole-file reader with
 * its message, line number included; an empty id is the grouping's error at its line.
 */
class SchemaRangesTest {
    @TempDir
    Path dir;

    private static final Schema SCHEMA = Schema.of(List.of(
            new Schema.Numeric("a", -2.0, 2.0, 0.5, 2.0),
            new Schema.Id("person"),
            new Schema.Ignored("note"),
            new Schema.Categorical("colour", List.of("red", "green", "blue"))));

    /** Two title lines, a header, comment lines, quoted cells, blanks around cells and Windows line ends. */
    private static String file(SplittableRandom r, int rows) {
        StringBuilder b = new StringBuilder("exported\nby hand\na,person,note,colour\n");
        String[] colours = {"red", "green", "blue"};
        for (int i = 0; i < rows; i++) {
            if (r.nextInt(20) == 0) {
                b.append("// a comment\n");
            }
            String person = "p" + r.nextInt(40);
            b.append(r.nextGaussian() * 3).append(',').append(r.nextInt(10) == 0 ? " \"" + person + "\" " : person)
                    .append(",\"a, note\",").append(colours[r.nextInt(3)]).append(r.nextInt(10) == 0 ? "\r\n" : "\n");
        }
        return b.toString();
    }

    private record Rows(List<String> ids, List<double[]> rows) {
    }

    private Rows whole(byte[] bytes) throws Exception {
        Path f = Files.write(dir.resolve("t.csv"), bytes);
        List<String> ids = new ArrayList<>();
        List<double[]> rows = new ArrayList<>();
        SchemaRows.open(f, SCHEMA, false, ',', 2, "//").forEachRowWithId((id, row, line) -> {
            ids.add(id);
            rows.add(row.clone());
        });
        return new Rows(ids, rows);
    }

    private static Rows inRanges(byte[] bytes, long[] cuts, String name) throws Exception {
        List<String> first = new String(bytes, StandardCharsets.UTF_8).lines().limit(200).toList();
        CsvRanges ranges = roundTrip(SchemaRows.ranges(first, name, SCHEMA, false, ',', 2, "//", "longer"));
        int d = ranges.dimension();
        List<String> ids = new ArrayList<>();
        List<double[]> rows = new ArrayList<>();
        List<CsvRanges.Part> parts = new ArrayList<>();
        for (int k = 0; k <= cuts.length; k++) {
            long start = k == 0 ? 0 : cuts[k - 1];
            long end = k == cuts.length ? Long.MAX_VALUE : cuts[k];
            CsvRanges.Reader reader = ranges.open(new ByteArrayInputStream(bytes, (int) start,
                    bytes.length - (int) start), name, start, end);
            for (double[] piece = reader.next(); piece != null; piece = reader.next()) {
                assertThat(reader.ids()).hasSize(piece.length / d);
                ids.addAll(List.of(reader.ids()));
                for (int i = 0; i < piece.length / d; i++) {
                    rows.add(Arrays.copyOfRange(piece, i * d, (i + 1) * d));
                }
            }
            parts.add(roundTrip(reader.part()));
        }
        ranges.check(parts);
        return new Rows(ids, rows);
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    private static long[] cuts(SplittableRandom r, int length, int n) {
        return r.longs(n, 1, length).sorted().distinct().toArray();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void rangesAtArbitraryCutsGiveTheWholeFilesRowsAndIds(int seed) throws Exception {
        SplittableRandom r = new SplittableRandom(seed);
        byte[] bytes = file(r, 3000).getBytes(StandardCharsets.UTF_8);
        Rows whole = whole(bytes);
        assertThat(whole.rows()).hasSize(3000);
        for (int n : new int[] {0, 1, 7, 40}) {
            Rows ranged = inRanges(bytes, cuts(r, bytes.length, n), dir.resolve("t.csv").toString());
            assertThat(ranged.ids()).isEqualTo(whole.ids());
            assertThat(ranged.rows()).usingElementComparator(Arrays::compare).isEqualTo(whole.rows());
        }
    }

    @Test
    void theFirstProblemIsTheWholeFilesWithItsLine() throws Exception {
        SplittableRandom r = new SplittableRandom(9);
        List<String> lines = new ArrayList<>(file(r, 500).lines().toList());
        String name = dir.resolve("t.csv").toString();
        // a colour the schema does not list on a data line from line 301 on, and a ragged line after it
        int teal = dataLine(lines, 300);
        lines.set(teal, lines.get(teal).replaceAll(",(red|green|blue)$", ",teal"));
        lines.set(dataLine(lines, 400), "1.0,p1");
        byte[] bytes = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        String expected = null;
        try {
            whole(bytes);
        } catch (InvalidDataException e) {
            expected = e.getMessage();
        }
        assertThat(expected).contains("line " + (teal + 1) + ",").contains("teal");
        for (int n : new int[] {0, 3, 30}) {
            long[] cuts = cuts(r, bytes.length, n);
            assertThatThrownBy(() -> inRanges(bytes, cuts, name)).isInstanceOf(InvalidDataException.class)
                    .hasMessage(expected);
        }
        // an empty id on a data line from line 201 on: the grouping's words, at that line (the first problem)
        int empty = dataLine(lines, 200);
        lines.set(empty, lines.get(empty).replaceFirst(",[^,]*,", ", ,"));
        byte[] withEmpty = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> inRanges(withEmpty, cuts(r, withEmpty.length, 5), name))
                .isInstanceOf(InvalidDataException.class)
                .hasMessage(InvalidDataException.emptyUnitId(name + ", line " + (empty + 1), "person").getMessage());
    }

    /** The index of the first data line (not a comment) at or after {@code from}. */
    private static int dataLine(List<String> lines, int from) {
        int i = from;
        while (lines.get(i).startsWith("//")) {
            i++;
        }
        return i;
    }
}
