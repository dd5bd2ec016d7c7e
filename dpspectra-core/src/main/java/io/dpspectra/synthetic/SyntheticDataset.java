package io.dpspectra.synthetic;

import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;

/**
 * A generated data set with its ground truth: the rows, the d × k orthonormal basis of the true top-k
 * subspace and the population second moment E[xxᵀ].
 *
 * <p>The rows of the generators in this package are produced on the fly from the seed on every pass
 * (never stored); copy them with {@code InMemoryRows.copyOf(rows)} when an in-memory matrix is wanted.
 *
 * @param rows                   n rows, generated lazily and identically on every pass (from the seed)
 * @param truthBasis             d × k orthonormal basis of the true top-k subspace
 * @param populationSecondMoment E[xxᵀ] (d × d)
 */
public record SyntheticDataset(RowSource rows, Matrix truthBasis, Matrix populationSecondMoment) {
}
