package io.dpspectra.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.RowCursor;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Grouping by a privacy unit column, the per-person bounds, and the release chain with a person as the unit. */
class UnitStatisticsTest {
    @TempDir
    Path dir;

    /** Person p (of 5) has 3 + p rows, interleaved round robin; row values are p*100 + its index. */
    private static UnitStatistics grouped(PrivacyUnit unit, RandomSource r) {
        UnitStatistics.Builder b = UnitStatistics.builder(unit, List.of("x", "y"), "test rows", r);
        for (int i = 0; i < 8; i++) {
            for (int p = 0; p < 5; p++) {
                if (i < 3 + p) {
                    b.add("p" + p, new double[] {p * 100 + i, 1}, null);
                }
            }
        }
        return b.build();
    }

    private static List<double[]> rows(ClippedRows rows) {
        List<double[]> out = new ArrayList<>();
        double[] row = new double[rows.dimension()];
        try (RowCursor c = rows.open()) {
            while (c.next(row)) {
                out.add(row.clone());
            }
        }
        return out;
    }

    @Test
    void rowsOfAPersonNeedNotBeAdjacentAndAtMostMAreKeptTheCountIsOfPersons() {
        UnitStatistics s = grouped(PrivacyUnit.column("id", 4).firstRows(), null);
        assertThat(s.rowCount()).isEqualTo(5); // persons, not the 25 rows
        assertThat(s.rowsKept()).isEqualTo(3 + 4 + 4 + 4 + 4);
        assertThat(s.curatorFacts().asMap()).containsEntry("rowsRead", 25L).containsEntry("persons", 5L);
        // first M in file order: person 4 keeps its rows 0..3
        List<double[]> kept = rows(s.bounded(Bounding.of(1e9, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN)));
        assertThat(kept.stream().filter(r -> r[0] >= 400).map(r -> (int) r[0] - 400).toList())
                .containsExactly(0, 1, 2, 3);
    }

    @Test
    void randomSelectionKeepsEachRowOfAPersonWithProbabilityMOverTheirRows() {
        // person 4 has 7 rows and keeps M = 2: each row kept with probability 2/7; 3000 draws, sd ~ 0.008
        int[] kept = new int[7];
        int runs = 3000;
        RandomSource r = RandomSource.seededForReproducibility(31);
        for (int run = 0; run < runs; run++) {
            UnitStatistics s = grouped(PrivacyUnit.column("id", 2), r);
            for (double[] row : rows(s.bounded(Bounding.of(1e9, DataBounds.Policy.CLIP,
                    DataBounds.Origin.USER_GIVEN)))) {
                if (row[0] >= 400) {
                    kept[(int) row[0] - 400]++;
                }
            }
        }
        for (int k : kept) {
            assertThat(k / (double) runs).isCloseTo(2.0 / 7, org.assertj.core.data.Offset.offset(0.04));
        }
    }

