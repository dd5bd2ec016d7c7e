package io.dpspectra.release;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.audit.PrivacyAuditor;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Audits person-level analyze-gauss end to end, through the release chain: D has four persons with zero rows; D'
 * adds a fifth person with M = 4 rows (β, 0), interleaved with the others' rows, so that the neighbours differ by
 * one person's whole group of rows (add/remove one person). Each of those rows is clipped to β/√M, so the person's
 * (XᵀX)₀₀ is M·β²/M = β², the per-person sensitivity the release is calibrated to. With k = d = 2 the release
 * determines the noisy matrix, and the statistic (U diag(λ) Uᵀ)₀₀ sees the person's whole contribution: the auditor
 * faces a scalar Gaussian mechanism with Δ = β². The broken twin is row-level analyze-gauss (the rows as they are,
 * clipped to β, one row as the unit, calibrated to one row's β²), on the same neighbours: the person's four rows
 * add 4β², four times the sensitivity it is calibrated to, and it is caught. Claim and trials as for the row-level
 * audit (AnalyzeGaussAuditTest): (1, 1e-3), 40,000 runs per data set in the default build.
 *
 * <p>The Frobenius contribution bound ({@link PrivacyUnit#frobenius}) is audited on its two extreme persons, each
 * meeting ‖P‖_F = β² exactly: M rows (β, 0, 0, 0) pointing one way (each clipped to β/M^{1/4}, then the person's rows
 * scaled by 1/M^{1/4}, so (XᵀX)₀₀ moves by β², statistic (U diag(λ) Uᵀ)₀₀), and M = d = 4 orthogonal rows β·e_i
 * (each clipped to β/M^{1/4} = β/√2, P = diag(β²/2), ‖P‖_F = β², no scale; statistic the trace Σλ = tr of the noisy
 * Gram, which moves by tr P = 2β² against noise of sd 2σ: the ratio Δ/σ exactly). Its broken twin clips the rows to
 * β/M^{1/4} but omits the person's common scale (the aligned person's rows, so clipped, released with one row as the
 * unit): ‖P‖_F = √M·β² = 2β², twice the sensitivity it is calibrated to, caught.
 */
class PersonLevelAuditTest {
    private static final PrivacyParams CLAIMED = PrivacyParams.of(1.0, 1e-3);
    private static final double BETA = 1.0;
    private static final int M = 4;

    /** Four zero persons (two rows each), and the fifth person's M rows of (β, 0) interleaved when present. */
    private static List<Object[]> data(boolean withPerson) {
        double[][] person = new double[M][];
        for (int r = 0; r < M; r++) {
            person[r] = new double[] {BETA, 0};
        }
        return data(withPerson, person);
    }

    /** Four zero persons (two rows each) of the person's width, and the fifth person's rows interleaved when present. */
    private static List<Object[]> data(boolean withPerson, double[][] person) {
        int d = person[0].length;
        List<Object[]> rows = new ArrayList<>();
        int added = 0;
        for (int r = 0; r < 2; r++) {
            for (String id : new String[] {"a", "b", "c", "d"}) {
                rows.add(new Object[] {id, new double[d]});
                if (withPerson && rows.size() % 2 == 0 && added < person.length) {
                    rows.add(new Object[] {"e", person[added++].clone()});
                }
            }
        }
        while (withPerson && added < person.length) {
            rows.add(new Object[] {"e", person[added++].clone()});
        }
        return rows;
    }

    private static RowInput input(List<Object[]> data, boolean grouped) {
        double[][] x = new double[data.size()][];
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            ids.add((String) data.get(i)[0]);
            x[i] = (double[]) data.get(i)[1];
        }
        List<String> names = new ArrayList<>();
        for (int j = 0; j < x[0].length; j++) {
            names.add("x" + (j + 1));
        }
        return grouped ? RowInput.byUnit(InMemoryRows.of(x), ids, names) : RowInput.of(InMemoryRows.of(x));
    }

    private static PrivacyAuditor.Trial trial(boolean withPerson, boolean personLevel) {
        PrivatePca chain = PrivatePca.of(input(data(withPerson), personLevel)).bound(RowBound.clip(BETA))
                .components(2).neighbouring(Neighbouring.ADD_REMOVE_ROW).withoutUsefulnessCheck();
        PrivatePca unit = personLevel ? chain.privacyUnit(PrivacyUnit.column("person", M)) : chain;
        return r -> {
            PcaRelease release = unit.randomSource(r).fit(CLAIMED);
            Matrix u = release.components();
            double[] ev = release.subspace().explainedVariance().orElseThrow();
            return ev[0] * u.get(0, 0) * u.get(0, 0) + ev[1] * u.get(0, 1) * u.get(0, 1);
        };
    }

    private static PrivacyAuditor.Result audit(boolean personLevel, long seed, int trials) {
        return PrivacyAuditor.builder().trials(trials).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build()
                .audit(trial(false, personLevel), trial(true, personLevel), CLAIMED);
    }

    /** The Frobenius audit's persons: M rows (β, 0, 0, 0), or the M = d = 4 orthogonal rows β·e_i. */
    private static double[][] frobeniusPerson(boolean aligned) {
        double[][] p = new double[M][4];
        for (int r = 0; r < M; r++) {
            p[r][aligned ? 0 : r] = BETA;
        }
        return p;
    }

    /**
     * Frobenius-bounded analyze-gauss with k = d = 4; {@code twin}: the aligned person's rows clipped to β/M^{1/4}
     * without the common scale, one row as the unit.
     */
    private static PrivacyAuditor.Trial frobeniusTrial(boolean withPerson, boolean aligned, boolean twin) {
        double[][] person = frobeniusPerson(aligned);
        if (twin) {
            for (double[] x : person) {
                io.dpspectra.linalg.Vectors.scaleInPlace(x, 1 / Math.pow(M, 0.25));
            }
        }
        PrivatePca chain = PrivatePca.of(input(data(withPerson, person), !twin)).bound(RowBound.clip(BETA))
                .components(4).neighbouring(Neighbouring.ADD_REMOVE_ROW).withoutUsefulnessCheck();
        PrivatePca unit = twin ? chain : chain.privacyUnit(PrivacyUnit.column("person", M).frobenius());
        return r -> {
            PcaRelease release = unit.randomSource(r).fit(CLAIMED);
            Matrix u = release.components();
            double[] ev = release.subspace().explainedVariance().orElseThrow();
            double s = 0;
            for (int j = 0; j < ev.length; j++) {
                s += aligned ? ev[j] * u.get(0, j) * u.get(0, j) : ev[j];
            }
            return s;
        };
    }

    private static PrivacyAuditor.Result frobeniusAudit(boolean aligned, boolean twin, long seed, int trials) {
        return PrivacyAuditor.builder().trials(trials).confidence(0.99)
                .randomSource(RandomSource.seededForReproducibility(seed)).build()
                .audit(frobeniusTrial(false, aligned, twin), frobeniusTrial(true, aligned, twin), CLAIMED);
    }

    @Test
    void frobeniusBoundedAnalyzeGaussIsNotFlaggedOnAlignedOrOrthogonalPersons() {
        for (boolean aligned : new boolean[] {true, false}) {
            PrivacyAuditor.Result r = frobeniusAudit(aligned, false, aligned ? 3104 : 3105, 40_000);
            assertThat(r.violation()).as("aligned %s", aligned).isFalse();
            assertThat(r.epsilonLowerBound()).as("aligned %s", aligned).isGreaterThan(0.1);
        }
    }

    @Test
    void frobeniusClippingWithoutThePersonsCommonScaleIsCaught() {
        PrivacyAuditor.Result r = frobeniusAudit(true, true, 3106, 40_000);
        assertThat(r.violation()).isTrue();
    }

    @Test
    void neighboursDifferByOnePersonsWholeGroupOfRows() {
        assertThat(data(true).size() - data(false).size()).isEqualTo(M);
        // the person's rows are not adjacent
        List<Object[]> d = data(true);
        assertThat(d.get(d.size() - 1)[0]).isNotEqualTo("e");
    }

    @Test
    void personLevelAnalyzeGaussIsNotFlaggedInAShortAudit() {
        PrivacyAuditor.Result r = audit(true, 3101, 40_000);
        assertThat(r.violation()).isFalse();
        assertThat(r.epsilonLowerBound()).isGreaterThan(0.1); // the statistic does see the person
    }

    @Test
    void rowLevelCalibrationIsCaughtOnPersonNeighbours() {
        PrivacyAuditor.Result r = audit(false, 3102, 40_000);
        assertThat(r.violation()).isTrue();
    }

    @Test
    @Tag("slow")
    void personLevelAnalyzeGaussIsNotFlaggedInTheFullAudit() {
        PrivacyAuditor.Result r = audit(true, 3103, 200_000);
        assertThat(r.violation()).isFalse();
    }
}
