package io.dpspectra.experiments.kdppca;

import io.dpspectra.experiments.ClaimsTable;
import io.dpspectra.experiments.Reproduction;
import io.dpspectra.experiments.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The markdown report: per figure the paper's claim, our numbers and a verdict computed from them. */
final class Report {
    private Report() {
    }

    private static double mean(Map<Method, KdpPcaReproduction.Cell> cell, Method m) {
        KdpPcaReproduction.Cell c = cell.get(m);
        return c.zeta.isEmpty() ? Double.NaN : KdpPcaReproduction.summary(c.zeta).mean();
    }

    /** The paper's methods with provable defaults (this project's variant is reported separately). */
    private static final List<Method> PROVABLE = List.of(Method.K_DP_PCA, Method.K_DP_OJAS, Method.DP_GAUSS_1,
            Method.DP_GAUSS_2, Method.DP_POWER);

    private static Method best(Map<Method, KdpPcaReproduction.Cell> cell, List<Method> among) {
        Method best = null;
        for (Method m : among) {
            if (!Double.isNaN(mean(cell, m)) && (best == null || mean(cell, m) < mean(cell, best))) {
                best = m;
            }
        }
        return best;
    }

    /** Whether a method's mean at a point is at the random-subspace level (within 10% of it). */
    static boolean atRandomLevel(Map<Method, KdpPcaReproduction.Cell> cell, Method m, Method.Model model) {
        return mean(cell, m) >= 0.9 * KdpPcaReproduction.randomSubspaceZeta(model);
    }

    private static String figureVerdict(KdpPcaReproduction.Figure f, Map<String, List<Map<Method, KdpPcaReproduction.Cell>>> res) {
        List<Map<Method, KdpPcaReproduction.Cell>> cells = res.get(f.id());
        return verdict(f, cells, res) + " " + variantLine(f, cells);
    }

    /** This project's variant against the paper's k-DP-PCA and DP-Gauss-1 at each point. */
    static String variantLine(KdpPcaReproduction.Figure f, List<Map<Method, KdpPcaReproduction.Cell>> cells) {
        if (cells.stream().allMatch(c -> c.get(Method.K_DP_PCA_ADAPTIVE).zeta.isEmpty())) {
            return "";
        }
        int ahead = 0;
        int random = 0;
        for (int x = 0; x < cells.size(); x++) {
            Map<Method, KdpPcaReproduction.Cell> c = cells.get(x);
            Summary a = KdpPcaReproduction.summary(c.get(Method.K_DP_PCA_ADAPTIVE).zeta);
            if (!c.get(Method.DP_GAUSS_1).zeta.isEmpty()
                    && a.upper() < KdpPcaReproduction.summary(c.get(Method.DP_GAUSS_1).zeta).lower()) {
                ahead++;
            }
            if (atRandomLevel(c, Method.K_DP_PCA_ADAPTIVE, f.models().get(x))) {
                random++;
            }
        }
        return String.format(Locale.ROOT, "This project's variant (k-DP-PCA-adaptive): ahead of DP-Gauss-1 (95%% bands "
                + "disjoint) at %d of %d points; at the random-subspace level at %d of %d points.", ahead, cells.size(),
                random, cells.size());
    }

