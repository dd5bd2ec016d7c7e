package io.dpspectra.robust;

import io.dpspectra.linalg.BlockGramProduct;
import io.dpspectra.linalg.Gram;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.noise.RandomSource;

/**
 * Non-private PCA start for the Grassmannian descents: the top-r eigenvectors of XᵀX, exactly (through
 * the D × D matrix, accumulated by the shared {@link Gram} kernel) when
 * D ≤ {@value GrassmannDescent#DENSE_INIT_MAX_DIMENSION}, otherwise by block subspace iteration Y ← Xᵀ(XV)
 * with {@link BlockGramProduct}, which never forms D × D.
 *
 * <p>Reference: papers/private-robust-pca-grassmannian.txt §3.1 (Theorem 1, PCA initialisation).
 *
 * <p>Cost: O(N D² + D³) exact; O(I·N·D·r) for I = {@value #SUBSPACE_ITERATIONS} block iterations.
 */
public final class Pca {
    static final int SUBSPACE_ITERATIONS = 200;

    private Pca() {
    }

    /**
     * The top-r eigenvectors of XᵀX of the rows (not private).
     *
     * @param x the rows (N × D). Not modified.
     * @param r the number of eigenvectors, 1 ≤ r ≤ D
     * @return a new D × r matrix with orthonormal columns
     */
    public static Matrix top(double[][] x, int r) {
        int d = x[0].length;
        if (d <= GrassmannDescent.DENSE_INIT_MAX_DIMENSION) {
            Gram gram = new Gram(d);
            for (double[] row : x) {
                gram.add(row);
            }
            return SymmetricEigen.top(gram.result(), r).vectors();
        }
        // a fixed public start: the result depends on the data only
        RandomSource start = RandomSource.seededForReproducibility(0x5EEDL);
        Matrix v = new Matrix(d, r);
        for (int i = 0; i < d * r; i++) {
            v.data()[i] = start.standardNormal();
        }
        v = Orthonormal.qr(v);
        BlockGramProduct product = new BlockGramProduct(d, r);
        double[] block = new double[BlockGramProduct.defaultBlockRows(d) * d];
        for (int it = 0; it < SUBSPACE_ITERATIONS; it++) {
            v = Orthonormal.qr(gramTimes(x, v, product, block));
        }
        return v;
    }

    /**
     * XᵀX V, one pass over the rows: the rows are copied into row-major blocks of {@code block.length / d}
     * rows, each folded in by {@link BlockGramProduct} (two dgemm calls, never forming D × D).
     */
    private static Matrix gramTimes(double[][] x, Matrix v, BlockGramProduct product, double[] block) {
        int d = v.rows();
        int rowsPerBlock = block.length / d;
        Matrix y = new Matrix(d, v.cols());
        for (int start = 0; start < x.length; start += rowsPerBlock) {
            int count = Math.min(rowsPerBlock, x.length - start);
            for (int i = 0; i < count; i++) {
                System.arraycopy(x[start + i], 0, block, i * d, d);
            }
            product.accumulate(block, count, v, y);
        }
        return y;
    }
}
