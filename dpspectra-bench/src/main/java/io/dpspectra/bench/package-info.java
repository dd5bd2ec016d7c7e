/**
 * The benchmarks of dpspectra: each class times one part of the library against its physical floor (a plain
 * read of the same bytes, one BLAS product, one eigendecomposition) and returns the numbers, ordered as they are
 * reported. The data they time are benchmark data from seeded generators, never a privacy mechanism. The
 * {@code dpspectra bench} command reads the options and prints these results (a table, or JSON with
 * {@code --json}); {@code docs/benchmarks/} records what they measured.
 */
package io.dpspectra.bench;
