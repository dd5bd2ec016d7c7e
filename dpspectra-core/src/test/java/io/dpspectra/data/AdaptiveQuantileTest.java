package io.dpspectra.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.audit.PrivacyAuditor;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class AdaptiveQuantileTest {
    private static InMemoryRows column(double... values) {
        double[][] x = new double[values.length][1];
        for (int i = 0; i < values.length; i++) {
            x[i][0] = values[i];
        }
        return InMemoryRows.of(x);
    }

    /** n log-normal norms around 100 (median 100, spread a factor e^0.5), seeded. */
    private static InMemoryRows logNormal(int n, long seed) {
        RandomSource r = RandomSource.seededForReproducibility(seed);
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = 100 * Math.exp(0.5 * r.standardNormal());
        }
        return column(v);
    }

    private static int within2(InMemoryRows rows, double q, AdaptiveQuantile.Ladder ladder, double eps, int runs,
                               long seed) {
        double[] v = new double[rows.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = Math.abs(rows.row(i)[0]);
        }
        Arrays.sort(v);
        double truth = v[(int) Math.ceil(q * v.length) - 1];
        long[] h = AdaptiveQuantile.rowNormHistogram(rows, ladder.edges());
        int ok = 0;
        for (int run = 0; run < runs; run++) {
            double b = AdaptiveQuantile.using(RandomSource.seededForReproducibility(seed + run))
                    .rowNormQuantile(h, q, ladder, PrivacyParams.pure(eps), Neighbouring.REPLACE_ROW).value();
            ok += b >= truth / 2 && b <= 2 * truth ? 1 : 0;
        }
        return ok;
    }

    /**
     * The error does not grow with the width of the public range: 300 log-normal norms at ε = 0.3 land within
     * a factor 2 of the median as often over 2^-30..2^50 (80 octaves) as over 2^5..2^8 (3 octaves). The
     * octave step's failure bound G·e^(−r·ε₁/2)/2 with r = 150, ε₁ = 0.225 is 2·10^−6·G, negligible for both, so
     * both must succeed in (nearly) every run: at most 2 misses in 200 each. The flat-grid exponential
     * mechanism over 0.01·1.1^i up to 10^6 at the same ε misses the factor 2 far more often on the same rows
     * (its grid has 194 points; its failures are the points above the data).
     */
    @Test
    void theErrorDoesNotGrowWithTheWidthOfThePublicRange() {
        InMemoryRows rows = logNormal(300, 3);
        int narrow = within2(rows, 0.5, AdaptiveQuantile.Ladder.positive(32, 256), 0.3, 200, 100);
        int wide = within2(rows, 0.5, AdaptiveQuantile.Ladder.positive(AdaptiveQuantile.DEFAULT_LO,
                AdaptiveQuantile.DEFAULT_HI), 0.3, 200, 100);
        assertThat(narrow).isGreaterThanOrEqualTo(198);
        assertThat(wide).isGreaterThanOrEqualTo(198);
    }

    /**
     * The case that motivated this class: a high quantile of concentrated norms (isolet5: 1,559 rows,
     * 0.9-quantile 16.3) at ε = 0.1. The flat-grid exponential mechanism over 0.01·1.1^i up to 10^6 puts most of
     * its mass on the 100 grid points above the data (utility −(1 − q)·n = −150 each); the adaptive quantile's
     * octaves above the data are 56, and it needs them to outweigh a margin of 150 ranks only once: its
     * failure bound G·e^(−r·ε₁/2)/2 = 82·e^(−150·0.075/2)/2 = 0.15 allows 30 misses in 200 on average (at most
     * 50 within four standard deviations); the flat grid misses most runs.
     */
    @Test
    void theFlatGridMechanismFailsWhereTheAdaptiveOneSucceeds() {
        RandomSource r = RandomSource.seededForReproducibility(4);
        double[] v = new double[1500];
        for (int i = 0; i < v.length; i++) {
            v[i] = 15.6 * Math.exp(0.03 * r.standardNormal());
        }
        InMemoryRows rows = column(v);
        AdaptiveQuantile.Ladder ladder = AdaptiveQuantile.Ladder.positive(AdaptiveQuantile.DEFAULT_LO,
                AdaptiveQuantile.DEFAULT_HI);
        int adaptive = within2(rows, 0.9, ladder, 0.1, 200, 600);
        double[] grid = PrivateQuantile.geometricGrid(0.01, 1e6, 1.1);
        long[] h = PrivateQuantile.rowNormHistogram(rows, grid);
        int flat = 0;
        for (int run = 0; run < 200; run++) {
            double b = PrivateQuantile.using(RandomSource.seededForReproducibility(600 + run)).rowNormQuantile(h, 0.9,
                    grid, PrivacyParams.pure(0.1), Neighbouring.REPLACE_ROW).value();
            flat += b > 8 && b < 33 ? 1 : 0;
        }
        assertThat(adaptive).isGreaterThanOrEqualTo(150);
        assertThat(flat).isLessThan(100);
    }

    @Test
    void theLadderHasOctavesOfEightCellsAndEndCellsOfTheirOwn() {
        AdaptiveQuantile.Ladder p = AdaptiveQuantile.Ladder.positive(1, 8);
        assertThat(p.edges()).hasSize(25);
        assertThat(p.edges()[0]).isEqualTo(1);
        assertThat(p.edges()[8]).isEqualTo(2);
        assertThat(p.edges()[24]).isEqualTo(8);
        assertThat(p.groups()).isEqualTo(5); // <= 1, three octaves, > 8
        AdaptiveQuantile.Ladder s = AdaptiveQuantile.Ladder.signed(1, 4);
        assertThat(s.edges()).hasSize(34);
        assertThat(s.edges()[0]).isEqualTo(-4);
        assertThat(s.edges()[16]).isEqualTo(-1);
        assertThat(s.edges()[17]).isEqualTo(1);
        assertThat(s.groups()).isEqualTo(7); // <= -4, two octaves, (-1, 1], two octaves, > 4
        assertThatThrownBy(() -> AdaptiveQuantile.Ladder.positive(0, 1)).hasMessageContaining("0 < lo < hi");
    }

    @Test
    void signedColumnsFindTheirQuantilesAndAValueBeyondTheRangeIsFlaggedAtTheEnd() {
        // 1000 values uniform in [-50, -10]: the 0.05- and 0.95-quantiles are about -48 and -12
        double[] v = new double[1000];
        for (int i = 0; i < v.length; i++) {
            v[i] = -50 + 40.0 * i / (v.length - 1);
        }
        AdaptiveQuantile.Ladder ladder = AdaptiveQuantile.Ladder.signed(AdaptiveQuantile.DEFAULT_LO,
                AdaptiveQuantile.DEFAULT_HI);
        AdaptiveQuantile.ColumnQuantiles q = AdaptiveQuantile.using(RandomSource.seededForReproducibility(7))
                .columnQuantiles(column(v), new double[] {0.05, 0.95}, ladder, PrivacyParams.pure(1),
                        Neighbouring.REPLACE_ROW);
        assertThat(q.values()[0][0]).isBetween(-50 * 1.1, -48 / 1.1);
        assertThat(q.values()[0][1]).isBetween(-12 * 1.1, -12 / 1.1);
        assertThat(q.atEnd()[0]).containsExactly(false, false);
        assertThat(q.guarantee().epsilon()).isEqualTo(2.0);
        // every value above the ladder's top: the release is the top edge, flagged
        AdaptiveQuantile.Result top = AdaptiveQuantile.using(RandomSource.seededForReproducibility(8)).rowNormQuantile(
                column(1e9, 2e9, 3e9, Double.MAX_VALUE), 0.5,
                AdaptiveQuantile.Ladder.positive(1, 1024), PrivacyParams.pure(50), Neighbouring.ADD_REMOVE_ROW);
        assertThat(top.value()).isEqualTo(1024);
        assertThat(top.atEnd()).isTrue();
    }

    @Test
    void histogramsOfPartsAddUpToTheWhole() {
        InMemoryRows all = logNormal(60, 9);
        double[][] x = new double[all.size()][];
        for (int i = 0; i < x.length; i++) {
            x[i] = all.row(i);
        }
        double[] grid = AdaptiveQuantile.Ladder.positive(1, 1e4).edges();
        long[] whole = AdaptiveQuantile.rowNormHistogram(all, grid);
        long[] a = AdaptiveQuantile.rowNormHistogram(InMemoryRows.of(Arrays.copyOfRange(x, 0, 25)), grid);
        long[] b = AdaptiveQuantile.rowNormHistogram(InMemoryRows.of(Arrays.copyOfRange(x, 25, 60)), grid);
        for (int i = 0; i < whole.length; i++) {
            assertThat(a[i] + b[i]).isEqualTo(whole[i]);
        }
    }

    @Test
    void theAutoPlanGrowsAsNShrinksAndSaysWhenItFallsShort() {
        AdaptiveQuantile.Ladder ladder = AdaptiveQuantile.Ladder.positive(AdaptiveQuantile.DEFAULT_LO,
                AdaptiveQuantile.DEFAULT_HI);
        AdaptiveQuantile.Plan big = AdaptiveQuantile.plan(100_000, 0.5, 1, ladder);
        assertThat(big.share()).isEqualTo(AdaptiveQuantile.MIN_AUTO_SHARE);
        assertThat(big.sufficient()).isTrue();
        AdaptiveQuantile.Plan mid = AdaptiveQuantile.plan(178, 0.5, 1, ladder);
        assertThat(mid.share()).isBetween(0.1, 0.5);
        assertThat(mid.bracketShare()).isEqualTo(AdaptiveQuantile.DEFAULT_BRACKET_SHARE);
        AdaptiveQuantile.Plan small = AdaptiveQuantile.plan(62, 0.5, 1, ladder);
        assertThat(small.bracketShare()).isEqualTo(1);
        assertThat(small.sufficient()).isTrue();
        AdaptiveQuantile.Plan tail = AdaptiveQuantile.plan(62, 0.9, 1, ladder);
        assertThat(tail.share()).isEqualTo(AdaptiveQuantile.MAX_AUTO_SHARE);
        assertThat(tail.sufficient()).isFalse();
        // the budget the bound states: G e^(-r eps/2)/2 = beta exactly
        double eps = AdaptiveQuantile.budgetFor(1000, 0.5, ladder, 0.01, 1);
        assertThat(ladder.groups() * Math.exp(-500 * eps / 2) / 2).isCloseTo(0.01,
                org.assertj.core.data.Offset.offset(1e-12));
    }

    /**
     * The audit. 40 values, q·n = 20.5 (q = 0.5125): D has 20 values at 1.5 and 20 at 3, D' moves one 1.5 to 3.
     * The octaves (1, 2] and (2, 4] swap utilities −0.5 and 0 (each moves by half the sensitivity, in opposite
     * directions), and within the octave the cells move likewise, so the released value faces a loss of
     * about ε/2 per step. The twin calibrates its noise to a quarter of a row (loss about 2ε) and is caught.
     */
    @Test
    void holdsItsClaimAndItsQuarterSensitivityTwinIsCaught() {
        PrivacyAuditor.Result ok = auditQuantile(1.0, 31);
        assertThat(ok.violation()).as("%s", ok).isFalse();
        assertThat(ok.epsilonLowerBound()).isGreaterThan(0.1);
        PrivacyAuditor.Result broken = auditQuantile(0.25, 32);
        assertThat(broken.violation()).as("%s", broken).isTrue();
    }

    private static PrivacyAuditor.Result auditQuantile(double sensitivityRows, long seed) {
        double[] d = new double[40];
        double[] dPrime = new double[40];
        for (int i = 0; i < 40; i++) {
            d[i] = i < 20 ? 1.5 : 3;
            dPrime[i] = i < 19 ? 1.5 : 3;
        }
        AdaptiveQuantile.Ladder ladder = AdaptiveQuantile.Ladder.positive(0.5, 16);
        long[] hd = AdaptiveQuantile.rowNormHistogram(column(d), ladder.edges());
        long[] hdp = AdaptiveQuantile.rowNormHistogram(column(dPrime), ladder.edges());
        PrivacyParams claimed = PrivacyParams.pure(1.0);
        PrivacyAuditor auditor = PrivacyAuditor.builder().trials(100_000).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build();
        return auditor.audit(
                r -> AdaptiveQuantile.using(r).sensitivityForAuditTests(sensitivityRows)
                        .rowNormQuantile(hd, 0.5125, ladder, claimed, Neighbouring.REPLACE_ROW).value(),
                r -> AdaptiveQuantile.using(r).sensitivityForAuditTests(sensitivityRows)
                        .rowNormQuantile(hdp, 0.5125, ladder, claimed, Neighbouring.REPLACE_ROW).value(), claimed);
    }
}
