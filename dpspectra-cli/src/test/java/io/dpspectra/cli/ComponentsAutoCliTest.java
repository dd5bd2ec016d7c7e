package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.Json;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fit --components auto:T}: an estimator that releases all d eigenvalues (analyze-gauss, ad, it-u
 * --eigenvalues) spends the share F only on a private trace and takes k from its own eigenvalues over it; the
 * others buy a separate private spectrum. Data: 2,000 rows (3u₁, 2u₂, 0.3u₃, …, 0.3u₆), u uniform on [−1, 1],
 * norms ≤ 3.67 < the bound 4 (nothing clipped): population ratios r₁ ≈ 0.67, r₂ ≈ 0.97, so at ε = 20 the
 * private choice for T = 0.9 must equal the exact one (computed here from the data by the exact reference),
 * with a margin of 0.07 in the ratio against noise of about 0.01.
 */
class ComponentsAutoCliTest {
    @TempDir
    Path dir;

    private Path data() throws Exception {
        SplittableRandom r = new SplittableRandom(17);
        double[] scale = {3, 2, 0.3, 0.3, 0.3, 0.3};
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            for (int j = 0; j < scale.length; j++) {
                sb.append(j > 0 ? "," : "").append(scale[j] * (2 * r.nextDouble() - 1));
            }
            sb.append('\n');
        }
        return Cli.write(dir, "spiked.csv", sb.toString());
    }

    /** The exact k for threshold t, from the non-private reference's eigenvalues (XᵀX, all d). */
    private static int exactK(Path csv, double t) throws Exception {
        Cli.Result exact = Cli.run("fit", "--algorithm", "exact", "-k", "6", "--clip-norm", "4", csv.toString());
        JsonNode ev = Json.MAPPER.readTree(exact.out()).get("explainedVariance");
        double total = 0;
        for (JsonNode v : ev) {
            total += v.asDouble();
        }
        double c = 0;
        for (int k = 1; k <= ev.size(); k++) {
            c += ev.get(k - 1).asDouble();
            if (c / total >= t) {
                return k;
            }
        }
        return ev.size();
    }

    private static JsonNode fit(Path csv, String... algorithm) throws Exception {
        String[] head = {"fit", "-k", "auto:0.9", "--epsilon", "20", "--clip-norm", "4", "--seed", "3"};
        String[] args = java.util.Arrays.copyOf(head, head.length + algorithm.length + 1);
        System.arraycopy(algorithm, 0, args, head.length, algorithm.length);
        args[args.length - 1] = csv.toString();
        Cli.Result r = Cli.run(args);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("chose k = ");
        return Json.MAPPER.readTree(r.out());
    }

    @Test
    void estimatorsThatReleaseEigenvaluesBuyOnlyATraceAndChooseTheExactKAtLargeEpsilon() throws Exception {
        Path csv = data();
        int exact = exactK(csv, 0.9);
        assertThat(exact).isEqualTo(2);
        for (String[] alg : new String[][] {{"--algorithm", "analyze-gauss", "--delta", "1e-6"}, {"--algorithm", "ad"},
            {"--algorithm", "it-u", "--eigenvalues"}}) {
            JsonNode m = fit(csv, alg);
            JsonNode s = m.get("spectrum");
            assertThat(s.get("source").asText()).as(alg[1]).contains("released by " + alg[1]).contains("private trace");
            assertThat(s.get("chosenK").asInt()).as(alg[1]).isEqualTo(exact);
            assertThat(m.get("k").asInt()).isEqualTo(exact);
            assertThat(m.get("components")).hasSize(exact);
            assertThat(m.get("explainedVariance")).hasSize(exact);
            assertThat(m.get("explainedVarianceRatio")).hasSize(exact);
            assertThat(m.get("explainedVarianceUnits").asText()).contains("XᵀX");
            assertThat(s.get("eigenvalues")).hasSize(6); // all d released eigenvalues behind the choice
            // the spend: the trace (F = 0.1 of epsilon, Laplace for the pure estimators) and the estimator (0.9)
            JsonNode parts = m.get("guarantee").get("parts");
            assertThat(parts).hasSize(2);
            assertThat(parts.get(0).get("mechanism").asText()).contains("private trace")
                    .contains(alg[1].equals("analyze-gauss") ? "Gaussian" : "Laplace");
            assertThat(parts.get(0).get("epsilon").asDouble()).isCloseTo(2, Offset.offset(1e-9));
            assertThat(m.get("guarantee").get("epsilon").asDouble()).isCloseTo(20, Offset.offset(1e-9));
        }
    }

    @Test
    void anEstimatorWithoutEigenvaluesBuysASeparateSpectrum() throws Exception {
        Path csv = data();
        JsonNode m = fit(csv, "--algorithm", "it-u");
        assertThat(m.get("spectrum").get("source").asText()).contains("separate private covariance release");
        assertThat(m.get("k").asInt()).isEqualTo(exactK(csv, 0.9));
        assertThat(m.get("explainedVarianceRatio")).hasSize(m.get("k").asInt());
        assertThat(m.has("explainedVariance")).isFalse(); // it-u without --eigenvalues buys none
    }
}
