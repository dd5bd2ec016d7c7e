package io.dpspectra.release;

import io.dpspectra.data.AdaptiveQuantile;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.PrivateBoundedMean;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.SchemaFile;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.function.LongSupplier;

/**
 * The private preprocessing of a release, over the seam of exact statistics: the row-norm bound (given, the
 * schema's, or a private quantile of the {@linkplain StatisticSource#normHistogram norm histogram}), the
 * centring (none, public, or a private mean of the {@linkplain StatisticSource#boundedSum bounded sum}), and
 * the bounded rows the estimator reads ({@link StatisticSource#bounded}). Each private step draws its noise
 * here, from the plan's share, on the machine that makes the release.
 *
 * <p>Privacy: the quantile is ε_b-DP (report noisy max over a public ladder's octaves, then cells,
 * {@link AdaptiveQuantile}; its error does not grow with the ladder's width), the mean (ε_c, δ_c)-DP
 * ({@link PrivateBoundedMean}), both with one row as the unit under the release's relation; their guarantees are
 * returned for the release's composition. The bound the estimator is calibrated to is public: given,
 * implied by the schema, or released; after a private mean it is bound + ‖mean‖ by the triangle
 * inequality.
 */
public final class Preprocessor {
    /**
     * The preprocessed rows of one release.
     *
     * @param rows          the bounded rows (or their statistic) the estimator reads
     * @param rowCount      the number of rows, counted (with a note) only when an estimator asks for n first
     * @param preprocessing the public record of what was done
     * @param spent         the guarantees of the private steps, in the order they were spent
     * @param source        the opened source, for its curator's facts after the fit
     */
    public record Prepared(ClippedRows rows, LongSupplier rowCount, Preprocessing preprocessing,
                           List<PrivacyGuarantee> spent, StatisticSource source) {
        /**
         * Copies the guarantees.
         *
         * @param rows          the rows
         * @param rowCount      the count
         * @param preprocessing the record
         * @param spent         the guarantees
         * @param source        the source
         */
        public Prepared {
            spent = List.copyOf(spent);
        }
    }

    private Preprocessor() {
    }

    /**
     * Runs the preprocessing on {@code source}.
     *
     * @param source       the opened data
     * @param schema       the schema the source was opened through, or null
     * @param bound        the row bound
     * @param centring     the centring
     * @param plan         the budget plan (its bound and centre shares), or null when nothing is private
     * @param neighbouring the relation of the private steps
     * @param random       the noise, or null when nothing is private
     * @param v            the words of the messages and of the bound's origin
     * @param listener     hears the width before any row is read, and notes
     * @return the bounded rows and the record of what was done
     */
    public static Prepared prepare(StatisticSource source, SchemaFile schema, RowBound bound, Centring centring,
                                   BudgetPlan plan, Neighbouring neighbouring, RandomSource random, Vocabulary v,
                                   ReleaseListener listener) {
        Objects.requireNonNull(source, "source");
        boolean publicCentre = centring.centres();
        OptionalDouble schemaBound = schema == null ? OptionalDouble.empty() : schema.schema().rowNormBound(publicCentre);
        if (bound instanceof RowBound.FromSchema && schemaBound.isEmpty()) {
            throw new ReleaseSettingException(schema == null ? "a row norm bound is required: no schema gives one"
                    : "the schema gives no row norm bound: " + schema.schema().boundDerivation(true),
                    "add min and max to every numeric column of the schema, or give a bound");
        }
        listener.beforeReading(source.dimension());
        List<PrivacyGuarantee> spent = new ArrayList<>();
        double inputBound;
        String origin;
        DataBounds.Policy policy = bound.policy();
        DataBounds.Origin originKind = DataBounds.Origin.USER_GIVEN;
        if (bound instanceof RowBound.PrivateQuantile pq) {
            // the ladder's top: the schema's bound by construction (no row is above it), else 2^50
            AdaptiveQuantile.Ladder ladder = RowBound.PrivateQuantile.ladder(schemaBound);
            NormHistogram histogram = source.normHistogram(ladder.edges());
            if (histogram.total() == 0) { // a fact of the data: checked before the first noise is drawn
                throw new InvalidDataException(source.describe() + " has no data rows", "provide at least one row");
            }
            AdaptiveQuantile.Result q = AdaptiveQuantile.using(random).bracketShare(pq.bracketShare())
                    .rowNormQuantile(histogram.counts(), pq.quantile(), ladder, plan.bound().orElseThrow(), neighbouring);
            inputBound = q.value();
            origin = String.format(Locale.ROOT, "private %s-quantile of the row norms (noisy max over the octaves of "
                    + "the public ladder %s, then over the chosen octave's cells; %s)", pq.quantile(), ladder,
                    plan.bound().orElseThrow());
            originKind = DataBounds.Origin.PRIVATELY_ESTIMATED;
            spent.add(q.guarantee());
        } else if (bound instanceof RowBound.Given g) {
            inputBound = g.bound();
            origin = "user-given (" + v.name(g.policy() == DataBounds.Policy.CLIP ? Setting.CLIP_NORM
                    : Setting.NORM_BOUND) + ")";
        } else {
            inputBound = schemaBound.getAsDouble();
            origin = "schema: " + schema.schema().boundDerivation(publicCentre);
        }
        double[] mean = null;
        double finalBound = inputBound;
        if (centring.isPrivate()) {
            BoundedSum sum = source.boundedSum(Bounding.of(inputBound, policy, originKind));
            PrivateBoundedMean.Result m = PrivateBoundedMean.of(neighbouring, random).estimate(sum.asMeanInput(), inputBound,
                    plan.centre().orElseThrow());
            mean = m.mean();
            spent.add(m.guarantee());
            finalBound = m.centredBound();
            origin = origin + "; after subtracting the private mean: " + String.format(Locale.ROOT, "%.6g", finalBound)
                    + " = bound + ||mean|| (triangle inequality, by construction)";
        }
        Preprocessing record = new Preprocessing(schema, centring, mean, inputBound, finalBound, origin, policy,
                source.featureNames());
        ClippedRows rows = source.bounded(record.bounding(originKind));
        return new Prepared(rows, counter(rows, listener), record, spent, source);
    }