    /** The opening table: every figure, table and quantitative claim of [DS], appendices included, in paper order. */
    static ClaimsTable claims(List<KdpPcaReproduction.Figure> figs, Map<String, List<Map<Method, KdpPcaReproduction.Cell>>> res) {
        Map<String, KdpPcaReproduction.Figure> byId = new java.util.HashMap<>();
        figs.forEach(f -> byId.put(f.id(), f));
        ClaimsTable t = new ClaimsTable();
        String theory = "a theorem (proved in the paper, not an experiment); the implementation follows the algorithm";
        t.notRun("Thm 1 (privacy)", "k-DP-PCA is (eps, delta)-DP for any input", "a theorem; note it is stated for "
                + "add/remove but the positional batches are only provably private under replace-one, which is what "
                + "`k-dp-pca` certifies (paper-literal mode: add/remove calibration, flagged NOT certified)");
        t.notRun("Thm 1 (utility), eq. (1)-(2)", "zeta = O~(kappa'(sqrt(Vk/n) + gamma d k sqrt(log(1/delta))/(eps n))) once "
                + "n exceeds eq. (1)", "the rate hides constants and polylogs; eq. (1)'s sample condition is where the "
                + "printed PrivRange/PrivMean constants fail: see 'Why k-DP-PCA cannot release' (n >= 3.5e8 at d = 200)");
        t.notRun("Cor 1 (Gaussian rate)", "zeta = O~(kappa'(sqrt(dk/n) + dk sqrt(log(1/delta))/(eps n)))", theory
                + "; Fig. 4 is its experiment");
        t.notRun("Cor 2 (spiked rate, 'adaptive noise')", "zeta scales with sigma: error decreases as sigma shrinks",
                theory + "; tested through Figs. 1b and 2b (sigma claims), on the A_i sample model");
        t.notRun("Lemma 1, Cor 3 (lower bound)", "Frobenius-to-zeta reduction; spiked lower bound matching Cor 2 up to k",
                theory);
        t.notRun("Thm 2, Def 3, Thm 3 (meta theorem, ePCA oracles)", "deflation over any zeta-approximate 1-ePCA oracle "
                + "gives a zeta-approximate k-PCA; ModifiedDP-PCA and DP-Ojas are such oracles", theory
                + " (Deflation implements Alg. 1/4 for any oracle; the project's variant uses it)");
        t.notRun("Cor 4 and the remark after it", "k-DP-Ojas rate with (gamma+1); so in low noise ModifiedDP-PCA beats "
                + "k-DP-Ojas", theory + "; the remark is Fig. 2b's claim");
        for (String id : List.of("1a", "1b", "1c", "2a", "2b", "2c")) {
            figureRow(t, id, byId, res);
        }
        t.notRun("Sec. 5 remark", "both algorithms need eigenvalues for their step sizes, obtainable privately by the "
                + "Gaussian mechanism", "not an experiment; the runs use the public model constants (App. G.1)");
        t.notRun("Sec. 6 open problems; Sec. E.2", "removing exp(kappa') from the sample condition at an extra "
                + "O~(gamma d^2 log(1/delta)/(eps n)) term", theory);
        t.notRun("App. B-F (Lemmas 2-23, Thms 4-13)", "preliminaries, deflation analysis, Oja analysis, main proofs, "
                + "lower bounds", theory);
        t.differs("App. G (DP-Gauss-1/2, DP-Power-Method definitions)", "baselines: trace clipping at beta^2, classic "
                + "Gaussian; DP-Gauss-2 with Laplace gap; noisy power method", "DP-Gauss-1 runs on sum clip(A_i) as "
                + "printed (classic calibration); DP-Gauss-2 and DP-Power-Method are defined for rows (their clipping is "
                + "by row norms) and run only on Fig. 4's Gaussian rows, not on the A_i figures", "Methods");
        figureRow(t, "3", byId, res);
        for (String id : List.of("4", "4b", "4c")) {
            figureRow(t, id, byId, res);
        }
        t.differs("App. G.1 (sample model, constants)", "A_i = V Lambda V^T + z_i z_i^T (k > 1); beta = C sqrt(lambda_1) + "
                + "sigma sqrt(d log(n/zeta)); B = sqrt(n) 'improved performance in practice'; App. G learning rates",
                "followed (A_i in every spiked figure, C = 1, zeta = 0.01, B = floor(sqrt(n))); the claim that B = sqrt(n) "
                + "beats n/log^3 n is not tested (k-DP-PCA does not release at either)", "Settings");
        t.notRun("App. G.2 remark", "k-DP-PCA needs careful learning-rate tuning; k-DP-Ojas is robust to it",
                "no learning-rate sweep was run (machine time); Fig. 4 compares the methods at the printed rates");
        t.differs("App. G.3", "a public range (instead of PrivRange) removes the sample-size requirement", "a public "
                + "range skips PrivRange only; PrivMean's d per-coordinate histograms still need N eps_h >~ 1 to locate "
                + "a centre (group privacy), so it still cannot release (`--public-range` exists; see 'Why k-DP-PCA "
                + "cannot release')", "Why k-DP-PCA cannot release");
        t.notRun("App. H (Algs. 6, 7)", "PrivRange and PrivMean as in Liu et al.", "subroutines, implemented "
                + "(`PrivRange`, `PrivMean`); their release rates are measured in every k-DP-PCA figure");
        if (byId.containsKey("X")) {
            figureRow(t, "X", byId, res);
        }
        return t;
    }

    private static void figureRow(ClaimsTable t, String id, Map<String, KdpPcaReproduction.Figure> byId,
                                  Map<String, List<Map<Method, KdpPcaReproduction.Cell>>> res) {
        KdpPcaReproduction.Figure f = byId.get(id);
        String item = id.equals("X") ? "(project) crossover" : "Fig. " + id;
        if (f == null || !res.containsKey(id)) {
            t.notRun(item, f == null ? "see the paper" : f.claim(), "not in this run (--figure)");
            return;
        }
        String v = figureVerdict(f, res);
        String where = "Figure " + id;
        if (v.contains("DOES NOT MATCH")) {
            t.differs(item, f.claim(), "the data contradict it: " + v, where);
        } else {
            t.reproduced(item, f.claim(), v, where);
        }
    }

    /**
     * How long the run took: wall minutes per figure, the worker threads, the 1-minute load average sampled after each
     * point (negative where the platform has none) and the machine's cores.
     */
    record RunTime(Map<String, Double> minutes, int threads, List<Double> loads, int cores) {
        double total() {
            return minutes.values().stream().mapToDouble(Double::doubleValue).sum();
        }

