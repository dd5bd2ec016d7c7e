package io.dpspectra.spark;

import io.dpspectra.Diagnostics;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.result.PrivateSubspace;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.MLReadable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWriter;

/**
 * Private principal components fitted by {@link DpPca}: {@code transform} adds Uᵀx (k values) for each
 * input vector x (Uᵀ(x − m) when the fit subtracted a privately released mean m). The release (components,
 * explained variance where the algorithm releases it, and the estimator's own guarantee) is
 * {@link #release()}; the whole release's guarantee, with the private bound and mean when the fit made them,
 * is {@link #guarantee()}. The diagnostics (rows, clipped rows, σ) are for the data's curator and are not
 * saved with the model.
 */
public final class DpPcaModel extends DpModel<DpPcaModel> {
    private static final long serialVersionUID = 1L;
    private final transient PrivateSubspace release;

    DpPcaModel(String uid, PrivateSubspace release, Provenance provenance) {
        super(uid, provenance);
        this.release = release;
    }

    /**
     * The core release of the estimator: components (d × k), explained variance, the estimator's guarantee,
     * diagnostics.
     *
     * @return the release
     */
    public PrivateSubspace release() {
        return release;
    }

    /**
     * The d × k components (a copy).
     *
     * @return the components
     */
    public Matrix components() {
        return release.components();
    }

    @Override
    Matrix basis() {
        return release.components();
    }

    @Override
    public DpPcaModel copy(ParamMap extra) {
        DpPcaModel copy = new DpPcaModel(uid(), release, provenance());
        copy.setParent(parent());
        return copyValues(copy, extra);
    }

    @Override
    public MLWriter write() {
        return ReleaseStore.writer(this, new ReleaseStore.Release(release.algorithm(), release.components(),
                release.explainedVariance().orElse(null), null, provenance()));
    }

    /** @return the reader of saved models */
    public static MLReader<DpPcaModel> read() {
        return new MLReader<>() {
            @Override
            public DpPcaModel load(String path) {
                return ReleaseStore.load(sparkSession(), path, DpPcaModel.class.getName(), (uid, r) ->
                        new DpPcaModel(uid, new PrivateSubspace(r.algorithm(), r.matrix(), r.values(),
                                r.provenance().guarantee().estimator(), Diagnostics.empty()), r.provenance()));
            }
        };
    }

    /**
     * @param path where {@code write().save(path)} saved a model
     * @return the model
     */
    public static DpPcaModel load(String path) {
        return read().load(path);
    }
}