    @Test
    void aSeededGroupingKeepsTheSameRowsAndSumsTheSameBitsWhateverTheInterleavingOfPersons() {
        // 6 persons of 9 rows each, M = 3 at random: the input in person-major order, and round robin (each person's
        // own rows in the same order); per-person streams and the sorted order of persons make both the same
        double[][][] byPerson = new double[6][9][];
        RandomSource values = RandomSource.seededForReproducibility(5);
        for (int p = 0; p < 6; p++) {
            for (int i = 0; i < 9; i++) {
                byPerson[p][i] = new double[] {values.standardNormal(), values.standardNormal(), values.standardNormal()};
            }
        }
        PrivacyUnit unit = PrivacyUnit.column("id", 3);
        UnitStatistics.Builder major = UnitStatistics.builder(unit, List.of("a", "b", "c"), "t", RandomSource
                .seededForReproducibility(8));
        UnitStatistics.Builder robin = UnitStatistics.builder(unit, List.of("a", "b", "c"), "t", RandomSource
                .seededForReproducibility(8));
        for (int p = 5; p >= 0; p--) {
            for (int i = 0; i < 9; i++) {
                major.add("u" + p, byPerson[p][i], null);
            }
        }
        for (int i = 0; i < 9; i++) {
            for (int p = 0; p < 6; p++) {
                robin.add("u" + p, byPerson[p][i], null);
            }
        }
        UnitStatistics a = major.build();
        UnitStatistics b = robin.build();
        Bounding bounding = new Bounding(1.5, DataBounds.Policy.CLIP, new double[] {0.1, -0.2, 0}, 1.5 + Math.sqrt(0.05),
                DataBounds.Origin.USER_GIVEN);
        assertThat(rows(a.bounded(bounding)).toArray(new double[0][]))
                .isDeepEqualTo(rows(b.bounded(bounding)).toArray(new double[0][]));
        assertThat(a.boundedSum(bounding).sum()).isEqualTo(b.boundedSum(bounding).sum());
        // and the selection is random: another seed keeps other rows of some person
        UnitStatistics.Builder other = UnitStatistics.builder(unit, List.of("a", "b", "c"), "t", RandomSource
                .seededForReproducibility(9));
        for (int i = 0; i < 9; i++) {
            for (int p = 0; p < 6; p++) {
                other.add("u" + p, byPerson[p][i], null);
            }
        }
        assertThat(other.build().boundedSum(bounding).sum()).isNotEqualTo(b.boundedSum(bounding).sum());
    }

    @Test
    void eachPersonsSumOfSquaredRowNormsIsAtMostTheSquaredBoundWithAndWithoutAMean() {
        int m = 4;
        UnitStatistics s = grouped(PrivacyUnit.column("id", m).firstRows(), null);
        double b = 2;
        for (Bounding bounding : List.of(Bounding.of(b, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN),
                new Bounding(b, DataBounds.Policy.CLIP, new double[] {-1, 0.5}, b + Math.hypot(1, 0.5),
                        DataBounds.Origin.USER_GIVEN))) {
            ClippedRows out = s.bounded(bounding);
            assertThat(out.bounds().orElseThrow().l2Bound()).isEqualTo(bounding.bound());
            List<double[]> kept = rows(out);
            int i = 0;
            for (int p = 0; p < 5; p++) {
                double sum = 0;
                for (int r = 0; r < Math.min(m, 3 + p); r++) {
                    sum += Math.pow(Vectors.norm2(kept.get(i++)), 2);
                }
                assertThat(sum).isLessThanOrEqualTo(bounding.bound() * bounding.bound() * (1 + 1e-12));
            }
        }
    }

