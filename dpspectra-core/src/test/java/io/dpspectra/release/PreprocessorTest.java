package io.dpspectra.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.PrivateBoundedMean;
import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The private preprocessing over the seam: what it spends, what it records, and that a source computing its
 * statistics in parts (as a cluster does) gives the release a single pass gives.
 */
class PreprocessorTest {
    private static final PrivacyParams TOTAL = PrivacyParams.of(2, 1e-6);
    private static final List<String> NAMES = List.of("a", "b", "c");

    /** A source that computes every statistic on two halves and merges them, as a cluster source does. */
    private static class Halves implements StatisticSource {
        private final RowSource first;
        private final RowSource second;
        private final RowSource all;

        Halves(double[][] x) {
            first = InMemoryRows.of(Arrays.copyOfRange(x, 0, x.length / 2));
            second = InMemoryRows.of(Arrays.copyOfRange(x, x.length / 2, x.length));
            all = InMemoryRows.of(x);
        }

        @Override
        public int dimension() {
            return 3;
        }

        @Override
        public List<String> featureNames() {
            return NAMES;
        }

        @Override
        public String describe() {
            return "two halves";
        }

        @Override
        public NormHistogram normHistogram(double[] grid) {
            return NormHistogram.of(first, grid).merge(NormHistogram.of(second, grid));
        }

        @Override
        public BoundedSum boundedSum(Bounding b) {
            return BoundedSum.of(b.first(first)).merge(BoundedSum.of(b.first(second)));
        }

        @Override
        public ClippedRows bounded(Bounding b) {
            return b.declare(b.apply(all));
        }
    }

    private static Preprocessor.Prepared prepare(StatisticSource source, RowBound bound, Centring centring, long seed) {
        BudgetPlan plan = BudgetPlan.split(TOTAL, bound, centring, Components.fixed(2), true, NoiseKind.GAUSSIAN,
                Vocabulary.JAVA);
        return Preprocessor.prepare(source, null, bound, centring, plan, plan.neighbouring(null),
                RandomSource.seededForReproducibility(seed), Vocabulary.JAVA, ReleaseListener.NONE);
    }

    @Test
    void aPrivateBoundAndMeanSpendTheirSharesAndAreRecorded() {
        double[][] x = StatisticsTest.rows(400, 3, 3);
        Preprocessor.Prepared p = prepare(RowStatistics.of(InMemoryRows.of(x), NAMES),
                RowBound.privateQuantile(0.9, 0.1), Centring.privateMean(0.2), 7);
        assertThat(p.spent()).hasSize(2);
        assertThat(p.spent().get(0).params()).isEqualTo(PrivacyParams.pure(0.2));
        assertThat(p.spent().get(1).params().epsilon()).isEqualTo(0.4);
        assertThat(p.spent()).allMatch(g -> g.neighbouring() == Neighbouring.REPLACE_ROW);
        Preprocessing record = p.preprocessing();
        assertThat(record.mean()).hasSize(3);
        assertThat(record.bound()).isGreaterThan(record.inputBound());
        assertThat(record.boundOrigin()).startsWith("private 0.9-quantile of the row norms");
        assertThat(record.policy()).isEqualTo(DataBounds.Policy.CLIP);
        assertThat(p.rows().bounds().orElseThrow().bound()).isEqualTo(record.bound());
        assertThat(p.rows().bounds().orElseThrow().origin()).isEqualTo(DataBounds.Origin.PRIVATELY_ESTIMATED);
        assertThat(p.rowCount().getAsLong()).isEqualTo(400);
    }

    @Test
    void statisticsMergedFromPartsGiveTheSameReleaseAsOnePass() {
        double[][] x = StatisticsTest.rows(400, 3, 4);
        Preprocessor.Prepared whole = prepare(RowStatistics.of(InMemoryRows.of(x), NAMES),
                RowBound.privateQuantile(0.8), Centring.PRIVATE, 11);
        Preprocessor.Prepared parts = prepare(new Halves(x), RowBound.privateQuantile(0.8), Centring.PRIVATE, 11);
        assertThat(parts.preprocessing().inputBound()).isEqualTo(whole.preprocessing().inputBound());
        assertThat(parts.preprocessing().mean()).containsExactly(whole.preprocessing().mean());
        assertThat(parts.spent()).isEqualTo(whole.spent());
    }

