package io.dpspectra.experiments.localdp;

import io.dpspectra.covariance.GaussianCalibration;
import io.dpspectra.experiments.ClaimsTable;
import io.dpspectra.experiments.ClaimsTable.Finding;
import io.dpspectra.experiments.Verdict;
import io.dpspectra.experiments.ReportFile;
import io.dpspectra.experiments.Reproduction;
import io.dpspectra.experiments.ResultTable;
import io.dpspectra.experiments.Summary;
import io.dpspectra.experiments.io.AtomicWrite;
import io.dpspectra.experiments.plot.BandPlot;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.local.ReportParameters;
import io.dpspectra.local.SparseFantopePca;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.noise.RandomSubspace;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.synthetic.SyntheticDataset;
import io.dpspectra.synthetic.WangXuCovariance;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Wang &amp; Xu, "Principal Component Analysis in the Local Differential Privacy Model"
 * (papers/local-dp-pca.txt): Figure 3 (low-dimensional synthetic; the three panels), Figure 4 (sparse
 * synthetic; the three panels), Tables 1–2 (sparse PCA on the real data sets available offline: leukemia,
 * colon, isolet5).
 *
 * <p>Problem (5) at the default penalty: where λ exceeds every off-diagonal entry of S̃ its exact solution is
 * the diagonal projector on the k largest S̃_ii ({@link SparseFantopePca}), which costs O(p²); that is what
 * makes leukemia (p = 7129) and colon (p = 2000) affordable. ADMM runs wherever it does not apply (capped at
 * {@value #ADMM_ITERATION_CAP} iterations; the CSVs count both kinds of solve).
 *
 * <p>Simulation (distributionally identical to running every client, as the spec allows): the average of
 * n reports is S̃ = S_n + E, where S_n = (1/n)Σ x_i x_iᵀ and E is one symmetric Gaussian matrix with
 * entry standard deviation σ/√n (the sum of n independent report noises), σ being the randomizer's own
 * calibration (analytic Gaussian, sensitivity √2, clip norm 1; {@link ReportParameters#calibratedSigma}).
 * For the synthetic data S_n is drawn exactly from its Wishart(n, Σ)/n law (Bartlett decomposition), so a
 * point costs O(p³) whatever n is. Client-side clipping is omitted there: at these Σ, E‖x‖² ≤ 0.15 and
 * a row of norm above 1 has probability below 1e-12. The noise comes from the library's GaussianNoise
 * with the seeded source.
 *
 * <p>Error: ‖V̂V̂ᵀ − VVᵀ‖_F, whose maximum is √(2·min(k, p − k)) and whose value for a uniformly random
 * k-subspace is about √(2k(p − k)/p); both are drawn as reference lines.
 */
public final class LocalDpReproduction implements Reproduction {
    private static final double DELTA = 1e-4;

    @Override
    public String paper() {
        return "local-dp";
    }

    @Override
    public String summary() {
        return "Wang & Xu, PCA in the local DP model: Fig. 3 (low-dim synthetic), Fig. 4 (sparse synthetic, "
                + "vs n, p and epsilon), Tables 1-2 (sparse PCA on leukemia, colon, isolet5)";
    }

    @Override
    public List<String> figures() {
        return List.of("3a", "3b", "3c", "4a", "4b", "4c", "t1", "t2");
    }

    private final Map<String, String> findings = new LinkedHashMap<>();

    @Override
    public void run(Settings s) throws IOException {
        Files.createDirectories(s.outputDir());
        findings.clear();
        verdicts.clear();
        centralLine = "";
        io.dpspectra.experiments.RunLog.Timer clock = new io.dpspectra.experiments.RunLog.Timer();
        if (s.wants("3a")) {
            fig3a(s);
        }
        if (s.wants("3b")) {
            fig3b(s);
        }
        if (s.wants("3c")) {
            fig3c(s);
        }
        if (s.wants("t1") || s.wants("t2")) {
            tables(s);
        }
        if (s.wants("4a")) {
            fig4a(s);
        }
        if (s.wants("4b")) {
            fig4b(s);
        }
        if (s.wants("4c")) {
            fig4c(s);
        }
        io.dpspectra.experiments.RunLog.Entry e = clock.stop(paper(), s, String.join(",", s.figures()), "all", "", 1, "");
        timer[0] = e.wallMinutes();
        timer[1] = e.cpuMinutes();
        timer[2] = e.loadStart();
        timer[3] = e.loadEnd();
        writeReport(s);
    }

    // ---------------------------------------------------------------- simulation kernels

    /** σ of one report at (ε, δ), as the randomizer calibrates it. */
    static double reportSigma(double epsilon) {
        return ReportParameters.calibratedSigma(PrivacyParams.of(epsilon, DELTA), 1.0, GaussianCalibration.ANALYTIC);
    }

    /** S̃ = S + symmetric noise of entry std σ/√n. Modified: s. */
    static Matrix privatize(Matrix s, double epsilon, long n, RandomSource random) {
        Matrix out = s.copy();
        new GaussianNoise(random).addSymmetricNoiseInPlace(out, reportSigma(epsilon) / Math.sqrt(n));
        return out;
    }

    /** An exact draw of the sample second moment of n rows of N(0, Σ): M W Mᵀ/n, W ~ Wishart(n, I), MMᵀ = Σ. */
    static Matrix sampleSecondMoment(Matrix sigmaRoot, long n, RandomSource random) {
        int p = sigmaRoot.rows();
        Matrix a = new Matrix(p, p); // Bartlett: lower triangular, A_ii^2 ~ chi2(n - i), A_ij ~ N(0,1)
        for (int i = 0; i < p; i++) {
            a.set(i, i, Math.sqrt(2 * gamma((n - i) / 2.0, random)));
            for (int j = 0; j < i; j++) {
                a.set(i, j, random.standardNormal());
            }
        }
        Matrix ma = sigmaRoot.times(a);
        Matrix w = ma.times(ma.transpose()).scaled(1.0 / n);
        w.symmetrizeInPlace();
        return w;
    }

    /** Gamma(shape, 1) by Marsaglia &amp; Tsang (2000), shape ≥ 1 (non-private: synthetic data). */
    static double gamma(double shape, RandomSource random) {
        double d = shape - 1.0 / 3;
        double c = 1 / Math.sqrt(9 * d);
        while (true) {
            double x = random.standardNormal();
            double v = 1 + c * x;
            if (v <= 0) {
                continue;
            }
            v = v * v * v;
            double u = random.nextDouble();
            if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
                return d * v;
            }
        }
    }

    /**
     * The symmetric square root of a positive semi-definite matrix: V√ΛVᵀ from its eigendecomposition, or from its SVD
     * (the same factors for a PSD matrix) where dsyevr fails on exactly repeated eigenvalues (see topEigenvectors).
     */
    static Matrix sqrtPsd(Matrix sigma) {
        Matrix v;
        double[] values;
        try {
            SymmetricEigen e = SymmetricEigen.of(sigma);
            v = e.vectors();
            values = e.values();
        } catch (ArithmeticException mrrrFailed) {
            io.dpspectra.linalg.ThinSvd svd = io.dpspectra.linalg.ThinSvd.of(sigma);
            v = svd.u();
            values = svd.singular();
        }
        int p = sigma.rows();
        Matrix scaled = v.copy();
        for (int j = 0; j < p; j++) {
            double r = Math.sqrt(Math.max(0, values[j]));
            for (int i = 0; i < p; i++) {
                scaled.set(i, j, v.get(i, j) * r);
            }
        }
        return scaled.times(v.transpose());
    }

    /** Mean distance of a uniformly random k-subspace of R^p to a fixed one (200 draws). */
    static double randomLevel(int p, int k, long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        Matrix fixed = RandomSubspace.basis(p, k, r);
        double sum = 0;
        for (int t = 0; t < 200; t++) {
            sum += SubspaceMetrics.projectorDistance(RandomSubspace.basis(p, k, r), fixed);
        }
        return sum / 200;
    }

    /**
     * The central-model reference: S_n + symmetric noise of entry std σ/n, σ the same calibration for sensitivity √2.
     * In the central model a curator holds the n records and releases their average once: replacing one record moves
     * the average's upper triangle by at most √2/n, so the noise is √n times smaller than the local model's σ/√n.
     * Not the paper's (local) Algorithm 1: the reference that shows what noise its falling curves need. Modified: s.
     */
    static Matrix privatizeCentral(Matrix s, double epsilon, long n, RandomSource random) {
        Matrix out = s.copy();
        new GaussianNoise(random).addSymmetricNoiseInPlace(out, reportSigma(epsilon) / n);
        return out;
    }

    /**
     * One Algorithm 1 trial on Wang–Xu dense data: the error of the top-k subspace of S̃ (local model), and of the
     * central-model reference on the same sample S_n.
     */
    static double[] denseTrial(int p, int k, long n, double epsilon, long seed) {
        SyntheticDataset d = WangXuCovariance.dense(1, p, k, 1.0, seed);
        RandomSource r = RandomSource.seededForReproducibility(seed ^ 0x5DEECE66DL);
        Matrix s = sampleSecondMoment(sqrtPsd(d.populationSecondMoment()), n, r);
        Matrix noisy = privatize(s, epsilon, n, r);
        Matrix central = privatizeCentral(s, epsilon, n, r);
        return new double[] {SubspaceMetrics.projectorDistance(topEigenvectors(noisy, k), d.truthBasis()),
            SubspaceMetrics.projectorDistance(topEigenvectors(central, k), d.truthBasis())};
    }

    /**
     * The top-k eigenvectors of a symmetric matrix. LAPACK's dsyevr (MRRR) can fail with an internal error (info &gt; 0)
     * on a matrix with exactly repeated eigenvalues, as on one of Wang and Xu's population matrices (k equal top
     * eigenvalues, p - k equal others); then the top-k left singular vectors of M + cI, c ≥ ‖M‖₂, which is PSD with
     * M's eigenvectors in the same order (the SVD uses another LAPACK driver).
     */
    static Matrix topEigenvectors(Matrix m, int k) {
        try {
            return SymmetricEigen.top(m, k).vectors();
        } catch (ArithmeticException mrrrFailed) {
            return io.dpspectra.linalg.ThinSvd.of(shifted(m)).u().leadingColumns(k);
        }
    }

    /** M + cI with c the largest absolute row sum of M (at least its spectral norm), so the result is PSD. */
    private static Matrix shifted(Matrix m) {
        int p = m.rows();
        double c = 0;
        for (int i = 0; i < p; i++) {
            double row = 0;
            for (int j = 0; j < p; j++) {
                row += Math.abs(m.get(i, j));
            }
            c = Math.max(c, row);
        }
        Matrix out = m.copy();
        for (int i = 0; i < p; i++) {
            out.set(i, i, out.get(i, i) + c);
        }
        return out;
    }

    /** "20 trials per point (paper 20)". */
    static String perPoint(int trials) {
        return trials + (trials == 1 ? " trial" : " trials") + " per point (paper 20)";
    }

    /** Whether a curve falls: its last mean is 5% of the random level below its first, with disjoint 95% bands. */
    static boolean falls(Summary first, Summary last, double level) {
        return first.mean() - last.mean() >= 0.05 * level && last.upper() < first.lower();
    }

    /** One Algorithm 2 trial on Wang–Xu sparse data: error, support size, converged, iterations, closed form (1/0). */
    static double[] sparseTrial(int p, int k, int sparsity, long n, double epsilon, long seed) {
        SyntheticDataset d = WangXuCovariance.sparse(1, p, k, sparsity, 1.0, seed);
        RandomSource r = RandomSource.seededForReproducibility(seed ^ 0x5DEECE66DL);
        Matrix s = sampleSecondMoment(sqrtPsd(d.populationSecondMoment()), n, r);
        Matrix noisy = privatize(s, epsilon, n, r);
        double lambda = SparseFantopePca.defaultPenalty(reportSigma(epsilon) / Math.sqrt(n), p);
        SparseFantopePca.Result res = SparseFantopePca.builder().components(k).maxIterations(ADMM_ITERATION_CAP).build()
                .solve(noisy, lambda);
        return new double[] {SubspaceMetrics.projectorDistance(res.subspace().components(), d.truthBasis()),
            SparseFantopePca.support(res.sparse()).length, res.converged() ? 1 : 0, res.iterations(),
            "closed-form".equals(res.subspace().diagnostics().get("solver")) ? 1 : 0};
    }

    // ---------------------------------------------------------------- Figure 3

    private void fig3a(Settings s) throws IOException {
        int trials = s.trialsOr(20, 3);
        long[] ns = s.quick() ? new long[] {10_000, 100_000} : new long[] {10_000, 30_000, 100_000, 300_000, 1_000_000};
        int[] ks = {5, 10, 15, 20};
        ResultTable t = new ResultTable(ResultTable.withSummaryColumns("model", "k", "n", "randomLevel", "maximum"));
        BandPlot plot = BandPlot.titled("Fig. 3 left: p = 40, eps = 0.5", "n", "||VV^T - V*V*^T||_F").logX();
        double[] x = toDoubles(ns);
        StringBuilder f = new StringBuilder();
        List<String> drops = new ArrayList<>();
        int falling = 0;
        List<String> central = new ArrayList<>();
        for (int k : ks) {
            Summary[] sum = new Summary[ns.length];
            Summary[] cen = new Summary[ns.length];
            double level = randomLevel(40, k, s.seed() + k);
            for (int i = 0; i < ns.length; i++) {
                double[] e = new double[trials];
                double[] c = new double[trials];
                for (int tr = 0; tr < trials; tr++) {
                    double[] both = denseTrial(40, k, ns[i], 0.5, s.seed() + 1000L * tr + 7 * k + i);
                    e[tr] = both[0];
                    c[tr] = both[1];
                }
                sum[i] = Summary.of(e);
                cen[i] = Summary.of(c);
                t.addSummary(sum[i], "local (Algorithm 1)", k, ns[i], level, Math.sqrt(2 * k));
                t.addSummary(cen[i], "central (reference)", k, ns[i], level, Math.sqrt(2 * k));
                s.progress().accept(String.format(Locale.ROOT, "3a k=%d n=%d error %.3f (random %.3f, central %.3f)", k,
                        ns[i], sum[i].mean(), level, cen[i].mean()));
            }
            plot.series("k = " + k, x, sum);
            if (k == ks[0] || k == ks[ks.length - 1]) {
                plot.series("central model (noise on the sum), k = " + k, x, cen);
            }
            falling += falls(sum[0], sum[ns.length - 1], level) ? 1 : 0;
            drops.add(String.format(Locale.ROOT, "%.1f%%", 100 * (1 - sum[ns.length - 1].mean() / level)));
            plot.series("random, k = " + k, x, constant(x.length, level), constant(x.length, level), constant(x.length, level));
            f.append(String.format(Locale.ROOT, "k = %d: %.3f at n = %d, %.3f at n = %d (random subspace %.3f, "
                    + "maximum %.3f; central-model reference %.3f -> %.3f); ", k, sum[0].mean(), ns[0],
                    sum[ns.length - 1].mean(), ns[ns.length - 1], level, Math.sqrt(2 * k), cen[0].mean(),
                    cen[ns.length - 1].mean()));
            int at1e5 = java.util.Arrays.binarySearch(x, 100_000);
            central.add(String.format(Locale.ROOT, "k = %d: %.2f at n = %d -> %.2f at n = %s", k, cen[0].mean(), ns[0],
                    at1e5 >= 0 ? cen[at1e5].mean() : cen[ns.length - 1].mean(), at1e5 >= 0 ? "1e5"
                            : String.valueOf(ns[ns.length - 1])));
        }
        t.write(s.outputDir().resolve("fig3a.csv"));
        plot.writePng(s.outputDir().resolve("fig3a.png"), 1100, 620);
        findings.put("3a", f.toString());
        centralLine = String.join("; ", central);
        String runs = perPoint(trials);
        verdicts.put("3a-n", Finding.ranDifferently(Verdict.fromShare(falling, ks.length), CALIBRATION, String.format(
                Locale.ROOT, "%s: the error falls with n (by 5%% of the random level, 95%% bands disjoint) for %d of %d "
                + "k; at n = %d it is %s below the random level for k = 5, 10, 15, 20. The central-model reference (noise "
                + "calibrated on the average, not the paper's local algorithm) does fall: %s", runs, falling, ks.length,
                ns[ns.length - 1], String.join(", ", drops), centralLine), "fig3a.png, fig3a.csv"));
        verdicts.put("3a-k", Finding.ranDifferently(Verdict.NOT_SUPPORTED, CALIBRATION, runs + ": the error rises with k "
                + "only as the random-subspace level itself does (2k(p-k)/p grows with k): " + f, "fig3a.png, fig3a.csv"));
    }

    /** What differs from the paper in every Algorithm 1 and 2 run: the report noise, calibrated to the true sensitivity. */
    private static final String CALIBRATION = "report noise calibrated to the true sensitivity sqrt(2) (analytic "
            + "Gaussian), not the printed sigma_1; see the privacy row for how the two compare";

    /** The central-model reference of Fig. 3a per k, for the Theorem 2 discussion (empty until 3a runs). */
    private String centralLine = "";

    private void fig3b(Settings s) throws IOException {
        int trials = s.trialsOr(20, 3);
        int[] ps = {10, 20, 40, 80};
        int k = 5;
        ResultTable t = new ResultTable(ResultTable.withSummaryColumns("model", "p", "k", "n", "randomLevel", "maximum"));
        Summary[] sum = new Summary[ps.length];
        Summary[] cen = new Summary[ps.length];
        double[] level = new double[ps.length];
        for (int i = 0; i < ps.length; i++) {
            double[] e = new double[trials];
            double[] c = new double[trials];
            for (int tr = 0; tr < trials; tr++) {
                double[] both = denseTrial(ps[i], k, 100_000, 0.5, s.seed() + 2000L * tr + i);
                e[tr] = both[0];
                c[tr] = both[1];
            }
            sum[i] = Summary.of(e);
            cen[i] = Summary.of(c);
            level[i] = randomLevel(ps[i], k, s.seed() + ps[i]);
            t.addSummary(sum[i], "local (Algorithm 1)", ps[i], k, 100_000, level[i], Math.sqrt(2 * k));
            t.addSummary(cen[i], "central (reference)", ps[i], k, 100_000, level[i], Math.sqrt(2 * k));
            s.progress().accept(String.format(Locale.ROOT, "3b p=%d error %.3f (random %.3f)", ps[i], sum[i].mean(), level[i]));
        }
        double[] x = {10, 20, 40, 80};
        BandPlot.titled("Fig. 3 middle: n = 1e5, eps = 0.5, k = 5", "p", "||VV^T - V*V*^T||_F")
                .series("Algorithm 1 (local model)", x, sum).series("central model (noise on the sum)", x, cen)
                .reference("random subspace", x, level)
                .writePng(s.outputDir().resolve("fig3b.png"));
        t.write(s.outputDir().resolve("fig3b.csv"));
        int random = 0;
        for (int i = 0; i < ps.length; i++) {
            random += sum[i].mean() >= 0.95 * level[i] ? 1 : 0;
        }
        String numbers = String.format(Locale.ROOT, "k = 5: %.3f, %.3f, %.3f, %.3f at p = 10, 20, 40, 80 against "
                + "random-subspace levels %.3f, %.3f, %.3f, %.3f (central-model reference %.3f, %.3f, %.3f, %.3f)",
                sum[0].mean(), sum[1].mean(), sum[2].mean(), sum[3].mean(), level[0], level[1], level[2], level[3],
                cen[0].mean(), cen[1].mean(), cen[2].mean(), cen[3].mean());
        verdicts.put("3b", Finding.ranDifferently(random == ps.length ? Verdict.NOT_SUPPORTED
                : sum[ps.length - 1].mean() > sum[0].mean() ? Verdict.MATCHES : Verdict.CONTRADICTED, CALIBRATION,
                perPoint(trials) + ": " + numbers + (random == ps.length ? "; every point is within 5% "
                        + "of the random level, so the error rises with p only as that level does" : ""),
                "fig3b.png, fig3b.csv"));
        findings.put("3b", numbers);
    }

    private void fig3c(Settings s) throws IOException {
        int trials = s.trialsOr(20, 3);
        double[] eps = {0.1, 0.25, 0.5, 1, 2};
        int k = 5;
        ResultTable t = new ResultTable(ResultTable.withSummaryColumns("model", "epsilon", "k", "n", "p", "randomLevel"));
        Summary[] sum = new Summary[eps.length];
        Summary[] cen = new Summary[eps.length];
        double level = randomLevel(40, k, s.seed() + 40);
        for (int i = 0; i < eps.length; i++) {
            double[] e = new double[trials];
            double[] c = new double[trials];
            for (int tr = 0; tr < trials; tr++) {
                double[] both = denseTrial(40, k, 100_000, eps[i], s.seed() + 3000L * tr + i);
                e[tr] = both[0];
                c[tr] = both[1];
            }
            sum[i] = Summary.of(e);
            cen[i] = Summary.of(c);
            t.addSummary(sum[i], "local (Algorithm 1)", eps[i], k, 100_000, 40, level);
            t.addSummary(cen[i], "central (reference)", eps[i], k, 100_000, 40, level);
            s.progress().accept(String.format(Locale.ROOT, "3c eps=%s error %.3f", eps[i], sum[i].mean()));
        }
        BandPlot.titled("Fig. 3 right: n = 1e5, p = 40, k = 5", "epsilon", "||VV^T - V*V*^T||_F").logX()
                .series("Algorithm 1 (local model)", eps, sum).series("central model (noise on the sum)", eps, cen)
                .reference("random subspace", eps, constant(5, level))
                .writePng(s.outputDir().resolve("fig3c.png"));
        t.write(s.outputDir().resolve("fig3c.csv"));
        String numbers = String.format(Locale.ROOT, "k = 5: %.3f, %.3f, %.3f, %.3f, %.3f at eps = 0.1 ... 2 (random %.3f; "
                + "central-model reference %.3f ... %.3f)", sum[0].mean(), sum[1].mean(), sum[2].mean(), sum[3].mean(),
                sum[4].mean(), level, cen[0].mean(), cen[4].mean());
        boolean fall = falls(sum[0], sum[eps.length - 1], level);
        verdicts.put("3c", Finding.ranDifferently(fall ? Verdict.MATCHES : Verdict.CONTRADICTED, CALIBRATION,
                perPoint(trials) + ": " + numbers + (fall ? "" : "; the error does not fall with eps (by 5% of "
                + "the random level, 95% bands disjoint) from eps = 0.1 to 2"), "fig3c.png, fig3c.csv"));
        findings.put("3c", numbers);
    }

    // ---------------------------------------------------------------- Figure 4

    /** Sparse trials at one point: errors, mean support, closed-form solves, ADMM solves that converged. */
    private record SparsePoint(Summary error, double support, int closedForm, int admmConverged, int trials) {
    }

    private static SparsePoint sparsePoint(int p, int k, int sparsity, long n, double epsilon, int trials, long seed) {
        double[] e = new double[trials];
        double support = 0;
        int closed = 0;
        int conv = 0;
        for (int tr = 0; tr < trials; tr++) {
            double[] r = sparseTrial(p, k, sparsity, n, epsilon, seed + 7919L * tr);
            e[tr] = r[0];
            support += r[1] / trials;
            closed += r[4] == 1 ? 1 : 0;
            conv += r[4] == 0 && r[2] == 1 ? 1 : 0;
        }
        return new SparsePoint(Summary.of(e), support, closed, conv, trials);
    }

    private static String solvers(int closed, int converged, int trials) {
        return closed == trials ? "all " + trials + " solves in closed form"
                : closed + " of " + trials + " in closed form, " + converged + " of the other " + (trials - closed)
                        + " ADMM solves converged";
    }

    /** Figure 4 left: error vs n, one curve per sparsity s (p = 400, eps = 1, k = 10). */
    private void fig4a(Settings s) throws IOException {
        int trials = s.trialsOr(20, 1);
        int p = s.quick() ? 100 : 400;
        long[] ns = s.quick() ? new long[] {500, 2000} : new long[] {500, 1000, 2000, 5000, 20000};
        int[] ss = s.quick() ? new int[] {15, 40} : new int[] {15, 20, 40, 80};
        int k = 10;
        ResultTable t = new ResultTable(ResultTable.withSummaryColumns("s", "n", "p", "k", "epsilon", "meanSupport",
                "closedForm", "admmConverged", "randomLevel", "maximum"));
        double level = randomLevel(p, k, s.seed() + p);
        double[] x = toDoubles(ns);
        BandPlot plot = BandPlot.titled("Fig. 4 left: p = " + p + ", eps = 1, k = 10", "n", "||VV^T - V*V*^T||_F").logX();
        double best = Double.POSITIVE_INFINITY;
        int closed = 0;
        int conv = 0;
        int all = 0;
        StringBuilder f = new StringBuilder();
        int falls = 0;
        for (int sp : ss) {
            Summary[] sum = new Summary[ns.length];
            for (int i = 0; i < ns.length; i++) {
                SparsePoint pt = sparsePoint(p, k, sp, ns[i], 1.0, trials, s.seed() + 4000L * sp + i);
                sum[i] = pt.error();
                closed += pt.closedForm();
                conv += pt.admmConverged();
                all += trials;
                best = Math.min(best, sum[i].mean());
                t.addSummary(sum[i], sp, ns[i], p, k, 1.0, pt.support(), pt.closedForm(), pt.admmConverged(), level,
                        Math.sqrt(2 * k));
                s.progress().accept(String.format(Locale.ROOT, "4a s=%d n=%d error %.3f", sp, ns[i], sum[i].mean()));
            }
            plot.series("s = " + sp, x, sum);
            falls += falls(sum[0], sum[ns.length - 1], level) ? 1 : 0;
            f.append(String.format(Locale.ROOT, "s = %d: %.3f at n = %d, %.3f at n = %d; ", sp, sum[0].mean(), ns[0],
                    sum[ns.length - 1].mean(), ns[ns.length - 1]));
        }
        plot.reference("random subspace", x, constant(x.length, level))
                .reference("maximum sqrt(2k)", x, constant(x.length, Math.sqrt(2 * k)))
                .writePng(s.outputDir().resolve("fig4a.png"));
        t.write(s.outputDir().resolve("fig4a.csv"));
        verdicts.put("4a", Finding.ranDifferently(Verdict.fromShare(falls, ss.length), CALIBRATION,
                String.format(Locale.ROOT, "%s, n = %d ... %d: the error falls with n (by 5%% "
                + "of the random level, 95%% bands disjoint) for %d of the %d values of s; smallest mean error %.3f vs "
                + "random-subspace level %.3f; %s", perPoint(trials), ns[0], ns[ns.length - 1], falls, ss.length, best, level,
                solvers(closed, conv, all)), "fig4a.png, fig4a.csv"));
        findings.put("4a", f + String.format(Locale.ROOT, "random subspace %.3f, maximum %.3f; %s", level,
                Math.sqrt(2 * k), solvers(closed, conv, all)));
    }

    /** Figure 4 middle: error vs p (n = 2000, eps = 1, s = 20, k = 10). */
    private void fig4b(Settings s) throws IOException {
        int trials = s.trialsOr(20, 1);
        int[] ps = s.quick() ? new int[] {50, 100} : new int[] {100, 200, 400, 800, 1600};
        long n = s.quick() ? 500 : 2000;
        int k = 10;
        int sparsity = 20;
        ResultTable t = new ResultTable(ResultTable.withSummaryColumns("p", "s", "n", "k", "epsilon", "meanSupport",
                "closedForm", "admmConverged", "randomLevel", "maximum"));
        Summary[] sum = new Summary[ps.length];
        double[] level = new double[ps.length];
        int closed = 0;
        int conv = 0;
        double worstGap = Double.POSITIVE_INFINITY; // smallest error relative to its random level
        double bestError = 0;
        double bestLevel = 0;
        StringBuilder f = new StringBuilder();
        for (int i = 0; i < ps.length; i++) {
            SparsePoint pt = sparsePoint(ps[i], k, sparsity, n, 1.0, trials, s.seed() + 6000L * ps[i]);
            sum[i] = pt.error();
            level[i] = randomLevel(ps[i], k, s.seed() + ps[i]);
            closed += pt.closedForm();
            conv += pt.admmConverged();
            if (sum[i].mean() / level[i] < worstGap) {
                worstGap = sum[i].mean() / level[i];
                bestError = sum[i].mean();
                bestLevel = level[i];
            }
            t.addSummary(sum[i], ps[i], sparsity, n, k, 1.0, pt.support(), pt.closedForm(), pt.admmConverged(), level[i],
                    Math.sqrt(2 * k));
            f.append(String.format(Locale.ROOT, "p = %d: %.3f (random %.3f); ", ps[i], sum[i].mean(), level[i]));
            s.progress().accept(String.format(Locale.ROOT, "4b p=%d error %.3f", ps[i], sum[i].mean()));
        }
        double[] x = toDoubles(ps);
        BandPlot.titled("Fig. 4 middle: n = " + n + ", eps = 1, s = 20, k = 10", "p", "||VV^T - V*V*^T||_F").logX()
                .series("Algorithm 2", x, sum).reference("random subspace", x, level)
                .reference("maximum sqrt(2k)", x, constant(x.length, Math.sqrt(2 * k)))
                .writePng(s.outputDir().resolve("fig4b.png"));
        t.write(s.outputDir().resolve("fig4b.csv"));
        boolean random = bestError >= 0.95 * bestLevel;
        double growth = sum[ps.length - 1].mean() - sum[0].mean();
        verdicts.put("4b", Finding.ranDifferently(random ? Verdict.NOT_SUPPORTED : growth > 0 ? Verdict.MATCHES_IN_KIND
                : Verdict.CONTRADICTED, CALIBRATION, String.format(Locale.ROOT, "%s: from p = "
                + "%d to %d the error changes by %+.3f and the random level by %+.3f; the point closest to a signal has "
                + "mean error %.3f against the random level %.3f%s; %s", perPoint(trials), ps[0], ps[ps.length - 1], growth,
                level[ps.length - 1] - level[0], bestError, bestLevel, random ? " (every point within 5% of the random "
                + "level: the error grows only as that level does)" : "", solvers(closed, conv, ps.length * trials)),
                "fig4b.png, fig4b.csv"));
        findings.put("4b", f + solvers(closed, conv, ps.length * trials));
    }

    /** Figure 4 right: error vs eps (n = 2000, p = 400, s = 20, k = 10). */
    private void fig4c(Settings s) throws IOException {
        int trials = s.trialsOr(20, 1);
        int p = s.quick() ? 100 : 400;
        long n = s.quick() ? 500 : 2000;
        int k = 10;
        double[] eps = s.quick() ? new double[] {0.5, 4} : new double[] {0.1, 0.5, 1, 2, 4};
        ResultTable t = new ResultTable(ResultTable.withSummaryColumns("epsilon", "s", "p", "k", "n", "meanSupport",
                "closedForm", "admmConverged", "randomLevel", "maximum"));
        Summary[] sum = new Summary[eps.length];
        double level = randomLevel(p, k, s.seed() + p);
        int closed = 0;
        int conv = 0;
        StringBuilder f = new StringBuilder();
        for (int i = 0; i < eps.length; i++) {
            SparsePoint pt = sparsePoint(p, k, 20, n, eps[i], trials, s.seed() + 5000L + 97L * i);
            sum[i] = pt.error();
            closed += pt.closedForm();
            conv += pt.admmConverged();
            t.addSummary(sum[i], eps[i], 20, p, k, n, pt.support(), pt.closedForm(), pt.admmConverged(), level,
                    Math.sqrt(2 * k));
            f.append(String.format(Locale.ROOT, "eps = %s: %.3f; ", eps[i], sum[i].mean()));
            s.progress().accept(String.format(Locale.ROOT, "4c eps=%s error %.3f", eps[i], sum[i].mean()));
        }
        BandPlot.titled("Fig. 4 right: p = " + p + ", n = " + n + ", s = 20, k = 10", "epsilon", "||VV^T - V*V*^T||_F")
                .logX().series("Algorithm 2", eps, sum)
                .reference("random subspace", eps, constant(eps.length, level))
                .reference("maximum sqrt(2k)", eps, constant(eps.length, Math.sqrt(2 * k)))
                .writePng(s.outputDir().resolve("fig4c.png"));
        t.write(s.outputDir().resolve("fig4c.csv"));
        boolean fall = falls(sum[0], sum[eps.length - 1], level);
        verdicts.put("4c", Finding.ranDifferently(fall ? Verdict.MATCHES : Verdict.CONTRADICTED, CALIBRATION,
                String.format(Locale.ROOT, "%s: from eps = %s to %s the error changes by "
                + "%+.3f (random level %.3f, smallest mean %.3f); %s", perPoint(trials), eps[0], eps[eps.length - 1],
                sum[eps.length - 1].mean() - sum[0].mean(), level, min(sum), solvers(closed, conv, eps.length * trials)),
                "fig4c.png, fig4c.csv"));
        findings.put("4c", f + String.format(Locale.ROOT, "random subspace %.3f, maximum %.3f; %s", level,
                Math.sqrt(2 * k), solvers(closed, conv, eps.length * trials)));
    }

    // ---------------------------------------------------------------- Tables 1 and 2

    /** The paper's Table 1 (eps = 2; s = 10, 20, 40) and Table 2 (s = 20; eps = 1, 0.5, 0.1) for our data sets. */
    private static final Map<String, double[]> PAPER_T1 = Map.of("leukemia", new double[] {3.162, 3.435, 3.701},
            "colon", new double[] {2.449, 3.058, 3.228}, "isolet5", new double[] {1.441, 2.023, 2.508});
    private static final Map<String, double[]> PAPER_T2 = Map.of("leukemia", new double[] {4.375, 4.403, 4.518},
            "colon", new double[] {3.013, 4.237, 4.310}, "isolet5", new double[] {2.884, 3.405, 3.896});
    private static final int[] SPARSITIES = {10, 20, 40};
    private static final double[] T2_EPSILONS = {1, 0.5, 0.1};

    private void tables(Settings s) throws IOException {
        int trials = s.trialsOr(20, 1);
        ResultTable t = new ResultTable(ResultTable.withSummaryColumns("table", "dataset", "n", "p", "k", "s", "epsilon",
                "paper", "closedForm", "admmConverged", "randomLevel", "maximum"));
        int k = 10;
        StringBuilder f = new StringBuilder();
        List<String> v1 = new ArrayList<>();
        List<String> v2 = new ArrayList<>();
        boolean random1 = true;
        boolean random2 = true;
        int[] cells1 = new int[2]; // cells compared, cells within 5% of the paper's value
        int[] cells2 = new int[2];
        for (String name : s.quick() ? List.of("isolet5") : RealData.RUNNABLE) {
            Matrix x = RealData.load(name).orElse(null);
            if (x == null) {
                f.append(name).append(": file absent, not run; ");
                continue;
            }
            if (s.quick()) {
                x = RealData.leadingColumns(x, 80);
            }
            int n = x.rows();
            int p = x.cols();
            Matrix cov = x.transposeTimes(x).scaled(1.0 / n);
            cov.symmetrizeInPlace();
            double level = randomLevel(p, k, s.seed() + p);
            Map<Integer, Matrix> references = new LinkedHashMap<>();
            for (int sp : SPARSITIES) {
                references.put(sp, RealData.rowSparsePca(x, k, sp));
            }
            List<Double> eps = new ArrayList<>();
            if (s.wants("t1")) {
                eps.add(2.0);
            }
            if (s.wants("t2")) {
                for (double e : T2_EPSILONS) {
                    eps.add(e);
                }
            }
            double best1 = Double.POSITIVE_INFINITY;
            double best2 = Double.POSITIVE_INFINITY;
            StringBuilder row1 = new StringBuilder();
            StringBuilder row2 = new StringBuilder();
            for (int ei = 0; ei < eps.size(); ei++) {
                double e = eps.get(ei);
                boolean isT1 = e == 2.0;
                Map<Integer, double[]> errors = new LinkedHashMap<>();
                for (int sp : SPARSITIES) {
                    errors.put(sp, new double[trials]);
                }
                int closed = 0;
                int conv = 0;
                for (int tr = 0; tr < trials; tr++) {
                    RandomSource r = RandomSource.seededForReproducibility(s.seed() + 31L * name.hashCode()
                            + (long) (e * 1000) + 100_003L * tr);
                    Matrix noisy = privatize(cov, e, n, r);
                    double lambda = SparseFantopePca.defaultPenalty(reportSigma(e) / Math.sqrt(n), p);
                    SparseFantopePca.Result res = SparseFantopePca.builder().components(k)
                            .maxIterations(ADMM_ITERATION_CAP).build().solve(noisy, lambda);
                    boolean closedForm = "closed-form".equals(res.subspace().diagnostics().get("solver"));
                    closed += closedForm ? 1 : 0;
                    conv += !closedForm && res.converged() ? 1 : 0;
                    for (int sp : SPARSITIES) {
                        errors.get(sp)[tr] = SubspaceMetrics.projectorDistance(res.subspace().components(),
                                references.get(sp));
                    }
                }
                for (int si = 0; si < SPARSITIES.length; si++) {
                    int sp = SPARSITIES[si];
                    if (!isT1 && sp != 20) {
                        continue;
                    }
                    Summary sum = Summary.of(errors.get(sp));
                    double paper = isT1 ? PAPER_T1.get(name)[si] : PAPER_T2.get(name)[indexOf(T2_EPSILONS, e)];
                    t.addSummary(sum, isT1 ? "1" : "2", name, n, p, k, sp, e, paper, closed, conv, level,
                            Math.sqrt(2 * k));
                    String cell = String.format(Locale.ROOT, "%.3f (paper %.3f)", sum.mean(), paper);
                    boolean close = Math.abs(sum.mean() - paper) <= 0.05 * paper;
                    if (isT1) {
                        cells1[0]++;
                        cells1[1] += close ? 1 : 0;
                    } else {
                        cells2[0]++;
                        cells2[1] += close ? 1 : 0;
                    }
                    if (isT1) {
                        best1 = Math.min(best1, sum.mean());
                        row1.append(row1.isEmpty() ? "" : ", ").append("s = ").append(sp).append(": ").append(cell);
                    } else {
                        best2 = Math.min(best2, sum.mean());
                        row2.append(row2.isEmpty() ? "" : ", ").append("eps = ").append(e).append(": ").append(cell);
                    }
                }
                String solved = solvers(closed, conv, trials);
                (isT1 ? row1 : row2).append(" [eps = ").append(e).append(": ").append(solved).append("]");
                s.progress().accept(String.format(Locale.ROOT, "tables %s eps=%s %s", name, e, solved));
            }
            String head = String.format(Locale.ROOT, "%s (n = %d, p = %d, max |S_ij| = %.2g, sigma_bar = %.3f at eps = 2, "
                    + "random subspace %.3f)", name, n, p, cov.maxAbs(), reportSigma(2) / Math.sqrt(n), level);
            if (row1.length() > 0) {
                f.append("Table 1, ").append(head).append(": ").append(row1).append("; ");
                random1 &= best1 >= 0.95 * level;
                v1.add(tableVerdict(name, best1, level));
            }
            if (row2.length() > 0) {
                f.append("Table 2, ").append(head).append(": ").append(row2).append("; ");
                random2 &= best2 >= 0.95 * level;
                v2.add(tableVerdict(name, best2, level));
            }
        }
        t.write(s.outputDir().resolve("tables.csv"));
        String per = trials + (trials == 1 ? " trial" : " trials") + " per cell (paper: not stated)";
        if (!v1.isEmpty()) {
            verdicts.put("t1", tableFinding(cells1, random1, v1, per));
        }
        if (!v2.isEmpty()) {
            verdicts.put("t2", tableFinding(cells2, random2, v2, per));
        }
        findings.put("t", f.toString());
    }

    /** ADMM iterations allowed per solve in the reproduction (only reached where the closed form does not apply). */
    private static final int ADMM_ITERATION_CAP = 500;

    private static String tableVerdict(String name, double best, double level) {
        return String.format(Locale.ROOT, "%s: smallest mean error %.3f against the random-subspace level %.3f%s", name,
                best, level, best >= 0.95 * level ? " (a random subspace)" : "");
    }

    /** A table's verdict: the share of its cells (data set × column) where our mean is within 5% of the paper's value. */
    private static Finding tableFinding(int[] cells, boolean random, List<String> perDataSet, String per) {
        return Finding.ranDifferently(Verdict.fromShare(cells[1], cells[0]), CALIBRATION + "; only the data sets "
                + "available offline", String.format(Locale.ROOT, "%s: our mean is within 5%% of the paper's value in %d "
                + "of %d cells; %s%s", per, cells[1], cells[0], String.join("; ", perDataSet), random
                ? "; every data set's estimate is a random subspace at these settings" : ""), "tables.csv");
    }

    private static int indexOf(double[] a, double v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        throw new IllegalArgumentException("no " + v);
    }

    // ---------------------------------------------------------------- report

    /** The findings of the figures run, by key. Filled by the figure methods. */
    private final ClaimsTable.Findings verdicts = new ClaimsTable.Findings();

    /**
     * The privacy row, computed from the Gaussian privacy profile (GaussianNoise.deltaFor): where the paper's printed
     * σ₁ = √(2 ln(1.25/δ))/ε, calibrated to sensitivity 1, is (ε, δ)-LDP at the true sensitivity √2, and how it
     * compares with ours at Figure 3's setting.
     */
    static Finding privacyFinding() {
        double[] deltas = {1e-4, 1e-3};
        double boundary4 = privateUpTo(1e-4);
        double boundary3 = privateUpTo(1e-3);
        PrivacyParams fig3 = PrivacyParams.of(0.5, DELTA);
        double ours = reportSigma(0.5);
        double papers = GaussianCalibration.classicSigma(1, fig3);
        // the experiments' settings: Figure 3 (eps 0.1 ... 2), Figure 4 (0.1 ... 4), the tables (0.1 ... 2), delta 1e-4
        double[] used = {0.1, 0.25, 0.5, 1, 2, 4};
        int privateAt = 0;
        for (double e : used) {
            privateAt += papersTrueEpsilon(e, DELTA) <= e ? 1 : 0;
        }
        return Finding.ranDifferently(Verdict.fromShare(privateAt, used.length), "checked from the exact Gaussian privacy "
                + "profile (GaussianNoise.deltaFor), not by a run; our randomizer calibrates to sqrt(2) (analytic Gaussian)",
                String.format(Locale.ROOT, "the printed sigma_1 assumes sensitivity 1; between two records of norm <= 1 the "
                + "upper triangle moves by up to sqrt(2). The classic rule's slack hides this for small eps: at the true "
                + "sensitivity the printed sigma_1 is (eps, delta)-LDP up to eps = %.2f at delta = 1e-4 (%.2f at delta = "
                + "1e-3) and falls short above, true eps %.2f at eps = 1 and %.2f at eps = 2 (delta = 1e-4); it is private "
                + "at %d of the %d eps the experiments use (0.1, 0.25, 0.5, 1, 2, 4 at delta = 1e-4). At Fig. 3's eps = "
                + "0.5 our sigma (%.3f) is %.0f%% %s the paper's (%.3f), so calibration is not why our curves differ from "
                + "the paper's. LocalCovarianceRandomizerAuditTest audits the paper's sigma_1 as its broken twin: not "
                + "flagged at (0.5, 1e-4), where it is private; caught at (3, 1e-4) with 4e6 runs; its 4%% shortfall at "
                + "eps = 1 is below what an audit of feasible size resolves", boundary4, boundary3,
                papersTrueEpsilon(1, DELTA), papersTrueEpsilon(2, DELTA), privateAt, used.length, ours,
                100 * Math.abs(1 - ours / papers), ours < papers ? "smaller than" : "larger than", papers),
                "LocalCovarianceRandomizerAuditTest");
    }

    /** The true ε at δ of the paper's σ₁(ε, δ) when the sensitivity is √2 (bisection on the privacy profile). */
    static double papersTrueEpsilon(double epsilon, double delta) {
        double sigma = GaussianCalibration.classicSigma(1, PrivacyParams.of(epsilon, delta));
        double lo = 0;
        double hi = 200;
        if (GaussianNoise.deltaFor(sigma, Math.sqrt(2), 0) <= delta) {
            return 0;
        }
        for (int i = 0; i < 200; i++) {
            double mid = 0.5 * (lo + hi);
            if (GaussianNoise.deltaFor(sigma, Math.sqrt(2), mid) > delta) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /** The largest ε at which the paper's σ₁ is still (ε, δ)-LDP at sensitivity √2 (bisection; its shortfall grows with ε). */
    static double privateUpTo(double delta) {
        double lo = 0.01;
        double hi = 50;
        for (int i = 0; i < 100; i++) {
            double mid = 0.5 * (lo + hi);
            if (papersTrueEpsilon(mid, delta) <= mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Theorem 2 at Figure 3's setting (n = 1e5, p = 40, k = 5, eps = 0.5, delta = 1e-4, lambda = 1), constants dropped:
     * the bound as stated, λ₁² kp log(1/δ)/(gap² n ε²), and as its proof gives it, k‖S̃ − Σ‖²/gap² with ‖Z‖ ≈ √p σ,
     * σ² = 2 ln(1.25/δ)/(nε²), which has no λ₁² factor.
     */
    static double[] theoremTwo() {
        int p = 40;
        int k = 5;
        double n = 1e5;
        double eps = 0.5;
        double lambda = 1;
        double l1 = (lambda + 1) / (5 * p * (lambda + 1));
        double lk1 = 1 / (5.0 * p * (lambda + 1));
        double gap = l1 - lk1;
        double stated = l1 * l1 * k * p * Math.log(1 / DELTA) / (gap * gap * n * eps * eps);
        double proof = k * p * 2 * Math.log(1.25 / DELTA) / (n * eps * eps) / (gap * gap);
        return new double[] {stated, proof, l1, gap};
    }

    private void writeReport(Settings s) throws IOException {
        double[] th2 = theoremTwo();
        ClaimsTable t = new ClaimsTable()
                .notRun("Theorem 1", "lower bound Omega(sigma^2 kp/(n eps^2)) on the eps-LDP minimax risk (low dimension)",
                        "it is a minimax lower bound over all mechanisms, not an experiment")
                .row("Algorithm 1, Theorem 2 (privacy)", "each report is (eps, delta)-LDP with "
                        + "sigma_1^2 = 2 ln(1.25/delta)/eps^2", privacyFinding())
                .ranDifferently("Theorem 2 (utility)", "error^2 <= O(lambda_1^2 kp log(1/delta)/(gap^2 n eps^2)) w.h.p.",
                        Verdict.NOT_SUPPORTED, "checked by calculation at Figure 3's setting, constants dropped",
                        String.format(Locale.ROOT, "the stated bound carries a factor lambda_1^2 its proof does not: the "
                        + "proof bounds sin^2 by k ||S~ - Sigma||^2/gap^2 with ||Z|| ~ sqrt(p) sigma_1/sqrt(n), i.e. "
                        + "kp 2 ln(1.25/delta)/(gap^2 n eps^2) = %.3g at n = 1e5, p = 40, k = 5, eps = 0.5 (lambda_1 = "
                        + "%.4f, gap = %.4f), on an error whose square cannot exceed 2k = 10; the stated expression is %.3g. "
                        + "Only noise calibrated on the sum (the central model, not a local mechanism) gives falling "
                        + "curves there: %s (Figure 3 left, central-model line)", th2[1], th2[2], th2[3], th2[0],
                        centralLine.isEmpty() ? "Figure 3 left was not run" : centralLine), "§Theorem 2")
                .notRun("Theorem 3", "sparse lower bound Omega(sigma^2 s(k + log p)/(n eps^2))",
                        "it is a minimax lower bound")
                .ranDifferently("Algorithm 2, Theorem 4", "ADMM on problem (5); ||X^ - VV^T||_F <= 4 s lambda/gap when "
                        + "lambda >= ||S~ - Sigma||_max", Verdict.MATCHES, "on a planted instance in a unit test (p = 40, "
                        + "k = 2, s = 6), not at the paper's settings", "Fantope error 0.204 against the bound 1.13; at "
                        + "the paper's synthetic settings the condition on lambda is far from met (Figure 4)",
                        "SparseFantopePcaTest")
                .ranDifferently("Theorem 5", "support recovery supp(diag X^) = J under LCC and large n", Verdict.MATCHES,
                        "on the planted instance of the unit test", "support recovered exactly; not at the paper's "
                        + "settings, whose n is far below condition (6)", "SparseFantopePcaTest")
                .notRun("Figure 1", "Algorithm 1 on Covertype, Buzz, Year: error falls with the sample size",
                        "Covertype, Buzz and YearPredictionMSD are not available offline (datasets/README.md)")
                .notRun("Figure 2", "the same data sets: error falls with eps", "the data sets are not available offline");
        String notRequested = "it was not requested in this invocation (--figure)";
        t.row("Figure 3 left", "error vs n for k = 5, 10, 15, 20 (p = 40, eps = 0.5): falls with n", verdicts, "3a-n",
                notRequested);
        t.row("Figure 3 left", "the error rises with k", verdicts, "3a-k", notRequested);
        t.row("Figure 3 middle", "error vs p (n = 1e5, eps = 0.5): rises with p", verdicts, "3b", notRequested);
        t.row("Figure 3 right", "error vs eps (n = 1e5, p = 40): falls with eps", verdicts, "3c", notRequested);
        String realRun = s.quick() ? "run: isolet5's first 80 columns" : "run: leukemia, colon, isolet5";
        t.row("Table 1", "k = 10, eps = 2, s = 10, 20, 40 (" + realRun + "): cancer RNA-Seq 3.162/3.381/3.668, "
                + "Leukemia 3.162/3.435/3.701, Colon 2.449/3.058/3.228, isolet5 1.441/2.023/2.508, lung 2.858/3.464/3.901, "
                + "NIPS 3.643/3.881/4.472; error grows with s", verdicts, "t1", notRequested);
        t.notRun("Table 1, other data sets", "the rows for cancer RNA-Seq, lung and NIPS",
                "cancer RNA-Seq, lung and NIPS are not available offline (datasets/README.md)");
        t.row("Figure 4 left", "error vs n for s = 15, 20, 40, 80 (p = 400, eps = 1): as k/n grows the error grows, i.e. "
                + "it falls with n", verdicts, "4a", notRequested);
        t.row("Figure 4 middle", "error vs p (n = 2000, eps = 1): grows only slightly, as log p (s = 20, p = 100 ... "
                + "1600)", verdicts, "4b", notRequested);
        t.row("Figure 4 right", "error vs eps (n = 2000, p = 400): falls with eps (s = 20, eps = 0.1 ... 4)", verdicts,
                "4c", notRequested);
        t.row("Table 2", "k = 10, s = 20, eps = 1, 0.5, 0.1 (" + realRun + "): Leukemia 4.375/4.403/4.518 "
                + "(4.518 exceeds the maximum 4.472), Colon 3.013/4.237/4.310, isolet5 2.884/3.405/3.896 (others as in "
                + "Table 1); error grows as eps shrinks", verdicts, "t2", notRequested);
        t.notRun("Table 2, other data sets", "the rows for cancer RNA-Seq, lung and NIPS", "as for Table 1");
        t.notRun("Definitions 1-4, Lemmas 1-17 (Sections 2-5, 7)", "the privacy and minimax definitions, the LCC "
                + "condition, and the lemmas of the proofs (Lemma 7, the generalized Davis-Kahan theorem, is the step of "
                + "Theorem 2 discussed in its row)", "definitions and proof tools, not experiments");
        StringBuilder md = new StringBuilder();
        md.append("# Reproduction: Wang & Xu, Principal Component Analysis in the Local Differential Privacy Model\n\n");
        if (s.quick()) {
            md.append("**QUICK RUN** (small sizes, few trials): a smoke test, not evidence.\n\n");
        }
        md.append(t.markdown());
        md.append(String.format(Locale.ROOT, "Run: `dpspectra reproduce local-dp --output-dir %s` (seed %d), %.1f minutes "
                + "wall, %.1f minutes of process CPU (the machine's load average was %.1f at the start and %.1f at the "
                + "end); trials per point as in each row.%n%n", s.outputDir(), s.seed(), timer[0], timer[1], timer[2],
                timer[3]));
        md.append("## Measured (seed ").append(s.seed()).append(")\n\n");
        findings.forEach((key, v) -> md.append("- **").append(key).append("**: ").append(v).append('\n'));
        PrivacyParams fig3 = PrivacyParams.of(0.5, DELTA);
        double printed = GaussianCalibration.classicSigma(1, fig3);
        double noiseOverGap = 2 * Math.sqrt(40) / Math.sqrt(1e5) / th2[3];
        md.append(String.format(Locale.ROOT, THEOREM_TWO, th2[2], th2[3], th2[0], th2[1],
                reportSigma(0.5) * noiseOverGap, 100 * (1 - reportSigma(0.5) / printed), printed * noiseOverGap,
                GaussianNoise.sigmaFor(1, fig3) * noiseOverGap, reportSigma(0.5) * noiseOverGap / Math.sqrt(1e5),
                centralLine.isEmpty() ? "(Figure 3 left was not run)" : centralLine));
        md.append(ANALYSIS);
        ReportFile.write(paper(), s, md.toString());
    }

    /** Wall minutes, CPU minutes, load at start and end of the run (set by run). */
    private final double[] timer = new double[4];

    static final String THEOREM_TWO = """

            ## Theorem 2

            Figure 3's setting: n = 1e5, p = 40, k = 5, eps = 0.5, delta = 1e-4, lambda = 1, so lambda_1 = 1/(5p) =
            %.4f and the gap lambda_k - lambda_{k+1} = %.4f. Theorem 2 states sin^2 <= O(lambda_1^2 kp log(1/delta) /
            (gap^2 n eps^2)): %.3g here with the constant dropped, an error small enough to fall visibly with n, as
            the paper's curves do. Its proof (Section 7.2) does not give the lambda_1^2: it bounds sin^2 by
            k ||S~ - Sigma||^2 / gap^2 (Lemma 7) with ||S~ - S|| = ||Z|| = O(sqrt(p) sigma), sigma^2 =
            2 ln(1.25/delta)/(n eps^2), whose square term kp 2 ln(1.25/delta)/(gap^2 n eps^2) is %.3g here, on an error
            whose square cannot exceed 2k = 10: vacuous. The privacy noise of a report does not shrink with the scale
            of the data (lambda_1), so no calibration of a local mechanism under the paper's norm bound ||x|| <= 1 can
            carry that factor. The averaged report noise has spectral norm about 2 sqrt(p) sigma/sqrt(n): at
            n = 1e5 that is %.0f times the gap with our sigma (sensitivity sqrt(2); %.0f%% below the printed one
            here), %.0f times with the printed sigma_1, and still %.0f times with the analytic sigma for sensitivity
            1 (not private, the true sensitivity being sqrt(2)); a subspace is found only when it is below the gap.
            Noise calibrated on the sum, the central model (one curator adds noise of std sigma/n to the average
            instead of every client adding sigma), gives 2 sqrt(p) sigma/n = %.2f times the gap, and falling
            curves: Figure 3 left draws it as the reference line, %s.
            """;

    static final String ANALYSIS = """

            ## What the numbers mean

            The error is ||V^V^T - VV^T||_F. It cannot exceed sqrt(2 min(k, p - k)): sqrt(2k) = 4.472 for
            k = 10. A uniformly random k-subspace of R^p is at about sqrt(2k(p - k)/p) from any fixed one
            (4.42 for k = 10, p = 400; 2.96 for k = 5, p = 40). An estimate at that level carries no
            information about the truth, so a curve there neither "matches" nor "improves" on the paper.

            Why the synthetic curves sit there: with Sigma = lambda/(5p(lambda+1)) VV^T + I/(5p(lambda+1)) and
            lambda = 1 the eigengap is 1/(10p) = 0.0025 at p = 40, while each report carries Gaussian noise of
            standard deviation sigma = 8.3 (eps = 0.5, delta = 1e-4, sensitivity sqrt(2), analytic) on every
            entry; the averaged noise matrix has spectral norm about 2 sqrt(p) sigma/sqrt(n) = 0.33 at
            n = 1e5, a hundred times the gap. Separating the subspace would need n of order 1e9 or more.
            The paper's falling curves cannot come from the algorithm as printed at these settings; the
            central-model line of Figure 3 (the same sigma, calibrated on the average instead of on each
            report) falls as they do (see Theorem 2 above).

            Tables 1-2: 3.162 = sqrt(10), 2.449 = sqrt(6) and 4.472 = sqrt(20) are exactly sqrt(2(10 - j)), the
            distance between two rank-10 projectors that share exactly j = 5, 7 and 0 dimensions and are
            orthogonal in the rest, as when a coordinate-selecting (diagonal) solution is compared with a
            reference: they look like counts, not averages of continuous errors over trials.
            At the maximum sqrt(2k) = 4.472: NIPS (Table 1, s = 40; Table 2, eps = 0.1). Past it, which no
            distance and no average of distances can be: Leukemia 4.518 (Table 2, eps = 0.1). Within 3% of it:
            Leukemia 4.375 and 4.403, lung 4.362 (Table 2). A value at the maximum means the released subspace
            is orthogonal to the reference: it contains none of its directions. For these p the random level
            sqrt(2k(p - k)/p) is itself within 0.2% of the maximum (4.469 at p = 7128, 4.468 at p = 5811, 4.465 at p = 3312), so
            these entries say the private estimate is a random subspace: the method failed there, while the
            paper reads the tables as consistent with Theorem 4.

            Problem (5) at the default penalty: lambda = sigma_bar sqrt(2 ln(p^2(p+1))) (sigma_bar the entry std of
            the averaged noise) is built to exceed ||S~ - Sigma||_max, as Theorem 4 asks. On these data the privacy
            noise dwarfs the data (compare sigma_bar with max |S_ij| in the measured lines), so lambda also exceeds
            every off-diagonal |S~_ij|, and then (5) has an exact solution in closed form: the diagonal projector
            on the k coordinates with the largest noisy variance S~_ii (proof in SparseFantopePca's javadoc; ADMM
            reaches the same point, SparseFantopePcaTest). The released subspace is spanned by k coordinate axes
            picked by the noise, at distance sqrt(2(k - sum_{i in J} ||V_i||^2)) from a rank-k reference V: the
            maximum sqrt(2k) unless a picked axis falls on one of the reference's s rows. This is why our cells
            sit at or just below the maximum, and it is also what the paper's sqrt(2(10 - j)) values look like:
            a coordinate-selecting solution whose axes coincide with j reference axes. The measured lines count,
            per cell, the solves done in closed form and by ADMM (which runs wherever the condition fails, through
            the certified partial-spectrum Fantope projection).

            Simulation: the average of n reports is drawn as S_n + E (E one symmetric Gaussian matrix of entry
            std sigma/sqrt(n), the exact law of the sum of n independent report noises); S_n is an exact
            Wishart draw for the synthetic data. The clients themselves are exercised by the tests and the
            benchmark (docs/benchmarks/ldp.md), not here.
            """;

    private static double min(Summary[] sums) {
        double m = Double.POSITIVE_INFINITY;
        for (Summary x : sums) {
            m = Math.min(m, x.mean());
        }
        return m;
    }

    private static double[] constant(int n, double v) {
        double[] a = new double[n];
        java.util.Arrays.fill(a, v);
        return a;
    }

    private static double[] toDoubles(long[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            d[i] = v[i];
        }
        return d;
    }

    private static double[] toDoubles(int[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            d[i] = v[i];
        }
        return d;
    }
}
