package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.output.ExitCodes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzing the commands with random input files: no run may end in exit 1 (an
 * internal error) or print a stack trace. Seeded, so a failure names the case that reproduces it. The
 * normal suite runs {@value #IN_SUITE} files; the {@code slow} tag runs 10⁴.
 *
 * <p>SplittableRandom makes test files here, never privacy noise.
 */
class FuzzTest {
    static final int IN_SUITE = 200;
    private static final Set<Integer> CLEAN_EXITS = Set.of(ExitCodes.OK, ExitCodes.USAGE, ExitCodes.BAD_DATA,
            ExitCodes.BUDGET_REFUSED, ExitCodes.MECHANISM_REFUSED);

    @TempDir
    Path dir;
    private Path model;

    @BeforeEach
    void model() throws Exception {
        model = Cli.write(dir, "model.json", "{\"algorithm\":\"exact\",\"components\":[[0.6,0.8,0]],"
                + "\"columns\":[\"a\",\"b\",\"c\"]}");
    }

    @Test
    void randomFilesNeverCauseAnInternalErrorOrAStackTrace() throws Exception {
        fuzz(20261123L, IN_SUITE);
    }

    @Test
    @Tag("slow")
    void tenThousandRandomFiles() throws Exception {
        fuzz(12L, 10_000);
    }

    private void fuzz(long seed, int files) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < files; i++) {
            boolean binary = random.nextInt(8) == 0;
            Path input = dir.resolve("in" + i + (binary ? ".dpsr" : random.nextInt(10) == 0 ? ".txt" : ".csv"));
            Files.write(input, binary ? binaryFile(random) : csvFile(random));
            String[] args = command(random, input);
            Cli.Result r = Cli.run(args);
            String what = "case " + i + " (seed " + seed + "): " + String.join(" ", args) + "\n" + r;
            assertThat(r.exitCode()).as(what).isIn(CLEAN_EXITS);
            assertThat(r.err()).as(what).doesNotContain("\tat ").doesNotContain("this is a bug")
                    .doesNotContain("Exception");
            Files.delete(input);
            try (var s = Files.list(dir)) {
                // no partial output, no temporary file left behind
                assertThat(s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".")).toList())
                        .as(what).isEmpty();
            }
        }
    }

    private String[] command(SplittableRandom random, Path input) {
        String out = dir.resolve("out.json").toString();
        List<String> args = new ArrayList<>(switch (random.nextInt(7)) {
            case 0 -> List.of("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6");
            case 1 -> List.of("fit", "--algorithm", "k-dp-ojas", "-k", "1", "--epsilon", "1", "--delta", "1e-6");
            case 2 -> List.of("fit", "--algorithm", "exact", "-k", "" + (1 + random.nextInt(3)));
            case 3 -> List.of("covariance", "--algorithm", random.nextBoolean() ? "laplace" : "ad", "--epsilon", "1");
            case 4 -> List.of("transform", "--model", model.toString());
            case 5 -> List.of("evaluate", "--model", model.toString());
            default -> List.of("fit", "--algorithm", "private-power", "-k", "1", "--iterations", "2", "--epsilon",
                    "1", "--delta", "1e-6");
        });
        if (!args.get(0).equals("transform") && !args.get(0).equals("evaluate")) {
            args.addAll(random.nextBoolean() ? List.of("--clip-norm", "1") : List.of("--norm-bound", "2"));
            args.addAll(List.of("--seed", "1"));
        }
        if (random.nextInt(4) == 0) {
            args.addAll(List.of("--output", out));
        }
        if (random.nextInt(6) == 0) {
            args.addAll(List.of("--columns", random.nextBoolean() ? "1,2" : "b,zz"));
        }
        args.add(input.toString());
        return args.toArray(new String[0]);
    }

    private static final String[] CELLS = {"0", "1", "-1", "0.5", "1e3", "-2.5e-7", "NaN", "nan", "Infinity", "-inf",
        "1e400", "", " ", "x", "\"1\"", "\"a,b\"", "\"", "1,5", "0x10", "+3", "1_000", "\u00a0", "\u001b[2J", "\u0000",
        "１", "1e-400", "4.9e-324", "-0", "true", "1.7976931348623157e308", "9".repeat(40)};

    private static byte[] csvFile(SplittableRandom r) {
        StringBuilder sb = new StringBuilder();
        if (r.nextInt(10) == 0) {
            sb.append('\ufeff');
        }
        String sep = switch (r.nextInt(6)) {
            case 0 -> ";";
            case 1 -> "\t";
            default -> ",";
        };
        int d = 1 + r.nextInt(4);
        if (r.nextInt(3) > 0) {
            for (int j = 0; j < d; j++) {
                sb.append(j > 0 ? sep : "").append(r.nextInt(5) == 0 ? "" : "abcd".charAt(j % 4));
            }
            sb.append(r.nextBoolean() ? "\n" : "\r\n");
        }
        int rows = r.nextInt(6) == 0 ? 0 : 1 + r.nextInt(30);
        for (int i = 0; i < rows; i++) {
            int width = r.nextInt(12) == 0 ? 1 + r.nextInt(5) : d;
            for (int j = 0; j < width; j++) {
                String cell = r.nextInt(6) == 0 ? CELLS[r.nextInt(CELLS.length)]
                        : String.valueOf(Math.round((r.nextDouble() * 2 - 1) * 1000) / 1000.0);
                sb.append(j > 0 ? sep : "").append(cell);
            }
            if (r.nextInt(15) == 0) {
                sb.append('#').append("comment");
            }
            sb.append(r.nextInt(20) == 0 ? "" : "\n");
        }
        byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
        if (r.nextInt(15) == 0 && bytes.length > 0) {
            bytes[r.nextInt(bytes.length)] = (byte) r.nextInt(256); // a corrupted byte
        }
        return bytes;
    }

    private static byte[] binaryFile(SplittableRandom r) {
        int length = r.nextInt(3) == 0 ? r.nextInt(16) : 16 + r.nextInt(200);
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) r.nextInt(256);
        }
        if (length >= 4 && r.nextBoolean()) {
            b[0] = 'D';
            b[1] = 'P';
            b[2] = 'S';
            b[3] = 'R';
        }
        return b;
    }
}
