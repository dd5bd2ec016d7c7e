/**
 * The linear algebra every algorithm goes through: a column-major {@link io.dpspectra.linalg.Matrix}, blocked
 * XᵀX accumulation, symmetric eigendecomposition, thin QR and SVD, implicit projectors and sparse symmetric
 * matrices. BLAS and LAPACK run natively (OpenBLAS) when the machine has them and in pure Java otherwise
 * ({@link io.dpspectra.linalg.Backend}); no algorithm calls netlib directly.
 */
package io.dpspectra.linalg;
