package io.dpspectra.synthetic;

import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;

/**
 * A generated data set with its ground truth.
 *
 * @param rows                   n rows, generated lazily and identically on every pass (from the seed)
 * @param truthBasis             d × k orthonormal basis of the true top-k subspace
 * @param populationSecondMoment E[xxᵀ] (d × d)
 */
public record SyntheticDataset(RowSource rows, Matrix truthBasis, Matrix populationSecondMoment) {
}
