package io.dpspectra.spark;

import io.dpspectra.covariance.CovarianceEstimator;
import io.dpspectra.release.Algorithms;
import io.dpspectra.release.CovarianceAlgorithm;
import io.dpspectra.release.Vocabulary;
import io.dpspectra.result.PrivateCovariance;
import java.util.List;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReadable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;

/**
 * A private release of the second-moment matrix XᵀX of a vector column, as a Spark ML
 * {@link org.apache.spark.ml.Estimator}; the model's {@code transform} projects onto the top-k released
 * eigenvectors (k defaults to d).
 *
 * <p>Algorithms ({@code setAlgorithm}): {@code dpspectra covariance}'s mechanisms, from the one table of
 * names ({@link Algorithms}), each run by dpspectra-core exactly as {@code dpspectra covariance} runs it, from
 * the distributed clipped XᵀX ({@link SparkStatistics}); all noise is drawn once, on the driver:
 * <ul>
 *   <li>{@code gaussian}: the Gaussian mechanism on the upper triangle of XᵀX; needs delta &gt; 0.</li>
 *   <li>{@code laplace} (default): the Laplace mechanism on the upper triangle; pure epsilon-DP.</li>
 *   <li>{@code it-u}, {@code ad}: iterative eigenvector sampling (Amin, Dick, Kulesza, Muñoz Medina &amp;
 *       Vassilvitskii, ICML 2019, Alg. 1), uniform or adaptive budget split; pure epsilon-DP, replace rows.</li>
 *   <li>{@code kt}: Kapralov–Talwar style rank-one subtraction (same paper's baseline); pure epsilon-DP.</li>
 * </ul>
 * Privacy unit: one row with L2 norm ≤ clipNorm; replace-one by default (n public), add-remove on request
 * for gaussian and laplace. The bound may be a private quantile ({@code setClipNorm("private:0.9")}) and the
 * rows centred by a private mean ({@code setCenter("private")}), each from a share of the budget; the whole
 * guarantee is {@link DpCovarianceModel#guarantee()}.
 */
public final class DpCovariance extends DpEstimator<DpCovarianceModel, DpCovariance> {
    private static final long serialVersionUID = 1L;
    static final List<String> ALGORITHMS = Algorithms.covarianceNames();

    /** An estimator with a random uid. */
    public DpCovariance() {
        this(newUid("dpCovariance"));
    }

    /**
     * @param uid the uid
     */
    public DpCovariance(String uid) {
        super(uid, ALGORITHMS, "laplace", "number of released eigenvectors the model's transform projects onto "
                + "(1 <= k <= d; default d)");
        setDefault(outputCol(), "projected");
    }

    @Override
    protected DpCovariance self() {
        return this;
    }

    @Override
    public DpCovarianceModel fit(Dataset<?> data) {
        transformSchema(data.schema(), true);
        CovarianceAlgorithm alg = Algorithms.covariance(getAlgorithm(), Vocabulary.JAVA);
        checkUnit(alg.name(), Algorithms.PERSON_LEVEL_COVARIANCE, Algorithms.FROBENIUS_COVARIANCE, data);
        Settings s = settings(alg.needsDelta(), alg.noise(), data,
                relation -> alg.checkRelation(relation, Vocabulary.JAVA));
        CovarianceEstimator estimator = alg.estimator(s.neighbouring(), s.random(), false);
        DpCovarianceModel model = fit(data, s, "DpCovariance " + alg.name() + " on " + getInputCol(),
                d -> {
                    checkK(d);
                    checkGram("a covariance release (" + alg.name() + ")", false, data, d);
                }, f -> {
            int k = componentsOr(f.source().dimension());
            PrivateCovariance release = estimator.release(f.prepared().rows(), s.plan().estimator());
            DpCovarianceModel m = new DpCovarianceModel(uid(), release, new DpModel.Provenance(compose(f,
                    release.guarantee(), s.plan()), f.prepared().preprocessing(), f.notes()));
            m.set(m.k(), k);
            return m;
        });
        model.setParent(this);
        return withParams(model);
    }

    /** k ≤ d, checked before any noise is drawn (d is public: the column's width). */
    private void checkK(int d) {
        if (componentsOr(d) > d) {
            throw new IllegalArgumentException("k = " + componentsOr(d) + " exceeds the dimension d = " + d
                    + "; call setK with 1 <= k <= d");
        }
    }

    @Override
    public DpCovariance copy(ParamMap extra) {
        return sharingSpend(defaultCopy(extra));
    }

    /** @return the reader of saved estimators */
    public static MLReader<DpCovariance> read() {
        return new DefaultParamsReadable<DpCovariance>() { }.read();
    }

    /**
     * @param path where {@code write().save(path)} saved an estimator
     * @return the estimator (its params; a loaded estimator has not fitted yet)
     */
    public static DpCovariance load(String path) {
        return read().load(path);
    }
}
