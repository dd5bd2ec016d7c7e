package io.dpspectra.spark;

import io.dpspectra.Diagnostics;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.pca.PrivateSubspace;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.MLReadable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWriter;

/**
 * Private principal components fitted by {@link DpPca}: {@code transform} adds Uᵀx (k values) for each
 * input vector x. The release (components, explained variance where the algorithm releases it, and the
 * privacy guarantee) is {@link #release()}; its diagnostics (rows, clipped rows, σ) are for the data's
 * curator and are not saved with the model.
 */
public final class DpPcaModel extends DpModel<DpPcaModel> {
    private static final long serialVersionUID = 1L;
    private final transient PrivateSubspace release;

    DpPcaModel(String uid, PrivateSubspace release) {
        super(uid);
        this.release = release;
    }

    /** The core release: components (d × k), explained variance, guarantee, diagnostics. */
    public PrivateSubspace release() {
        return release;
    }

    /** The d × k components (a copy). */
    public Matrix components() {
        return release.components();
    }

    @Override
    Matrix basis() {
        return release.components();
    }

    @Override
    public DpPcaModel copy(ParamMap extra) {
        DpPcaModel copy = new DpPcaModel(uid(), release);
        copy.setParent(parent());
        return copyValues(copy, extra);
    }

    @Override
    public MLWriter write() {
        return ReleaseStore.writer(this, new ReleaseStore.Release(release.algorithm(), release.components(),
                release.explainedVariance().orElse(null), null, release.guarantee().orElseThrow()));
    }

    public static MLReader<DpPcaModel> read() {
        return new MLReader<>() {
            @Override
            public DpPcaModel load(String path) {
                return ReleaseStore.load(sparkSession(), path, DpPcaModel.class.getName(), (uid, r) ->
                        new DpPcaModel(uid, new PrivateSubspace(r.algorithm(), r.matrix(), r.values(), r.guarantee(),
                                Diagnostics.empty())));
            }
        };
    }

    public static DpPcaModel load(String path) {
        return read().load(path);
    }
}