    @Test
    void theCentresSumIsOfPersonsMeansAndTheHistogramOfPersonsValues() {
        UnitStatistics s = grouped(PrivacyUnit.column("id", 4).firstRows(), null);
        BoundedSum sum = s.boundedSum(Bounding.of(1e9, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN));
        assertThat(sum.count()).isEqualTo(5);
        // person means of the first coordinate: 1, 101.5, 201.5, 301.5, 401.5
        assertThat(sum.sum()[0]).isCloseTo(1 + 101.5 + 201.5 + 301.5 + 401.5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(sum.sum()[1]).isCloseTo(5, org.assertj.core.data.Offset.offset(1e-9));
        // one value per person: sqrt(M) times their largest row norm
        NormHistogram h = s.normHistogram(new double[] {1, 2 * Math.hypot(2, 1) + 1e-9, 1e4});
        assertThat(h.total()).isEqualTo(5);
    }

    @Test
    void aCsvFileIsGroupedByItsUnitColumnWhichIsNeverAFeature() throws IOException {
        Path f = dir.resolve("visits.csv");
        Files.writeString(f, "patient,a,b\nann,1,2\nbob,3,4\nann,5,6\n");
        UnitStatistics s = UnitCsv.read(f, UnitCsv.Options.DEFAULT, PrivacyUnit.column("patient", 5), RandomSource.seededForReproducibility(5));
        assertThat(s.featureNames()).containsExactly("a", "b");
        assertThat(s.rowCount()).isEqualTo(2);
        assertThatThrownBy(() -> UnitCsv.read(f, UnitCsv.Options.DEFAULT, PrivacyUnit.column("customer", 5), RandomSource.seededForReproducibility(5)))
                .isInstanceOf(ReleaseSettingException.class).hasMessageContaining("'customer' is not in the header")
                .satisfies(e -> assertThat(((ReleaseSettingException) e).hint()).contains("patient, a, b"));
        assertThatThrownBy(() -> UnitCsv.read(f, new UnitCsv.Options(null, List.of("patient", "a"), null, null, 0),
                PrivacyUnit.column("patient", 5), RandomSource.seededForReproducibility(5))).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("also selected as a feature");
        Files.writeString(f, "patient,a,b\nann,1,2\nbob,x,4\n");
        assertThatThrownBy(() -> UnitCsv.read(f, UnitCsv.Options.DEFAULT, PrivacyUnit.column("patient", 5), RandomSource.seededForReproducibility(5)))
                .isInstanceOf(InvalidDataException.class).hasMessageContaining("line 3, column 2 \"a\": value \"x\" is not a number");
        // the project's CSV reader, its cell rules and messages: no NaN, no Java-only spellings such as hex floats
        Files.writeString(f, "patient,a,b\nann,1,2\nbob,NaN,4\n");
        assertThatThrownBy(() -> UnitCsv.read(f, UnitCsv.Options.DEFAULT, PrivacyUnit.column("patient", 5), RandomSource.seededForReproducibility(5)))
                .isInstanceOf(InvalidDataException.class).hasMessageContaining("line 3, column 2 \"a\": value \"NaN\" is NaN");
        Files.writeString(f, "patient,a,b\nann,1,2\nbob,0x1p3,4\n");
        assertThatThrownBy(() -> UnitCsv.read(f, UnitCsv.Options.DEFAULT, PrivacyUnit.column("patient", 5), RandomSource.seededForReproducibility(5)))
                .isInstanceOf(InvalidDataException.class).hasMessageContaining("line 3, column 2 \"a\": value \"0x1p3\" is not a number");
    }

    private static RowInput people() {
        double[][] x = new double[60][];
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            x[i] = new double[] {Math.sin(i), Math.cos(i), 0.1 * (i % 7)};
            ids.add("p" + (i % 12));
        }
        return RowInput.byUnit(InMemoryRows.of(x), ids, List.of("a", "b", "c"));
    }

    @Test
    void theGuaranteeNamesTheUnitColumnAndMAndEveryGramReleaseRuns() {
        PrivacyUnit unit = PrivacyUnit.column("person", 5);
        PcaRelease r = PrivatePca.of(people()).privacyUnit(unit).bound(RowBound.clip(1)).components(2)
                .randomSource(RandomSource.seededForReproducibility(1)).fit(PrivacyParams.of(1, 1e-6));
        String stated = r.guarantee().estimator().privacyUnit();
        assertThat(stated).contains("column 'person'").contains("at most 5 rows").contains("B^2 = 1.00000");
        assertThat(r.diagnostics().asMap()).containsEntry("persons", 12L);
        // private centre, private bound and an automatic k: every part states the person
        PcaRelease all = PrivatePca.of(people()).privacyUnit(unit).bound(RowBound.privateQuantile(0.9, 0.1))
                .centre(Centring.PRIVATE).components(Components.auto(0.8))
                .randomSource(RandomSource.seededForReproducibility(2)).fit(PrivacyParams.of(1, 1e-6));
        assertThat(all.guarantee().parts()).hasSize(4).allSatisfy(g -> assertThat(g.privacyUnit())
                .contains("column 'person'"));
        for (String mechanism : List.of("gaussian", "laplace", "kt", "it-u", "ad")) {
            CovarianceRelease c = PrivateSecondMoment.of(people()).privacyUnit(unit).algorithm(mechanism)
                    .bound(RowBound.clip(1)).randomSource(RandomSource.seededForReproducibility(3))
                    .fit(mechanism.equals("gaussian") ? PrivacyParams.of(1, 1e-6) : PrivacyParams.pure(1));
            assertThat(c.guarantee().estimator().privacyUnit()).as(mechanism).contains("column 'person'");
        }
    }

