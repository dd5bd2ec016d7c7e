package io.dpspectra.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The schema file read by core alone: the shipped examples, the format's defaults, and messages naming the fault. */
class SchemaFileTest {
    private static Path schemas() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("docs").resolve("schemas");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("docs/schemas not found above " + Path.of("").toAbsolutePath());
    }

    @Test
    void theShippedSchemasReadWithTheirFormatAndBounds() {
        SchemaFile wine = SchemaFile.read(schemas().resolve("wine.json"));
        assertThat(wine.schema().columns()).hasSize(14);
        assertThat(wine.schema().dimension()).isEqualTo(13);
        assertThat(wine.separator()).isEqualTo(',');
        assertThat(wine.skipLines()).isEqualTo(1);
        assertThat(wine.commentPrefix()).isNull();
        assertThat(wine.description()).startsWith("UCI Wine");
        assertThat(wine.schema().rowNormBound(true)).isPresent();
        SchemaFile adult = SchemaFile.read(schemas().resolve("adult.json"));
        assertThat(adult.schema().dimension()).isEqualTo(108);
        assertThat(adult.schema().columns().get(1)).isInstanceOf(Schema.Categorical.class);
        SchemaFile airfoil = SchemaFile.read(schemas().resolve("airfoil.json"));
        assertThat(airfoil.separator()).isEqualTo(' ');
    }

    @Test
    void formatAndTypeDefaultWhenAbsent() {
        SchemaFile s = SchemaFile.parse("{\"columns\": [{\"name\": \"a\", \"min\": -1, \"max\": 1}, {\"name\": 7,"
                + " \"type\": \"IGNORE\"}]}");
        assertThat(s.separator()).isEqualTo((char) 0);
        assertThat(s.skipLines()).isZero();
        assertThat(s.description()).isEmpty();
        assertThat(s.schema().columns().get(0)).isEqualTo(new Schema.Numeric("a", -1.0, 1.0, null, null));
        assertThat(s.schema().columns().get(1)).isEqualTo(new Schema.Ignored("7"));
        assertThat(SchemaFile.parse("{\"format\": {\"skipLines\": \"2\", \"commentPrefix\": \"#\"}, "
                + "\"columns\": [{\"name\": \"x\"}]}"))
                .extracting(SchemaFile::skipLines, SchemaFile::commentPrefix).containsExactly(2, "#");
    }

    @Test
    void aFileThatIsNotASchemaSaysWhy() {
        assertThatThrownBy(() -> SchemaFile.parse("[1, 2]")).hasMessage("a schema is a JSON object with a \"columns\" "
                + "array");
        assertThatThrownBy(() -> SchemaFile.parse("{\"columns\": [{\"type\": \"numeric\"}]}"))
                .hasMessage("column 1 has no \"name\"");
        assertThatThrownBy(() -> SchemaFile.parse("{\"columns\": [{\"name\": \"a\", \"min\": \"low\"}]}"))
                .hasMessage("column \"a\": \"min\" must be a number, got \"low\"");
        assertThatThrownBy(() -> SchemaFile.parse("{\"columns\": [{\"name\": \"a\", \"type\": \"date\"}]}"))
                .hasMessage("column \"a\" has type \"date\"; use numeric, categorical, ignore or id");
        assertThatThrownBy(() -> SchemaFile.parse("{\"columns\": [{\"name\": \"c\", \"type\": \"categorical\"}]}"))
                .hasMessageContaining("needs a \"categories\" array");
        assertThatThrownBy(() -> SchemaFile.parse("{\"format\": {\"separator\": \"#\"}, \"columns\": [{\"name\": "
                + "\"x\"}]}"))
                .hasMessageContaining("format.separator must be");
        assertThatThrownBy(() -> SchemaFile.parse("{\"columns\": [\n  {\"name\": \"a\",}]}"))
                .hasMessage("not valid JSON at line 2, column 16: a trailing comma before '}' is not JSON");
        assertThatThrownBy(() -> SchemaFile.parse("{\"columns\": []} x")).hasMessageContaining("after the JSON value");
        // core's one JSON parser: a name twice in one object is refused, not silently the last one
        assertThatThrownBy(() -> SchemaFile.parse("{\"columns\": [{\"name\": \"a\", \"name\": \"b\"}]}"))
                .hasMessage("not valid JSON at line 1, column 28: the name \"name\" appears twice in one object");
    }
}
