package io.dpspectra.cli.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.cli.Cli;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A result file appears complete or not at all. */
class AtomicFilesTest {
    @TempDir
    Path dir;

    @Test
    void successfulWriteLeavesOnlyTheTargetWithItsContent() throws Exception {
        Path target = dir.resolve("out.json");
        AtomicFiles.write(target, o -> o.write("{\"a\": 1}".getBytes(StandardCharsets.UTF_8)));
        assertThat(Files.readString(target)).isEqualTo("{\"a\": 1}");
        assertThat(Cli.files(dir)).containsExactly("out.json");
    }

    @Test
    void failedWriteLeavesNoTargetAndNoTemporaryFile() throws Exception {
        Path target = dir.resolve("out.json");
        assertThatThrownBy(() -> AtomicFiles.write(target, o -> {
            o.write("{\"partial\": ".getBytes(StandardCharsets.UTF_8));
            throw new IOException("disk full (simulated)");
        })).hasMessageContaining("disk full");
        assertThat(Cli.files(dir)).isEmpty();
    }

    @Test
    void failedWriteKeepsThePreviousContent() throws Exception {
        Path target = Cli.write(dir, "out.json", "old");
        assertThatThrownBy(() -> AtomicFiles.write(target, o -> {
            o.write("new".getBytes(StandardCharsets.UTF_8));
            throw new IllegalStateException("crash mid-write (simulated)");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(Files.readString(target)).isEqualTo("old");
        assertThat(Cli.files(dir)).containsExactly("out.json");
    }

    @Test
    void writeReplacesAnExistingFile() throws Exception {
        Path target = Cli.write(dir, "out.json", "old");
        AtomicFiles.write(target, o -> o.write("new".getBytes(StandardCharsets.UTF_8)));
        assertThat(Files.readString(target)).isEqualTo("new");
        assertThat(Cli.files(dir)).containsExactly("out.json");
    }
}