    @Test
    void perRowAlgorithmsAndImpossibleCombinationsAreRefusedByNameBeforeReading() {
        PrivacyUnit unit = PrivacyUnit.column("person", 5);
        for (String name : List.of("k-dp-ojas", "dp-sggd", "private-power")) {
            if (Algorithms.findPca(name).isEmpty()) {
                continue;
            }
            assertThatThrownBy(() -> PrivatePca.of(people()).privacyUnit(unit).algorithm(name).bound(RowBound.clip(1))
                    .components(1).check()).isInstanceOf(ReleaseSettingException.class)
                    .hasMessageContaining("algorithm(" + name + ") does not support privacyUnit");
        }
        assertThatThrownBy(() -> PrivatePca.of(people()).privacyUnit(unit).bound(RowBound.require(1)).components(1)
                .check()).isInstanceOf(ReleaseSettingException.class).hasMessageContaining("RowBound.require");
        // rows without ids cannot be grouped; ids without a unit are refused rather than ignored
        assertThatThrownBy(() -> PrivatePca.of(InMemoryRows.of(new double[][] {{1, 0}})).privacyUnit(unit)
                .bound(RowBound.clip(1)).components(1).withoutUsefulnessCheck().fit(PrivacyParams.of(1, 1e-6)))
                .isInstanceOf(ReleaseSettingException.class).hasMessageContaining("no column naming the person");
        assertThatThrownBy(() -> PrivatePca.of(people()).bound(RowBound.clip(1)).components(1)
                .withoutUsefulnessCheck().fit(PrivacyParams.of(1, 1e-6)))
                .isInstanceOf(ReleaseSettingException.class).hasMessageContaining("need a privacy unit");
        assertThat(Neighbouring.ADD_REMOVE_ROW).isNotNull();
    }

