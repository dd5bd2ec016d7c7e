package io.dpspectra.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The shared pieces of the {@code dpspectra bench} subcommands: --json and printing. */
class BenchReportTest {
    /** Runs {@code body} with System.out captured (the benches print there directly). */
    private static String stdout(ThrowingRunnable body) throws Exception {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            body.run();
        } finally {
            System.setOut(old);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static Map<String, Object> results() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("zeta", 1);
        m.put("alpha (a long key with spaces)", 2.5);
        m.put("mid", "text");
        return m;
    }

    @Test
    void tableListsTheKeysInInsertionOrderWithValuesInOneColumn() throws Exception {
        BenchReport report = new BenchReport();
        String[] lines = stdout(() -> report.print(results())).split("\\R");
        assertThat(lines).hasSize(3);
        assertThat(lines[0]).startsWith("zeta ").endsWith(" 1");
        assertThat(lines[1]).startsWith("alpha (a long key with spaces) ").endsWith(" 2.5");
        assertThat(lines[2]).startsWith("mid ").endsWith(" text");
        assertThat(lines[0].indexOf('1')).isEqualTo(lines[2].indexOf("text")).isEqualTo(35);
    }

    @Test
    void jsonKeepsTheKeysInInsertionOrderAndSkipsTheBenchOwnTable() throws Exception {
        BenchReport report = new BenchReport();
        report.json = true;
        AtomicInteger tableRuns = new AtomicInteger();
        String out = stdout(() -> report.print(results(), tableRuns::incrementAndGet));
        JsonNode j = Json.MAPPER.readTree(out);
        List<String> keys = new ArrayList<>();
        j.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("zeta", "alpha (a long key with spaces)", "mid");
        assertThat(j.get("alpha (a long key with spaces)").asDouble()).isEqualTo(2.5);
        assertThat(tableRuns.get()).isZero();
    }

    @Test
    void withoutJsonTheBenchOwnTableIsPrintedInsteadOfTheMap() throws Exception {
        BenchReport report = new BenchReport();
        String out = stdout(() -> report.print(results(), () -> System.out.println("own table")));
        assertThat(out.strip()).isEqualTo("own table");
    }

    @Test
    void everyBenchWithJsonOutputTakesItsJsonOptionFromTheSharedMixin() {
        CommandLine bench = Main.newCommandLine().getSubcommands().get("bench");
        CommandLine power = bench.getSubcommands().get("power");
        for (CommandLine c : List.of(bench.getSubcommands().get("gram"), bench.getSubcommands().get("pass"),
                bench.getSubcommands().get("covariance"),
                power.getSubcommands().get("streaming"), power.getSubcommands().get("sparse"))) {
            assertThat(c.getCommandSpec().mixins()).as(c.getCommandName()).containsKey("report");
            assertThat(c.getCommandSpec().findOption("--json").description())
                    .containsExactly("Print JSON instead of a table.");
        }
    }
}
