package io.dpspectra.cli.command;

import io.dpspectra.advice.ReleaseAdvisor;
import io.dpspectra.privacy.Neighbouring;
import java.util.Locale;

/**
 * What fit's checks before spending share with {@code advise}: which algorithms the {@link ReleaseAdvisor}
 * covers, the relation an algorithm certifies by default, and how shares and numbers are printed. The check on
 * public facts itself is core's (the release chain's usefulness check).
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
