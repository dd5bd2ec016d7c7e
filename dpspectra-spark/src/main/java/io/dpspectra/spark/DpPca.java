package io.dpspectra.spark;

import io.dpspectra.release.Algorithms;
import io.dpspectra.release.PcaAlgorithm;
import io.dpspectra.release.PcaOptions;
import io.dpspectra.release.ReleaseSettingException;
import io.dpspectra.release.Vocabulary;
import io.dpspectra.result.PrivateSubspace;
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
 *       XᵀX, each product Xᵀ(XW) one distributed pass, d × k numbers to the driver: the algorithm for large
 *       d. The algorithms that form XᵀX are refused, before anything is spent, above d = 8000 or when their
 *       d × d matrices do not fit the driver's heap or the executors' memory.</li>
 *   <li>{@code k-dp-ojas} and the other streaming algorithms: the rows are streamed to the driver
 *       partition by partition with {@code toLocalIterator} (a pass each), so they do not scale out.</li>
 * </ul>
 *
 * <p>Preprocessing, as {@code dpspectra fit} does it: the row bound is given ({@code setClipNorm(1.0)}) or a
 * private quantile of the row norms ({@code setClipNorm("private:0.9")}), and {@code setCenter("private")}
 * subtracts a private mean; each takes its share of the budget, and the model's {@link DpPcaModel#guarantee()}
 * is their basic composition with the estimator (replace-one rows, one relation for every part).
 *
 * <p>What is distributed: only the exact statistics (the norm histogram, the bounded sum, XᵀX or Xᵀ(XW) of
 * the bounded rows, see {@link SparkStatistics}); every noise draw happens once, on the driver, inside
 * core's mechanisms. The input is read once: its rows are persisted by the first pass and read from there by
 * the others. The statistics are summed in core's canonical blocks, so the release for a seed is the same
 * bit for bit whatever the partitioning, and equals core's on the same rows.
 */
public final class DpPca extends DpEstimator<DpPcaModel, DpPca> {
    private static final long serialVersionUID = 1L;
    static final List<String> ALGORITHMS = Algorithms.privatePcaNames();

    /** An estimator with a random uid. */
    public DpPca() {
        this(newUid("dpPca"));
    }

    /**
     * @param uid the uid
     */
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
        PcaAlgorithm alg = algorithm(getAlgorithm());
        PcaOptions options = PcaOptions.defaults();
        alg.check(options, Vocabulary.JAVA);
        checkUnit(alg.name(), Algorithms.PERSON_LEVEL_PCA, Algorithms.FROBENIUS_PCA, data);
        Settings s = settings(alg.needsDelta(), alg.noise(), data,
                relation -> alg.checkRelation(relation, options, Vocabulary.JAVA));
        int k = getK();
        DpPcaModel model = fit(data, s, "DpPca " + alg.name() + " k=" + k + " on " + getInputCol(), d -> {
            if (k > d) { // d is public (the column's width), so this refusal reveals nothing of a row
                throw new IllegalArgumentException("k = " + k + " exceeds the dimension d = " + d
                        + "; call setK with 1 <= k <= d");
            }
            if (alg.formsDxD()) {
                checkGram("algorithm " + alg.name(), true, data, d);
            }
        }, f -> {
            PrivateSubspace release = alg.fit(new PcaAlgorithm.Input(f.prepared().rows(), f.prepared().rowCount(), k,
                    s.plan().estimator(), s.neighbouring(), s.random(), LOG::warn, null), options, Vocabulary.JAVA);
            return new DpPcaModel(uid(), release, new DpModel.Provenance(compose(f,
                    release.guarantee().orElseThrow(), s.plan()), f.prepared().preprocessing(), f.notes()));
        });
        model.setParent(this);
        return withParams(model);
    }

    /** The private algorithm {@code name} of core's one table of names ({@link Algorithms}). */
    static PcaAlgorithm algorithm(String name) {
        PcaAlgorithm alg = Algorithms.pca(name, Vocabulary.JAVA);
        if (!alg.isPrivate()) {
            throw new ReleaseSettingException("algorithm " + alg.name() + " is not differentially private",
                    "choose one of: " + String.join(", ", ALGORITHMS));
        }
        return alg;
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DpPca.class);

    @Override
    public DpPca copy(ParamMap extra) {
        return sharingSpend(defaultCopy(extra));
    }

    /** @return the reader of saved estimators */
    public static MLReader<DpPca> read() {
        return new DefaultParamsReadable<DpPca>() { }.read();
    }

    /**
     * @param path where {@code write().save(path)} saved an estimator
     * @return the estimator (its params; a loaded estimator has not fitted yet)
     */
    public static DpPca load(String path) {
        return read().load(path);
    }
}
