package io.dpspectra.cli.command;

import io.dpspectra.advice.ReleaseAdvisor;
import io.dpspectra.advice.ReleaseFacts;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.privacy.Neighbouring;
import java.util.Locale;

/**
 * fit's check before it spends: the {@link ReleaseAdvisor}'s prediction for the chosen algorithm, turned into
 * one warning line (or none). All the logic is in core; this class only words it.
 */
final class UsefulnessCheck {
    private UsefulnessCheck() {
    }

    /** True for the algorithms the advisor predicts, and the stochastic ones it covers by its floor. */
    static boolean covers(String algorithm) {
        return ReleaseAdvisor.PREDICTED_FIT.contains(algorithm) || ReleaseAdvisor.UNPREDICTED_FIT.contains(algorithm);
    }

    /** The relation an algorithm certifies when none is asked for and nothing else spends. */
    static Neighbouring defaultNeighbouring(String algorithm) {
        return algorithm.equals("analyze-gauss") ? Neighbouring.ADD_REMOVE_ROW : Neighbouring.REPLACE_ROW;
    }

    /**
     * The warning for a release predicted useless, or null: for a predicted algorithm, when it does not recover
     * directions holding {@code expected}; for a stochastic one, when no predicted algorithm does (they are not
     * better on rows from a table).
     */
    static String warning(String algorithm, ReleaseFacts f, double expected, boolean stated, Neighbouring relation) {
        if (!(expected > 0 && expected <= 1)) {
            throw CliException.usage("--expect-variance-share must be in (0, 1], got " + expected,
                    "e.g. --expect-variance-share 0.2 for directions holding a fifth of the variance each");
        }
        ReleaseAdvisor.Advice advice = ReleaseAdvisor.advise(f, expected);
        ReleaseAdvisor.Prediction own = advice.forAlgorithm(algorithm).orElseThrow();
        boolean predicted = own.predicted();
        if (predicted ? own.recoversExpected() : !advice.useless()) {
            return null;
        }
        StringBuilder sb = new StringBuilder("the release is predicted to be useless: at epsilon = ")
                .append(fmt(f.budget().epsilon())).append(" for the estimator, n = ").append(f.rows()).append(", d = ")
                .append(f.dimension()).append(", k = ").append(f.components()).append(", ");
        if (predicted) {
            sb.append(algorithm).append(" recovers a direction only if it holds at least ")
                    .append(percent(own.requiredShare()));
        } else {
            sb.append(algorithm).append(" has no prediction, and no predicted algorithm recovers a direction holding"
                    + " less than ").append(percent(advice.floorShare()));
        }
        sb.append(" of the variance");
        if (f.fill() < 1) {
            sb.append(" (rows filling ").append(percent(f.fill())).append(" of the bound squared, as a private ")
                    .append(fmt(1 - f.fill())).append("-quantile bound ensures)");
        }
        sb.append(", and you expect ").append(percent(expected))
                .append(stated ? " (--expect-variance-share)" : " (the default; set --expect-variance-share)");
        if (predicted && advice.best() != null && !advice.best().algorithm().equals(algorithm)
                && advice.best().recoversExpected()) {
            sb.append("; --algorithm ").append(advice.best().algorithm()).append(" would recover it");
        } else if (advice.useless()) {
            sb.append("; no algorithm here recovers less than ").append(percent(advice.floorShare()));
            if (Double.isFinite(advice.epsilonNeeded()) || advice.rowsNeeded() < Long.MAX_VALUE) {
                sb.append("; directions holding ").append(percent(expected)).append(" need");
                if (Double.isFinite(advice.epsilonNeeded())) {
                    sb.append(" epsilon >= ").append(fmt(advice.epsilonNeeded())).append(" for the estimator");
                }
                if (advice.rowsNeeded() < Long.MAX_VALUE) {
                    sb.append(Double.isFinite(advice.epsilonNeeded()) ? " or" : "").append(" n >= ")
                            .append(String.format(Locale.ROOT, "%,d", advice.rowsNeeded()));
                }
            }
        }
        if (relation == Neighbouring.ADD_REMOVE_ROW) {
            sb.append(" (n was counted from INPUT; add-remove protects it, so this message is for you, the data's "
                    + "curator, not for publication)");
        }
        return sb.append("; see 'dpspectra advise'").toString();
    }

    static String percent(double share) {
        if (!Double.isFinite(share)) {
            return "all";
        }
        double p = 100 * share;
        return String.format(Locale.ROOT, p >= 10 ? "%.0f%%" : p >= 1 ? "%.1f%%" : "%.2g%%", p);
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.3g", v);
    }
}
