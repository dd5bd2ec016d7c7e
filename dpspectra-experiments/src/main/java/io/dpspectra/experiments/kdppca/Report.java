package io.dpspectra.experiments.kdppca;

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

    static String markdown(List<KdpPcaReproduction.Figure> figs, Map<String, List<Map<Method, KdpPcaReproduction.Cell>>> res,
                           int trials, Reproduction.Settings s) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Reproduction: Düngler & Sanyal, k-DP-PCA with adaptive noise\n\n");
        sb.append("Paper: `papers/kdp-pca-adaptive-noise.txt` (§5, App. G). Spec: `spec/stochastic-and-power-methods.md` "
                + "§6. Command: `dpspectra reproduce kdp-pca").append(s.quick() ? " --quick" : "")
                .append(s.trials() != null ? " --trials " + s.trials() : "").append("` (seed ").append(s.seed())
                .append(").\n\n");
        if (s.quick()) {
            sb.append("**QUICK RUN** (small n and d, ").append(trials).append(" trials): a smoke test, not evidence.\n\n");
        }
        sb.append("Settings: k = 2, lambda_1 = 10 (lambda_2 = 5), epsilon = 1, delta = 0.01, ").append(trials)
                .append(" trials per point (fresh basis, data and noise), B = floor(sqrt(n)) and the App. G.1 learning rate "
                        + "for k-DP-PCA, eta_j = 1/(1+j) for k-DP-Ojas, zeta = 0.01 and C = 1 in the clipping rules. "
                        + "Utility: zeta = sqrt(1 - R), R = captured-variance ratio ([DS] Def. 1), lower is better; "
                        + "the CSVs also hold R. Bands: 95% t-interval of the mean.\n\n");
        sb.append("Methods. Provable defaults: k-DP-PCA (literal Alg. 1/2/6/7 constants, replace-one histograms), "
                + "k-DP-Ojas (minibatch B = ceil(sqrt(m)), analytic Gaussian on the batch mean, rows clipped to the App. G "
                + "beta), DP-Gauss-1 (classic calibration, as the paper), DP-Gauss-2 (random basis when the noisy gap "
                + "fails the test), DP-Power-Method. Paper-literal: k-DP-PCA with add/remove histograms, k-DP-Ojas with "
                + "B = 1 and the shuffling-based alpha = ln(m/delta)/(eps sqrt(m)) (C' = 1) and the paper's beta, "
                + "DP-Gauss-2 resampling its gap noise (NOT private). Paper-literal k-DP-Ojas costs d noise draws per "
                + "sample (about 1 microsecond each with the floating-point-safe sampler), so it is run only where n*d <= 2e6 and for at most 10 trials per point.\n\n");
        for (KdpPcaReproduction.Figure f : figs) {
            List<Map<Method, KdpPcaReproduction.Cell>> cells = res.get(f.id());
            if (cells == null) {
                continue;
            }
            sb.append("## Figure ").append(f.id()).append("\n\n");
            sb.append("![figure ").append(f.id()).append("](figure-").append(f.id()).append(".png)\n\n");
            sb.append("Data: `figure-").append(f.id()).append(".csv`. ").append(f.title()).append(".\n\n");
            sb.append("**Paper's claim.** ").append(f.claim()).append("\n\n");
            sb.append(table(f, cells));
            sb.append("\n**Verdict.** ").append(verdict(f, cells, res)).append("\n\n");
            sb.append(histogramRates(cells)).append("\n\n");
        }
        sb.append("## Why we differ from the paper where we do\n\n");
        sb.append("- With the printed constants PrivRange's stable histogram (s = ceil(ln(1/(delta tau))/eps) subsets of "
                + "b ~ 2 differences, threshold ~25 counts) almost never releases, and PrivMean's per-coordinate "
                + "histograms (eps_h ~ 0.0024, threshold ~10,489 counts against <= 158 values) never do (spec §6), so "
                + "k-DP-PCA skips most steps or takes steps whose Gaussian noise (sigma_M ~ 157 sqrt(L)) dwarfs the "
                + "gradient. The rates above are measured. The authors' code must use other constants, a different "
                + "histogram, or a public range (App. G.3); the text does not say which, so we do not guess.\n");
        sb.append("- The DP-Gauss baselines at these n have normalised eigengaps of order n/beta^2 >> the test "
                + "threshold, so DP-Gauss-2's projector noise is tiny; that is the paper's own calibration.\n");
        sb.append("- Values the text leaves open (lambda_2, n and d grids, sigma for 1c/2a/2b, Gaussian Sigma, "
                + "DP-Power L and p, C) follow spec §6/§8 #20.\n");
        if (!s.quick() && trials < 50) {
            sb.append("- Machine time: this run uses ").append(trials).append(" trials per point instead of the paper's 50 "
                    + "and n up to 1e5 (the paper plots up to 5e5), because the full grid did not fit the time available on "
                    + "a shared 2-core machine; the bands are correspondingly wider.\n");
        }
        return sb.toString();
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
                    if (!(mean(cells.get(last), m) < mean(cells.get(0), m))) {
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
                    sb.append(String.format(Locale.ROOT, "%s x%.2f; ", m.label, mean(cells.get(last), m) / mean(cells.get(0), m)));
                }
                double kdp = mean(cells.get(last), Method.K_DP_PCA) / mean(cells.get(0), Method.K_DP_PCA);
                boolean faster = List.of(Method.DP_GAUSS_1, Method.DP_GAUSS_2, Method.DP_POWER).stream()
                        .allMatch(m -> mean(cells.get(last), m) / mean(cells.get(0), m) > kdp);
                boolean saturated = cells.stream().allMatch(c -> mean(c, Method.K_DP_PCA) > 0.9);
                if (saturated) {
                    return sb + "k-DP-PCA stays at the level of a random subspace (zeta > 0.9 at every d), so its flat "
                            + "curve says nothing about its d-dependence: DOES NOT MATCH in substance (the baselines are "
                            + "orders of magnitude better at every d). " + bestLine;
                }
                return sb + (faster ? "the baselines degrade faster than k-DP-PCA (MATCHES)."
                        : "not every baseline degrades faster than k-DP-PCA (DOES NOT MATCH).") + " " + bestLine;
            }
            case "2a": {
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
            case "4": {
                long ojaBest = bests.stream().filter(b -> b.equals(Method.K_DP_OJAS.label)).count();
                return (ojaBest == cells.size() ? "MATCHES" : "DOES NOT MATCH") + ": k-DP-Ojas is best at " + ojaBest
                        + " of " + cells.size() + " n values. " + bestLine;
            }
            default:
                return "No specific claim to test. " + bestLine;
        }
    }

    /** Mean over points of (best baseline zeta − k-DP-PCA zeta); positive = k-DP-PCA ahead. */
    private static double margin(List<Map<Method, KdpPcaReproduction.Cell>> cells) {
        double s = 0;
        for (Map<Method, KdpPcaReproduction.Cell> c : cells) {
            double b = Math.min(mean(c, Method.DP_GAUSS_1), Math.min(mean(c, Method.DP_GAUSS_2), mean(c, Method.DP_POWER)));
            s += b - mean(c, Method.K_DP_PCA);
        }
        return s / cells.size();
    }
}
