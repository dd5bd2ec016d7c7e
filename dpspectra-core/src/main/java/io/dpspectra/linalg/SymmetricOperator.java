package io.dpspectra.linalg;

import java.util.Objects;

/**
 * A symmetric d × d linear operator A that can multiply a block of p vectors, A·X (d × p), without
 * being formed: the input of the power-method family (dense, sparse {@link CsrMatrix}, or the implicit
 * XᵀX of data rows in {@code io.dpspectra.data.RowGramOperator}).
 *
 * <p>Implementations must be symmetric (the power methods of papers/noisy-power-method.txt Figs. 1–3
 * are stated for symmetric A) and must not modify their argument.
 */
public interface SymmetricOperator {

    /**
     * The dimension d.
     *
     * @return d
     */
    int dimension();

    /**
     * A·X for X of shape d × p, as a new d × p matrix. Not modified: x.
     *
     * @param x a d × p matrix
     * @return a new d × p matrix
     */
    Matrix times(Matrix x);

    /**
     * The number of stored non-zeros, which sets the cost of {@link #times} (O(nnz·p)); d² for a dense
     * operator, −1 when unknown (implicit operators).
     *
     * @return the number of non-zeros, or −1
     */
    default long nonZeros() {
        return -1;
    }

    /**
     * A short description for diagnostics and error messages.
     *
     * @return the description
     */
    default String describe() {
        return getClass().getSimpleName() + " (d = " + dimension() + ")";
    }

    /**
     * The dense symmetric matrix {@code a} as an operator (dgemm per product). {@code a} is checked to be
     * square, finite and symmetric to 1e-10 relative; it is not copied, so do not modify it afterwards.
     *
     * @param a a d × d symmetric matrix
     * @return the operator
     * @throws IllegalArgumentException when {@code a} is not square, finite and symmetric
     */
    static SymmetricOperator dense(Matrix a) {
        Objects.requireNonNull(a, "a");
        if (!a.isSquare()) {
            throw new IllegalArgumentException("a symmetric operator needs a square matrix, got " + a.rows() + " x "
                    + a.cols());
        }
        if (!a.isFinite()) {
            throw new IllegalArgumentException("matrix has a NaN or infinite entry; fix the input");
        }
        int d = a.rows();
        double tol = 1e-10 * Math.max(a.maxAbs(), Double.MIN_NORMAL);
        for (int j = 0; j < d; j++) {
            for (int i = j + 1; i < d; i++) {
                if (Math.abs(a.get(i, j) - a.get(j, i)) > tol) {
                    throw new IllegalArgumentException("matrix is not symmetric: entry (" + (i + 1) + ", " + (j + 1)
                            + ") = " + a.get(i, j) + " but (" + (j + 1) + ", " + (i + 1) + ") = " + a.get(j, i)
                            + "; the power methods need a symmetric matrix");
                }
            }
        }
        return new SymmetricOperator() {
            @Override
            public int dimension() {
                return d;
            }

            @Override
            public Matrix times(Matrix x) {
                if (x.rows() != d) {
                    throw new IllegalArgumentException("operand has " + x.rows() + " rows, expected d = " + d);
                }
                return a.times(x);
            }

            @Override
            public long nonZeros() {
                return (long) d * d;
            }

            @Override
            public String describe() {
                return "dense symmetric matrix (d = " + d + ")";
            }
        };
    }
}