    /** ‖Σ_r x_r x_rᵀ‖_F computed the slow way, from the d × d matrix. */
    private static double frobenius(double[][] rows) {
        int d = rows[0].length;
        double sum = 0;
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                double p = 0;
                for (double[] x : rows) {
                    p += x[i] * x[j];
                }
                sum += p * p;
            }
        }
        return Math.sqrt(sum);
    }

    private static double trace(double[][] rows) {
        double t = 0;
        for (double[] x : rows) {
            t += Math.pow(Vectors.norm2(x), 2);
        }
        return t;
    }

    /** Adversarial persons of M = 16 rows in d = 16: aligned, orthogonal, one huge row, random, tiny, mixed. */
    private static List<double[][]> adversarialPersons() {
        int m = 16;
        int d = 16;
        List<double[][]> persons = new ArrayList<>();
        double[][] aligned = new double[m][d];
        double[][] orthogonal = new double[m][d];
        double[][] huge = new double[m][d];
        double[][] random = new double[m][d];
        double[][] tiny = new double[m][d];
        double[][] fewer = new double[3][d];
        RandomSource r = RandomSource.seededForReproducibility(41);
        for (int i = 0; i < m; i++) {
            aligned[i][0] = 5;
            orthogonal[i][i] = 5;
            huge[i][i % 2] = i == 0 ? 1e300 : 0.01;
            tiny[i][i] = 1e-300;
            for (int j = 0; j < d; j++) {
                random[i][j] = (r.nextDouble() - 0.5) * (i + 1);
            }
        }
        fewer[0][0] = 3;
        fewer[1][1] = 3;
        fewer[2][0] = -3;
        persons.addAll(List.of(aligned, orthogonal, huge, random, tiny, fewer));
        return persons;
    }

    @Test
    void theFrobeniusBoundHoldsForAdversarialPersonsAndKeepsOrthogonalRowsLonger() {
        int m = 16;
        PrivacyUnit rows = PrivacyUnit.column("id", m);
        PrivacyUnit frob = rows.frobenius();
        for (double b : new double[] {1, 0.3, 1e-200, 1e200}) {
            Bounding bounding = Bounding.of(b, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN);
            for (double[][] person : adversarialPersons()) {
                double[][] out = UnitStatistics.boundPerson(person, frob, bounding);
                assertThat(out.length).isEqualTo(person.length);
                // the bound itself, overflow-safely: ||P/B^2||_F <= 1
                assertThat(UnitStatistics.frobeniusOfOuterSum(out, b)).as("B = %s", b).isLessThanOrEqualTo(1.0);
                for (double[] x : out) {
                    assertThat(Vectors.norm2(x)).isLessThanOrEqualTo(b / Math.pow(m, 0.25) * (1 + 1e-12));
                }
                // nothing changes for a bound at or above the person's smallest bound
                double smallest = UnitStatistics.smallestBound(person, frob);
                if (smallest > 0 && smallest < 1e150) {
                    double[][] same = UnitStatistics.boundPerson(person, frob, Bounding.of(smallest * (1 + 1e-9),
                            DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN));
                    for (int i = 0; i < person.length; i++) {
                        assertThat(same[i]).containsExactly(person[i], org.assertj.core.data.Offset.offset(
                                1e-9 * Vectors.norm2(person[i]) + 1e-300));
                    }
                }
            }
        }
        // aligned rows: the Frobenius bound gives rows' result (each row B/sqrt(M)); orthogonal rows keep sqrt(M)
        // times the trace (each row B/M^(1/4), the person's ||P||_F = B^2 exactly)
        Bounding one = Bounding.of(1, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN);
        List<double[][]> p = adversarialPersons();
        double[][] alignedF = UnitStatistics.boundPerson(p.get(0), frob, one);
        double[][] alignedR = UnitStatistics.boundPerson(p.get(0), rows, one);
        assertThat(trace(alignedF)).isCloseTo(trace(alignedR), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(trace(alignedR)).isCloseTo(1, org.assertj.core.data.Offset.offset(1e-12));
        double[][] orthF = UnitStatistics.boundPerson(p.get(1), frob, one);
        assertThat(frobenius(orthF)).isCloseTo(1, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(trace(orthF) / trace(UnitStatistics.boundPerson(p.get(1), rows, one)))
                .isCloseTo(Math.sqrt(m), org.assertj.core.data.Offset.offset(1e-9));
        // the fast Frobenius norm (Gram or outer products, whichever is smaller) agrees with the slow one
        for (double[][] person : p) {
            if (Vectors.norm2(person[0]) < 1e100) {
                assertThat(UnitStatistics.frobeniusOfOuterSum(person, 1)).isCloseTo(frobenius(person),
                        org.assertj.core.data.Percentage.withPercentage(1e-9));
            }
        }
        double[][] wide = {{1, 2, 3, 4, 5}, {0, 1, 0, 1, 0}};
        assertThat(UnitStatistics.frobeniusOfOuterSum(wide, 1)).isCloseTo(frobenius(wide),
                org.assertj.core.data.Percentage.withPercentage(1e-9));
        // the smallest bound: M^(1/4) max row norm or sqrt(||P||_F); rows: sqrt(M) max row norm
        assertThat(UnitStatistics.smallestBound(p.get(1), frob)).isCloseTo(10, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(UnitStatistics.smallestBound(p.get(0), frob)).isCloseTo(20, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(UnitStatistics.smallestBound(p.get(0), rows)).isCloseTo(20, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(UnitStatistics.smallestBound(p.get(1), rows)).isCloseTo(20, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void theFrobeniusBoundWithAMeanBoundsTheCentredRowsAndTheGuaranteeSaysSo() {
        PrivacyUnit unit = PrivacyUnit.column("id", 4).firstRows().frobenius();
        UnitStatistics s = grouped(unit, null);
        double b = 2;
        Bounding centred = new Bounding(b, DataBounds.Policy.CLIP, new double[] {-1, 0.5}, b + Math.hypot(1, 0.5),
                DataBounds.Origin.USER_GIVEN);
        List<double[]> kept = rows(s.bounded(centred));
        int i = 0;
        for (int p = 0; p < 5; p++) {
            int n = Math.min(4, 3 + p);
            double[][] person = kept.subList(i, i + n).toArray(new double[0][]);
            i += n;
            assertThat(frobenius(person)).isLessThanOrEqualTo(centred.bound() * centred.bound());
        }
        assertThat(s.curatorFacts().asMap()).containsEntry("clippedRows", 19L);
        PcaRelease r = PrivatePca.of(people()).privacyUnit(PrivacyUnit.column("person", 5).frobenius())
                .bound(RowBound.privateQuantile(0.9, 0.1)).centre(Centring.PRIVATE).components(2)
                .randomSource(RandomSource.seededForReproducibility(1)).fit(PrivacyParams.of(1, 1e-6));
        assertThat(r.guarantee().estimator().privacyUnit()).contains("B/5^(1/4)")
                .contains("Frobenius norm <= B^2");
        assertThat(r.guarantee().parts()).hasSize(3);
        CovarianceRelease c = PrivateSecondMoment.of(people()).privacyUnit(PrivacyUnit.column("person", 5).frobenius())
                .algorithm("gaussian").bound(RowBound.clip(1)).randomSource(RandomSource.seededForReproducibility(3))
                .fit(PrivacyParams.of(1, 1e-6));
        assertThat(c.guarantee().estimator().privacyUnit()).contains("Frobenius norm <= B^2");
        assertThatThrownBy(() -> PrivacyUnit.ROW.frobenius()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void mechanismsThatNeedATraceBoundRefuseTheFrobeniusBoundByName() {
        PrivacyUnit unit = PrivacyUnit.column("person", 5).frobenius();
        for (String name : List.of("it-u", "ad")) {
            assertThatThrownBy(() -> PrivatePca.of(people()).privacyUnit(unit).algorithm(name).bound(RowBound.clip(1))
                    .components(1).check()).isInstanceOf(ReleaseSettingException.class)
                    .hasMessageContaining("PrivacyUnit.bounded(frobenius) bounds only the Frobenius norm")
                    .hasMessageContaining("algorithm(" + name + ") is calibrated to a trace")
                    .satisfies(e -> assertThat(((ReleaseSettingException) e).hint()).contains("analyze-gauss")
                            .contains("PrivacyUnit.bounded(rows)"));
        }
        for (String name : List.of("laplace", "kt", "it-u", "ad")) {
            assertThatThrownBy(() -> PrivateSecondMoment.of(people()).privacyUnit(unit).algorithm(name)
                    .bound(RowBound.clip(1)).check()).isInstanceOf(ReleaseSettingException.class)
                    .hasMessageContaining("algorithm(" + name + ") is calibrated to a trace");
        }
        assertThatThrownBy(() -> PrivatePca.of(people()).privacyUnit(unit).bound(RowBound.clip(1))
                .components(Components.auto(0.8)).check()).isInstanceOf(ReleaseSettingException.class)
                .hasMessageContaining("Components.auto releases a private trace");
        // what the Frobenius bound serves is accepted
        PrivatePca.of(people()).privacyUnit(unit).bound(RowBound.clip(1)).components(2).check();
        PrivateSecondMoment.of(people()).privacyUnit(unit).algorithm("gaussian").bound(RowBound.clip(1)).check();
    }
}
