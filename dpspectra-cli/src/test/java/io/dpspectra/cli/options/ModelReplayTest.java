package io.dpspectra.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.Cli;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model is usable by transform and evaluate whatever options made it: everything the model records about
 * how it read its input is checked, before any budget is spent, to read back the same; transform reads a
 * file laid out otherwise with the options typed now, and carries chosen columns through unchanged.
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

    @Test
    void transformReadsATitleLineWithSkipLinesForASchemaModelAndKeepsChosenColumns() throws Exception {
        Path data = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        Path schema = Cli.write(dir, "schema.json", SCHEMA.replace("]}", ", {\"name\": \"label\", \"type\": \"ignore\"}]}"));
        StringBuilder train = new StringBuilder("f1,f2,f3,label\n");
        Cli.smallCsv(50, 3).lines().skip(1).forEach(l -> train.append(l).append(",a\n"));
        Path model = fit("--schema", schema.toString(), Cli.write(dir, "train.csv", train.toString()).toString());
        // a test file in the same layout with a title line first, a comment, labels with a comma and a quote
        Path test = Cli.write(dir, "test.csv", "|1x3 Cross validator\nf1,f2,f3,label\n0.1,0.2,0.3,yes\n"
                + "# a comment\n0.3,0.2,0.1,\"no, \"\"really\"\"\"\n-0.2,0.1,0.0,yes\n");
        Cli.Result without = Cli.run("transform", "--model", model.toString(), test.toString());
        assertThat(without.exitCode()).as(without.toString()).isEqualTo(ExitCodes.BAD_DATA);
        Path out = dir.resolve("out.csv");
        Cli.Result r = Cli.run("transform", "--model", model.toString(), "--skip-lines", "1", "--comment-prefix", "#",
                "--keep-columns", "label,1", "-o", out.toString(), test.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<String> lines = Files.readAllLines(out);
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).isEqualTo("label,f1,pc1,pc2");
        assertThat(lines.get(1)).startsWith("yes,0.1,");
        assertThat(lines.get(2)).startsWith("\"no, \"\"really\"\"\",0.3,");
        assertThat(lines.get(3)).startsWith("yes,-0.2,");
        // the coordinates are those of transform without the kept columns
        Cli.Result plain = Cli.run("transform", "--model", model.toString(), "--skip-lines", "1", "--comment-prefix",
                "#", test.toString());
        List<String> coordinates = plain.out().lines().toList();
        for (int i = 1; i < 4; i++) {
            assertThat(lines.get(i)).endsWith("," + coordinates.get(i));
        }
    }

    @Test
    void keepColumnsWorksWithAPlainCsvModelAndRefusesWhatItCannotKeep() throws Exception {
        Path data = Cli.write(dir, "data.csv", "id,f1,f2,f3\r\n" + String.join("", Cli.smallCsv(20, 3).lines().skip(1)
                .map(l -> "r" + l.hashCode() + "," + l + "\r\n").toList()));
        Path model = fit("--clip-norm", "1", "--exclude-columns", "id", data.toString());
        Cli.Result r = Cli.run("transform", "--model", model.toString(), "--keep-columns", "id", data.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<String> out = r.out().lines().toList();
        List<String> in = Files.readAllLines(data);
        assertThat(out).hasSize(in.size());
        for (int i = 1; i < in.size(); i++) {
            assertThat(out.get(i)).startsWith(in.get(i).split(",")[0] + ",");
        }
        Cli.Result unknown = Cli.run("transform", "--model", model.toString(), "--keep-columns", "label", data.toString());
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("no column \"label\"").contains("[id, f1, f2, f3]");
        Path dpsr = dir.resolve("data.dpsr");
        assertThat(Cli.run("convert", "--exclude-columns", "id", data.toString(), dpsr.toString()).exitCode()).isZero();
        Path plainModel = Cli.write(dir, "plain.json", "{\"components\": [[1, 0, 0]]}");
        Cli.Result binary = Cli.run("transform", "--model", plainModel.toString(), "--keep-columns", "1", dpsr.toString());
        assertThat(binary.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(binary.err()).contains("binary .dpsr");
        JsonNode unused = Json.MAPPER.readTree(model.toFile());
        assertThat(unused.at("/preprocessing/csv/excludeColumns").get(0).asText()).isEqualTo("id");
    }
}
