package io.dpspectra.spark;

import io.dpspectra.Diagnostics;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.result.PrivateCovariance;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWriter;

/**
 * A private XᵀX released by {@link DpCovariance}: {@code transform} projects each input vector onto the
 * top-k released eigenvectors (of x − m when the fit subtracted a privately released mean m). The release
 * (matrix, eigenpairs, the estimator's guarantee) is {@link #release()}; the whole release's guarantee is
 * {@link #guarantee()}.
 */
public final class DpCovarianceModel extends DpModel<DpCovarianceModel> {
    private static final long serialVersionUID = 1L;
    private final transient PrivateCovariance release;
    private final IntParam k;

    DpCovarianceModel(String uid, PrivateCovariance release, Provenance provenance) {
        super(uid, provenance);
        this.release = release;
        k = new IntParam(this, "k", "number of released eigenvectors to project onto", ParamValidators.gtEq(1));
        setDefault(outputCol(), "projected");
    }

    /** @return the param */
    public IntParam k() {
        return k;
    }

    /**
     * @param value the number of eigenvectors to project onto
     * @return this
     */
    public DpCovarianceModel setK(int value) {
        set(k, value);
        return this;
    }

    /**
     * The core release of the estimator: matrix, eigenpairs, the estimator's guarantee, diagnostics.
     *
     * @return the release
     */
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
        DpCovarianceModel copy = new DpCovarianceModel(uid(), release, provenance());
        copy.setParent(parent());
        return copyValues(copy, extra);
    }

    @Override
    public MLWriter write() {
        return ReleaseStore.writer(this, new ReleaseStore.Release(release.algorithm(), release.matrix(),
                release.eigenvalues(), release.eigenvectors(), provenance()));
    }

    /** @return the reader of saved models */
    public static MLReader<DpCovarianceModel> read() {
        return new MLReader<>() {
            @Override
            public DpCovarianceModel load(String path) {
                return ReleaseStore.load(sparkSession(), path, DpCovarianceModel.class.getName(), (uid, r) ->
                        new DpCovarianceModel(uid, r.vectors().cols() == r.matrix().rows()
                                ? new PrivateCovariance(r.algorithm(), r.values(), r.vectors(), r.matrix(),
                                        r.provenance().guarantee().estimator(), Diagnostics.empty())
                                : new PrivateCovariance(r.algorithm(), r.matrix(), r.provenance().guarantee().estimator(),
                                        Diagnostics.empty()), r.provenance()));
            }
        };
    }

    /**
     * @param path where {@code write().save(path)} saved a model
     * @return the model
     */
    public static DpCovarianceModel load(String path) {
        return read().load(path);
    }
}
