package io.dpspectra.data;

import io.dpspectra.data.csv.SchemaRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.csv.CsvRows;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file that cannot be read is described in words: never an exception class or the decompressor's text. */
class IoErrorsTest {
    @TempDir
    Path dir;

    private static final String JAVA_NAME = "(?s).*(java\\.|Exception|ZLIB|GZIP format).*";

    @Test
    void truncatedNotGzipAndEmptyGzFilesAreDescribedInWords() throws IOException {
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (OutputStream o = new GZIPOutputStream(gz)) {
            for (int i = 0; i < 20_000; i++) {
                o.write((i + "," + (i * 7 % 13) + "\n").getBytes(StandardCharsets.US_ASCII));
            }
        }
        Path truncated = Files.write(dir.resolve("t.csv.gz"), Arrays.copyOf(gz.toByteArray(), gz.size() / 2));
        Path plain = Files.writeString(dir.resolve("p.csv.gz"), "a,b\n1,2\n");
        Path empty = Files.write(dir.resolve("e.csv.gz"), new byte[0]);
        assertThatThrownBy(() -> readAll(CsvRows.open(truncated))).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("the .gz file is truncated").hasMessageNotContaining("Exception")
                .satisfies(e -> assertThat(e.getMessage()).doesNotMatch(JAVA_NAME));
        assertThatThrownBy(() -> CsvRows.open(plain)).hasMessageContaining("it is not gzip data")
                .satisfies(e -> assertThat(e.getMessage()).doesNotMatch(JAVA_NAME));
        assertThatThrownBy(() -> CsvRows.open(empty)).hasMessageContaining("empty or truncated .gz file")
                .satisfies(e -> assertThat(e.getMessage()).doesNotMatch(JAVA_NAME));
        assertThatThrownBy(() -> readAll(SchemaRows.open(truncated, Schema.of(java.util.List.of(
                Schema.Numeric.unbounded("a"), Schema.Numeric.unbounded("b"))), false, ',', 0)))
                .hasMessageContaining("the .gz file is truncated").satisfies(e -> assertThat(e.getMessage())
                .doesNotMatch(JAVA_NAME));
    }

    private static void readAll(RowSource rows) {
        double[] row = new double[rows.dimension()];
        try (RowCursor c = rows.open()) {
            while (c.next(row)) {
                // read to the end
            }
        }
    }

    @Test
    void aDpsrShorterThanItsHeaderNamesTheCommandThatWritesOne() throws IOException {
        Path shortFile = Files.writeString(dir.resolve("s.dpsr"), "DPSR");
        assertThatThrownBy(() -> BinaryRows.open(shortFile)).hasMessageContaining("'dpspectra convert'")
                .hasMessageNotContaining("BinaryRows");
    }
}
