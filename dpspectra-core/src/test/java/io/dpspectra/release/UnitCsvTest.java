package io.dpspectra.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.Schema;
import io.dpspectra.data.SchemaFile;
import io.dpspectra.data.csv.CsvRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file grouped by a unit column is read by the project's CSV reader: every reading option of a row-level read,
 * and whichever way the same rows and ids are written, the release has the bits of those rows and ids in memory.
 */
class UnitCsvTest {
    @TempDir
    Path dir;

    private final List<double[]> rows = new ArrayList<>();
    private final List<String> ids = new ArrayList<>();

    /** 24 persons with 5 rows each, interleaved, 3 features; ids with a space and a comma. */
    @BeforeEach
    void data() {
        for (int i = 0; i < 120; i++) {
            rows.add(new double[] {0.5 * Math.sin(i), 0.4 * Math.cos(1.3 * i), 0.01 * (i % 7) - 0.02});
            ids.add(i % 24 == 3 ? "p 3, jr" : "p" + (i % 24));
        }
    }

    private static String number(double v) {
        return Double.toString(v);
    }

    /** The rows as lines: {@code before} cells, the id (quoted when it has the separator), the features, {@code after}. */
    private String lines(char sep, String before, String after, String comment) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            if (comment != null && i % 17 == 0) {
                sb.append(comment).append(" a comment line\n");
            }
            double[] r = rows.get(i);
            String id = ids.get(i).indexOf(sep) >= 0 ? "\"" + ids.get(i) + "\"" : ids.get(i);
            sb.append(before).append(id).append(sep).append(number(r[0])).append(sep).append(number(r[1])).append(sep)
                    .append(number(r[2])).append(after).append('\n');
        }
        return sb.toString();
    }

    private Path write(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        if (name.endsWith(".gz")) {
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
                out.write(text.getBytes(StandardCharsets.UTF_8));
            }
        } else {
            Files.writeString(f, text);
        }
        return f;
    }

    private static PcaRelease fit(RowInput in) {
        return PrivatePca.of(in).privacyUnit(PrivacyUnit.column("person", 3)).bound(RowBound.clip(1)).components(2)
                .randomSource(RandomSource.seededForReproducibility(7)).fit(PrivacyParams.of(1, 1e-6));
    }

    private static RowInput file(Path f, UnitCsv.Options options) {
        return request -> UnitCsv.read(f, options, request.unit(), request.random());
    }

    @Test
    void everyReadingOptionGivesTheBitsOfTheSameRowsAndIdsInMemory() throws IOException {
        double[] expected = fit(RowInput.byUnit(InMemoryRows.of(rows.toArray(double[][]::new)), ids,
                List.of("a", "b", "c"))).components().data();
        List<Object[]> cases = new ArrayList<>();
        cases.add(new Object[] {write("plain.csv", "person,a,b,c\n" + lines(',', "", "", null)),
            UnitCsv.Options.DEFAULT});
        // the unit in column 1, the features by a range of numbers; a label column left out by the range
        cases.add(new Object[] {write("range.csv", "person,a,b,c,label\n" + lines(',', "", ",yes", null)),
            new UnitCsv.Options(null, List.of("2-4"), null, null, 0)});
        // the same by a range of names, and by leaving the label out
        cases.add(new Object[] {write("names.csv", "person,a,b,c,label\n" + lines(',', "", ",yes", null)),
            new UnitCsv.Options(null, List.of("a-c"), null, null, 0)});
        cases.add(new Object[] {write("exclude.csv", "person,a,b,c,label\n" + lines(',', "", ",yes", null)),
            new UnitCsv.Options(null, null, List.of("label"), null, 0)});
        // no header: the columns named by --header-names
        cases.add(new Object[] {write("noheader.csv", lines(',', "", "", null)),
            new UnitCsv.Options(null, null, null, null, 0, CsvRows.Header.ABSENT, List.of("person", "a", "b", "c"))});
        cases.add(new Object[] {write("noheader-auto.csv", lines(',', "", "", null)),
            new UnitCsv.Options(null, null, null, null, 0, CsvRows.Header.AUTO, List.of("person", "a", "b", "c"))});
        // a header renamed by --header-names (the file's header line is skipped)
        cases.add(new Object[] {write("renamed.csv", "who,x,y,z\n" + lines(',', "", "", null)),
            new UnitCsv.Options(null, null, null, null, 0, CsvRows.Header.PRESENT, List.of("person", "a", "b", "c"))});
        // semicolons detected, quoted ids, a title line skipped, comments, trailing blank lines, gzip
        cases.add(new Object[] {write("semi.csv.gz", "a title\n# about\nn;person;a;b;c\n"
                + lines(';', "0;", "", "#") + "\n\n"), new UnitCsv.Options(null, List.of("a", "b", "c"), null, "#", 1)});
        cases.add(new Object[] {write("tabs.tsv", "person\ta\tb\tc\n" + lines('\t', "", "", null)),
            UnitCsv.Options.DEFAULT});
        for (Object[] c : cases) {
            PcaRelease r = fit(file((Path) c[0], (UnitCsv.Options) c[1]));
            assertThat(r.components().data()).as(c[0].toString()).isEqualTo(expected);
            assertThat(r.preprocessing().features()).as(c[0].toString()).containsExactly("a", "b", "c");
        }
    }

    @Test
    void aSchemaWithAnIdColumnGivesTheBitsOfItsMappedRowsAndAgreesWithTheUnitOrIsRefused() throws IOException {
        // the schema scales the features by 2 and drops a label; the rows in memory are mapped by hand
        Path f = write("schema.csv", "person,a,b,c,label\n" + lines(',', "", ",yes", null));
        SchemaFile schema = new SchemaFile(Schema.of(List.of(new Schema.Id("person"),
                new Schema.Numeric("a", null, null, null, 2.0), new Schema.Numeric("b", null, null, null, 2.0),
                new Schema.Numeric("c", null, null, null, 2.0), new Schema.Ignored("label"))), ',', 0, null, "");
        double[][] mapped = rows.stream().map(r -> new double[] {r[0] / 2, r[1] / 2, r[2] / 2}).toArray(double[][]::new);
        double[] expected = fit(RowInput.byUnit(InMemoryRows.of(mapped), ids, List.of("a", "b", "c"))).components()
                .data();
        PcaRelease r = PrivatePca.of(RowInput.csv(f)).schema(schema).privacyUnit(PrivacyUnit.column("person", 3))
                .bound(RowBound.clip(1)).components(2).randomSource(RandomSource.seededForReproducibility(7))
                .fit(PrivacyParams.of(1, 1e-6));
        assertThat(r.components().data()).isEqualTo(expected);
        // a schema with an id column and one row as the unit, or a unit on another column: refused before reading
        assertThatThrownBy(() -> PrivatePca.of(RowInput.csv(f)).schema(schema).bound(RowBound.clip(1)).components(2)
                .fit(PrivacyParams.of(1, 1e-6))).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("marks column 'person' \"type\": \"id\"").hasMessageContaining("privacyUnit");
        assertThatThrownBy(() -> PrivatePca.of(RowInput.csv(f)).schema(schema).privacyUnit(PrivacyUnit.column("a", 3))
                .bound(RowBound.clip(1)).components(2).fit(PrivacyParams.of(1, 1e-6)))
                .isInstanceOf(ReleaseSettingException.class).hasMessageContaining("is not the column");
    }

    @Test
    void refusalsComeBeforeAnyRowWithTheRowLevelReadersMessagesAndLines() throws IOException {
        PrivacyUnit unit = PrivacyUnit.column("person", 3);
        RandomSource r = RandomSource.seededForReproducibility(1);
        Path f = write("v.csv", "title\nperson,a,b\n# c\nann,1,2\nbob,3,4\n");
        UnitCsv.Options skip = new UnitCsv.Options(null, null, null, "#", 1);
        assertThat(UnitCsv.checkHeader(f, skip, unit)).containsExactly("a", "b");
        assertThatThrownBy(() -> UnitCsv.checkHeader(f, new UnitCsv.Options(null, List.of("1-2"), null, "#", 1), unit))
                .isInstanceOf(ReleaseSettingException.class).hasMessageContaining("also selected as a feature");
        assertThatThrownBy(() -> UnitCsv.checkHeader(f, new UnitCsv.Options(null, List.of("a"), null, "#", 1),
                PrivacyUnit.column("patient", 3))).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("'patient' is not in the header of " + f + " (line 2: person,a,b)");
        assertThatThrownBy(() -> UnitCsv.checkHeader(f, new UnitCsv.Options(null, null, List.of("a", "b"), "#", 1),
                unit)).isInstanceOf(ReleaseSettingException.class).hasMessageContaining("no feature column besides");
        assertThatThrownBy(() -> UnitCsv.checkHeader(f, new UnitCsv.Options(null, null, null, "#", 1,
                CsvRows.Header.ABSENT, null), unit)).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("has no header (--header absent)");
        assertThatThrownBy(() -> UnitCsv.checkHeader(f, new UnitCsv.Options(null, null, null, "#", 1,
                CsvRows.Header.PRESENT, List.of("id", "a", "b")), unit)).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("'person' is not in --header-names");
        // data errors name the file's own line (after the skipped line and the comment)
        Files.writeString(f, "title\nperson,a,b\n# c\nann,1,2\n,3,4\n");
        assertThatThrownBy(() -> UnitCsv.read(f, skip, unit, r)).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining(f + ", line 5: the privacy unit column 'person' is empty");
        Files.writeString(f, "title\nperson,a,b\n# c\nann,1,2\n\nbob,3,4\n");
        assertThatThrownBy(() -> UnitCsv.read(f, skip, unit, r)).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining(f + " line 5 is blank but data follows on line 6");
        Files.writeString(f, "title\nperson,a,b\n# c\nann,1,2\nbob,3\n");
        assertThatThrownBy(() -> UnitCsv.read(f, skip, unit, r)).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining(f + " line 5 has 2 cells but the header has 3");
        Files.writeString(f, "person,a,b\n");
        assertThatThrownBy(() -> UnitCsv.read(f, UnitCsv.Options.DEFAULT, unit, r))
                .isInstanceOf(InvalidDataException.class).hasMessageContaining("no data rows (only a header line");
        // a quoted id with the separator is one id; ids are trimmed
        Files.writeString(f, String.format(Locale.ROOT, "person,a\n\"x, y\",1\n x, y ,2\n"));
        assertThatThrownBy(() -> UnitCsv.read(f, UnitCsv.Options.DEFAULT, unit, r))
                .isInstanceOf(InvalidDataException.class).hasMessageContaining(f + " line 3, column 2 \"a\": value \"y\"");
        Files.writeString(f, "person,a\n\"x, y\",1\n  \"x, y\"  ,2\nz ,3\n");
        assertThat(UnitCsv.read(f, UnitCsv.Options.DEFAULT, unit, r).rowCount()).isEqualTo(2);
    }
}
