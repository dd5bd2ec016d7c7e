package io.dpspectra.pca;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * Why k-dp-pca-adaptive falls behind DP-Gauss-1 at three points of the kdp-pca reproduction (README.md in this
 * folder): the variant on App. G.1's samples A_i = V Λ Vᵀ + z_i z_iᵀ (σ = 0.025, ε = 1, δ = 0.01, the harness's
 * settings), once with App. G's step schedule η_t = 1/(20σλ_i + (λ_i − λ_{i+1}) t / ln n) for the true λ and once
 * with the schedule computed for other (public) λ. Prints ζ, how much of the first component lies in the true
 * subspace, and the clip radius R of the last step of each round. Seeded (data seeds 1000 + trial).
 *
 *   javac -cp dpspectra-cli/target/dpspectra.jar -d /tmp/probe docs/reproductions/kdp-pca/variant-step-size/StepSizeProbe.java
 *   java -cp /tmp/probe:dpspectra-cli/target/dpspectra.jar io.dpspectra.pca.StepSizeProbe D N TRUE_LAMBDAS [SCHEDULE_LAMBDAS]
 *
 * (package io.dpspectra.pca: App. G's schedule is package-private there.)
 */
public final class StepSizeProbe {
    private StepSizeProbe() {
    }

    public static void main(String[] args) {
        int d = Integer.parseInt(args[0]);
        long n = Long.parseLong(args[1]);
        double[] spikes = lambdas(args[2]);
        double[] schedule = args.length > 3 ? lambdas(args[3]) : spikes;
        double sigma = 0.025;
        double s2 = sigma * sigma;
        for (int trial = 0; trial < 3; trial++) {
            LowRankPlusRankOneSamples samples = LowRankPlusRankOneSamples.of(d, spikes, sigma, n, 1000 + trial);
            AdaptiveOjaPca variant = AdaptiveOjaPca.builder().components(spikes.length)
                    .randomSource(RandomSource.seededForReproducibility(7 + trial))
                    .publicEigenvalues(Arrays.stream(spikes).map(l -> l + s2).toArray())
                    .learningRate(LearningRate.appendixG(sigma, schedule, n)).build();
            PrivateSubspace u = variant.fit(samples, PrivacyParams.of(1, 0.01));
            Matrix v = samples.truthBasis();
            double zeta = Math.sqrt(Math.max(0, 1 - SubspaceMetrics.capturedVarianceRatio(u.components(), v, spikes, s2)));
            double inSpan = 0;
            for (int j = 0; j < spikes.length; j++) {
                double dot = 0;
                for (int i = 0; i < d; i++) {
                    dot += u.components().get(i, 0) * v.get(i, j);
                }
                inSpan += dot * dot;
            }
            StringBuilder radii = new StringBuilder();
            for (Map.Entry<String, Object> e : u.diagnostics().asMap().entrySet()) {
                if (e.getKey().endsWith("LastRadius")) {
                    radii.append(radii.length() == 0 ? "" : ", ").append(e.getValue());
                }
            }
            System.out.printf(Locale.ROOT, "d %d, n %d, lambda %s, schedule for %s, trial %d: zeta %.2g, first component"
                    + " in span(V) %.3f, last R per round %s%n", d, n, Arrays.toString(spikes), Arrays.toString(schedule),
                    trial, zeta, inSpan, radii);
        }
    }

    private static double[] lambdas(String s) {
        return Arrays.stream(s.split(",")).mapToDouble(Double::parseDouble).toArray();
    }
}