        String perFigure() {
            StringBuilder sb = new StringBuilder();
            minutes.forEach((f, m) -> sb.append(sb.length() == 0 ? "" : ", ").append(f)
                    .append(String.format(Locale.ROOT, " %.1f", m)));
            return sb.toString();
        }

        String load() {
            java.util.DoubleSummaryStatistics l = loads.stream().mapToDouble(Double::doubleValue).filter(x -> x >= 0)
                    .summaryStatistics();
            return l.getCount() == 0 ? "not available" : String.format(Locale.ROOT, "%.1f-%.1f (mean %.1f)", l.getMin(),
                    l.getMax(), l.getAverage());
        }
    }

    static String markdown(List<KdpPcaReproduction.Figure> figs, Map<String, List<Map<Method, KdpPcaReproduction.Cell>>> res,
                           int trials, Reproduction.Settings s, RunTime time) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Reproduction: Düngler & Sanyal, k-DP-PCA with adaptive noise\n\n");
        sb.append("Paper: `papers/kdp-pca-adaptive-noise.txt` (§5, App. G). Command: `dpspectra reproduce kdp-pca")
                .append(s.quick() ? " --quick" : "").append(s.trials() != null ? " --trials " + s.trials() : "")
                .append(s.figures().equals(KdpPcaReproduction.FIGURES) ? "" : " --figure " + String.join(",", s.figures()))
                .append(" --output-dir ").append(s.outputDir()).append("` (seed ").append(s.seed()).append("): ")
                .append(trials).append(" trials per point in every figure, ").append(String.format(Locale.ROOT,
                        "%.0f minutes wall time on %d worker thread(s).\n\n", time.total(), time.threads()));
        if (s.quick()) {
            sb.append("**QUICK RUN** (small n and d, ").append(trials).append(" trials): a smoke test, not evidence.\n\n");
        }
        sb.append(claims(figs, res).markdown());
        sb.append("Settings: k = 2, lambda_1 = 10 (lambda_2 = 5), epsilon = 1, delta = 0.01, ").append(trials)
                .append(" trials per point (fresh basis, data and noise; the paper uses 50), B = floor(sqrt(n)) and the "
                        + "App. G.1 learning rate for k-DP-PCA and the variant, eta_j = 1/(1+j) for k-DP-Ojas, zeta = 0.01 "
                        + "and C = 1 in the clipping rules. **Spiked figures (1a-c, 2a-c, 3, X) use the paper's sample "
                        + "model A_i = V Lambda V^T + z_i z_i^T (App. G.1)**, so the sample fluctuation scales with sigma^2 "
                        + "as in Cor. 2; Fig. 4 (a-c) uses Gaussian rows x ~ N(0, V Lambda V^T + I). "
                        + "Utility: zeta = sqrt(1 - R), R = captured-variance ratio ([DS] Def. 1), lower is better; the "
                        + "CSVs also hold R. Bands: 95% t-interval of the mean (Fig. 3: mean +- SD, as the paper). The "
                        + "dashed black line on every plot is the random-subspace level zeta = sqrt(1 - (k/d) Tr Sigma / "
                        + "sum_{i<=k} lambda_i(Sigma)): a curve there has learned nothing.\n\n");
        sb.append("Methods (the calibration of each is in its legend). Provable defaults: k-DP-PCA (literal Alg. 1/2/6/7 "
                + "constants, replace-one histograms; PrivMean's Gaussian is the classic calibration of Alg. 7), "
                + "**k-DP-PCA-adaptive = this project's variant** (`--algorithm k-dp-pca-adaptive`, "
                + "docs/privacy/adaptive-oja-pca.md; analytic Gaussian), k-DP-Ojas (minibatch B = ceil(sqrt(m)), analytic "
                + "Gaussian on the batch mean, gradients clipped at beta^2), DP-Gauss-1 (classic calibration, as the "
                + "paper; on sum clip(A_i) with trace clipping at beta^2 in the spiked figures), DP-Gauss-2 and "
                + "DP-Power-Method (rows only: Fig. 4). Paper-literal: k-DP-PCA with add/remove histograms, k-DP-Ojas "
                + "= Alg. 3 itself (B = 1, shuffling-based alpha = ln(m/delta)/(eps sqrt(m)), the paper's beta; run where "
                + "n*d <= 2e7, at most 10 trials), DP-Gauss-2 resampling its gap noise (NOT private).\n\n");
        sb.append(cannotRelease(figs));
        if (res.containsKey("X")) {
            sb.append(crossover(figs.stream().filter(f -> f.id().equals("X")).findFirst().orElseThrow(), res.get("X")));
        }
        for (KdpPcaReproduction.Figure f : figs) {
            List<Map<Method, KdpPcaReproduction.Cell>> cells = res.get(f.id());
            if (cells == null) {
                continue;
            }
            sb.append("## Figure ").append(f.id()).append("\n\n");
            for (String png : KdpPcaReproduction.pngNames(f)) {
                sb.append("![figure ").append(f.id()).append("](").append(png).append(")\n\n");
            }
            sb.append("Data: `figure-").append(f.id()).append(".csv`. ").append(f.title()).append(".\n\n");
            sb.append("**Paper's claim.** ").append(f.claim()).append("\n\n");
            sb.append(table(f, cells));
            sb.append("\n**Verdict.** ").append(figureVerdict(f, res)).append("\n\n");
            if (f.id().equals("2b")) {
                sb.append("Note: the paper's Fig. 2b compares k-DP-PCA with its Alg. 3 (DP-Ojas, B = 1, shuffling-based "
                        + "noise). The 'k-DP-Ojas' series is this project's minibatch k-DP-Ojas (provable, B = ceil(sqrt(m))); "
                        + "the paper-literal Alg. 3 is the 'k-DP-Ojas paper-literal' series, run where n*d <= 2e7 (at most 10 "
                        + "trials, NOT certified).\n\n");
            }
            sb.append(histogramRates(cells)).append("\n\n");
        }
        sb.append("## What was cut, and other differences\n\n");
        sb.append(String.format(Locale.ROOT, "- Run time: %.1f minutes wall on %d worker thread(s) of a %d-core machine "
                + "(1-minute load average after each point: %s); per figure (minutes): %s. The CSVs give each method's "
                + "seconds per trial.%n", time.total(), time.threads(), time.cores(), time.load(), time.perFigure()));
        if (trials < 50 && !s.quick()) {
            sb.append(String.format(Locale.ROOT, "- **Trials: %d per point instead of the paper's 50** (issue 15 asked "
                    + "for 50 for the crossover too), the same in every figure. Reduced for machine time: at this run's "
                    + "pace 50 trials would take about %.0f minutes. The 95%% t-band of the mean is %.1fx as wide as with "
                    + "50 trials; a verdict decided by overlapping bands may flip with more trials.%n", trials,
                    time.total() * 50 / trials, Summary.tQuantile975(Math.max(1, trials - 1)) / Math.sqrt(trials)
                            / (Summary.tQuantile975(49) / Math.sqrt(50))));
        }
        sb.append("- The paper-literal k-DP-Ojas (Alg. 3, B = 1: d Gaussian draws per sample) runs only where n*d <= 2e7 "
                + "and in at most the first 10 trials of a point (its CSV rows give its own trial count).\n");
        sb.append("- Grids: n up to 1e5 in Figs. 1-2 (in X up to 3e5, and 1e6 at sigma = 0.001); the paper's n, d, lambda_2 and sigma grids are not "
                + "printed, so the spec's grids are used (spec §6).\n");
        sb.append("- DP-Gauss-2 and DP-Power-Method are not run on the A_i figures: their privacy rests on row "
                + "clipping (||x|| <= beta; L1 for the power method) that has no A_i counterpart in this library.\n");
        return sb.toString();
    }

    /** The arithmetic of why the literal algorithm cannot release, from the library's own pre-flight check. */
    static String cannotRelease(List<KdpPcaReproduction.Figure> figs) {
        StringBuilder sb = new StringBuilder("## Why k-DP-PCA cannot release\n\n");
        sb.append("In each step PrivMean sees N = floor(B/2) values per coordinate and spends a per-coordinate "
                + "histogram budget (eps_h, delta_h) = (eps'/(4 sqrt(2 d ln(4/delta'))), delta'/(4d)) with (eps', delta') = "
                + "(eps/2, delta/2) (advanced composition over the d coordinates, Lemma 16). With N eps_h < 1, group "
                + "privacy says that ANY (eps_h, delta_h)-DP locator's output distribution changes by at most a factor "
                + "e^{N eps_h} < e between two data sets of N values, so no locator can find a coordinate's centre: not "
                + "the stable histogram, not another histogram, and a public range (App. G.3) does not help because it "
                + "replaces PrivRange, not the centre. PrivMean then clamps around 0 with radius ~ 3 sqrt(L) ln(Nd/tau) "
                + "and adds sigma_M ~ 157 sqrt(L) per coordinate, and PrivRange (s subset eigenvalues against its own "
                + "threshold) mostly returns bottom. The library prints this pre-flight check in `k-dp-pca`'s diagnostics "
                + "(`preflight`) and warns on stderr when the run cannot release. At d = 200, eps = 1, delta = 0.01, tau = "
                + "0.01 (stable-histogram threshold 1 + (2/eps_h) ln(1/(2 delta_h))):\n\n");
        sb.append("| n | B = floor(sqrt n) | N = floor(B/2) | eps_h | N eps_h | PrivMean threshold | PrivRange s / threshold |\n"
                + "|---|---|---|---|---|---|---|\n");
        long needed = 0;
        for (long n : new long[] {10_000, 100_000, 1_000_000, 100_000_000}) {
            int b = (int) Math.floor(Math.sqrt((double) n));
            io.dpspectra.pca.ModifiedDpPca.Preflight p = io.dpspectra.pca.ModifiedDpPca.builder().batchSize(b).build()
                    .preflight(200, KdpPcaReproduction.PARAMS, (n / 2) / b);
            needed = p.batchSizeNeeded();
            sb.append(String.format(Locale.ROOT, "| %.0e | %d | %d | %.4f | %.3f | %.0f | %d / %.1f |%n", (double) n, b,
                    p.meanValues(), p.meanEpsilon(), p.meanValues() * p.meanEpsilon(), p.meanThreshold(), p.rangeItems(),
                    p.rangeThreshold()));
        }
        sb.append(String.format(Locale.ROOT, "%nPrivMean's threshold does not depend on n, so releases need N above it: "
                + "B >= %d, i.e. n >= %.2g with the default B = floor(sqrt(n)) (about 3.5e8; the classic threshold "
                + "1 + b ln(2/delta) gave 4.4e8). This project's variant needs one histogram over floor(B/2) values per "
                + "step with the full (eps, delta) (threshold 1 + 2 ln 50 = 8.8 at eps = 1, delta = 0.01), which B >= 40 "
                + "already clears.%n%n", needed, (double) needed * needed));
        return sb.toString();
    }

    /** Where the variant overtakes DP-Gauss-1, per (sigma, d). */
    static String crossover(KdpPcaReproduction.Figure f, List<Map<Method, KdpPcaReproduction.Cell>> cells) {
        StringBuilder sb = new StringBuilder("## Crossover of this project's variant with DP-Gauss-1 (issue 15 item 4)\n\n");
        sb.append("Figure X below. For each (sigma, d): the smallest n of the grid from which the variant's 95% band "
                + "lies below DP-Gauss-1's at every larger n, and the ratio DP-Gauss-1 / variant at the largest n.\n\n");
        sb.append("| sigma, d | crossover n | zeta variant / DP-Gauss-1 (means) at each n | ratio of means at largest n |\n"
                + "|---|---|---|---|\n");
        for (String sfx : new java.util.LinkedHashSet<>(f.seriesSuffix())) {
            List<Integer> idx = new ArrayList<>();
            for (int x = 0; x < cells.size(); x++) {
                if (f.seriesSuffix().get(x).equals(sfx)) {
                    idx.add(x);
                }
            }
            String cross = "none in the grid";
            StringBuilder pts = new StringBuilder();
            for (int j = idx.size() - 1; j >= 0; j--) {
                Map<Method, KdpPcaReproduction.Cell> c = cells.get(idx.get(j));
                Summary a = KdpPcaReproduction.summary(c.get(Method.K_DP_PCA_ADAPTIVE).zeta);
                Summary g = KdpPcaReproduction.summary(c.get(Method.DP_GAUSS_1).zeta);
                if (a.upper() < g.lower()) {
                    cross = String.format(Locale.ROOT, "n >= %.0e", f.xs().get(idx.get(j)));
                } else {
                    break;
                }
            }
            for (int x : idx) {
                Map<Method, KdpPcaReproduction.Cell> c = cells.get(x);
                pts.append(String.format(Locale.ROOT, "%.0e: %.2g / %.2g (variant median %.2g); ", f.xs().get(x),
                        mean(c, Method.K_DP_PCA_ADAPTIVE), mean(c, Method.DP_GAUSS_1),
                        KdpPcaReproduction.summary(c.get(Method.K_DP_PCA_ADAPTIVE).zeta).median()));
            }
            Map<Method, KdpPcaReproduction.Cell> last = cells.get(idx.get(idx.size() - 1));
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %.3g |%n", sfx.trim(), cross, pts,
                    mean(last, Method.DP_GAUSS_1) / mean(last, Method.K_DP_PCA_ADAPTIVE)));
        }
        return sb.append('\n').toString();
    }

    private static String table(KdpPcaReproduction.Figure f, List<Map<Method, KdpPcaReproduction.Cell>> cells) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(f.xLabel()).append(" |");
        List<Method> shown = new ArrayList<>();
        for (Method m : Method.values()) {
            if (cells.stream().anyMatch(c -> !c.get(m).zeta.isEmpty())) {
                shown.add(m);
                sb.append(' ').append(m.label).append(" |");
            }
        }
        sb.append("\n|---|");
        shown.forEach(m -> sb.append("---|"));
        sb.append('\n');
        for (int x = 0; x < cells.size(); x++) {
            String label = fmt(f.xs().get(x)) + (f.seriesSuffix().size() > 1 ? f.seriesSuffix().get(x) : "");
            sb.append("| ").append(label).append(" |");
            for (Method m : shown) {
                KdpPcaReproduction.Cell c = cells.get(x).get(m);
                if (c.zeta.isEmpty()) {
                    sb.append(" – |");
                } else {
                    Summary z = KdpPcaReproduction.summary(c.zeta);
                    sb.append(String.format(Locale.ROOT, " %.3g [%.3g, %.3g] |", z.mean(), z.lower(), z.upper()));
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String fmt(double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e9 ? String.valueOf((long) x) : String.valueOf(x);
    }

    private static String histogramRates(List<Map<Method, KdpPcaReproduction.Cell>> cells) {
        StringBuilder sb = new StringBuilder("k-DP-PCA histogram rates (all points): ");
        for (Method m : List.of(Method.K_DP_PCA, Method.K_DP_PCA_LITERAL)) {
            long calls = 0;
            long bottom = 0;
            long meanCalls = 0;
            double fallbacks = 0;
            double coords = 0;
            for (Map<Method, KdpPcaReproduction.Cell> c : cells) {
                calls += c.get(m).rangeCalls;
                bottom += c.get(m).rangeBottom;
                meanCalls += c.get(m).meanCalls;
                fallbacks += c.get(m).meanFallbacks;
                coords += (double) c.get(m).meanCalls * c.get(m).coordinates;
            }
            sb.append(String.format(Locale.ROOT, "%s: PrivRange returned ⊥ in %d of %d calls (%.1f%%), PrivMean ran %d "
                            + "times and fell back to centre 0 in %.1f%% of its coordinate histograms. ", m.label, bottom,
                    calls, calls == 0 ? 0 : 100.0 * bottom / calls, meanCalls, coords == 0 ? 0 : 100 * fallbacks / coords));
        }
        return sb.toString();
    }

    private static String verdict(KdpPcaReproduction.Figure f, List<Map<Method, KdpPcaReproduction.Cell>> cells,
                                  Map<String, List<Map<Method, KdpPcaReproduction.Cell>>> all) {
        int last = cells.size() - 1;
        List<String> bests = new ArrayList<>();
        for (Map<Method, KdpPcaReproduction.Cell> c : cells) {
            bests.add(best(c, PROVABLE).label);
        }
        String bestLine = "Best provable method per point: " + String.join(", ", bests) + ".";
        switch (f.id()) {
            case "1a":
            case "1b": {
                long kdpBest = bests.stream().filter(b -> b.equals(Method.K_DP_PCA.label)).count();
                List<String> notImproving = new ArrayList<>();
                for (Method m : PROVABLE) {
                    if (Double.isNaN(mean(cells.get(0), m))) {
                        continue;
                    }
                    if (atRandomLevel(cells.get(last), m, f.models().get(last))) {
                        notImproving.add(m.label + " (at the random-subspace level)");
                    } else if (!(mean(cells.get(last), m) < mean(cells.get(0), m))) {
                        notImproving.add(m.label);
                    }
                }
                String v = (kdpBest == cells.size() ? "MATCHES" : "DOES NOT MATCH") + " for 'k-DP-PCA best': it is best at "
                        + kdpBest + " of " + cells.size() + " n values. " + bestLine + " Improvement with n: "
                        + (notImproving.isEmpty() ? "every method improves from the smallest to the largest n (matches)."
                        : "no improvement for " + String.join(", ", notImproving) + ".");
                if (f.id().equals("1b") && all.containsKey("1a")) {
                    v += String.format(Locale.ROOT, " Margin of k-DP-PCA over the best baseline (mean over n): %.3g in 1b vs "
                            + "%.3g in 1a (claim: wider in 1b).", margin(cells), margin(all.get("1a")));
                }
                return v;
            }
            case "1c": {
                StringBuilder sb = new StringBuilder("Growth of zeta from the smallest to the largest d: ");
                for (Method m : PROVABLE) {
                    if (!Double.isNaN(mean(cells.get(0), m))) {
                        sb.append(String.format(Locale.ROOT, "%s x%.2f; ", m.label, mean(cells.get(last), m)
                                / mean(cells.get(0), m)));
                    }
                }
                double kdp = mean(cells.get(last), Method.K_DP_PCA) / mean(cells.get(0), Method.K_DP_PCA);
                boolean faster = List.of(Method.DP_GAUSS_1, Method.DP_GAUSS_2, Method.DP_POWER).stream()
                        .filter(m -> !Double.isNaN(mean(cells.get(0), m))).allMatch(m -> mean(cells.get(last), m) / mean(cells.get(0), m) > kdp);
                long saturated = java.util.stream.IntStream.range(0, cells.size())
                        .filter(x -> atRandomLevel(cells.get(x), Method.K_DP_PCA, f.models().get(x))).count();
                if (saturated > 0) {
                    return sb + String.format(Locale.ROOT, "k-DP-PCA is at the level of a random subspace at %d of %d d "
                            + "values, where zeta cannot grow further, so its small growth factor says nothing about its "
                            + "d-dependence: DOES NOT MATCH in substance (the baselines are orders of magnitude better at "
                            + "every d). ", saturated, cells.size()) + bestLine;
                }
                return sb + (faster ? "the baselines degrade faster than k-DP-PCA (MATCHES)."
                        : "not every baseline degrades faster than k-DP-PCA (DOES NOT MATCH).") + " " + bestLine;
            }
            case "2a": {
                if (cells.get(0).get(Method.DP_GAUSS_2).zeta.isEmpty()) {
                    double g1First = mean(cells.get(0), Method.DP_GAUSS_1);
                    double g1Last = mean(cells.get(last), Method.DP_GAUSS_1);
                    boolean kdpAhead = cells.stream().allMatch(c -> mean(c, Method.K_DP_PCA) < mean(c, Method.DP_GAUSS_1));
                    return String.format(Locale.ROOT, "DP-Gauss-2 is not run on the A_i samples (rows only), so its half "
                            + "of the claim is untested here. DP-Gauss-1 %.3g -> %.3g (change %.0f%%, claim: flat); "
                            + "k-DP-PCA better than DP-Gauss-1 at every gap: %s, so DOES NOT MATCH%s. %s", g1First, g1Last,
                            100 * (g1Last - g1First) / g1First, kdpAhead ? "yes" : "no",
                            kdpAhead ? " only in the untested part" : "", bestLine);
                }
                boolean g2 = mean(cells.get(last), Method.DP_GAUSS_2) < mean(cells.get(0), Method.DP_GAUSS_2);
                double g1First = mean(cells.get(0), Method.DP_GAUSS_1);
                double g1Last = mean(cells.get(last), Method.DP_GAUSS_1);
                boolean above = cells.stream().allMatch(c -> mean(c, Method.K_DP_PCA) < mean(c, Method.DP_GAUSS_1)
                        && mean(c, Method.K_DP_PCA) < mean(c, Method.DP_GAUSS_2));
                return String.format(Locale.ROOT, "DP-Gauss-2 %s with the gap (%.3g -> %.3g); DP-Gauss-1 %.3g -> %.3g "
                                + "(change %.0f%%); k-DP-PCA better than both DP-Gauss at every gap: %s. Overall %s. %s",
                        g2 ? "improves" : "does not improve", mean(cells.get(0), Method.DP_GAUSS_2),
                        mean(cells.get(last), Method.DP_GAUSS_2), g1First, g1Last, 100 * (g1Last - g1First) / g1First,
                        above ? "yes" : "no", g2 && above ? "MATCHES" : "DOES NOT MATCH", bestLine);
            }
            case "2b": {
                double pcaSmall = mean(cells.get(0), Method.K_DP_PCA);
                double ojaSmall = mean(cells.get(0), Method.K_DP_OJAS);
                double pcaLarge = mean(cells.get(last), Method.K_DP_PCA);
                double ojaLarge = mean(cells.get(last), Method.K_DP_OJAS);
                boolean ok = pcaSmall < ojaSmall && ojaLarge <= pcaLarge;
                return String.format(Locale.ROOT, "Smallest sigma: k-DP-PCA %.3g vs k-DP-Ojas %.3g; largest sigma: k-DP-PCA "
                                + "%.3g vs k-DP-Ojas %.3g. %s. %s", pcaSmall, ojaSmall, pcaLarge, ojaLarge,
                        ok ? "MATCHES" : "DOES NOT MATCH", bestLine);
            }
            case "2c": {
                boolean randomPca = java.util.stream.IntStream.range(0, cells.size())
                        .allMatch(x -> atRandomLevel(cells.get(x), Method.K_DP_PCA, f.models().get(x)));
                boolean ojaAhead = cells.stream().allMatch(c -> mean(c, Method.K_DP_OJAS) <= mean(c, Method.K_DP_PCA));
                return (ojaAhead ? (randomPca ? "MATCHES only vacuously: k-DP-Ojas beats k-DP-PCA at every n, but "
                        + "k-DP-PCA sits at the random-subspace level." : "MATCHES: k-DP-Ojas is at or below k-DP-PCA at "
                        + "every n.") : "DOES NOT MATCH: k-DP-PCA beats k-DP-Ojas at some n.") + " " + bestLine;
            }
            case "4b":
            case "4c":
            case "4": {
                long ojaBest = bests.stream().filter(b -> b.equals(Method.K_DP_OJAS.label)).count();
                return (ojaBest == cells.size() ? "MATCHES" : "DOES NOT MATCH") + ": k-DP-Ojas is best at " + ojaBest
                        + " of " + cells.size() + " points. " + bestLine;
            }
            case "3": {
                long kdpBest = bests.stream().filter(b -> b.equals(Method.K_DP_PCA.label)).count();
                long random = java.util.stream.IntStream.range(0, cells.size())
                        .filter(x -> atRandomLevel(cells.get(x), Method.K_DP_PCA, f.models().get(x))).count();
                List<String> growth = new ArrayList<>();
                for (String k : new java.util.LinkedHashSet<>(f.seriesSuffix())) {
                    int first = f.seriesSuffix().indexOf(k);
                    int lastOfK = f.seriesSuffix().lastIndexOf(k);
                    growth.add(String.format(Locale.ROOT, "%s x%.2f", k.trim(),
                            mean(cells.get(lastOfK), Method.DP_GAUSS_1) / mean(cells.get(first), Method.DP_GAUSS_1)));
                }
                return String.format(Locale.ROOT, "%s for 'k-DP-PCA best': it is best at %d of %d (k, d) points and at the "
                        + "random-subspace level at %d. DP-Gauss-1 from the smallest to the largest d: %s. %s", kdpBest == cells.size() ? "MATCHES" : "DOES NOT MATCH", kdpBest,
                        cells.size(), random, String.join(", ", growth), bestLine);
            }
            case "X":
                return prototypeVerdict(f, cells);
            default:
                return "No specific claim to test. " + bestLine;
        }
    }

    /** The point of the crossover grid at (d, sigma, n), or -1 when the grid does not have it. */
    private static int pointAt(KdpPcaReproduction.Figure f, int d, double sigma, long n) {
        for (int x = 0; x < f.models().size(); x++) {
            Method.Model m = f.models().get(x);
            if (m.d() == d && m.noise() == sigma && m.n() == n) {
                return x;
            }
        }
        return -1;
    }

    /**
     * Issue 15's prototype (d = 200) against the crossover grid: behind DP-Gauss-1 at n <= 5e4, ahead at n = 1e5 for
     * both sigmas (95% bands disjoint), and about 600x better at sigma = 0.001, n = 1e6 (same order: within 3x).
     */
    static String prototypeVerdict(KdpPcaReproduction.Figure f, List<Map<Method, KdpPcaReproduction.Cell>> cells) {
        List<String> parts = new ArrayList<>();
        boolean all = true;
        for (double sigma : new double[] {0.025, 0.001}) {
            for (long n : new long[] {10_000, 30_000}) {
                int x = pointAt(f, 200, sigma, n);
                if (x >= 0) {
                    boolean behind = mean(cells.get(x), Method.K_DP_PCA_ADAPTIVE) > mean(cells.get(x), Method.DP_GAUSS_1);
                    all &= behind;
                    parts.add(String.format(Locale.ROOT, "sigma = %s, n = %.0e: variant %.2g vs DP-Gauss-1 %.2g (%s)",
                            sigma, (double) n, mean(cells.get(x), Method.K_DP_PCA_ADAPTIVE),
                            mean(cells.get(x), Method.DP_GAUSS_1), behind ? "behind, as the prototype" : "NOT behind"));
                }
            }
            int x = pointAt(f, 200, sigma, 100_000);
            if (x >= 0) {
                Summary a = KdpPcaReproduction.summary(cells.get(x).get(Method.K_DP_PCA_ADAPTIVE).zeta);
                Summary g = KdpPcaReproduction.summary(cells.get(x).get(Method.DP_GAUSS_1).zeta);
                boolean ahead = a.upper() < g.lower();
                all &= ahead;
                parts.add(String.format(Locale.ROOT, "sigma = %s, n = 1e5: variant %.2g [%.2g, %.2g] vs DP-Gauss-1 %.2g "
                        + "[%.2g, %.2g] (prototype %s; %s)", sigma, a.mean(), a.lower(), a.upper(), g.mean(), g.lower(),
                        g.upper(), sigma == 0.025 ? "3.9e-4 vs 1.3e-3" : "1.8e-5 vs 9.2e-4",
                        ahead ? "ahead, bands disjoint" : "NOT ahead with disjoint bands"));
            }
        }
        int x = pointAt(f, 200, 0.001, 1_000_000);
        if (x >= 0) {
            Summary a = KdpPcaReproduction.summary(cells.get(x).get(Method.K_DP_PCA_ADAPTIVE).zeta);
            Summary g = KdpPcaReproduction.summary(cells.get(x).get(Method.DP_GAUSS_1).zeta);
            double ratio = g.mean() / a.mean();
            boolean same = ratio >= 200 && ratio <= 1800;
            all &= same;
            parts.add(String.format(Locale.ROOT, "sigma = 0.001, n = 1e6: DP-Gauss-1 / variant = %.3g (means; medians "
                    + "%.3g) against the prototype's about 600x (%s)", ratio, g.median() / a.median(),
                    same ? "same order, within 3x" : "NOT within 3x of 600"));
        }
        if (parts.isEmpty()) {
            return "The prototype's points (d = 200) are not in this grid.";
        }
        return (all ? "CONFIRMED" : "DOES NOT MATCH in part") + " (d = 200): " + String.join("; ", parts)
                + ". The crossover per (sigma, d) is in the section 'Crossover of this project's variant'.";
    }

    /** Mean over points of (best baseline zeta − k-DP-PCA zeta); positive = k-DP-PCA ahead. */
    private static double margin(List<Map<Method, KdpPcaReproduction.Cell>> cells) {
        double s = 0;
        for (Map<Method, KdpPcaReproduction.Cell> c : cells) {
            double b = Double.POSITIVE_INFINITY;
            for (Method m : List.of(Method.DP_GAUSS_1, Method.DP_GAUSS_2, Method.DP_POWER)) {
                if (!Double.isNaN(mean(c, m))) {
                    b = Math.min(b, mean(c, m));
                }
            }
            s += b - mean(c, Method.K_DP_PCA);
        }
        return s / cells.size();
    }
}
