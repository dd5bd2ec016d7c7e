package io.dpspectra.data;

import io.dpspectra.data.csv.SchemaRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.linalg.Vectors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaRowsTest {
    @TempDir
    Path dir;

    private static final Schema SCHEMA = Schema.of(List.of(
            new Schema.Numeric("age", 0.0, 100.0, 50.0, 50.0),
            new Schema.Categorical("colour", List.of("red", "green", "blue")),
            new Schema.Ignored("id"),
            new Schema.Numeric("income", 0.0, 10.0, null, null)));

    private List<double[]> read(RowSource rows) {
        List<double[]> out = new ArrayList<>();
        double[] r = new double[rows.dimension()];
        try (RowCursor c = rows.open()) {
            while (c.next(r)) {
                out.add(r.clone());
            }
        }
        return out;
    }

    @Test
    void mapsClampsOneHotEncodesAndDropsIgnoredColumns() throws Exception {
        Path f = dir.resolve("t.csv");
        Files.writeString(f, "age,colour,id,income\n25,green,a7,3\n150,blue,b1,-2\n");
        SchemaRows rows = SchemaRows.open(f, SCHEMA, true, (char) 0, 0);
        assertThat(rows.dimension()).isEqualTo(5);
        assertThat(SCHEMA.featureNames()).containsExactly("age", "colour=red", "colour=green", "colour=blue", "income");
        List<double[]> x = read(rows);
        assertThat(x.get(0)).containsExactly(-0.5, 0, 1, 0, 3);
        assertThat(x.get(1)).containsExactly(1, 0, 0, 1, 0); // 150 clamped to 100, -2 clamped to 0
        assertThat(rows.clampedCells()).isEqualTo(2);
    }

    @Test
    void theDerivedBoundHoldsForEveryRowOfTheDomain() {
        // age: max |(x-50)/50| = 1; colour: 1; income uncentred in [0, 10]: 10 -> sqrt(1 + 1 + 100)
        assertThat(SCHEMA.rowNormBound(true).getAsDouble()).isCloseTo(Math.sqrt(102), org.assertj.core.data.Offset.offset(1e-12));
        // uncentred: age/50 in [0, 2]
        assertThat(SCHEMA.rowNormBound(false).getAsDouble()).isCloseTo(Math.sqrt(4 + 1 + 100), org.assertj.core.data.Offset.offset(1e-12));
        assertThat(SCHEMA.boundDerivation(true)).contains("by construction").contains("1 one-hot");
        double[] out = new double[5];
        java.util.Random r = new java.util.Random(5); // test data only
        for (int i = 0; i < 1000; i++) {
            String[] cells = {Double.toString(r.nextDouble() * 300 - 100), List.of("red", "green", "blue").get(r.nextInt(3)),
                "x", Double.toString(r.nextDouble() * 30 - 10)};
            SCHEMA.map(cells, out, true, new long[1], "row");
            assertThat(Vectors.norm2(out)).isLessThanOrEqualTo(SCHEMA.rowNormBound(true).getAsDouble() + 1e-12);
        }
    }

    @Test
    void refusesMismatchedColumnsUnknownCategoriesAndMissingBounds() throws Exception {
        Path f = dir.resolve("bad.csv");
        Files.writeString(f, "age,color,id,income\n25,green,a7,3\n");
        assertThatThrownBy(() -> SchemaRows.open(f, SCHEMA, true, (char) 0, 0))
                .hasMessageContaining("\"color\" in the file's header but \"colour\" in the schema");
        Path g = dir.resolve("cat.csv");
        Files.writeString(g, "age,colour,id,income\n25,purple,a7,3\n");
        assertThatThrownBy(() -> read(SchemaRows.open(g, SCHEMA, true, (char) 0, 0)))
                .hasMessageContaining("\"purple\" is not one of the schema's 3 categories");
        Schema open = Schema.of(List.of(Schema.Numeric.unbounded("a")));
        assertThat(open.rowNormBound(true)).isEmpty();
        assertThat(open.boundDerivation(true)).contains("have no min/max");
    }

    @Test
    void commentLinesAreIgnoredWhereverTheyAreAndAStreamIsReadByOnePassLikeTheFile() throws Exception {
        String text = "# a title\nage,colour,id,income\n# units: years, -, -, k$\n25,green,a7,3\n#skip me,1,2\n"
                + "150,blue,b1,-2\n";
        Path f = dir.resolve("c.csv");
        Files.writeString(f, text);
        SchemaRows file = SchemaRows.open(f, SCHEMA, true, (char) 0, 0, "#");
        assertThat(file.hasHeader()).isTrue();
        List<double[]> fromFile = read(file);
        assertThat(fromFile).hasSize(2);
        assertThat(fromFile.get(0)).containsExactly(-0.5, 0, 1, 0, 3);
        // without the prefix the comment line is taken for data and refused, naming its line
        assertThatThrownBy(() -> read(SchemaRows.open(f, SCHEMA, true, ',', 0)))
                .isInstanceOf(InvalidDataException.class).hasMessageContaining("line 1");
        SchemaRows stream = SchemaRows.fromStream("standard input",
                new java.io.ByteArrayInputStream(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)), SCHEMA, true,
                (char) 0, 0, "#");
        assertThat(stream.describe()).isEqualTo("standard input");
        List<double[]> fromStream = read(stream);
        assertThat(fromStream).hasSize(2);
        for (int i = 0; i < 2; i++) {
            assertThat(fromStream.get(i)).containsExactly(fromFile.get(i));
        }
        assertThat(stream.clampedCells()).isEqualTo(2);
        assertThatThrownBy(stream::open).isInstanceOf(IllegalStateException.class).hasMessageContaining("read once");
    }
}
