package io.dpspectra.experiments.noisypower;

import io.dpspectra.experiments.ClaimsTable;
import io.dpspectra.experiments.Verdict;
import io.dpspectra.experiments.ReportFile;
import io.dpspectra.experiments.Reproduction;
import io.dpspectra.experiments.ResultTable;
import io.dpspectra.experiments.Summary;
import io.dpspectra.experiments.plot.BandPlot;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricOperator;
import io.dpspectra.linalg.ThinSvd;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.Coherence;
import io.dpspectra.pca.NoisyPowerMethod;
import io.dpspectra.pca.Perturbation;
import io.dpspectra.pca.PowerMethodResult;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.pca.StreamingPowerMethod;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.synthetic.GaussianData;
import io.dpspectra.synthetic.KnownSpectrum;
import io.dpspectra.synthetic.SyntheticDataset;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reproduces the claims of Hardt &amp; Price, "The Noisy Power Method" (papers/noisy-power-method.txt). The
 * paper has theorems but no plots, so each claim becomes an experiment with a CSV, a PNG and a verdict in
 * report.md:
 * <ol>
 * <li>{@code convergence}: ‖(I − X_LX_Lᵀ)U‖ against L under i.i.d. Gaussian perturbations of growing size,
 * against the ε of Cor. 1.1 (5‖G‖ ≤ ε(σ_k − σ_{k+1}));</li>
 * <li>{@code block-size}: the effect of p &gt; k at fixed noise (Cor. 1.1's √p − √(k−1));</li>
 * <li>{@code streaming}: the streaming power method's error against n on the spiked model
 * N(0, UΛ²Uᵀ + σ²I) for several σ, against n = Θ((σ⁶+1)kd/(ε²λ_k⁶)) (§1.1, Cor. 3.4);</li>
 * <li>{@code privacy}: the private power method's error against ε for matrices of one spectrum and
 * low, medium and high coherence (Thm 1.3, Thm 1.4, Thm 4.9).</li>
 * </ol>
 * All randomness is seeded from {@link Settings#seed()}; every trial draws a fresh basis, data and noise.
 */
public final class NoisyPowerReproduction implements Reproduction {
    private static final List<String> FIGURES = List.of("convergence", "lemma-2.5", "block-size", "streaming", "privacy",
            "scaling", "low-rank");

    @Override
    public String paper() {
        return "noisy-power";
    }

    @Override
    public String summary() {
        return "Hardt & Price, The Noisy Power Method: convergence under noise (Cor. 1.1), random start (Lemma 2.5), "
                + "block size p > k, streaming PCA sample complexity (Cor. 3.3), private power method vs epsilon, "
                + "coherence, d and k (Thm 1.3/1.4), private low-rank approximation (Cor. 4.3/4.6/4.7)";
    }

    @Override
    public List<String> figures() {
        return FIGURES;
    }

    /** Short verdicts for the opening table, keyed by claim; filled by the sections that run. */
    private final ClaimsTable.Findings verdicts = new ClaimsTable.Findings();

    private void verdict(String key, Verdict verdict, String detail, String where) {
        verdicts.put(key, ClaimsTable.Finding.ran(verdict, detail, where));
    }

    /** The verdict word of {@code key}'s finding (for the sections' verdict lines, so they say what the table says). */
    private String word(String key) {
        ClaimsTable.Finding f = verdicts.get(key);
        return f == null ? "not run" : f.verdict().word();
    }

    /**
     * An upper bound "value ≤ C·expression" with an unstated constant C, checked out of sample: C is the largest ratio
     * over the points with an even index ({@code ratios[point][trial]}; points in grid order), and the check is the
     * share of the trials at the odd-index points whose ratio does not exceed it. A constant fitted to all the points
     * would hold by construction; held out, it tests the expression's shape.
     */
    record HeldOut(double fitted, int fittedTrials, double worstHeldOut, int held, int of) {
        /**
         * Held-out trials allowed above the fitted constant: a new draw exceeds the largest of m draws from the same law
         * with probability 1/(m + 1), so a correct bound leaves a few held-out trials above a constant fitted on the
         * others; a wrong dependence on the swept parameter leaves many.
         */
        static final double PASS_SHARE = 0.95;

        static HeldOut of(List<double[]> ratios) {
            double c = 0;
            int m = 0;
            for (int i = 0; i < ratios.size(); i += 2) {
                for (double r : ratios.get(i)) {
                    c = Math.max(c, r);
                    m++;
                }
            }
            int held = 0;
            int of = 0;
            double worst = 0;
            for (int i = 1; i < ratios.size(); i += 2) {
                for (double r : ratios.get(i)) {
                    of++;
                    held += r <= c ? 1 : 0;
                    worst = Math.max(worst, r);
                }
            }
            return new HeldOut(c, m, worst, held, of);
        }

        /** Matches when at least {@link #PASS_SHARE} of the held-out trials stay within the fitted constant. */
        Verdict verdict() {
            if (of == 0) {
                return Verdict.NOT_ESTABLISHED;
            }
            return held >= PASS_SHARE * of ? Verdict.MATCHES : Verdict.fromShare(held, of);
        }

        String text(String what) {
            return String.format(Locale.ROOT, "%s: the constant fitted on half the points (every other one, %d trials) is "
                    + "%.3g; at the other half %d of %d trials stay within it (largest ratio there %.3g; a correct bound "
                    + "leaves about 1/(m+1) = %.1f%% above, and the check passes at %.0f%% within)", what, fittedTrials,
                    fitted, held, of, worstHeldOut, 100.0 / (fittedTrials + 1), 100 * PASS_SHARE);
        }
    }

    @Override
    public void run(Settings s) throws IOException {
        verdicts.clear();
        List<String> sections = new ArrayList<>();
        if (s.wants("convergence")) {
            sections.add(convergence(s));
        }
        if (s.wants("lemma-2.5")) {
            sections.add(randomStart(s));
        }
        if (s.wants("block-size")) {
            sections.add(blockSize(s));
        }
        if (s.wants("streaming")) {
            sections.add(streaming(s));
        }
        if (s.wants("privacy")) {
            sections.add(privacy(s));
        }
        if (s.wants("scaling")) {
            sections.add(scaling(s));
        }
        if (s.wants("low-rank")) {
            sections.add(lowRank(s));
        }
        StringBuilder md = new StringBuilder();
        md.append("# Reproduction: Hardt & Price, *The Noisy Power Method: A Meta Algorithm with Applications*\n\n");
        md.append("Paper: `papers/noisy-power-method.txt`; spec: `spec/stochastic-and-power-methods.md` §3. The paper "
                + "states theorems without plots, so each claim below is turned into an experiment. Mean curves with "
                + "95% t-bands over independent trials (fresh basis, data and noise per trial).\n\n");
        md.append(s.quick() ? "**This is a `--quick` run** (small sizes, few trials): a smoke test, not evidence.\n\n"
                : "Full run: `dpspectra reproduce noisy-power --output-dir docs/reproductions/noisy-power` (seed "
                        + s.seed() + ").\n\n");
        md.append(claimsTable().markdown());
        for (String sec : sections) {
            md.append(sec).append('\n');
        }
        ReportFile.write(paper(), s, md.toString());
    }

    /** The paper's complete list, in paper order. */
    private ClaimsTable claimsTable() {
        ClaimsTable t = new ClaimsTable();
        t.notRun("Fig. 1", "the noisy power method (NPM)", "an algorithm; implemented as NoisyPowerMethod and used by (i)–(iii)");
        add(t, "§1, Cor. 1.1", "under 5‖G‖ ≤ ε·gap and 5‖UᵀG‖ ≤ gap(√p−√(k−1))/(τ√d), ‖(I − X_LX_Lᵀ)U‖ ≤ ε after "
                + "L = O(σ_k/gap · log(dτ/ε))", "convergence", "convergence");
        add(t, "§1, after Cor. 1.1", "p = k + Ω(k) makes the ‖UᵀG‖ condition a constant; p = k needs it k times "
                + "smaller", "block-size", "block-size");
        t.notRun("Fig. 2", "the streaming power method (SPM)", "an algorithm; implemented as StreamingPowerMethod, "
                + "used by (iii)");
        t.notRun("§1.1, Cor. 1.2", "SPM with p = k + Ω(k): n = Õ(σ_k d/(ε² k (σ_k − σ_{k+1})³)) for any distribution "
                + "with P[‖z‖ > t] ≤ e^{−t}", "its spiked-model instance Cor. 3.3 is tested in (iii); an "
                + "exponentially concentrated family with a controlled gap was not built");
        t.notRun("§1.1 (example)", "power-law spectrum σ_j ≈ j^{−c}: n = Õ(k^{2c+2} d/ε²)", "an instance of Cor. 1.2, "
                + "not run for the same reason");
        t.notRun("Fig. 3", "the private power method (PPM)", "an algorithm; implemented as PrivatePowerMethod, used by "
                + "(iv)–(vi)");
        add(t, "§1.2, Thm 1.3 (ε)", "error O(σ·max‖X_ℓ‖∞·√(d log L)/gap · √p/(√p−√(k−1))), σ ∝ 1/ε", "privacy-eps",
                "privacy");
        add(t, "§1.2, Thm 1.3 (d, k)", "the same bound's √d and √p·√p/(√p−√(k−1)) dependence", "scaling", "scaling");
        add(t, "§1.2, Thm 1.4", "error O(σ√(μ(A) log d log L)/gap · …): low coherence, smaller error", "privacy-mu",
                "privacy");
        t.notRun("§1.2 (text)", "Thm 1.3's d-dependence is best possible in the worst case; KT13 lower bound matched up "
                + "to Õ(√k)", "lower bounds, not measurable by running the algorithm");
        add(t, "§1.4, Conj. 1.5", "for p > k the rate and noise tolerance use σ_k − σ_{p+1}", "conj-1.5", "block-size");
        t.notRun("§1.4, Conj. 1.6", "with p = 2k, ‖(I − X_LX_Lᵀ)A‖ ≤ σ_{k+1} + O(ε) without an eigengap",
                "a conjecture with unspecified constants; (vi) measures the related ‖A − B‖ of Cor. 4.3");
        t.notRun("§2, Lemma 2.3 / Thm 2.4", "per-step contraction of tan θ_k under the noise conditions",
                "tested through its consequence Cor. 1.1 in (i) (the measured per-step rate is reported there)");
        add(t, "§2, Lemma 2.5", "random start: tan θ_k(U, X_0) ≤ τ√d/(√p − √(k−1)) w.p. 1 − τ^{−Ω(p+1−k)} − e^{−Ω(d)}",
                "lemma-2.5", "lemma-2.5");
        t.notRun("§3, Def. 3.1 / Thm 3.2", "SPM sample complexity for (B, p)-round distributions",
                "tested through its spiked-model instance Cor. 3.3 in (iii)");
        add(t, "§3, Cor. 3.3", "spiked model, p = 2k: n = Õ((λ₁²+σ²)²(λ_k²+σ²)dk/(ε²λ_k⁶)) = Õ((σ⁶+1)dk/ε²)",
                "streaming", "streaming");
        t.notRun("§3, Cor. 3.4", "exponentially concentrated distributions (B = d/p)", "same reason as Cor. 1.2");
        t.notRun("§3, Lemmas 3.5, 3.6", "the per-iteration sampling error bounds", "proof steps; their consequence is "
                + "Cor. 3.3");
        t.notRun("§4, Lemma 4.5", "PPM is (ε, δ)-DP (Gaussian) / (ε, 0)-DP (Laplace) under unit spectral-norm changes",
                "a privacy proof; audited empirically in the core tests (PrivatePowerMethodAuditTest)");
        add(t, "§4.1, Cor. 4.3", "(ε, δ) entry-level: rank-2k B with ‖A − B‖ ≤ σ_{k+1} + Õ(σ₁√((k/γ)d log d "
                + "log(1/δ))/(ε(σ_k − σ_{k+1})))", "cor-4.3", "low-rank");
        add(t, "§4.2, Cor. 4.6", "the same under unit spectral-norm changes", "cor-4.6", "low-rank");
        add(t, "§4.2, Cor. 4.7", "(ε, 0) Laplace: ‖A − B‖ ≤ σ_{k+1} + Õ(σ₁k^{1.5} d log d log(d/γ)/(εγ(σ_k − σ_{k+1})))",
                "cor-4.7", "low-rank");
        add(t, "§4.3, Thm 4.9", "iterates are incoherent: max‖X_ℓ‖∞ = O(√(μ(A) log d/d))", "thm-4.9", "privacy");
        t.notRun("§4.3, Lemmas 4.11–4.14; App. A", "QR symmetry lemmas, Chernoff and Gaussian/Laplace norm bounds",
                "proof tools");
        return t;
    }

    private void add(ClaimsTable t, String item, String claim, String key, String figure) {
        t.row(item, claim, verdicts, key, "this run did not include --figure " + figure);
    }

    // ------------------------------------------------------------------ (i) convergence

    private String convergence(Settings s) throws IOException {
        int d = s.quick() ? 100 : 200;
        int k = 3;
        int p = 2 * k;
        int lMax = s.quick() ? 30 : 40;
        int trials = s.trialsOr(20, 3);
        double[] top = {10, 9, 8};
        double tail = 5;
        double gap = top[k - 1] - tail;
        double[] targets = {1e-4, 1e-3, 1e-2, 0.1, 0.4};
        ResultTable table = new ResultTable(ResultTable.withSummaryColumns("noise_sigma", "cor11_epsilon_mean",
                "iteration"));
        BandPlot plot = BandPlot.titled("(i) NPM convergence under Gaussian noise (d=" + d + ", k=" + k + ", p=" + p
                + ")", "iteration L", "||(I - X_L X_L^T) U||").logY();
        StringBuilder rows = new StringBuilder();
        rows.append("| noise σ_G | Cor. 1.1 ε = 5 max‖G‖/gap (mean) | 5 max‖UᵀG‖ vs gap(√p−√(k−1))/√d | residual at L = ")
                .append(lMax).append(" (mean [95% band]) | max over trials | ≤ ε in every trial | first L with mean ≤ ε |\n");
        rows.append("|---|---|---|---|---|---|---|\n");
        boolean allFollow = true;
        double earlyRate = Double.NaN;
        for (int t = 0; t < targets.length; t++) {
            double sigmaG = targets[t] * gap / (5 * (Math.sqrt(d) + Math.sqrt(p)));
            double[][] res = new double[lMax][trials];
            double[][] tans = new double[lMax][trials];
            double[] eps = new double[trials];
            double[] uCond = new double[trials];
            for (int tr = 0; tr < trials; tr++) {
                RandomSource r = RandomSource.seededForReproducibility(s.seed() + 1000L * t + tr);
                Matrix q = KnownSpectrum.randomBasis(d, d, r);
                Matrix u = q.leadingColumns(k);
                Matrix a = KnownSpectrum.symmetric(q, KnownSpectrum.spectrum(d, top, tail));
                double[] maxG = new double[2];
                Perturbation gauss = Perturbation.gaussian(sigmaG);
                Perturbation recording = (l, x, rnd) -> {
                    Matrix g = gauss.perturbation(l, x, rnd);
                    maxG[0] = Math.max(maxG[0], ThinSvd.of(g).singular()[0]);
                    maxG[1] = Math.max(maxG[1], ThinSvd.of(u.transposeTimes(g)).singular()[0]);
                    return g;
                };
                PowerMethodResult out = NoisyPowerMethod.builder().components(k).blockSize(p).iterations(lMax)
                        .perturbation(recording).randomSource(r).trackAnglesTo(u).build()
                        .run(SymmetricOperator.dense(a));
                for (int l = 0; l < lMax; l++) {
                    res[l][tr] = out.trace().get(l).sinThetaK();
                    tans[l][tr] = out.trace().get(l).tanThetaK();
                }
                eps[tr] = 5 * maxG[0] / gap;
                uCond[tr] = 5 * maxG[1] / (gap * (Math.sqrt(p) - Math.sqrt(k - 1)) / Math.sqrt(d));
            }
            double epsMean = mean(eps);
            Summary[] sums = new Summary[lMax];
            double[] x = new double[lMax];
            int firstBelow = -1;
            for (int l = 0; l < lMax; l++) {
                sums[l] = Summary.of(res[l]);
                x[l] = l + 1;
                table.addSummary(sums[l], sigmaG, epsMean, l + 1);
                if (firstBelow < 0 && sums[l].mean() <= epsMean) {
                    firstBelow = l + 1;
                }
            }
            if (t == 0) {
                // geometric rate while the noise is negligible: median ratio of successive tan θ_k, steps 6..15
                double[] ratios = new double[10];
                for (int l = 5; l < 15; l++) {
                    ratios[l - 5] = Summary.of(tans[l]).median() / Summary.of(tans[l - 1]).median();
                }
                earlyRate = Summary.of(ratios).median();
            }
            boolean every = true;
            double worst = 0;
            for (int tr = 0; tr < trials; tr++) {
                every &= res[lMax - 1][tr] <= eps[tr];
                worst = Math.max(worst, res[lMax - 1][tr]);
            }
            allFollow &= every || epsMean >= 0.5;
            logSeries(plot, String.format(Locale.ROOT, "sigma_G=%.2g (eps=%.2g)", sigmaG, epsMean), x, sums);
            Summary last = sums[lMax - 1];
            rows.append(String.format(Locale.ROOT, "| %.3g | %.3g | %.2f | %.3g [%.3g, %.3g] | %.3g | %s | %s |%n",
                    sigmaG, epsMean, mean(uCond), last.mean(), last.lower(), last.upper(), worst, every ? "yes" : "no",
                    firstBelow < 0 ? "never" : Integer.toString(firstBelow)));
        }
        table.write(s.outputDir().resolve("convergence.csv"));
        plot.writePng(s.outputDir().resolve("convergence.png"));
        s.progress().accept("convergence done");
        double lPred = top[k - 1] / gap * Math.log(d / 1e-3);
        verdict("convergence", allFollow ? Verdict.MATCHES : Verdict.CONTRADICTED, trials + " trials per point: "
                + String.format(Locale.ROOT, "wherever the noise condition holds with ε < 1/2 the final residual is "
                        + "below ε in %s trial; per-step rate %.3f vs σ_{k+1}/σ_k = %.3f (Thm 2.4)", allFollow ? "every"
                        : "not every", earlyRate, tail / top[k - 1]), "convergence.png, §(i)");
        return "## (i) Convergence under Gaussian noise — Corollary 1.1\n\n"
                + "Setting: A = Q diag(10, 9, 8, 5, …, 5) Qᵀ with Q uniformly random, d = " + d + ", k = " + k + ", p = "
                + p + " (gap σ_k − σ_{k+1} = " + gap + "), random X_0, G_ℓ i.i.d. N(0, σ_G²) with σ_G chosen so that "
                + "5‖G‖ ≈ ε·gap for ε ∈ {1e-4, 1e-3, 1e-2, 0.1, 0.4}; " + trials + " trials. The ε column is measured: "
                + "5·max_ℓ‖G_ℓ‖/gap per trial. The third column is 5 max‖UᵀG‖ divided by gap(√p−√(k−1))/√d (Cor. 1.1's "
                + "second condition with τ = 1 holds when it is ≤ 1).\n\n"
                + rows + "\n"
                + String.format(Locale.ROOT, "Geometric rate (smallest noise, median ratio of successive tan θ_k(U, X_ℓ), iterations 6–15): "
                        + "%.3f; the noiseless power method contracts tan θ_k by σ_{k+1}/σ_k = %.3f per step. The "
                        + "corollary's L = O(σ_k/gap · log(dτ/ε)) is %.1f·C for ε = 1e-3 (τ = 1).%n%n", earlyRate,
                        tail / top[k - 1], lPred)
                + "**Verdict: " + word("convergence") + ".** " + (allFollow ? "Wherever Cor. 1.1's noise condition holds with ε < 1/2, the final residual is "
                        + "below that ε in every trial, and the residual plateaus at a level proportional to the noise."
                        : "Some trial ended above the corollary's ε although its condition held; see the table.")
                + "\n\n![convergence](convergence.png)\n";
    }

    // ------------------------------------------------------------------ (ii) block size

    /** Cor. 1.1's ‖UᵀG‖ threshold over σ_G·gap for block size p, with E‖UᵀG‖ ≈ σ_G(√k + √p) for Gaussian G. */
    private static double uCondition(int p, int k, int d) {
        return (Math.sqrt(p) - Math.sqrt(k - 1)) / (5 * Math.sqrt(d) * (Math.sqrt(k) + Math.sqrt(p)));
    }

    private String blockSize(Settings s) throws IOException {
        int d = s.quick() ? 100 : 200;
        int k = 4;
        int[] ps = s.quick() ? new int[] {4, 6, 8, 16} : new int[] {4, 5, 6, 8, 12, 16};
        int[] budgets = s.quick() ? new int[] {10, 60} : new int[] {10, 60, 200};
        int trials = s.trialsOr(20, 3);
        double[] eig = new double[d];
        for (int i = 0; i < d; i++) {
            eig[i] = 10 * Math.pow(0.85, i);
        }
        double gap = eig[k - 1] - eig[k];
        // the noise level where the theory separates p = k from p = 2k: between the ‖UᵀG‖ thresholds of the two
        double sigmaG = gap * Math.sqrt(uCondition(k, k, d) * uCondition(2 * k, k, d));
        ResultTable table = new ResultTable(ResultTable.withSummaryColumns("noise_sigma", "iterations", "measure", "p"));
        BandPlot plot = BandPlot.titled("(ii) block size p >= k at fixed noise (d=" + d + ", k=" + k + ")",
                "block size p", "error").logY();
        StringBuilder rows = new StringBuilder("| L | measure |");
        for (int p : ps) {
            rows.append(" p = ").append(p).append(" |");
        }
        rows.append("\n|---|---|").append("---|".repeat(ps.length)).append('\n');
        boolean[] better = new boolean[budgets.length];
        double[] improvement = new double[budgets.length];
        double[] x = new double[ps.length];
        for (int ip = 0; ip < ps.length; ip++) {
            x[ip] = ps[ip];
        }
        double[] condRatio = new double[ps.length];
        double[] epsMeasured = new double[ps.length];
        for (int ib = 0; ib < budgets.length; ib++) {
            int lMax = budgets[ib];
            Summary[] resid = new Summary[ps.length];
            Summary[] topk = new Summary[ps.length];
            for (int ip = 0; ip < ps.length; ip++) {
                double[] r1 = new double[trials];
                double[] r2 = new double[trials];
                double[] cond = new double[trials];
                double[] epsT = new double[trials];
                int p = ps[ip];
                for (int tr = 0; tr < trials; tr++) {
                    RandomSource r = RandomSource.seededForReproducibility(s.seed() + 50_000L + 1000L * ib + tr);
                    Matrix q = KnownSpectrum.randomBasis(d, d, r);
                    Matrix u = q.leadingColumns(k);
                    Matrix a = KnownSpectrum.symmetric(q, eig);
                    double[] maxG = new double[2];
                    Perturbation gauss = Perturbation.gaussian(sigmaG);
                    Perturbation recording = (l, xx, rnd) -> {
                        Matrix g = gauss.perturbation(l, xx, rnd);
                        if (l <= 10) { // the condition is per step; its maximum is reached early (i.i.d. steps)
                            maxG[0] = Math.max(maxG[0], ThinSvd.of(g).singular()[0]);
                            maxG[1] = Math.max(maxG[1], ThinSvd.of(u.transposeTimes(g)).singular()[0]);
                        }
                        return g;
                    };
                    PowerMethodResult out = NoisyPowerMethod.builder().components(k).blockSize(p).iterations(lMax)
                            .perturbation(recording).randomSource(r).build().run(SymmetricOperator.dense(a));
                    r1[tr] = SubspaceMetrics.projectionResidual(out.basis(), u);
                    r2[tr] = SubspaceMetrics.sinTheta(out.components(), u);
                    cond[tr] = 5 * maxG[1] / (gap * (Math.sqrt(p) - Math.sqrt(k - 1)) / Math.sqrt(d));
                    epsT[tr] = 5 * maxG[0] / gap;
                }
                resid[ip] = Summary.of(r1);
                topk[ip] = Summary.of(r2);
                if (ib == 0) {
                    condRatio[ip] = mean(cond);
                    epsMeasured[ip] = mean(epsT);
                }
                table.addSummary(resid[ip], sigmaG, lMax, "residual of X_L (p columns)", ps[ip]);
                table.addSummary(topk[ip], sigmaG, lMax, "sin theta_k of top-k of X_L", ps[ip]);
            }
            logSeries(plot, "X_L residual, L=" + lMax, x, resid);
            logSeries(plot, "top-k sin, L=" + lMax, x, topk);
            rows.append("| ").append(lMax).append(" | ‖(I − X_LX_Lᵀ)U‖ |");
            for (Summary sm : resid) {
                rows.append(String.format(Locale.ROOT, " %.3g [%.3g, %.3g] |", sm.mean(), sm.lower(), sm.upper()));
            }
            rows.append("\n| ").append(lMax).append(" | sin θ_k(top-k of X_L, U) |");
            for (Summary sm : topk) {
                rows.append(String.format(Locale.ROOT, " %.3g |", sm.mean()));
            }
            rows.append('\n');
            int i2k = indexOf(ps, 2 * k);
            better[ib] = resid[i2k].upper() < resid[0].lower();
            improvement[ib] = resid[0].mean() / resid[i2k].mean();
        }
        rows.append("| – | Cor. 1.1 condition 5 max‖UᵀG‖ / (gap(√p−√(k−1))/√d) (≤ 1: holds, τ = 1) |");
        for (double c : condRatio) {
            rows.append(String.format(Locale.ROOT, " %.2f |", c));
        }
        rows.append("\n| – | Cor. 1.1 ε = 5 max‖G‖/gap |");
        for (double c : epsMeasured) {
            rows.append(String.format(Locale.ROOT, " %.3f |", c));
        }
        rows.append('\n');
        table.write(s.outputDir().resolve("block-size.csv"));
        plot.writePng(s.outputDir().resolve("block-size.png"));
        s.progress().accept("block-size done");
        int i2k = indexOf(ps, 2 * k);
        boolean separates = condRatio[0] > 1 && condRatio[i2k] <= 1;
        double rateK = eig[k] / eig[k - 1];
        double rate2k = eig[2 * k] / eig[k - 1];
        int last = budgets.length - 1;
        String rateText = String.format(Locale.ROOT, "The L = %d gain (%.3g×) is the rate effect of Conjecture 1.5: "
                + "with p > k the block contracts at σ_{p+1}/σ_k (%.3f for p = 2k) instead of σ_{k+1}/σ_k (%.3f), so "
                + "after %d noiseless steps the two differ by (%.3f/%.3f)^%d = %.3g — not the noise condition of "
                + "Cor. 1.1.", budgets[0], improvement[0], rate2k, rateK, budgets[0], rateK, rate2k, budgets[0],
                Math.pow(rateK / rate2k, budgets[0]));
        verdict("block-size", better[last] ? Verdict.MATCHES : separates ? Verdict.PARTLY : Verdict.NOT_SUPPORTED,
                (better[last] ? "" : separates ? "the condition separates, the error does not: "
                : "not tested, the condition does not separate: ") + String.format(
                Locale.ROOT, "at σ_G = %.3g the ‖UᵀG‖ condition %s (ratio %.2f at p = k, %.2f at p = 2k); after "
                + "L = %d the residual at p = k is %.3g× that at p = 2k (%s); the condition is sufficient, not "
                + "necessary", sigmaG, separates ? "fails for p = k and holds for p = 2k" : "does not separate the two",
                condRatio[0], condRatio[i2k], budgets[last], improvement[last], better[last]
                        ? "significant" : "bands overlap: p = k also reaches the noise floor"), "block-size.png, §(ii)");
        verdict("conj-1.5", better[0] ? Verdict.MATCHES_IN_KIND : Verdict.NOT_SUPPORTED, String.format(
                Locale.ROOT, "at L = %d p = 2k beats p = k by %.3g×; the noiseless rate ratio (σ_{k+1}/σ_{p+1})^L of the "
                + "conjecture's gap σ_k − σ_{p+1} is %.3g, and the gain is capped below it because the p = 2k iterate "
                + "already sits at the noise floor (see the L = %d row)", budgets[0], improvement[0],
                Math.pow(rateK / rate2k, budgets[0]), budgets[budgets.length - 1]), "block-size.png, §(ii)");
        StringBuilder ratios = new StringBuilder();
        for (int ib = 0; ib < budgets.length; ib++) {
            ratios.append(ib > 0 ? ", " : "").append(String.format(Locale.ROOT, "%.3g (L = %d)", improvement[ib],
                    budgets[ib]));
        }
        return "## (ii) Block size p > k at fixed noise — Corollary 1.1, Theorem 1.3, Conjecture 1.5\n\n"
                + "Setting: A = Q diag(10·0.85^(i−1)) Qᵀ (a decaying spectrum, σ_{k+1}/σ_k = 0.85), Q uniformly random, d = "
                + d + ", k = " + k + ", after L ∈ " + java.util.Arrays.toString(budgets) + " iterations, " + trials
                + " trials per point. The noise level is chosen where the theory separates p = k from p = 2k: "
                + "Cor. 1.1's second condition 5‖UᵀG‖ ≤ gap(√p − √(k−1))/(τ√d) with E‖UᵀG‖ ≈ σ_G(√k + √p) has the "
                + String.format(Locale.ROOT, "threshold σ_G ≤ %.3g at p = k and σ_G ≤ %.3g at p = 2k (τ = 1); we use "
                        + "their geometric mean σ_G = %.3g, so the condition fails for p = k and holds for p = 2k (the "
                        + "measured ratios are in the last rows). The paper's claim: p = k + Ω(k) makes the factor "
                        + "√p/(√p − √(k−1)) a constant — a random start is better correlated with U (Lemma 2.5, §(i′)) "
                        + "and the condition on ‖UᵀG‖ is about k times weaker. We report the paper's measure ‖(I − "
                        + "X_LX_Lᵀ)U‖ (mean [95%% band]) for the whole p-column X_L and, for users, sin θ_k of the "
                        + "ordered top-k columns of X_L.%n%n", gap * uCondition(k, k, d), gap * uCondition(2 * k, k, d),
                        sigmaG)
                + rows + "\n"
                + "Residual at p = k divided by residual at p = 2k: " + ratios + ".\n\n"
                + "**Verdict: " + word("block-size") + ".** " + rateText + " "
                + (better[last] ? "After " + budgets[last] + " iterations p = 2k is still significantly better: where "
                        + "the condition fails for p = k the noise keeps its iterate away from U. "
                        : "After " + budgets[last] + " iterations, although Cor. 1.1's condition fails for p = k, p = k "
                        + "reaches the same noise floor as p = 2k: the ‖UᵀG‖ condition is a worst-case sufficient "
                        + "condition, and i.i.d. Gaussian noise does not systematically destroy the initial "
                        + "correlation. The separation the theory draws is therefore not visible in the error itself. ")
                + "\n\n![block-size](block-size.png)\n";
    }

    // ------------------------------------------------------------------ (iii) streaming

    private String streaming(Settings s) throws IOException {
        int d = s.quick() ? 50 : 100;
        int k = 2;
        int p = 2 * k;
        double[] sigmas = s.quick() ? new double[] {0.5, 1} : new double[] {0.5, 1, 1.5, 2};
        long[] ns = s.quick() ? new long[] {1_000, 4_000, 16_000}
                : new long[] {2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000};
        int trials = s.trialsOr(10, 2);
        double target = 0.25;
        ResultTable table = new ResultTable(ResultTable.withSummaryColumns("sigma", "iterations", "n"));
        BandPlot plot = BandPlot.titled("(iii) streaming PCA, spiked model (d=" + d + ", k=" + k + ", p=" + p + ")",
                "samples n", "||(I - X_L X_L^T) U||").logX().logY();
        StringBuilder rows = new StringBuilder("| σ | L | noiseless floor after L steps | log-log slope of error vs n | n for error ")
                .append(target).append(" | (σ⁶+1) | n/(σ⁶+1) | (1+σ²)³ | n/(1+σ²)³ |\n|---|---|---|---|---|---|---|---|---|\n");
        double tan0 = Math.sqrt(d) / (Math.sqrt(p) - Math.sqrt(k - 1));
        double floorTarget = 1e-3;
        List<String> outliers = new ArrayList<>();
        double[] nEps = new double[sigmas.length];
        double[] slopes = new double[sigmas.length];
        for (int is = 0; is < sigmas.length; is++) {
            double sigma = sigmas[is];
            // enough iterations that the noiseless convergence floor (σ²/(1+σ²))^L·tan θ_k(U, X_0) is below 1e-3,
            // far below every measured error (and at least the paper's L = (1+σ²) ln d)
            double rate = sigma * sigma / (1 + sigma * sigma);
            int iterations = (int) Math.max(Math.ceil((1 + sigma * sigma) * Math.log(d)),
                    Math.ceil(Math.log(tan0 / floorTarget) / -Math.log(rate)));
            double floor = Math.pow(rate, iterations) * tan0;
            Summary[] sums = new Summary[ns.length];
            double[] x = new double[ns.length];
            for (int in = 0; in < ns.length; in++) {
                double[] err = new double[trials];
                for (int tr = 0; tr < trials; tr++) {
                    long seed = s.seed() + 100_000L + 10_000L * is + 100L * in + tr;
                    // [HP] spiked model N(0, UΛ²Uᵀ + σ²I) with Λ = I_k: GaussianData with eigenvalues λ² = 1, s0 = σ
                    SyntheticDataset data = GaussianData.of(d, new double[] {1, 1}, sigma).sample(ns[in], seed);
                    PowerMethodResult out = StreamingPowerMethod.builder().components(k).blockSize(p)
                            .iterations(iterations).randomSource(RandomSource.seededForReproducibility(seed + 7)).build()
                            .run(data.rows(), ns[in]);
                    err[tr] = SubspaceMetrics.projectionResidual(out.basis(), data.truthBasis());
                }
                sums[in] = Summary.of(err);
                x[in] = ns[in];
                for (int tr = 0; tr < trials; tr++) {
                    if (err[tr] > 3 * sums[in].median()) {
                        outliers.add(String.format(Locale.ROOT, "σ = %.2g, n = %d, trial %d: %.3g (median %.3g)", sigma,
                                ns[in], tr, err[tr], sums[in].median()));
                    }
                }
                table.addSummary(sums[in], sigma, iterations, ns[in]);
            }
            logSeries(plot, String.format(Locale.ROOT, "sigma=%.2g (L=%d)", sigma, iterations), x, sums);
            slopes[is] = slope(x, sums, 0.5);
            nEps[is] = crossing(x, sums, target);
            double s6 = Math.pow(sigma, 6) + 1;
            double c3 = Math.pow(1 + sigma * sigma, 3);
            rows.append(String.format(Locale.ROOT, "| %.2g | %d | %.1e | %.2f | %s | %.3g | %s | %.3g | %s |%n", sigma,
                    iterations, floor, slopes[is], fmt(nEps[is]), s6, fmt(nEps[is] / s6), c3, fmt(nEps[is] / c3)));
            s.progress().accept("streaming sigma=" + sigma + " done");
        }
        table.write(s.outputDir().resolve("streaming.csv"));
        plot.writePng(s.outputDir().resolve("streaming.png"));
        boolean slopeOk = true;
        for (double sl : slopes) {
            slopeOk &= Double.isNaN(sl) || Math.abs(sl + 0.5) < 0.15;
        }
        double spreadS6 = spread(nEps, sigmas, true);
        double spreadC3 = spread(nEps, sigmas, false);
        boolean growth = !Double.isNaN(spreadS6) && spreadS6 < 4;
        verdict("streaming", slopeOk && growth ? Verdict.MATCHES : Verdict.PARTLY, String.format(
                Locale.ROOT, "slopes of error vs n %s (predicted −0.5); n for error %.2f spreads %s× relative to "
                + "σ⁶+1 and %s× relative to (1+σ²)³ over σ ∈ %s", java.util.Arrays.toString(
                        java.util.Arrays.stream(slopes).map(v -> Math.round(v * 100) / 100.0).toArray()), target,
                fmt(spreadS6), fmt(spreadC3), java.util.Arrays.toString(sigmas)), "streaming.png, §(iii)");
        return "## (iii) Streaming PCA sample complexity — §1.1, Corollary 3.3\n\n"
                + "Setting: rows z ~ N(0, UΛ²Uᵀ + σ²I) with Λ = I_k (λ_1 = λ_k = 1), d = " + d + ", k = " + k + ", p = 2k = "
                + p + ", L = max(⌈(1+σ²) ln d⌉, the L that puts the noiseless floor (σ²/(1+σ²))^L·√d/(√p−√(k−1)) below "
                + "1e-3) — the paper's L = O(σ_k/gap · log(d/ε)) with σ_k/gap = (1+σ²)/λ_k², with enough iterations "
                + "that the convergence floor lies far below every measured error (a shorter L flattened the σ ≥ 1.5 "
                + "slopes of an earlier run to −0.41), "
                + trials + " trials per point; one pass, T = ⌊n/L⌋ rows per iteration. The paper's claim: error ≤ ε once "
                + "n = Θ((σ⁶+1)kd/(ε²λ_k⁶)), i.e. error ∝ n^(−1/2) and the n needed for a fixed error grows like σ⁶+1 "
                + "(the O~ hides logarithmic factors) — §1.1's simplification of Cor. 3.3, whose own form is "
                + "(λ₁²+σ²)²(λ_k²+σ²)/λ_k⁶ = (1+σ²)³ here.\n\n"
                + rows + "\n"
                + String.format(Locale.ROOT, "Spread (max/min) of n/(σ⁶+1) over σ: %s; of n/(1+σ²)³: %s. Slopes are "
                        + "fitted where the mean error is below 0.5.%n%n", fmt(spreadS6), fmt(spreadC3))
                + (outliers.isEmpty() ? "No outlier trial (none above 3× its point's median).\n\n"
                        : "Outlier trials (error above 3× the median of their point; they widen the band of that point "
                        + "and pull its mean up — the CSV's median column is robust to them): " + String.join("; ",
                        outliers) + ".\n\n")
                + "**Verdict: " + word("streaming") + ".** " + (slopeOk ? "The error falls as n^(−1/2) for every σ (slopes near −0.5). " : "Some fitted slopes "
                        + "differ from −0.5 by more than 0.15. ")
                + (growth ? "The samples needed for a fixed error grow with σ at the rate of σ⁶+1 up to a constant factor "
                        + "below 4 across the σ grid, which is what a Θ-statement can be checked for. "
                        : "The samples needed for a fixed error vary by a factor " + fmt(spreadS6) + " relative to σ⁶+1 "
                        + "across the grid (more than the factor 4 we accept as 'constant'). ")
                + (spreadC3 < spreadS6 ? "Their growth is closer to (1+σ²)³ = (λ₁²+σ²)²(λ_k²+σ²)/λ_k⁶, the form the proof "
                        + "of Cor. 3.3 states, than to σ⁶+1: the two agree for σ ≫ 1 and differ at σ ≤ 1 (the §1.1 "
                        + "simplification (λ₁²+σ²)³ ≤ O(σ⁶+1) hides a factor up to 8 there). The σ-dependent L and the "
                        + "logarithmic factors of the O~ also enter the constant."
                        : "")
                + "\n\n![streaming](streaming.png)\n";
    }

    // ------------------------------------------------------------------ (iv) private power method

    private String privacy(Settings s) throws IOException {
        int d = s.quick() ? 128 : 256;
        int k = 4;
        int p = 2 * k;
        int iterations = 10;
        double delta = 1e-6;
        double[] epsilons = s.quick() ? new double[] {0.5, 2, 8} : new double[] {0.25, 0.5, 1, 2, 4, 8, 16};
        int trials = s.trialsOr(20, 3);
        double[] eig = new double[d];
        double[] top = {1000, 900, 800, 700};
        for (int i = 0; i < d; i++) {
            eig[i] = i < k ? top[i] : 100.0 * (d - i) / (d - k);
        }
        double gap = top[k - 1] - eig[k];
        String[] bases = {"Hadamard (low coherence)", "random (medium)", "standard (high coherence)"};
        ResultTable table = new ResultTable(ResultTable.withSummaryColumns("basis", "coherence_mu", "epsilon",
                "measure"));
        BandPlot plot = BandPlot.titled("(iv) private power method (d=" + d + ", k=" + k + ", p=" + p + ", L="
                + iterations + ", delta=1e-6)", "epsilon", "||(I - X_L X_L^T) U||").logX().logY();
        StringBuilder rows = new StringBuilder("| basis | μ(A) | measure |");
        for (double e : epsilons) {
            rows.append(" ε = ").append(e).append(" |");
        }
        rows.append("\n|---|---|---|").append("---|".repeat(epsilons.length)).append('\n');
        Summary[][] err = new Summary[bases.length][epsilons.length];
        double[] mus = new double[bases.length];
        double[][] boundRatio = new double[bases.length][epsilons.length];
        List<double[]> thm13Ratios = new ArrayList<>();
        List<double[]> thm49 = new ArrayList<>();
        for (int b = 0; b < bases.length; b++) {
            Matrix q0 = b == 0 ? KnownSpectrum.hadamard(d) : b == 2 ? Matrix.identity(d) : null;
            Summary[] maxAbs = new Summary[epsilons.length];
            for (int ie = 0; ie < epsilons.length; ie++) {
                double[] e = new double[trials];
                double[] m = new double[trials];
                double[] ratio = new double[trials];
                for (int tr = 0; tr < trials; tr++) {
                    RandomSource r = RandomSource.seededForReproducibility(s.seed() + 300_000L + 10_000L * b
                            + 100L * ie + tr);
                    Matrix q = q0 != null ? q0 : KnownSpectrum.randomBasis(d, d, r);
                    Matrix a = KnownSpectrum.symmetric(q, eig);
                    if (ie == 0 && tr == 0) {
                        mus[b] = Coherence.of(a);
                    }
                    Matrix u = q.leadingColumns(k);
                    PrivacyParams budget = PrivacyParams.of(epsilons[ie], delta);
                    // Fig. 3's sigma: the figure and Thm 1.4's expression are the paper's (the library's default is
                    // the smaller, exactly composed sigma)
                    PowerMethodResult out = PrivatePowerMethod.builder().components(k).blockSize(p)
                            .iterations(iterations).calibration(PrivatePowerMethod.Calibration.PAPER).randomSource(r)
                            .build().iterate(SymmetricOperator.dense(a), budget);
                    e[tr] = SubspaceMetrics.projectionResidual(out.basis(), u);
                    double mx = out.basis().maxAbs();
                    for (PowerMethodResult.Iteration it : out.trace()) {
                        mx = Math.max(mx, it.previousMaxAbs());
                    }
                    m[tr] = mx;
                    double sigma = PrivatePowerMethod.sigma(p, iterations, budget);
                    double thm13 = sigma * mx * Math.sqrt(d * Math.log(iterations)) / gap * Math.sqrt(p)
                            / (Math.sqrt(p) - Math.sqrt(k - 1));
                    ratio[tr] = e[tr] / thm13;
                }
                err[b][ie] = Summary.of(e);
                maxAbs[ie] = Summary.of(m);
                thm13Ratios.add(ratio.clone());
                double rate = Math.sqrt(mus[b] * Math.log(d) / d);
                thm49.add(java.util.Arrays.stream(m).map(v -> v / rate).toArray());
                boundRatio[b][ie] = Summary.of(ratio).median();
                table.addSummary(err[b][ie], bases[b], mus[b], epsilons[ie], "residual");
                table.addSummary(maxAbs[ie], bases[b], mus[b], epsilons[ie], "max_l ||X_l||_inf");
            }
            logSeries(plot, String.format(Locale.ROOT, "%s, mu=%.3g", bases[b], mus[b]), epsilons, err[b]);
            rows.append(String.format(Locale.ROOT, "| %s | %.3g | residual |", bases[b], mus[b]));
            for (Summary sm : err[b]) {
                rows.append(String.format(Locale.ROOT, " %.3g |", sm.mean()));
            }
            rows.append(String.format(Locale.ROOT, "%n| %s | %.3g | max‖X_ℓ‖∞ (Thm 4.9: √(μ ln d/d) = %.3g) |", bases[b],
                    mus[b], Math.sqrt(mus[b] * Math.log(d) / d)));
            for (Summary sm : maxAbs) {
                rows.append(String.format(Locale.ROOT, " %.3g |", sm.mean()));
            }
            rows.append(String.format(Locale.ROOT, "%n| %s | %.3g | residual / Thm 1.3 expression (median) |", bases[b],
                    mus[b]));
            for (double br : boundRatio[b]) {
                rows.append(String.format(Locale.ROOT, " %.3g |", br));
            }
            rows.append('\n');
            s.progress().accept("privacy basis " + bases[b] + " done");
        }
        table.write(s.outputDir().resolve("privacy.csv"));
        plot.writePng(s.outputDir().resolve("privacy.png"));
        // claims: error decreases with epsilon; low coherence beats high coherence wherever not saturated
        boolean monotone = true;
        for (Summary[] row : err) {
            for (int ie = 1; ie < row.length; ie++) {
                monotone &= row[ie].mean() <= row[ie - 1].mean() * 1.05 || row[ie - 1].mean() < 1e-3;
            }
        }
        boolean coherenceOrder = true;
        int compared = 0;
        for (int ie = 0; ie < epsilons.length; ie++) {
            if (err[2][ie].mean() < 0.9) {
                compared++;
                coherenceOrder &= err[0][ie].upper() < err[2][ie].lower();
            }
        }
        double slope = slopeOver(epsilons, err[0]);
        HeldOut bound13 = HeldOut.of(thm13Ratios);
        boolean shape = monotone && Math.abs(slope + 1) < 0.2;
        verdict("privacy-eps", shape ? bound13.verdict() : Verdict.PARTLY, String.format(Locale.ROOT, "%d trials per "
                + "point: error falls with ε for %s basis; log-log slope %.2f (predicted −1); %s; the medians are %.2f–%.2f "
                + "× the expression", trials, monotone ? "every" : "not every", slope,
                bound13.text("residual / Thm 1.3 expression"), range(boundRatio)[0], range(boundRatio)[1]),
                "privacy.png, §(iv)");
        verdict("privacy-mu", coherenceOrder && compared > 0 ? Verdict.MATCHES : Verdict.PARTLY, trials
                + " trials per point: the low-coherence (Hadamard) matrix has a significantly smaller error than the high-coherence one "
                + "(standard basis) at " + (coherenceOrder ? "every" : "not every") + " unsaturated ε; μ(A) of a random "
                + "basis is a loose proxy (see §(iv))", "privacy.png, §(iv)");
        HeldOut bound49 = HeldOut.of(thm49);
        verdict("thm-4.9", bound49.verdict(), bound49.text("max‖X_ℓ‖∞ / √(μ ln d/d) over the bases and ε")
                + "; the rate's constant is fitted, so this tests its dependence on μ and ε only", "privacy.csv, §(iv)");
        return "## (iv) Private power method: error against ε and coherence — Theorems 1.3, 1.4, 4.9\n\n"
                + "Setting: one spectrum (1000, 900, 800, 700, then 100 … 0 linearly, gap σ_k − σ_{k+1} = " + gap
                + ") in three eigenbases: Walsh–Hadamard (μ = 1), uniformly random, and the standard basis (μ = d); d = "
                + d + ", k = " + k + ", p = 2k, L = " + iterations + ", δ = 1e-6, entry-level Gaussian noise σ·‖X_{ℓ−1}‖∞ "
                + "(Fig. 3), " + trials + " trials per point. Thm 1.3: error = O(σ·max‖X_ℓ‖∞·√(d ln L)/gap · "
                + "√p/(√p−√(k−1))) with σ ∝ 1/ε; Thm 1.4/4.9: max‖X_ℓ‖∞ = O(√(μ(A) ln d / d)), so low coherence means "
                + "less noise and a smaller error for the same spectrum.\n\n"
                + rows + "\n"
                + String.format(Locale.ROOT, "Log-log slope of the low-coherence error against ε (unsaturated points): "
                        + "%.2f (Thm 1.3 predicts −1).%n%n", slope)
                + "**Verdicts: " + word("privacy-eps") + " (ε), " + word("privacy-mu") + " (coherence), "
                        + word("thm-4.9") + " (Thm 4.9).** "
                + (monotone ? "The error decreases with ε for every basis. " : "The error is not monotone in ε for some basis. ")
                + (coherenceOrder && compared > 0 ? "At every ε where the high-coherence matrix is not saturated, the "
                        + "low-coherence matrix has a significantly smaller error, because its iterates have smaller "
                        + "entries (max‖X_ℓ‖∞ row), so the entry-level noise is smaller. " : "The low- versus "
                        + "high-coherence ordering is not significant at every ε. ")
                + "Thm 4.9's bound max‖X_ℓ‖∞ = O(√(μ ln d/d)), checked out of sample: " + bound49.text("the ratio")
                + " (trivially for the standard basis, where the expression exceeds 1); the random basis has a large μ (its full eigenbasis has a few "
                        + "large entries) but its top-k subspace is as spread as Hadamard's, so its error is close to "
                        + "the Hadamard one — μ(A) over all d eigenvectors, as the paper defines it, is a loose proxy. "
                + "Thm 1.3's expression, checked out of sample: " + bound13.text("residual / expression")
                + " (the ratio row gives the medians per point).\n\n![privacy](privacy.png)\n";
    }

    // ------------------------------------------------------------------ (i′) random start, Lemma 2.5

    private String randomStart(Settings s) throws IOException {
        int d = s.quick() ? 100 : 200;
        int k = 4;
        int[] ps = {4, 5, 6, 8, 12, 16};
        int trials = s.trialsOr(500, 40);
        Matrix u = Matrix.identity(d).leadingColumns(k); // any fixed U: X_0 is rotation invariant
        ResultTable table = new ResultTable("p", "trials", "bound_sqrt_d_over_gap", "median_tan", "q90_tan", "q99_tan",
                "median_ratio", "q90_ratio", "q99_ratio", "max_ratio");
        BandPlot plot = BandPlot.titled("(i') Lemma 2.5: tan theta_k(U, X_0) of a random start (d=" + d + ", k=" + k
                + ")", "block size p", "tan theta_k").logY();
        double[] x = new double[ps.length];
        double[] med = new double[ps.length];
        double[] q90 = new double[ps.length];
        double[] bound = new double[ps.length];
        double[] ratioMed = new double[ps.length];
        double[] ratioQ99 = new double[ps.length];
        StringBuilder rows = new StringBuilder("| p | √d/(√p−√(k−1)) | median tan θ_k | 90% | 99% | median ratio | 99% ratio |"
                + " max ratio |\n|---|---|---|---|---|---|---|---|\n");
        for (int ip = 0; ip < ps.length; ip++) {
            int p = ps[ip];
            double[] tan = new double[trials];
            for (int tr = 0; tr < trials; tr++) {
                RandomSource r = RandomSource.seededForReproducibility(s.seed() + 700_000L + 10_000L * ip + tr);
                Matrix x0 = KnownSpectrum.randomBasis(d, p, r);
                double[] sv = ThinSvd.of(x0.transposeTimes(u)).singular();
                double c = Math.min(1, sv[k - 1]);
                tan[tr] = Math.sqrt(Math.max(0, 1 - c * c)) / c;
            }
            double[] sorted = tan.clone();
            java.util.Arrays.sort(sorted);
            bound[ip] = Math.sqrt(d) / (Math.sqrt(p) - Math.sqrt(k - 1));
            x[ip] = p;
            med[ip] = quantile(sorted, 0.5);
            q90[ip] = quantile(sorted, 0.9);
            double q99 = quantile(sorted, 0.99);
            ratioMed[ip] = med[ip] / bound[ip];
            ratioQ99[ip] = q99 / bound[ip];
            table.add(p, trials, bound[ip], med[ip], q90[ip], q99, ratioMed[ip], q90[ip] / bound[ip], ratioQ99[ip],
                    sorted[trials - 1] / bound[ip]);
            rows.append(String.format(Locale.ROOT, "| %d | %.3g | %.3g | %.3g | %.3g | %.2f | %.2f | %.2f |%n", p,
                    bound[ip], med[ip], q90[ip], q99, ratioMed[ip], ratioQ99[ip], sorted[trials - 1] / bound[ip]));
        }
        plot.series("median tan theta_k (band up to the 90% quantile)", x, med, med, q90);
        plot.series("sqrt(d)/(sqrt(p)-sqrt(k-1))", x, bound, bound, bound);
        table.write(s.outputDir().resolve("lemma-2.5.csv"));
        plot.writePng(s.outputDir().resolve("lemma-2.5.png"));
        s.progress().accept("lemma-2.5 done");
        double lo = java.util.Arrays.stream(ratioMed).min().orElse(0);
        double hi = java.util.Arrays.stream(ratioMed).max().orElse(0);
        boolean constant = hi / lo < 3;
        boolean tailThins = ratioQ99[ps.length - 1] / ratioMed[ps.length - 1] < ratioQ99[0] / ratioMed[0];
        verdict("lemma-2.5", constant && tailThins ? Verdict.MATCHES : Verdict.PARTLY,
                String.format(Locale.ROOT, "median tan θ_k / (√d/(√p−√(k−1))) stays in [%.2f, %.2f] for p = %d…%d "
                        + "(a constant τ); the upper tail (99%%/median) narrows from %.1f at p = k to %.1f at p = %d, "
                        + "the τ^{−Ω(p+1−k)} failure probability", lo, hi, ps[0], ps[ps.length - 1],
                        ratioQ99[0] / ratioMed[0], ratioQ99[ps.length - 1] / ratioMed[ps.length - 1], ps[ps.length - 1]),
                "lemma-2.5.png, §(i′)");
        return "## (i′) Random start — Lemma 2.5\n\n"
                + "Setting: X_0 an orthonormal basis of a uniformly random p-dimensional subspace of R^" + d + ", U a fixed k = "
                + k + " dimensional subspace (by rotation invariance any U), " + trials + " draws per p; tan θ_k(U, X_0) = "
                + "√(1 − c²)/c with c the k-th singular value of X_0ᵀU. Lemma 2.5: tan θ_k ≤ τ√d/(√p − √(k−1)) with "
                + "all but τ^{−Ω(p+1−k)} + e^{−Ω(d)} probability, i.e. the ratio to √d/(√p − √(k−1)) is O(1) and its "
                + "tail thins as p grows past k.\n\n"
                + rows + "\n**Verdict: " + word("lemma-2.5") + String.format(Locale.ROOT, ".** The median ratio lies in [%.2f, %.2f] "
                        + "across p (the bound's p-dependence is the right one), and at p = k the distribution has a "
                        + "heavy upper tail (99%% quantile %.1f× the median) that thins to %.1f× at p = %d: with p = k "
                        + "a random start is sometimes nearly orthogonal to U, which is why p = k + Ω(k) helps.%n%n", lo, hi,
                        ratioQ99[0] / ratioMed[0], ratioQ99[ps.length - 1] / ratioMed[ps.length - 1], ps[ps.length - 1])
                + "![lemma-2.5](lemma-2.5.png)\n";
    }

    private static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int i = (int) Math.floor(pos);
        int j = Math.min(sorted.length - 1, i + 1);
        return sorted[i] + (pos - i) * (sorted[j] - sorted[i]);
    }

    // ------------------------------------------------------------------ (v) Thm 1.3: d and k

    /** k eigenvalues from S down to 0.7S (0.7S when k = 1), then a tail from 0.1S linearly to 0: gap 0.6S for all k. */
    private static double[] scaledSpectrum(int d, int k, double scale) {
        double[] eig = new double[d];
        for (int i = 0; i < d; i++) {
            eig[i] = i < k ? (k == 1 ? 0.7 * scale : scale * (1 - 0.3 * i / (k - 1))) : 0.1 * scale * (d - i) / (d - k);
        }
        return eig;
    }

    private String scaling(Settings s) throws IOException {
        int[] ds = s.quick() ? new int[] {32, 64} : new int[] {64, 128, 256, 512};
        int[] ks = s.quick() ? new int[] {1, 2} : new int[] {1, 2, 4, 8};
        int dFix = s.quick() ? 64 : 256;
        int kFix = s.quick() ? 2 : 4;
        int iterations = 10;
        double epsilon = 1;
        double delta = 1e-6;
        double scale = 2e4;
        int trials = s.trialsOr(20, 2);
        PrivacyParams budget = PrivacyParams.of(epsilon, delta);
        ResultTable table = new ResultTable(ResultTable.withSummaryColumns("sweep", "d", "k", "thm13_expression"));
        BandPlot plot = BandPlot.titled("(v) Thm 1.3: error vs bound, d and k sweeps",
                "Thm 1.3 expression sigma sqrt(d ln L)/gap * sqrt(p)/(sqrt(p)-sqrt(k-1))", "||(I - X_L X_L^T) U||")
                .logX().logY();
        double firstRatio = Double.NaN;
        double[] allExpr = new double[ds.length + ks.length];
        StringBuilder rows = new StringBuilder("| sweep | d | k | p | residual (mean [95% band]) | Thm 1.3 expression | "
                + "residual / expression |\n|---|---|---|---|---|---|---|\n");
        double[][] slopes = new double[2][];
        double[] ratioRange = {Double.POSITIVE_INFINITY, 0};
        for (int sweep = 0; sweep < 2; sweep++) {
            int len = sweep == 0 ? ds.length : ks.length;
            Summary[] sums = new Summary[len];
            double[] x = new double[len];
            double[] expr = new double[len];
            double[] normExpr = new double[len];
            for (int i = 0; i < len; i++) {
                int d = sweep == 0 ? ds[i] : dFix;
                int k = sweep == 0 ? kFix : ks[i];
                int p = 2 * k;
                double[] eig = scaledSpectrum(d, k, scale);
                double gap = eig[k - 1] - eig[k];
                double sigma = PrivatePowerMethod.sigma(p, iterations, budget);
                // Thm 1.3 with max‖X_ℓ‖∞ replaced by 1: spectral noise is not scaled by the iterate's entries
                expr[i] = sigma * Math.sqrt(d * Math.log(iterations)) / gap * Math.sqrt(p) / (Math.sqrt(p)
                        - Math.sqrt(k - 1));
                // the same with ‖G‖ ≈ σ(√d + √p), the norm of a d × p Gaussian matrix, and without the worst-case factor
                normExpr[i] = sigma * (Math.sqrt(d) + Math.sqrt(p)) / gap;
                double[] err = new double[trials];
                for (int tr = 0; tr < trials; tr++) {
                    RandomSource r = RandomSource.seededForReproducibility(s.seed() + 800_000L + 100_000L * sweep
                            + 1000L * i + tr);
                    Matrix q = KnownSpectrum.randomBasis(d, d, r);
                    Matrix a = KnownSpectrum.symmetric(q, eig);
                    PowerMethodResult out = PrivatePowerMethod.builder().components(k).blockSize(p).iterations(iterations)
                            .noise(io.dpspectra.pca.PpmNoise.SPECTRAL_GAUSSIAN)
                            .calibration(PrivatePowerMethod.Calibration.PAPER).randomSource(r).build()
                            .iterate(SymmetricOperator.dense(a), budget);
                    err[tr] = SubspaceMetrics.projectionResidual(out.basis(), q.leadingColumns(k));
                }
                sums[i] = Summary.of(err);
                x[i] = expr[i];
                allExpr[sweep * ds.length + i] = expr[i];
                double ratio = sums[i].mean() / expr[i];
                if (Double.isNaN(firstRatio)) {
                    firstRatio = ratio;
                }
                ratioRange[0] = Math.min(ratioRange[0], ratio);
                ratioRange[1] = Math.max(ratioRange[1], ratio);
                table.addSummary(sums[i], sweep == 0 ? "d" : "k", d, k, expr[i]);
                rows.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %.3g [%.3g, %.3g] | %.3g | %.3f |%n",
                        sweep == 0 ? "d" : "k", d, k, p, sums[i].mean(), sums[i].lower(), sums[i].upper(), expr[i], ratio));
            }
            double[] lx = new double[len];
            for (int i = 0; i < len; i++) {
                lx[i] = sweep == 0 ? ds[i] : ks[i];
            }
            double measured = slope(lx, sums, 0.5);
            Summary[] ex = new Summary[len];
            for (int i = 0; i < len; i++) {
                ex[i] = new Summary(1, expr[i], 0, expr[i], expr[i], expr[i]);
            }
            double predicted = slope(lx, ex, Double.POSITIVE_INFINITY);
            for (int i = 0; i < len; i++) {
                ex[i] = new Summary(1, normExpr[i], 0, normExpr[i], normExpr[i], normExpr[i]);
            }
            slopes[sweep] = new double[] {measured, predicted, slope(lx, ex, Double.POSITIVE_INFINITY)};
            logSeries(plot, sweep == 0 ? "d = " + java.util.Arrays.toString(ds) + " at k = " + kFix : "k = "
                    + java.util.Arrays.toString(ks) + " at d = " + dFix, x, sums);
        }
        java.util.Arrays.sort(allExpr);
        double[] ref = new double[allExpr.length];
        for (int i = 0; i < ref.length; i++) {
            ref[i] = firstRatio * allExpr[i];
        }
        plot.series("proportional to the bound (through the first point)", allExpr, ref, ref, ref);
        table.write(s.outputDir().resolve("scaling.csv"));
        plot.writePng(s.outputDir().resolve("scaling.png"));
        s.progress().accept("scaling done");
        boolean ok = Math.abs(slopes[0][0] - slopes[0][1]) < 0.15 && Math.abs(slopes[1][0] - slopes[1][1]) < 0.15;
        String text = String.format(Locale.ROOT, "log-log slope in d %.2f (Thm 1.3 expression %.2f; σ(√d+√p)/gap %.2f), "
                + "in k %.2f (Thm 1.3 expression %.2f; σ(√d+√p)/gap %.2f); residual / Thm 1.3 expression in [%.3f, %.3f]",
                slopes[0][0], slopes[0][1], slopes[0][2], slopes[1][0], slopes[1][1], slopes[1][2], ratioRange[0],
                ratioRange[1]);
        for (int sweep = 0; sweep < 2; sweep++) {
            String what = sweep == 0 ? "d" : "k";
            if (Math.abs(slopes[sweep][0] - slopes[sweep][1]) < 0.15) {
                text += "; in " + what + " the error has the Thm 1.3 expression's dependence";
            } else if (Math.abs(slopes[sweep][0] - slopes[sweep][2]) < Math.abs(slopes[sweep][0] - slopes[sweep][1])) {
                text += "; in " + what + " the error grows more slowly than the Thm 1.3 expression and closer to "
                        + "σ(√d+√p)/gap, the size of the noise itself" + (sweep == 1 ? ": the bound's "
                        + "√p/(√p−√(k−1)) factor (1 at k = 1, up to 3 at p = 2k) is worst-case and not seen" : "");
            } else {
                text += "; in " + what + " the error's dependence differs from both expressions";
            }
        }
        verdict("scaling", ok ? Verdict.MATCHES : Verdict.PARTLY, text
                + " (spectral Gaussian noise, the variant where ‖X_ℓ‖∞ does not enter)", "scaling.png, §(v)");
        return "## (v) Private power method: dependence on d and k — Theorem 1.3\n\n"
                + "Setting: spectrum S·(1 … 0.7) for the top k, then 0.1S linearly down to 0 (S = " + scale + ", so the gap "
                + "is about 0.6–0.9 S for every k), random eigenbasis, p = 2k, L = " + iterations + ", ε = " + epsilon
                + ", δ = 1e-6, " + trials + " trials per point. Noise: the spectral-norm Gaussian variant (Lemma 4.5, σ = "
                + "ε⁻¹√(4pL ln(1/δ))), whose noise is not scaled by ‖X_{ℓ−1}‖∞, so Thm 1.3 applies with max‖X_ℓ‖∞ ≤ 1 "
                + "and predicts error ∝ σ√(d ln L)/gap · √p/(√p−√(k−1)): slope ½ in d, and in k the √p of σ times the "
                + "√p/(√p−√(k−1)) factor. Two sweeps: d ∈ " + java.util.Arrays.toString(ds) + " at k = " + kFix
                + "; k ∈ " + java.util.Arrays.toString(ks) + " at d = " + dFix + ".\n\n"
                + rows + "\n**Verdict: " + word("scaling") + ".** " + text + ". A constant ratio means the bound has the right dependence on d and k (it is an "
                + "upper bound: a ratio below 1 is its O(·) constant).\n\n![scaling](scaling.png)\n";
    }

    // ------------------------------------------------------------------ (vi) private low-rank approximation

    private String lowRank(Settings s) throws IOException {
        int d = s.quick() ? 64 : 256;
        int k = 4;
        double delta = 1e-6;
        double[] epsilons = s.quick() ? new double[] {1, 8} : new double[] {0.5, 1, 2, 4, 8, 16};
        double[] tails = {0.1, 0.35};
        int trials = s.trialsOr(10, 2);
        io.dpspectra.pca.PpmNoise[] noises = {io.dpspectra.pca.PpmNoise.ENTRY_LEVEL_GAUSSIAN,
            io.dpspectra.pca.PpmNoise.SPECTRAL_GAUSSIAN, io.dpspectra.pca.PpmNoise.SPECTRAL_LAPLACE};
        String[] cor = {"cor-4.3", "cor-4.6", "cor-4.7"};
        String[] names = {"Cor. 4.3 (entry-level Gaussian)", "Cor. 4.6 (spectral Gaussian)", "Cor. 4.7 (spectral Laplace)"};
        // scale-equivariant except the noise: S puts the range where the noise matters inside the ε grid
        double[] scales = s.quick() ? new double[] {3e2, 1e3, 1e5} : new double[] {1e3, 4e3, 1e6};
        ResultTable table = new ResultTable(ResultTable.withSummaryColumns("noise", "sigma_k_plus_1_over_sigma_1",
                "epsilon", "measure"));
        BandPlot plot = BandPlot.titled("(vi) private rank-2k approximation: ||A - B|| / sigma_{k+1} (d=" + d + ", k="
                + k + ")", "epsilon", "||A - B|| / sigma_{k+1}").logX();
        StringBuilder rows = new StringBuilder("| corollary | S | σ_{k+1}/σ_1 | γ | L | measure |");
        for (double e : epsilons) {
            rows.append(" ε = ").append(e).append(" |");
        }
        rows.append("\n|---|---|---|---|---|---|").append("---|".repeat(epsilons.length)).append('\n');
        for (int in = 0; in < noises.length; in++) {
            List<double[]> excessRatios = new ArrayList<>();
            List<String> slopeText = new ArrayList<>();
            boolean allBelowAtHigh = true;
            for (int it = 0; it < tails.length; it++) {
                double scale = scales[in];
                double[] top = {scale, 0.9 * scale, 0.8 * scale, 0.7 * scale};
                double sk1 = tails[it] * scale;
                double[] eig = new double[d];
                for (int i = 0; i < d; i++) {
                    eig[i] = i < k ? top[i] : sk1 * (d - i) / (d - k);
                }
                double gamma = 1 - eig[k] / eig[k - 1];
                double gap = eig[k - 1] - eig[k];
                int iterations = (int) Math.ceil(Math.log(d) / gamma);
                Summary[] ratio = new Summary[epsilons.length];
                Summary[] excess = new Summary[epsilons.length];
                Summary[] over2k = new Summary[epsilons.length];
                for (int ie = 0; ie < epsilons.length; ie++) {
                    double eps = epsilons[ie];
                    double bound = in < 2 ? scale * Math.sqrt((k / gamma) * d * Math.log(d) * Math.log(1 / delta))
                            / (eps * gap) : scale * Math.pow(k, 1.5) * d * Math.log(d) * Math.log(d / gamma)
                            / (eps * gamma * gap);
                    double[] r = new double[trials];
                    double[] ex = new double[trials];
                    double[] ex2k = new double[trials];
                    for (int tr = 0; tr < trials; tr++) {
                        RandomSource rnd = RandomSource.seededForReproducibility(s.seed() + 900_000L + 100_000L * in
                                + 10_000L * it + 100L * ie + tr);
                        Matrix q = KnownSpectrum.randomBasis(d, d, rnd);
                        Matrix a = KnownSpectrum.symmetric(q, eig);
                        var res = io.dpspectra.pca.PrivateLowRankApproximation.builder().rank(k).iterations(iterations)
                                .noise(noises[in]).calibration(PrivatePowerMethod.Calibration.PAPER).randomSource(rnd)
                                .build().release(SymmetricOperator.dense(a),
                                        in == 2 ? PrivacyParams.pure(eps) : PrivacyParams.of(eps, delta));
                        double err = ThinSvd.of(a.minus(res.toDense())).singular()[0];
                        r[tr] = err / sk1;
                        ex[tr] = Math.max(0, err - sk1) / bound;
                        ex2k[tr] = Math.max(1e-12, err - eig[2 * k]) / scale;
                    }
                    ratio[ie] = Summary.of(r);
                    excess[ie] = Summary.of(ex);
                    over2k[ie] = Summary.of(ex2k);
                    excessRatios.add(ex.clone());
                    table.addSummary(ratio[ie], names[in], tails[it], eps, "||A-B||/sigma_{k+1}");
                    table.addSummary(excess[ie], names[in], tails[it], eps, "(||A-B||-sigma_{k+1})_+/bound");
                    table.addSummary(over2k[ie], names[in], tails[it], eps, "(||A-B||-sigma_{2k+1})/sigma_1");
                }
                allBelowAtHigh &= ratio[epsilons.length - 1].mean() <= 1.05;
                slopeText.add(String.format(Locale.ROOT, "σ_{k+1}/σ₁ = %.2f: ‖A−B‖/σ_{k+1} from %.3g (ε = %s) to %.3g "
                        + "(ε = %s), excess over σ_{2k+1} ∝ ε^%.2f", tails[it], ratio[0].mean(), epsilons[0],
                        ratio[epsilons.length - 1].mean(), epsilons[epsilons.length - 1],
                        slope(epsilons, over2k, Double.POSITIVE_INFINITY)));
                logSeries(plot, String.format(Locale.ROOT, "%s, s_k+1/s_1=%.2f", names[in].replaceAll(" \\(.*", ""),
                        tails[it]), epsilons, ratio);
                rows.append(String.format(Locale.ROOT, "| %s | %.0e | %.2f | %.3f | %d | ‖A − B‖/σ_{k+1} |", names[in],
                        scale, tails[it], gamma, iterations));
                for (Summary sm : ratio) {
                    rows.append(String.format(Locale.ROOT, " %.3g |", sm.mean()));
                }
                rows.append(String.format(Locale.ROOT, "%n| %s | %.0e | %.2f | %.3f | %d | (‖A − B‖ − σ_{k+1})₊ / bound |",
                        names[in], scale, tails[it], gamma, iterations));
                for (Summary sm : excess) {
                    rows.append(String.format(Locale.ROOT, " %.2e |", sm.mean()));
                }
                rows.append(String.format(Locale.ROOT, "%n| %s | %.0e | %.2f | %.3f | %d | (‖A − B‖ − σ_{2k+1}) / σ₁ |",
                        names[in], scale, tails[it], gamma, iterations));
                for (Summary sm : over2k) {
                    rows.append(String.format(Locale.ROOT, " %.3g |", sm.mean()));
                }
                rows.append('\n');
            }
            HeldOut bound = HeldOut.of(excessRatios);
            verdict(cor[in], bound.verdict(), trials + " trials per point: " + bound.text("‖A − B‖ ≤ σ_{k+1} + C·bound, "
                    + "(‖A − B‖ − σ_{k+1})₊ / bound") + "; " + String.join("; ", slopeText) + (allBelowAtHigh
                    ? "; at the largest ε B is within 5% of σ_{k+1} or better (rank 2k can reach σ_{2k+1})" : ""),
                    "low-rank.png, §(vi)");
        }
        table.write(s.outputDir().resolve("low-rank.csv"));
        plot.writePng(s.outputDir().resolve("low-rank.png"));
        s.progress().accept("low-rank done");
        return "## (vi) Private low-rank approximation — Corollaries 4.3, 4.6, 4.7\n\n"
                + "Setting: `PrivateLowRankApproximation` (PPM with p = 2k and L + 1 noisy products, B = X_L·Y_{L+1}ᵀ), "
                + "d = " + d + ", k = " + k + ", spectrum S·(1, 0.9, 0.8, 0.7) then σ_{k+1} = t·S linearly down to 0, t ∈ "
                + java.util.Arrays.toString(tails) + ", L = ⌈ln d / γ⌉ with γ = 1 − σ_{k+1}/σ_k (the corollaries' "
                + "L = O(γ⁻¹ log d)), δ = 1e-6, " + trials + " trials per point, random eigenbasis. The problem is "
                + "scale-equivariant except for the noise, so S differs per noise variant to put the interesting range "
                + "inside the ε grid. The corollaries: ‖A − B‖ ≤ σ_{k+1} + Õ(bound) with bound = σ₁√((k/γ)d ln d "
                + "ln(1/δ))/(ε(σ_k − σ_{k+1})) (4.3, 4.6) and σ₁k^{1.5} d ln d ln(d/γ)/(εγ(σ_k − σ_{k+1})) (4.7, (ε, 0)). We "
                + "report ‖A − B‖/σ_{k+1} (≤ 1 + bound/σ_{k+1}; B has rank 2k, so it can go below 1, down to "
                + "σ_{2k+1}/σ_{k+1}), the excess over σ_{k+1} in units of the bound (the Õ constant needed), and the "
                + "excess over σ_{2k+1} (the best rank-2k error) in units of σ₁, with its log-log slope against ε in the "
                + "opening table (the bound falls as 1/ε; a steeper measured fall means the bound is looser at large "
                + "ε than at small ε).\n\n"
                + rows + "\n**Verdicts: " + word("cor-4.3") + " (Cor. 4.3), " + word("cor-4.6") + " (Cor. 4.6), "
                + word("cor-4.7") + " (Cor. 4.7)**, with the held-out check in the opening table: the error falls with ε "
                + "towards what a rank-2k approximation can reach, and the excess over σ_{k+1} is compared with the "
                + "corollaries' bound times a constant fitted on half the points (the bound is an upper "
                + "bound, so C ≤ a few is agreement).\n\n![low-rank](low-rank.png)\n";
    }

    // ------------------------------------------------------------------ helpers

    /** Adds a series to a log-scale plot: a band edge at or below zero is drawn at 1% of the mean instead. */
    private static void logSeries(BandPlot plot, String name, double[] x, Summary[] s) {
        double[] m = new double[s.length];
        double[] lo = new double[s.length];
        double[] hi = new double[s.length];
        for (int i = 0; i < s.length; i++) {
            m[i] = Math.max(s[i].mean(), 1e-300);
            lo[i] = s[i].lower() > 0 ? s[i].lower() : 0.01 * m[i];
            hi[i] = Math.max(s[i].upper(), m[i]);
        }
        plot.series(name, x, m, lo, hi);
    }

    /** {min, max} over all entries. */
    private static double[] range(double[][] v) {
        double[] r = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (double[] row : v) {
            for (double x : row) {
                r[0] = Math.min(r[0], x);
                r[1] = Math.max(r[1], x);
            }
        }
        return r;
    }

    private static double mean(double[] v) {
        double m = 0;
        for (double x : v) {
            m += x;
        }
        return m / v.length;
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        throw new IllegalArgumentException(v + " not in the grid");
    }

    /** Least-squares slope of log(mean) on log(x) over the points with mean below {@code below}. */
    private static double slope(double[] x, Summary[] s, double below) {
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        int m = 0;
        for (int i = 0; i < x.length; i++) {
            if (s[i].mean() < below && s[i].mean() > 0) {
                double lx = Math.log(x[i]);
                double ly = Math.log(s[i].mean());
                sx += lx;
                sy += ly;
                sxx += lx * lx;
                sxy += lx * ly;
                m++;
            }
        }
        if (m < 2) {
            return Double.NaN;
        }
        return (m * sxy - sx * sy) / (m * sxx - sx * sx);
    }

    /** Slope over the points whose mean is in (1e-6, 0.5): the unsaturated regime. */
    private static double slopeOver(double[] x, Summary[] s) {
        return slope(x, s, 0.5);
    }

    /** The x at which the mean first drops below {@code target}, log-log interpolated; NaN if never. */
    private static double crossing(double[] x, Summary[] s, double target) {
        for (int i = 1; i < x.length; i++) {
            double a = s[i - 1].mean();
            double b = s[i].mean();
            if (a > target && b <= target) {
                double f = (Math.log(a) - Math.log(target)) / (Math.log(a) - Math.log(b));
                return Math.exp(Math.log(x[i - 1]) + f * (Math.log(x[i]) - Math.log(x[i - 1])));
            }
            if (i == 1 && a <= target) {
                return x[0];
            }
        }
        return Double.NaN;
    }

    /** max/min over σ of n/(σ⁶+1) (or n/(1+σ²)³), ignoring σ whose target was not reached. */
    private static double spread(double[] n, double[] sigmas, boolean sixth) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        int m = 0;
        for (int i = 0; i < n.length; i++) {
            if (Double.isNaN(n[i])) {
                continue;
            }
            double s = sigmas[i];
            double v = n[i] / (sixth ? Math.pow(s, 6) + 1 : Math.pow(1 + s * s, 3));
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
            m++;
        }
        return m < 2 ? Double.NaN : hi / lo;
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "not reached" : String.format(Locale.ROOT, "%.3g", v);
    }

    /** For tests: the output files of a run with every figure. */
    static List<Path> expectedFiles(Path dir) {
        List<Path> out = new ArrayList<>();
        for (String f : FIGURES) {
            out.add(dir.resolve(f + ".csv"));
            out.add(dir.resolve(f + ".png"));
        }
        out.add(dir.resolve("report.md"));
        return out;
    }
}
