package io.dpspectra.spark;

import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.AnalyzeGauss;
import io.dpspectra.pca.GaussOutputPerturbation;
import io.dpspectra.pca.KDpOja;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.pca.PrivateSubspace;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
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
 * <p>Algorithms ({@code setAlgorithm}), each run by dpspectra-core exactly as {@code dpspectra fit} runs it:
 * <ul>
 *   <li>{@code analyze-gauss} (default): DP-Gauss-1 (Dwork, Talwar, Thakurta &amp; Zhang, STOC 2014, Alg. 1),
 *       Gaussian noise on XᵀX; needs delta &gt; 0; add/remove rows by default.</li>
 *   <li>{@code dp-gauss-2}: DP-Gauss-2 (same paper, Alg. 2), Gaussian noise on the top-k projector.</li>
 *   <li>{@code private-power}: the private power method (Hardt &amp; Price, NeurIPS 2014, Fig. 3) on
 *       XᵀX, each product Xᵀ(XW) one distributed pass; Gaussian (delta &gt; 0) or Laplace (delta = 0).</li>
 *   <li>{@code k-dp-ojas}: k-DP-Ojas (Düngler &amp; Sanyal, Cor. 4), a sequential algorithm: the rows are
 *       streamed to the driver partition by partition with {@code toLocalIterator} (k passes), so it
 *       does not scale out; replace-one rows; needs delta &gt; 0.</li>
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
    static final List<String> ALGORITHMS = List.of("analyze-gauss", "dp-gauss-2", "private-power", "k-dp-ojas");

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
                statistic(data).statistic(), randomSource());
        DpPcaModel model = new DpPcaModel(uid(), release);
        model.setParent(this);
        return withParams(model);
    }

    /**
     * Builds the core estimator for {@code algorithm} and runs it on {@code rows} (the lazy distributed
     * statistic, which serves each algorithm the shape it reads): translation only, no algorithm logic.
     */
    static PrivateSubspace fitCore(String algorithm, int k, PrivacyParams budget, Neighbouring neighbouring,
                                   RowSource rows, RandomSource random) {
        return switch (algorithm) {
            case "analyze-gauss" -> {
                AnalyzeGauss.Builder b = AnalyzeGauss.builder().components(k).randomSource(random);
                if (neighbouring != null) {
                    b.neighbouring(neighbouring);
                }
                yield b.build().fit(rows, budget);
            }
            case "dp-gauss-2" -> {
                GaussOutputPerturbation.Builder b = GaussOutputPerturbation.builder().components(k)
                        .randomSource(random);
                if (neighbouring != null) {
                    b.neighbouring(neighbouring);
                }
                yield b.build().fit(rows, budget);
            }
            case "private-power" -> {
                PrivatePowerMethod.Builder b = PrivatePowerMethod.builder().components(k)
                        .randomSource(random);
                if (neighbouring != null) {
                    b.rowNeighbouring(neighbouring);
                }
                yield b.build().fit(rows, budget);
            }
            case "k-dp-ojas" -> {
                if (neighbouring == Neighbouring.ADD_REMOVE_ROW) {
                    throw new IllegalArgumentException("k-dp-ojas is certified for replace neighbouring only; "
                            + "drop setNeighbouring or set it to replace");
                }
                yield KDpOja.builder().components(k).randomSource(random).build()
                        .fit(rows, budget);
            }
            default -> throw new IllegalArgumentException("unknown algorithm '" + algorithm + "'; choose one of "
                    + String.join(", ", ALGORITHMS));
        };
    }

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
