package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.noise.RandomSource;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code advise} (public facts in, predictions out), fit's usefulness check before spending (a warning, or with
 * {@code --refuse-useless} exit 5 with nothing spent, charged or written), the automatic share of
 * {@code --clip-norm private}, and evaluate's comparison with the raw columns.
 */
class AdviseAndRefuseCliTest {
    @TempDir
    Path dir;

    /** n rows of d columns: a spike of scale s along column 1 (and s/2 along column 2), plus N(0, noise²) cells. */
    private Path rows(String name, int n, int d, double s, double noise, long seed) throws Exception {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < d; j++) {
            sb.append(j > 0 ? "," : "").append("x").append(j + 1);
        }
        sb.append('\n');
        for (int i = 0; i < n; i++) {
            double z1 = r.standardNormal() * s;
            double z2 = r.standardNormal() * s / 2;
            for (int j = 0; j < d; j++) {
                double v = noise * r.standardNormal() + (j == 0 ? z1 : j == 1 ? z2 : 0);
                sb.append(j > 0 ? "," : "").append(v);
            }
            sb.append('\n');
        }
        return Cli.write(dir, name, sb.toString());
    }

    private static JsonNode prediction(JsonNode advice, String algorithm) {
        for (JsonNode a : advice.get("algorithms")) {
            if (a.get("algorithm").asText().equals(algorithm)) {
                return a;
            }
        }
        throw new AssertionError("no " + algorithm + " in " + advice);
    }

    private static JsonNode advise(String... extra) throws Exception {
        String[] base = {"advise", "--rows", "1000", "--dimension", "20", "-k", "2", "--clip-norm", "1", "--format",
            "json"};
        String[] args = java.util.Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        Cli.Result r = Cli.run(args);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return Json.MAPPER.readTree(r.out());
    }

    @Test
    void adviceNeedsLessVarianceWithMoreEpsilonAndMoreRowsAndNamesWhatWouldSuffice() throws Exception {
        JsonNode low = advise("--epsilon", "0.1");
        JsonNode high = advise("--epsilon", "10");
        double needLow = prediction(low, "analyze-gauss").get("requiredShare").asDouble();
        double needHigh = prediction(high, "analyze-gauss").get("requiredShare").asDouble();
        // analyze-gauss's noise scales as 1/epsilon, so the share it needs falls with epsilon
        assertThat(needHigh).isLessThan(needLow / 5);
        assertThat(prediction(high, "analyze-gauss").get("recoversExpected").asBoolean()).isTrue();
        Cli.Result table = Cli.run("advise", "--rows", "1000", "--dimension", "20", "-k", "2", "--clip-norm", "1",
                "--epsilon", "0.01");
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).contains("analyze-gauss").contains("no algorithm will recover")
                .contains("you need epsilon >=");
        assertThat(table.err()).doesNotContain("Exception");
    }

    @Test
    void adviceRefusesMissingFactsWithAUsageError() {
        Cli.Result r = Cli.run("advise", "--rows", "0", "--dimension", "20", "--epsilon", "1", "--clip-norm", "1");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--rows");
        Cli.Result noBound = Cli.run("advise", "--rows", "100", "--dimension", "20", "--epsilon", "1");
        assertThat(noBound.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noBound.err()).contains("--clip-norm");
    }

    @Test
    void aUselessFitIsRefusedBeforeAnythingIsSpentChargedOrWritten() throws Exception {
        Path noise = rows("noise.csv", 300, 30, 0, 1, 1);
        Path ledger = dir.resolve("l.ledger");
        assertThat(Cli.run("ledger", "init", "--epsilon", "5", ledger.toString()).exitCode()).isZero();
        String before = Files.readString(ledger);
        Path out = dir.resolve("model.json");
        Cli.Result r = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "0.2", "--delta",
                "1e-6", "--clip-norm", "private", "--ledger", ledger.toString(), "--refuse-useless", "-o",
                out.toString(), noise.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.MECHANISM_REFUSED);
        assertThat(r.err()).contains("useless").contains("nothing was spent");
        assertThat(Files.exists(out)).isFalse();
        assertThat(Files.readString(ledger)).isEqualTo(before);
        // without --refuse-useless: the same verdict as a warning, and the release is made
        Cli.Result warned = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "0.2", "--delta",
                "1e-6", "--clip-norm", "private", "--seed", "3", "-o", out.toString(), noise.toString());
        assertThat(warned.exitCode()).as(warned.toString()).isZero();
        assertThat(warned.err()).contains("useless").contains("--refuse-useless");
        assertThat(Files.exists(out)).isTrue();
    }

    @Test
    void aUsefulFitIsNotWarnedAndItsPrivateBoundTakesTheAutomaticShare() throws Exception {
        Path strong = rows("strong.csv", 5000, 5, 10, 0.5, 2);
        Path out = dir.resolve("model.json");
        Cli.Result r = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "private", "--refuse-useless", "--seed", "4", "-o", out.toString(), strong.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).doesNotContain("useless");
        JsonNode m = Json.MAPPER.readTree(out.toFile());
        String origin = m.get("preprocessing").get("normBoundOrigin").asText();
        assertThat(origin).startsWith("private 0.5-quantile").contains("octaves");
        // n = 5000 rows is public under replace: the median needs the smallest automatic share, 0.05 of epsilon
        String guarantee = m.get("guarantee").toString();
        assertThat(guarantee).contains("0.05");
        double bound = m.get("preprocessing").get("normBound").asDouble();
        // the rows' median norm is about 10 · 0.67 (|N(0, 1)| median) · ... : within a factor 2 of 7.5 or so
        assertThat(bound).isBetween(3.0, 20.0);
    }

    @Test
    void evaluateShowsWhenThePreprocessingDestroyedTheSignal() throws Exception {
        Path data = rows("data.csv", 2000, 4, 10, 0.5, 5);
        // a schema that clamps the signal's column into a sliver: the release describes the other columns
        String destroyed = "{\"columns\": [{\"name\": \"x1\", \"type\": \"numeric\", \"min\": -0.01, \"max\": 0.01},"
                + "{\"name\": \"x2\", \"type\": \"numeric\", \"min\": -100, \"max\": 100},"
                + "{\"name\": \"x3\", \"type\": \"numeric\", \"min\": -100, \"max\": 100},"
                + "{\"name\": \"x4\", \"type\": \"numeric\", \"min\": -100, \"max\": 100}]}";
        String kept = destroyed.replace("\"min\": -0.01, \"max\": 0.01", "\"min\": -100, \"max\": 100");
        double[] keptShare = new double[2];
        double[] oldFigure = new double[2];
        int i = 0;
        for (String schema : new String[] {kept, destroyed}) {
            Path s = Cli.write(dir, "s" + i + ".json", schema);
            Path model = dir.resolve("m" + i + ".json");
            Cli.Result fit = Cli.run("fit", "--algorithm", "exact", "-k", "1", "--schema", s.toString(), "-o",
                    model.toString(), data.toString());
            assertThat(fit.exitCode()).as(fit.toString()).isZero();
            Cli.Result ev = Cli.run("evaluate", "--model", model.toString(), data.toString());
            assertThat(ev.exitCode()).as(ev.toString()).isZero();
            JsonNode j = Json.MAPPER.readTree(ev.out());
            oldFigure[i] = j.get("capturedVarianceRatio").asDouble();
            keptShare[i] = j.get("raw").get("preprocessingKeptCentred").asDouble();
            assertThat(j.get("raw").get("capturedVarianceCentred").asDouble())
                    .isCloseTo(keptShare[i], org.assertj.core.data.Offset.offset(1e-6)); // exact PCA: all it kept
            i++;
        }
        // exact PCA is perfect on its own preprocessing either way; only the raw comparison tells them apart
        assertThat(oldFigure[0]).isGreaterThan(0.999);
        assertThat(oldFigure[1]).isGreaterThan(0.999);
        assertThat(keptShare[0]).isGreaterThan(0.99);
        // the destroyed release finds x2 instead of x1: it explains var(x2)/var(x1) = (25 + 0.25)/(100 + 0.25) of
        // what the top principal component explains (sample variances of 2000 rows: a few percent off)
        assertThat(keptShare[1]).isBetween(0.2, 0.3);
    }

    /**
     * A schema whose scales move the top-2 plane of the z-scored columns is refused before spending (the check
     * compares with the raw columns, not with the mapped rows themselves); the same rows under scales near their
     * standard deviations are not warned.
     */
    @Test
    void aSchemaWhoseScalesMoveTheZScoredPlaneIsRefusedBeforeSpending() throws Exception {
        RandomSource r = RandomSource.seededForReproducibility(6);
        StringBuilder sb = new StringBuilder("x1,x2,x3,x4,x5,x6,x7,x8\n");
        for (int i = 0; i < 3000; i++) {
            double f = 3 * r.standardNormal();
            double g = 2 * r.standardNormal();
            for (int j = 0; j < 8; j++) {
                double v = 5 + (j < 3 ? f + 0.3 * r.standardNormal() : j < 6 ? g + 0.3 * r.standardNormal()
                        : 0.5 * r.standardNormal());
                sb.append(j > 0 ? "," : "").append(v);
            }
            sb.append('\n');
        }
        Path data = Cli.write(dir, "factors.csv", sb.toString());
        // z-scored, the top-2 plane is the two factors (columns 1-3 and 4-6); scales that shrink the two noise
        // columns twentyfold make them the mapped rows' top two
        double[] good = {3, 3, 3, 2, 2, 2, 0.5, 0.5};
        double[] bad = {3, 3, 3, 2, 2, 2, 0.025, 0.025};
        Path out = dir.resolve("model.json");
        for (double[] scales : new double[][] {good, bad}) {
            StringBuilder schema = new StringBuilder("{\"columns\": [");
            for (int j = 0; j < 8; j++) {
                double half = j < 6 ? 15 : 2.5;
                schema.append(j > 0 ? "," : "").append(String.format(java.util.Locale.ROOT, "{\"name\": \"x%d\", "
                        + "\"type\": \"numeric\", \"min\": %s, \"max\": %s, \"center\": 5, \"scale\": %s}", j + 1,
                        5 - half, 5 + half, scales[j]));
            }
            Path s = Cli.write(dir, "schema.json", schema.append("]}").toString());
            Cli.Result fit = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "0.7", "--delta",
                    "1e-6", "--schema", s.toString(), "--refuse-useless", "--seed", "7", "-o", out.toString(),
                    data.toString());
            if (scales == good) {
                assertThat(fit.exitCode()).as(fit.toString()).isZero();
                assertThat(fit.err()).doesNotContain("useless");
            } else {
                assertThat(fit.exitCode()).as(fit.toString()).isEqualTo(ExitCodes.MECHANISM_REFUSED);
                assertThat(fit.err()).contains("the schema's map").contains("z-scored raw columns")
                        .contains("nothing was spent");
                assertThat(fit.err()).doesNotContain("almost flat");
            }
        }
    }
}