    /** The number of rows, counted once, on first request, with a note when it costs a pass. */
    private static LongSupplier counter(ClippedRows rows, ReleaseListener listener) {
        long[] counted = {-1};
        return () -> {
            if (counted[0] < 0) {
                if (rows.knownSize().isEmpty()) {
                    listener.note("counting the rows of " + rows.describe() + " first: this algorithm needs n before "
                            + "its own pass");
                }
                counted[0] = count(rows);
            }
            return counted[0];
        };
    }

    /**
     * Reads every row of {@code rows} once, before any noise is drawn, so that a malformed or non-finite cell
     * or a row over a refused bound fails here and not after the first private computation (a streaming or
     * minibatch estimator may draw noise before it has read every row). Used when nothing else reads every row
     * before the estimator: a file whose header gives n, with no private bound, no private mean and an
     * estimator that does not read every row before its first noise. Rows summed elsewhere whose statistic
     * offers a {@link io.dpspectra.data.GramStatistic.RowCheck} (a cluster's partitions) are checked there.
     *
     * @param rows the rows
     * @return n, at least 1
     * @throws InvalidDataException for no rows, or for what the rows' own reading refuses
     */
    public static long validate(io.dpspectra.data.RowSource rows) {
        java.util.Optional<io.dpspectra.data.GramStatistic.RowCheck> remote = io.dpspectra.data.GramStatistic
                .rowCheck(rows);
        if (remote.isPresent()) {
            // rows summed elsewhere (a cluster's partitions) are checked where they lie, not shipped here
            long n = remote.get().checkRows();
            if (n == 0) {
                throw new InvalidDataException(rows.describe() + " has no data rows", "provide at least one row");
            }
            return n;
        }
        int d = rows.dimension();
        int blockRows = Math.max(1, (1 << 16) / d); // blocks of 512 KiB: a file's pass is then I/O bound
        double[] block = new double[io.dpspectra.linalg.MatrixTooLargeException.checkedLength("the row buffer",
                blockRows, d)];
        long n = 0;
        try (RowCursor cursor = rows.open()) {
            int got;
            while ((got = cursor.nextBlock(block, blockRows, d)) > 0) {
                n += got;
            }
        }
        if (n == 0) {
            throw new InvalidDataException(rows.describe() + " has no data rows", "provide at least one row");
        }
        return n;
    }

    /**
     * The number of rows of {@code rows}: its known size, else one pass, which also fails fast on a malformed
     * row or a row over a refused bound (before any estimator runs).
     *
     * @param rows the rows
     * @return n, at least 1
     * @throws InvalidDataException for no rows
     */
    public static long count(ClippedRows rows) {
        long n = rows.knownSize().orElse(-1);
        if (n < 0) {
            double[] row = new double[rows.dimension()];
            n = 0;
            try (RowCursor cursor = rows.open()) {
                while (cursor.next(row)) {
                    n++;
                }
            }
        }
        if (n == 0) {
            throw new InvalidDataException(rows.describe() + " has no data rows", "provide at least one row");
        }
        return n;
    }
}
