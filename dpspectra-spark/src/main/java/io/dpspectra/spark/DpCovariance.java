package io.dpspectra.spark;

import io.dpspectra.covariance.CovarianceEstimator;
import io.dpspectra.covariance.PrivateCovariance;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.release.Algorithms;
import io.dpspectra.release.CovarianceAlgorithm;
import io.dpspectra.release.Vocabulary;
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
 * the distributed clipped XᵀX ({@link DistributedGram}); all noise is drawn once, on the driver:
 * <ul>
 *   <li>{@code gaussian}: the Gaussian mechanism on the upper triangle of XᵀX; needs delta &gt; 0.</li>
 *   <li>{@code laplace} (default): the Laplace mechanism on the upper triangle; pure epsilon-DP.</li>
 *   <li>{@code it-u}, {@code ad}: iterative eigenvector sampling (Amin, Dick, Kulesza, Muñoz Medina &amp;
 *       Vassilvitskii, ICML 2019, Alg. 1), uniform or adaptive budget split; pure epsilon-DP, replace rows.</li>
 *   <li>{@code kt}: Kapralov–Talwar style rank-one subtraction (same paper's baseline); pure epsilon-DP.</li>
 * </ul>
 * Privacy unit: one row with L2 norm ≤ clipNorm; replace-one by default (n public), add-remove on request
 * for gaussian and laplace. The guarantee is on {@link DpCovarianceModel#release()}.
 */
public final class DpCovariance extends DpEstimator<DpCovarianceModel, DpCovariance> {
    private static final long serialVersionUID = 1L;
    static final List<String> ALGORITHMS = Algorithms.covarianceNames();

    public DpCovariance() {
        this(newUid("dpCovariance"));
    }

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
        var budget = budget();
        DistributedGram statistic = statistic(data);
        PrivateCovariance release = releaseCore(getAlgorithm(), neighbouringOrNull(), randomSource())
                .release(statistic.statistic(), budget);
        int k = componentsOr(statistic.dimension());
        if (k > statistic.dimension()) {
            throw new IllegalArgumentException("k = " + k + " exceeds the dimension d = " + statistic.dimension()
                    + "; call setK with 1 <= k <= d");
        }
        DpCovarianceModel model = new DpCovarianceModel(uid(), release);
        model.setParent(this);
        model.set(model.k(), k);
        return withParams(model);
    }

    /** The core mechanism {@code algorithm} from the one table of names ({@link Algorithms}): translation only. */
    static CovarianceEstimator releaseCore(String algorithm, Neighbouring neighbouring, RandomSource random) {
        CovarianceAlgorithm alg = Algorithms.covariance(algorithm, Vocabulary.JAVA);
        alg.checkRelation(neighbouring, Vocabulary.JAVA);
        return alg.estimator(neighbouring, random, false);
    }

    @Override
    public DpCovariance copy(ParamMap extra) {
        return defaultCopy(extra);
    }

    public static MLReader<DpCovariance> read() {
        return new DefaultParamsReadable<DpCovariance>() { }.read();
    }

    public static DpCovariance load(String path) {
        return read().load(path);
    }
}
