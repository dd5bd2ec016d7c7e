package io.dpspectra.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.data.RowSource;
import io.dpspectra.data.csv.CsvRows;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.privacy.PrivacyAccountant;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the README's Java quickstart, and checks that the README shows exactly the code between the
 * markers below (so the README cannot drift from an API that compiles).
 */
class ReadmeQuickstartTest {
    private static final String README_CSV_LINE = "Path csv = Path.of(\"data.csv\");";
    @TempDir
    Path dir;

    @Test
    void theReadmeQuickstartRunsAndSpendsItsBudget() throws IOException {
        Path data = dir.resolve("data.csv");
        Files.writeString(data, "a,b,c\n0.1,0.2,0.3\n0.3,0.1,-0.2\n-0.4,0.2,0.1\n0.5,-0.5,0.5\n");
        Result r = quickstart(data);
        assertThat(r.pcs.components().rows()).isEqualTo(3);
        assertThat(r.pcs.k()).isEqualTo(2);
        assertThat(r.pcs.guarantee()).isPresent();
        assertThat(r.y).hasSize(2);
        assertThat(r.budget.remaining()).as("the whole budget was spent").isEmpty();
        assertThat(r.budget.spentEpsilon()).isEqualTo(1.0);
    }

    private record Result(PrivacyAccountant budget, PrivateSubspace pcs, double[] y) {
    }

    private static Result quickstart(Path csv) {
        // README:begin (the README's first line, Path csv = Path.of("data.csv"), is this method's parameter)
        PrivacyAccountant budget = PrivacyAccountant.total(PrivacyParams.of(1.0, 1e-5));
        RowSource rows = CsvRows.open(csv).clipL2(1.0);   // bound from domain knowledge
        PrivateSubspace pcs = AnalyzeGauss.builder().components(2).build()
                .fit(rows, budget.spend("top-2 PCA", PrivacyParams.of(1.0, 1e-5)));
        pcs.components();          // d x k, orthonormal columns
        pcs.explainedVariance();   // private eigenvalue estimates, where the algorithm releases them
        pcs.guarantee();           // epsilon, delta, neighbouring, mechanism, sensitivity, reference
        double[] y = pcs.transform(new double[] {0.1, 0.2, 0.3});   // post-processing: free
        // README:end
        return new Result(budget, pcs, y);
    }

    @Test
    void theReadmeShowsExactlyTheQuickstartThatRuns() throws IOException {
        Path readme = Path.of("..", "README.md");
        Path source = Path.of("src", "test", "java", "io", "dpspectra", "docs", "ReadmeQuickstartTest.java");
        Assumptions.assumeTrue(Files.exists(readme) && Files.exists(source), "run from the dpspectra-core module");
        List<String> src = Files.readAllLines(source, StandardCharsets.UTF_8);
        String tested = src.subList(indexOf(src, "// README:begin") + 1, indexOf(src, "// README:end")).stream()
                .map(String::strip).collect(Collectors.joining("\n"));
        List<String> md = Files.readAllLines(readme, StandardCharsets.UTF_8);
        int open = indexOf(md, "```java");
        int close = open + 1;
        while (!md.get(close).strip().equals("```")) {
            close++;
        }
        String shown = md.subList(open + 1, close).stream().map(String::strip)
                .filter(l -> !l.startsWith("import ") && !l.isEmpty() && !l.startsWith(README_CSV_LINE)).collect(Collectors.joining("\n"));
        assertThat(shown).isEqualTo(tested);
    }

    private static int indexOf(List<String> lines, String marker) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().startsWith(marker)) {
                return i;
            }
        }
        throw new AssertionError("marker " + marker + " not found");
    }
}
