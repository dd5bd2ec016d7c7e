package io.dpspectra.spark;

import io.dpspectra.Diagnostics;
import io.dpspectra.covariance.PrivateCovariance;
import io.dpspectra.linalg.Matrix;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWriter;

/**
 * A private XᵀX released by {@link DpCovariance}: {@code transform} projects each input vector onto the
 * top-k released eigenvectors. The release (matrix, eigenpairs, guarantee) is {@link #release()}.
 */
public final class DpCovarianceModel extends DpModel<DpCovarianceModel> {
    private static final long serialVersionUID = 1L;
    private final transient PrivateCovariance release;
    private final IntParam k;

    DpCovarianceModel(String uid, PrivateCovariance release) {
        super(uid);
        this.release = release;
        k = new IntParam(this, "k", "number of released eigenvectors to project onto", ParamValidators.gtEq(1));
        setDefault(outputCol(), "projected");
    }

    public IntParam k() {
        return k;
    }

    public DpCovarianceModel setK(int value) {
        set(k, value);
        return this;
    }

    /** The core release: matrix, eigenpairs, guarantee, diagnostics. */
    public PrivateCovariance release() {
        return release;
    }

    @Override
    Matrix basis() {
        int kk = isDefined(k) ? (Integer) getOrDefault(k) : release.eigenvectors().cols();
        return release.eigenvectors().leadingColumns(kk);
    }

    @Override
    public DpCovarianceModel copy(ParamMap extra) {
        DpCovarianceModel copy = new DpCovarianceModel(uid(), release);
        copy.setParent(parent());
        return copyValues(copy, extra);
    }

    @Override
    public MLWriter write() {
        return ReleaseStore.writer(this, new ReleaseStore.Release(release.algorithm(), release.matrix(),
                release.eigenvalues(), release.eigenvectors(), release.guarantee()));
    }

    public static MLReader<DpCovarianceModel> read() {
        return new MLReader<>() {
            @Override
            public DpCovarianceModel load(String path) {
                return ReleaseStore.load(sparkSession(), path, DpCovarianceModel.class.getName(), (uid, r) ->
                        new DpCovarianceModel(uid, r.vectors().cols() == r.matrix().rows()
                                ? new PrivateCovariance(r.algorithm(), r.values(), r.vectors(), r.matrix(), r.guarantee(),
                                        Diagnostics.empty())
                                : new PrivateCovariance(r.algorithm(), r.matrix(), r.guarantee(), Diagnostics.empty())));
            }
        };
    }

    public static DpCovarianceModel load(String path) {
        return read().load(path);
    }
}