    @Test
    void aGivenBoundSpendsNothingAndTheMeanMatchesTheMechanismDrawnDirectly() {
        double[][] x = StatisticsTest.rows(300, 3, 5);
        Preprocessor.Prepared p = prepare(RowStatistics.of(InMemoryRows.of(x), NAMES), RowBound.clip(6),
                Centring.privateMean(0.1), 13);
        assertThat(p.preprocessing().boundOrigin()).startsWith("user-given (RowBound.clip)");
        PrivateBoundedMean.Result direct = PrivateBoundedMean.of(Neighbouring.REPLACE_ROW, RandomSource.seededForReproducibility(13))
                .estimate(InMemoryRows.of(x).clipL2(6), PrivacyParams.of(0.2, 1e-7));
        assertThat(p.preprocessing().mean()).containsExactly(direct.mean());
        Diagnostics facts = RowStatistics.of(InMemoryRows.of(x), NAMES).curatorFacts();
        assertThat(facts.asMap()).isEmpty();
    }

    @Test
    void emptyDataIsRefusedBeforeAnyNoiseAndOtherUnitsAreNotMistakenForRows() {
        RandomSource random = new RandomSource() {
            @Override
            public long nextLong() {
                throw new AssertionError("noise drawn before the data were checked");
            }

            @Override
            public boolean isSeeded() {
                return true;
            }

            @Override
            public RandomSource split() {
                return this;
            }
        };
        BudgetPlan plan = BudgetPlan.split(TOTAL, RowBound.privateQuantile(0.9), Centring.NONE, null, true,
                NoiseKind.GAUSSIAN, Vocabulary.JAVA);
        StatisticSource empty = new Halves(StatisticsTest.rows(10, 3, 1)) {
            @Override
            public NormHistogram normHistogram(double[] grid) {
                return NormHistogram.empty(grid); // a source whose data turned out empty
            }
        };
        assertThatThrownBy(() -> Preprocessor.prepare(empty, null, RowBound.privateQuantile(0.9), Centring.NONE, plan,
                Neighbouring.REPLACE_ROW, random, Vocabulary.JAVA, ReleaseListener.NONE))
                .isInstanceOf(InvalidDataException.class).hasMessageContaining("has no data rows");
    }

    @Test
    void anAutomaticBoundShareIsPlannedFromAPublicNAndTheBoundFindsTheMedianWhateverItsScale() {
        RowBound.PrivateQuantile auto = (RowBound.PrivateQuantile) RowBound.privateQuantile(0.5);
        assertThat(auto.isAuto()).isTrue();
        assertThat(auto.budgetShare()).isEqualTo(RowBound.DEFAULT_PRIVATE_SHARE); // n not public
        RowBound.PrivateQuantile many = auto.forPublicRows(100_000, 1, java.util.OptionalDouble.empty());
        RowBound.PrivateQuantile few = auto.forPublicRows(60, 1, java.util.OptionalDouble.empty());
        assertThat(many.isAuto()).isFalse();
        assertThat(many.share()).isEqualTo(io.dpspectra.data.AdaptiveQuantile.MIN_AUTO_SHARE);
        assertThat(few.share()).isGreaterThan(many.share()).isLessThanOrEqualTo(
                io.dpspectra.data.AdaptiveQuantile.MAX_AUTO_SHARE);
        RowBound fixed = RowBound.privateQuantile(0.5, 0.2);
        assertThat(((RowBound.PrivateQuantile) fixed).forPublicRows(60, 1, java.util.OptionalDouble.empty()))
                .isEqualTo(fixed);
        // rows whose norms sit near 10^k for k far apart: the bound lands within a factor 2 of the median norm in
        // every seeded run, whatever the scale (the ladder spans 2^-30 .. 2^50; its width costs ln(#octaves))
        for (double scale : new double[] {1e-6, 1, 1e9}) {
            double[][] x = StatisticsTest.rows(2000, 3, 21);
            double[] norms = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                for (int j = 0; j < 3; j++) {
                    x[i][j] *= scale;
                }
                norms[i] = io.dpspectra.linalg.Vectors.norm2(x[i]);
            }
            Arrays.sort(norms);
            double median = norms[x.length / 2 - 1];
            RowBound planned = auto.forPublicRows(x.length, TOTAL.epsilon(), java.util.OptionalDouble.empty());
            for (long seed = 0; seed < 20; seed++) {
                Preprocessor.Prepared p = prepare(RowStatistics.of(InMemoryRows.of(x), NAMES), planned, Centring.NONE,
                        seed);
                assertThat(p.preprocessing().inputBound()).as("scale " + scale + ", seed " + seed)
                        .isBetween(median / 2, median * 2);
                assertThat(p.preprocessing().boundOrigin()).contains("octaves");
                assertThat(p.spent().get(0).params().epsilon()).isEqualTo(TOTAL.epsilon() * many.share());
            }
        }
    }
}
