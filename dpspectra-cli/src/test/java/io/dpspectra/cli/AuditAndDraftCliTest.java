package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.Json;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditAndDraftCliTest {
    @TempDir
    Path dir;

    @Test
    void auditOfThePrivateMeanFindsItsLossButNoViolation() throws Exception {
        Cli.Result r = Cli.run("audit", "--mechanism", "private-mean", "--epsilon", "1", "--trials", "20000", "--seed", "3");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertThat(j.get("violation").asBoolean()).isFalse();
        // the generated pair is the Laplace mean's worst case: the bound approaches the claimed 1
        assertThat(j.get("epsilonLowerBound").asDouble()).isBetween(0.5, 1.0);
    }

    @Test
    void auditOfAGivenPairSeesTheLossOfTheClaimedBudget() throws Exception {
        Path d = Cli.write(dir, "d.csv", "x\n1\n0\n0\n0\n");
        Path d2 = Cli.write(dir, "d2.csv", "x\n-1\n0\n0\n0\n");
        // the user's pair is the worst case too: at epsilon 4 the test sees a loss well above 1, below 4
        Cli.Result r = Cli.run("audit", "--mechanism", "private-mean", "--epsilon", "4", "--trials", "20000", "--seed", "4",
                "--pair", d + "," + d2);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertThat(j.get("violation").asBoolean()).isFalse();
        assertThat(j.get("epsilonLowerBound").asDouble()).isGreaterThan(1.0);
    }

    @Test
    void aDraftWarnsOfATitleLineWiderOrNarrowerThanTheRowsAndSuggestsSkippingIt() throws Exception {
        // scikit-learn's layout: "rows,features,class names", then rows of features and a label
        StringBuilder sb = new StringBuilder("6,3,malignant,benign\n");
        for (int i = 0; i < 6; i++) {
            sb.append(i).append(".5,").append(i * 2).append(",0.").append(i).append(',').append(i % 2).append('\n');
        }
        Path titled = Cli.write(dir, "titled.csv", sb.toString().replace("6,3,malignant,benign", "6,3,malignant"));
        Cli.Result r = Cli.run("schema", "draft", titled.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("first line has 3 cells but the lines after it have 4").contains("--skip-lines 1");
        Path sixWide = Cli.write(dir, "six.csv", sb.toString().replace("6,3,malignant,benign", "6,3,a,b,c,d"));
        assertThat(Cli.run("schema", "draft", sixWide.toString()).err()).contains("first line has 6 cells");
        // skipping it drafts the rows' own 4 columns, without a warning
        Cli.Result skipped = Cli.run("schema", "draft", "--skip-lines", "1", sixWide.toString());
        assertThat(skipped.err()).doesNotContain("warning").contains("drafted 4 columns");
        // a header of the rows' width is no title
        Path header = Cli.write(dir, "header.csv", sb.toString().replace("6,3,malignant,benign", "a,b,c,label"));
        assertThat(Cli.run("schema", "draft", header.toString()).err()).doesNotContain("warning");
    }

    @Test
    void aDraftWithPrivateEpsilonHasPrivateBoundsAndSaysWhatItSpent() throws Exception {
        StringBuilder sb = new StringBuilder("a,b,kind\n");
        for (int i = 0; i < 2000; i++) {
            sb.append(i % 100).append(',').append(-5 + (i % 11)).append(',').append(i % 2 == 0 ? "x" : "y").append('\n');
        }
        Path data = Cli.write(dir, "t.csv", sb.toString());
        Path ledger = dir.resolve("l.ledger");
        assertThat(Cli.run("ledger", "init", "--epsilon", "5", ledger.toString()).exitCode()).isZero();
        Cli.Result r = Cli.run("schema", "draft", "--private-epsilon", "4", "--quantile", "0.05", "--seed", "5",
                "--ledger", ledger.toString(), data.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode s = Json.MAPPER.readTree(r.out());
        assertThat(s.get("description").asText()).contains("pure epsilon = 4.0").contains("6 quantiles");
        JsonNode a = s.get("columns").get(0);
        assertThat(a.get("min").asDouble()).isBetween(0.0, 20.0); // the median less the 95% quantile of the distance to it: a cell of the ladder around 0
        assertThat(a.get("max").asDouble()).isBetween(80.0, 120.0);
        assertThat(s.get("columns").get(2).get("type").asText()).isEqualTo("categorical");
        assertThat(s.get("columns").get(2).get("categories")).isEmpty(); // never data-derived categories
        assertThat(java.nio.file.Files.readString(ledger)).contains("schema draft");
    }
}
