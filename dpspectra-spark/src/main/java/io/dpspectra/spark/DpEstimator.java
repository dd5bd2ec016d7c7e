package io.dpspectra.spark;

import io.dpspectra.data.DataBounds;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.util.List;
import java.util.Locale;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.sql.types.StructType;

/**
 * The parameters every private Spark estimator of dpspectra shares, and the translation of them into
 * core's terms. It holds no algorithm logic: {@link DpPca} and {@link DpCovariance} build the core
 * estimator and hand it a {@link DistributedGram} statistic (or the streamed rows).
 *
 * <p>Privacy unit: one row of the input column, with L2 norm bounded by {@code clipNorm} (rows above it
 * are scaled down onto it). Choose the bound from domain knowledge, never from the data. Without
 * {@code seed} the noise comes from SecureRandom; a seeded release is reproducible and NOT private
 * against anyone who knows the seed.
 *
 * @param <M> the model
 * @param <E> the concrete estimator, returned by every setter
 */
public abstract class DpEstimator<M extends Model<M>, E extends DpEstimator<M, E>> extends Estimator<M>
        implements DefaultParamsWritable {
    private static final long serialVersionUID = 1L;

    private final String uid;
    private final Param<String> algorithm;
    private final IntParam k;
    private final DoubleParam epsilon;
    private final DoubleParam delta;
    private final DoubleParam clipNorm;
    private final Param<String> neighbouring;
    private final Param<String> inputCol;
    private final Param<String> outputCol;
    private final LongParam seed;

    protected DpEstimator(String uid, List<String> algorithms, String defaultAlgorithm, String kDoc) {
        this.uid = uid;
        algorithm = new Param<>(this, "algorithm", "the mechanism: one of " + String.join(", ", algorithms),
                ParamValidators.inArray(algorithms));
        k = new IntParam(this, "k", kDoc, ParamValidators.gtEq(1));
        epsilon = new DoubleParam(this, "epsilon", "privacy parameter epsilon (> 0, finite) spent by the release",
                ParamValidators.gt(0));
        delta = new DoubleParam(this, "delta", "privacy parameter delta in [0, 1); Gaussian mechanisms need delta > 0",
                ParamValidators.inRange(0, 1, true, false));
        clipNorm = new DoubleParam(this, "clipNorm", "every row is clipped to L2 norm <= clipNorm; choose it from "
                + "domain knowledge, never from the data", ParamValidators.gt(0));
        neighbouring = new Param<>(this, "neighbouring", "neighbouring relation of the guarantee: add-remove or "
                + "replace (default: the algorithm's own)", ParamValidators.inArray(List.of("add-remove", "replace")));
        inputCol = new Param<>(this, "inputCol", "the vector column of rows");
        outputCol = new Param<>(this, "outputCol", "the vector column the model's transform writes");
        seed = new LongParam(this, "seed", "seed the noise for reproducibility: a seeded release is NOT private "
                + "against anyone who knows the seed (default: unset, SecureRandom)");
        setDefault(algorithm, defaultAlgorithm);
        setDefault(delta, 0.0);
        setDefault(inputCol, "features");
        setDefault(outputCol, "pcaFeatures");
    }

    protected abstract E self();

    @Override
    public String uid() {
        return uid;
    }

    static String newUid(String prefix) {
        return Identifiable.randomUID(prefix);
    }

    public Param<String> algorithm() {
        return algorithm;
    }

    public IntParam k() {
        return k;
    }

    public DoubleParam epsilon() {
        return epsilon;
    }

    public DoubleParam delta() {
        return delta;
    }

    public DoubleParam clipNorm() {
        return clipNorm;
    }

    public Param<String> neighbouring() {
        return neighbouring;
    }

    public Param<String> inputCol() {
        return inputCol;
    }

    public Param<String> outputCol() {
        return outputCol;
    }

    public LongParam seed() {
        return seed;
    }

    public E setAlgorithm(String value) {
        set(algorithm, value.toLowerCase(Locale.ROOT));
        return self();
    }

    public E setK(int value) {
        set(k, value);
        return self();
    }

    public E setEpsilon(double value) {
        set(epsilon, value);
        return self();
    }

    public E setDelta(double value) {
        set(delta, value);
        return self();
    }

    public E setClipNorm(double value) {
        set(clipNorm, value);
        return self();
    }

    public E setNeighbouring(String value) {
        set(neighbouring, value.toLowerCase(Locale.ROOT));
        return self();
    }

    public E setInputCol(String value) {
        set(inputCol, value);
        return self();
    }

    public E setOutputCol(String value) {
        set(outputCol, value);
        return self();
    }

    public E setSeed(long value) {
        set(seed, value);
        return self();
    }

    public String getAlgorithm() {
        return getOrDefault(algorithm);
    }

    /** The budget; an error naming {@code epsilon} if it was never set. */
    PrivacyParams budget() {
        if (!isDefined(epsilon)) {
            throw new IllegalArgumentException(getClass().getSimpleName() + " is differentially private and needs "
                    + "epsilon: call setEpsilon(...) with the budget to spend, e.g. setEpsilon(1.0)");
        }
        return PrivacyParams.of((Double) getOrDefault(epsilon), (Double) getOrDefault(delta));
    }

    /** The user's row bound; an error naming {@code clipNorm} if it was never set. */
    double bound() {
        if (!isDefined(clipNorm)) {
            throw new IllegalArgumentException(getClass().getSimpleName() + " needs a row norm bound: call "
                    + "setClipNorm(B) with B chosen from domain knowledge, never from the data");
        }
        return (Double) getOrDefault(clipNorm);
    }

    /** k if set, else {@code otherwise}. */
    int componentsOr(int otherwise) {
        return isDefined(k) ? (Integer) getOrDefault(k) : otherwise;
    }

    /** The requested relation, or null for the algorithm's default. */
    Neighbouring neighbouringOrNull() {
        if (!isDefined(neighbouring)) {
            return null;
        }
        return getOrDefault(neighbouring).equals("replace") ? Neighbouring.REPLACE_ROW : Neighbouring.ADD_REMOVE_ROW;
    }

    /** Secure by default; seeded (for tests and reproductions only) when {@code seed} is set. */
    RandomSource randomSource() {
        return isDefined(seed) ? RandomSource.seededForReproducibility((Long) getOrDefault(seed))
                : RandomSource.secure();
    }

    /** The distributed statistic of the input column, bounded by clipNorm. */
    DistributedGram statistic(org.apache.spark.sql.Dataset<?> data) {
        return DistributedGram.of(data, getOrDefault(inputCol), bound(), DataBounds.Policy.CLIP);
    }

    @Override
    public StructType transformSchema(StructType schema) {
        return DpModel.appendOutput(schema, getOrDefault(inputCol), getOrDefault(outputCol));
    }

    /** Copies this estimator's shared params onto a model. */
    <T extends DpModel<?>> T withParams(T model) {
        model.set(model.inputCol(), getOrDefault(inputCol));
        model.set(model.outputCol(), getOrDefault(outputCol));
        return model;
    }
}
