package io.dpspectra.cli.command;

import static io.dpspectra.cli.command.CountingRandomSource.counting;
import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.Cli;
import io.dpspectra.cli.command.CovarianceCommand;
import io.dpspectra.cli.command.FitCommand;
import io.dpspectra.cli.options.CliVocabulary;
import io.dpspectra.cli.options.PrivacyOptions;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.data.BinaryRows;
import io.dpspectra.release.Algorithms;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A NaN or infinite cell is outside the data domain (finite rows) and is refused by the readers; the refusal
 * must come before any noise is drawn, for every private algorithm and every kind of input (CSV, .dpsr,
 * standard input, a text table read through a --schema), wherever the cell is (first or last row): a refusal
 * after noise was drawn would be an error that depends on one row, inside a private computation. Observed
 * through the command's noise source: a bad cell in the first row is refused before any row was used, so what
 * is drawn by then is independent of the data (nothing, or a random starting basis drawn before the first pass,
 * as private-power does, which some readers' first-line checks precede); a bad cell in the last row must be
 * refused with no more words drawn than that, i.e. nothing was drawn while rows were read.
 */
class NonFiniteCellTest {
    private static final int N = 12_000; // three row blocks of a streaming estimator (4,096 rows each)
    private static final int D = 4;

    @TempDir
    static Path dir;

    /** The inputs, by kind and position of the bad cell: [kind, position] → file (stdin: the CSV piped in). */
    private static final java.util.Map<String, Path> INPUTS = new java.util.LinkedHashMap<>();
    private static Path schema;

    @BeforeAll
    static void data() throws Exception {
        String csv = Cli.smallCsv(N, D);
        List<String> lines = new ArrayList<>(List.of(csv.split("\n")));
        schema = Cli.write(dir, "schema.json", "{\"columns\": [" + String.join(", ", java.util.stream.IntStream
                .rangeClosed(1, D).mapToObj(j -> "{\"name\": \"f" + j + "\", \"type\": \"numeric\", \"min\": -1, "
                        + "\"max\": 1}").toList()) + "], \"format\": {\"separator\": \",\", \"skipLines\": 1}}");
        for (String where : List.of("first", "last")) {
            int line = where.equals("first") ? 1 : N;
            for (String cell : List.of("NaN", "Infinity")) {
                List<String> bad = new ArrayList<>(lines);
                String[] cells = bad.get(line).split(",");
                cells[2] = cell;
                bad.set(line, String.join(",", cells));
                String text = String.join("\n", bad) + "\n";
                String key = cell + " in the " + where + " row";
                INPUTS.put("csv|" + key, Cli.write(dir, key.replace(' ', '-') + ".csv", text));
                INPUTS.put("schema|" + key, Cli.write(dir, key.replace(' ', '-') + ".txt", text));
                INPUTS.put("stdin|" + key, INPUTS.get("csv|" + key));
                Path dpsr = dir.resolve(key.replace(' ', '-') + ".dpsr");
                try (BinaryRows.Writer w = BinaryRows.Writer.create(dpsr, D)) {
                    for (int i = 1; i < bad.size(); i++) {
                        String[] c = bad.get(i).split(",");
                        double[] row = new double[D];
                        for (int j = 0; j < D; j++) {
                            row[j] = Double.parseDouble(c[j]);
                        }
                        w.append(row, 1);
                    }
                    w.finish();
                }
                INPUTS.put("dpsr|" + key, dpsr);
            }
        }
    }

    static Stream<Arguments> runs() {
        List<Arguments> a = new ArrayList<>();
        for (String name : Algorithms.privatePcaNames()) {
            a.add(Arguments.of("fit", name));
        }
        for (String name : Algorithms.covarianceNames()) {
            a.add(Arguments.of("covariance", name));
        }
        return a.stream();
    }

    @ParameterizedTest(name = "{0} --algorithm {1}")
    @MethodSource("runs")
    void aNonFiniteCellIsRefusedBeforeAnyNoiseIsDrawn(String command, String algorithm) {
        java.util.Map<String, Long> drawn = new java.util.LinkedHashMap<>();
        for (java.util.Map.Entry<String, Path> input : INPUTS.entrySet()) {
            String kind = input.getKey().substring(0, input.getKey().indexOf('|'));
            List<String> args = new ArrayList<>(List.of(command, "--algorithm", algorithm, "--epsilon", "1", "--seed", "3"));
            if (command.equals("fit")) {
                args.addAll(List.of("-k", "1"));
            }
            boolean needsDelta = command.equals("fit") ? Algorithms.findPca(algorithm).orElseThrow().needsDelta()
                    : Algorithms.covariance(algorithm, CliVocabulary.DEFAULT).needsDelta();
            if (needsDelta) {
                args.addAll(List.of("--delta", "1e-5"));
            }
            if (kind.equals("schema")) {
                args.addAll(List.of("--schema", schema.toString(), "--center", "none"));
            } else {
                args.addAll(List.of("--clip-norm", "1"));
            }
            args.add(kind.equals("stdin") ? "-" : input.getValue().toString());
            AtomicLong words = new AtomicLong();
            InputStream stdin = System.in;
            Cli.Result r;
            try {
                if (kind.equals("stdin")) {
                    System.setIn(new ByteArrayInputStream(readString(input.getValue()).getBytes(StandardCharsets.UTF_8)));
                }
                r = Cli.run(cl -> {
                    Object c = cl.getSubcommands().get(command).getCommand();
                    PrivacyOptions privacy = c instanceof FitCommand f ? f.privacy : ((CovarianceCommand) c).privacy;
                    privacy.sourceWrapperForTests = s -> counting(s, words);
                }, args.toArray(new String[0]));
            } finally {
                System.setIn(stdin);
            }
            assertThat(r.exitCode()).as("%s: %s", input.getKey(), r).isEqualTo(ExitCodes.BAD_DATA);
            drawn.put(input.getKey(), words.get());
        }
        long beforeAnyRow = drawn.entrySet().stream().filter(e -> e.getKey().contains("first row"))
                .mapToLong(java.util.Map.Entry::getValue).max().orElseThrow();
        for (java.util.Map.Entry<String, Long> e : drawn.entrySet()) {
            assertThat(e.getValue()).as("random words drawn before the refusal of %s, against at most %d before any row "
                    + "is used (all: %s)", e.getKey(), beforeAnyRow, drawn).isLessThanOrEqualTo(beforeAnyRow);
        }
    }

    private static String readString(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
