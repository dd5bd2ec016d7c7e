import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.privacy.BudgetExceededException;
import io.dpspectra.privacy.ComposedGaussian;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyAccountant;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.privacy.PrivacyProfile;
import io.dpspectra.privacy.pld.GaussianPrivacy;
import io.dpspectra.privacy.pld.PldCalibration;
import java.util.Locale;

/**
 * The two tables of docs/guide/ledger.md, computed by the library itself:
 * (1) how many releases of one kind a total budget admits under basic, zCDP and PLD accounting (each release
 * charged to a PrivacyAccountant until it refuses one, exactly as a ledger does);
 * (2) the noise σ of the iterative algorithms at the reproductions' settings, before (zCDP / Rényi / the paper's
 * Fig. 3) and after (exact composition: Gaussian DP or the privacy loss distribution).
 *
 *   ./dpspectra --version >/dev/null   # builds dpspectra-cli/target/dpspectra.jar
 *   java -cp dpspectra-cli/target/dpspectra.jar docs/guide/ledger-tables/LedgerTables.java
 */
public final class LedgerTables {
    private LedgerTables() {
    }

    public static void main(String[] args) {
        releasesThatFit();
        System.out.println();
        sigmaBeforeAfter();
    }

    private record Kind(String name, PrivacyParams each, PrivacyProfile profile, double rho) {
    }

    private static void releasesThatFit() {
        PrivacyParams g1 = PrivacyParams.of(0.25, 1e-8);
        PrivacyParams g2 = PrivacyParams.of(0.1, 1e-9);
        Kind[] kinds = {
            new Kind("analyze-gauss (0.25, 1e-8)", g1, PrivacyProfile.gaussianCalibratedTo(g1), GaussianNoise.zcdpRho(g1)),
            new Kind("Gaussian (0.1, 1e-9)", g2, PrivacyProfile.gaussianCalibratedTo(g2), GaussianNoise.zcdpRho(g2)),
            new Kind("pure epsilon = 0.05 (Laplace, exp. mech.)", PrivacyParams.pure(0.05),
                    new PrivacyProfile.Pure(0.05), 0.05 * 0.05 / 2),
            new Kind("(0.1, 1e-9) point only", g2, new PrivacyProfile.Point(0.1, 1e-9), Double.NaN),
        };
        PrivacyParams[] totals = {PrivacyParams.of(1, 1e-6), PrivacyParams.of(2, 1e-6)};
        System.out.println("| total | each release | basic | zCDP | PLD |");
        System.out.println("|---|---|---|---|---|");
        for (PrivacyParams total : totals) {
            for (Kind k : kinds) {
                System.out.printf(Locale.ROOT, "| (%s, %s) | %s | %s | %s | %s |%n", num(total.epsilon()),
                        num(total.delta()), k.name(), count(PrivacyAccountant.total(total), k),
                        count(PrivacyAccountant.zcdp(total), k), count(PrivacyAccountant.pld(total), k));
            }
        }
    }

    private static String count(PrivacyAccountant a, Kind k) {
        int n = 0;
        while (n < 1000) {
            try {
                a.chargePlan(java.util.List.of(new PrivacyAccountant.Entry("release " + n, k.each(), k.rho(),
                        k.profile())));
                n++;
            } catch (BudgetExceededException e) {
                return n == 0 && a.accounting() == PrivacyAccountant.Accounting.ZCDP && Double.isNaN(k.rho())
                        ? "refused (no rho)" : Integer.toString(n);
            }
        }
        return ">= 1000";
    }

    private static void sigmaBeforeAfter() {
        System.out.println("| reproduction setting | algorithm | sigma before | sigma after | after / before |");
        System.out.println("|---|---|---|---|---|");
        // robust PCA (Maunu, Yu & Lerman): T = N steps, 20 % of the budget to the Analyze-Gauss start
        double[][] budgets = {{0.8, 1 / Math.sqrt(2000)}, {0.4, 1e-6}, {1.6, 1e-2}, {0.1, 1 / Math.sqrt(1000)}};
        for (double[] b : budgets) {
            int n = b[1] == 1 / Math.sqrt(2000) ? 2000 : 1000;
            PrivacyParams iter = PrivacyParams.of(0.8 * b[0], 0.8 * b[1]);
            String setting = String.format(Locale.ROOT, "robust-pca N = T = %d, eps = %s, delta = %s", n, num(b[0]),
                    num(b[1]));
            double zcdp = ComposedGaussian.zcdpSigma(2.0 / n, n, iter);
            double gdp = PldCalibration.gaussianSigma(2.0 / n, n, iter);
            row(setting, "dp-GGD (full batch, mean direction)", zcdp, gdp);
            int batch = (int) Math.max(1, Math.ceil(n * Math.sqrt(b[0] / (4.0 * n))));
            double q = (double) batch / n;
            double rdp = ComposedGaussian.poissonNoiseMultiplier(q, n,
                    ComposedGaussian.addRemoveTargetForReplace(iter)) / batch;
            double pld = PldCalibration.poissonNoiseMultiplier(q, n, iter, Neighbouring.REPLACE_ROW) / batch;
            row(setting + ", B = " + batch, "dp-SGGD (Poisson, replace one)", rdp, pld);
        }
        // noisy power method (Hardt & Price) figure (iv): d = 256, p = 8, L = 10, delta = 1e-6
        for (double eps : new double[] {0.25, 1, 4, 16}) {
            PrivacyParams budget = PrivacyParams.of(eps, 1e-6);
            row("noisy-power (iv) d = 256, p = 8, L = 10, eps = " + num(eps) + ", delta = 1e-6",
                    "private power method (per unit sensitivity)", PrivatePowerMethod.sigma(8, 10, budget),
                    PrivatePowerMethod.exactSigma(8, 10, 256, budget));
        }
        // kdp-pca (Duengler & Sanyal): (1, 0.01); k-DP-Ojas is one Gaussian release per sample
        PrivacyParams kdp = PrivacyParams.of(1, 0.01);
        double ojas = GaussianNoise.sigmaFor(1.0, kdp);
        row("kdp-pca eps = 1, delta = 0.01", "k-DP-Ojas (per unit of 2 beta / B)", ojas, ojas);
        for (int k : new int[] {2, 4}) {
            int l = (int) Math.ceil(Math.log(200)); // d = 200, the method's default L = ceil(ln d)
            row("kdp-pca eps = 1, delta = 0.01, d = 200, k = " + k + ", L = " + l, "DP-Power-Method baseline (kept as printed)",
                    Math.sqrt(4.0 * k * l * Math.log(100)), Math.sqrt((double) k * l) / GaussianPrivacy.mu(kdp));
        }
    }

    private static void row(String setting, String algorithm, double before, double after) {
        System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %.3f |%n", setting, algorithm, num(before), num(after),
                after / before);
    }

    /** Four significant digits, trailing zeros dropped: 1, 0.25, 1e-6, 0.02236. */
    private static String num(double v) {
        java.math.BigDecimal b = new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros();
        if (v != 0 && Math.abs(v) < 1e-3) {
            String[] parts = String.format(Locale.ROOT, "%.3e", v).split("e");
            String mantissa = new java.math.BigDecimal(parts[0]).stripTrailingZeros().toPlainString();
            return mantissa + "e" + Integer.parseInt(parts[1]);
        }
        return b.toPlainString();
    }
}
