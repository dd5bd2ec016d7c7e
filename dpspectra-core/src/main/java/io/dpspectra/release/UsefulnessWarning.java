package io.dpspectra.release;

import io.dpspectra.advice.ReleaseAdvisor;
import io.dpspectra.advice.ReleaseFacts;
import io.dpspectra.privacy.Neighbouring;
import java.util.Locale;

/**
 * The words of the usefulness check ({@link Usefulness}): the advisor's prediction for the chosen algorithm as
 * one line (or none), in the user's vocabulary. Public facts only: the line depends on n, d, k, the budget and
 * the bound, never on a row.
 */
final class UsefulnessWarning {
    private UsefulnessWarning() {
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
    static String warning(String algorithm, ReleaseFacts f, double expected, boolean stated, Vocabulary v) {
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
        sb.append(", and you expect ").append(percent(expected)).append(stated
                ? " (" + v.name(Setting.EXPECT_VARIANCE_SHARE) + ")"
                : " (the default; set " + v.name(Setting.EXPECT_VARIANCE_SHARE) + ")");
        if (predicted && advice.best() != null && !advice.best().algorithm().equals(algorithm)
                && advice.best().recoversExpected()) {
            sb.append("; ").append(v.typed(Setting.ALGORITHM, advice.best().algorithm())).append(" would recover it");
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
        if (f.neighbouring() == Neighbouring.ADD_REMOVE_ROW) {
            sb.append(" (n was counted from the rows; add-remove protects it, so this message is for you, the data's "
                    + "curator, not for publication)");
        }
        return sb.append("; see ").append(v.advisor()).toString();
    }

    /** The warning for an automatic private-bound share that even its largest share does not make reliable. */
    static String tooFewRows(RowBound.PrivateQuantile planned, long rows, double epsilon, Vocabulary v) {
        return String.format(Locale.ROOT, "%s: %d rows are too few to locate the %s-quantile of the row norms "
                + "reliably with a share %.2f of epsilon = %s: the bound may land far from it (the median needs the "
                + "fewest rows; or give a bound from domain knowledge)", v.name(Setting.PRIVATE_BOUND), rows,
                planned.quantile(), planned.share(), epsilon);
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
