package io.dpspectra.spark;

import io.dpspectra.data.Clipping;
import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.PrivateSubspace;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.release.Algorithms;
import io.dpspectra.release.PcaAlgorithm;
import io.dpspectra.release.PcaOptions;
import io.dpspectra.release.ReleaseSettingException;
import io.dpspectra.release.Vocabulary;
import java.util.List;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReadable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;

/**
 * Private principal components of a vector column, as a Spark ML {@link org.apache.spark.ml.Estimator}:
 * <pre>{@code
 * DpPcaModel model = new DpPca().setK(5).setEpsilon(1).setDelta(1e-6).setClipNorm(1).fit(df);
 * model.transform(df);   // adds "pcaFeatures" = Uᵀx
 * }</pre>
 *
 * <p>Algorithms ({@code setAlgorithm}): every private algorithm of {@code dpspectra fit}, by the same name and
 * with the defaults of its options, from core's one table of names ({@link Algorithms}; list them with
 * {@code dpspectra fit --help}), each run by dpspectra-core exactly as {@code dpspectra fit} runs it. For
 * example:
 * <ul>
 *   <li>{@code analyze-gauss} (default): DP-Gauss-1 (Dwork, Talwar, Thakurta &amp; Zhang, STOC 2014, Alg. 1),
 *       Gaussian noise on XᵀX, from one distributed XᵀX; needs delta &gt; 0; add/remove rows by default.</li>
 *   <li>{@code private-power}: the private power method (Hardt &amp; Price, NeurIPS 2014, Fig. 3) on
 *       XᵀX, each product Xᵀ(XW) one distributed pass.</li>
 *   <li>{@code k-dp-ojas} and the other streaming algorithms: the rows are streamed to the driver
 *       partition by partition with {@code toLocalIterator} (a pass each), so they do not scale out.</li>
 * </ul>
 *
 * <p>What is distributed: only the sufficient statistic (clipped XᵀX or Xᵀ(XW), see
 * {@link DistributedGram}); every noise draw happens once, on the driver, inside core's algorithm. The
 * guarantee of the release (privacy unit: one row with L2 norm ≤ clipNorm, the relation, the budget, the
 * sensitivity and the paper) is on {@link DpPcaModel#release()}. For the same rows in one partition and
 * the same seed, the release equals core's bit for bit; across P partitions XᵀX is summed in a fixed
 * order, so the release is reproducible and differs from a single-process run only by floating-point
 * rounding of the sum.
 */
public final class DpPca extends DpEstimator<DpPcaModel, DpPca> {
    private static final long serialVersionUID = 1L;
    static final List<String> ALGORITHMS = Algorithms.privatePcaNames();

    public DpPca() {
        this(newUid("dpPca"));
    }

    public DpPca(String uid) {
        super(uid, ALGORITHMS, "analyze-gauss", "number of principal components k (1 <= k <= d)");
    }

    @Override
    protected DpPca self() {
        return this;
    }

    @Override
    public DpPcaModel fit(Dataset<?> data) {
        transformSchema(data.schema(), true);
        if (!isDefined(k())) {
            throw new IllegalArgumentException("DpPca needs the number of components: call setK(k) with 1 <= k <= d");
        }
        PrivacyParams budget = budget();
        PrivateSubspace release = fitCore(getAlgorithm(), componentsOr(1), budget, neighbouringOrNull(),
                statistic(data).statistic(), bound(), randomSource());
        DpPcaModel model = new DpPcaModel(uid(), release);
        model.setParent(this);
        return withParams(model);
    }

    /**
     * Runs the private algorithm {@code algorithm} of core's one table of names ({@link Algorithms}) on
     * {@code rows} (the lazy distributed statistic, which serves each algorithm the shape it reads), with the
     * defaults of its options: translation only, no algorithm logic.
     */
    static PrivateSubspace fitCore(String algorithm, int k, PrivacyParams budget, Neighbouring neighbouring,
                                   RowSource rows, double bound, RandomSource random) {
        PcaAlgorithm alg = Algorithms.pca(algorithm, Vocabulary.JAVA);
        if (!alg.isPrivate()) {
            throw new ReleaseSettingException("algorithm " + alg.name() + " is not differentially private",
                    "choose one of: " + String.join(", ", ALGORITHMS));
        }
        PcaOptions options = PcaOptions.defaults();
        alg.check(options, Vocabulary.JAVA);
        alg.checkRelation(neighbouring, options, Vocabulary.JAVA);
        // clipping the statistic's bounded rows again is the identity (core passes the statistic through)
        var bounded = Clipping.l2(bound).clip(rows);
        return alg.fit(new PcaAlgorithm.Input(bounded, bounded.knownSize()::getAsLong, k, budget, neighbouring, random,
                w -> LOG.warn(w), null), options, Vocabulary.JAVA);
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DpPca.class);

    @Override
    public DpPca copy(ParamMap extra) {
        return defaultCopy(extra);
    }

    public static MLReader<DpPca> read() {
        return new DefaultParamsReadable<DpPca>() { }.read();
    }

    public static DpPca load(String path) {
        return read().load(path);
    }
}
