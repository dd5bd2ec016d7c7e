package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model is usable by transform and evaluate whatever options made it: everything the model records about
 * how it read its input is checked, before any budget is spent, to read back the same.
 */
class ModelReplayTest {
    @TempDir
    Path dir;

    private static final String SCHEMA = "{\"columns\": [{\"name\": \"f1\", \"min\": -1, \"max\": 1}, {\"name\": \"f2\", "
            + "\"min\": -1, \"max\": 1}, {\"name\": \"f3\", \"min\": -1, \"max\": 1}]}";

    private Path fit(String... options) {
        Path model = dir.resolve("model.json");
        String[] head = {"fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6",
            "--seed", "1", "-o", model.toString()};
        String[] args = java.util.Arrays.copyOf(head, head.length + options.length);
        System.arraycopy(options, 0, args, head.length, options.length);
        Cli.Result r = Cli.run(args);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return model;
    }

    private static void usable(Path model, Path input, String... options) throws Exception {
        for (String command : List.of("transform", "evaluate")) {
            String[] head = {command, "--model", model.toString()};
            String[] args = java.util.Arrays.copyOf(head, head.length + options.length + 1);
            System.arraycopy(options, 0, args, head.length, options.length);
            args[args.length - 1] = input.toString();
            Cli.Result r = Cli.run(args);
            assertThat(r.exitCode()).as(r.toString()).isZero();
        }
    }

    @Test
    void aSchemaWithoutFormatGivesAModelThatTransformAndEvaluateUse() throws Exception {
        Path data = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        Path schema = Cli.write(dir, "schema.json", SCHEMA);
        Path model = fit("--schema", schema.toString(), data.toString());
        assertThat(Json.MAPPER.readTree(model.toFile()).at("/preprocessing/schema/format/separator").asText())
                .isEqualTo("detect");
        usable(model, data);
    }

    @Test
    void headerNamesFromAFileAreRecordedAsTheNamesThemselves() throws Exception {
        Path data = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3).lines().skip(1).map(l -> l + "\n")
                .reduce("", String::concat));
        Path names = Cli.write(dir, "names.txt", "f1\nf2\nf3\n");
        Path model = fit("--clip-norm", "1", "--header-names", names.toString(), "--columns", "f1,f3", data.toString());
        Files.delete(names); // another directory, another machine: the file is not there
        assertThat(Json.MAPPER.readTree(model.toFile()).at("/preprocessing/csv/headerNames").asText())
                .isEqualTo("f1,f2,f3");
        usable(model, data);
    }

    @Test
    void aPipeSeparatedFileGivesAModelThatReadsPipeSeparatedFiles() throws Exception {
        Path data = Cli.write(dir, "data.txt", Cli.smallCsv(50, 3).replace(',', '|'));
        Path model = fit("--clip-norm", "1", "--separator", "|", data.toString());
        usable(model, data);
        Path schema = Cli.write(dir, "schema.json", SCHEMA);
        usable(fit("--schema", schema.toString(), "--separator", "pipe", data.toString()), data);
    }

    @Test
    void readingOptionsAModelCouldNotRecordAreRefusedBeforeAnythingIsSpent() {
        InputOptions fine = new InputOptions();
        fine.separator = ';';
        fine.skipLines = 2;
        fine.commentPrefix = "#";
        Pipeline.checkRecordable(null, fine, Pipeline.Centre.NONE, "clip");
        // a broken twin: a separator no model can name
        InputOptions odd = new InputOptions();
        odd.separator = '\u0001';
        assertThatThrownBy(() -> Pipeline.checkRecordable(null, odd, Pipeline.Centre.NONE, "clip"))
                .isInstanceOf(CliException.class).hasMessageContaining("could not record")
                .extracting(e -> ((CliException) e).exitCode()).isEqualTo(ExitCodes.USAGE);
    }
}
