package io.dpspectra.linalg;

import java.util.stream.IntStream;

/**
 * Computes C += XᵀX (lower triangle, column-major d × d) for a row-major block X of b × d, in pure
 * Java, for the pure-Java backend (netlib's Java dsyrk is unblocked and slow).
 *
 * <p>The lower triangle is cut into 4 × 4 tiles; each tile is computed by a register-tiled micro
 * kernel that keeps its 16 partial sums in locals while streaming over a panel of rows (both
 * operands of a tile are 4 contiguous doubles of the same row). Rows are processed in panels of
 * {@link #PANEL_ROWS} so that a panel stays in cache while all tiles use it; tile rows (i-tiles) are
 * distributed over the ForkJoin common pool.
 *
 * <p>Cost: b·d²/2 multiply-adds; no allocation beyond the stream machinery.
 */
final class GramKernel {
    static final int PANEL_ROWS = 128;
    private static final int T = 4;

    private GramKernel() {
    }

    /** C(lower, column-major, ld d) += Xᵀ X for X row-major count × d. Modified: lower. */
    static void syrkLower(double[] x, int count, int d, double[] lower) {
        syrkLower(x, 0, count, d, lower);
    }

    /** As {@link #syrkLower(double[], int, int, double[])} for the rows [from, from + count) of x. */
    static void syrkLower(double[] x, int from, int count, int d, double[] lower) {
        if (count <= 0) {
            return;
        }
        int tiles = (d + T - 1) / T;
        boolean parallel = (long) count * d * d > 2_000_000L;
        int end = from + count;
        for (int r0 = from; r0 < end; r0 += PANEL_ROWS) {
            final int rs = r0;
            final int re = Math.min(end, r0 + PANEL_ROWS);
            IntStream it = IntStream.range(0, tiles);
            if (parallel) {
                it = it.parallel();
            }
            // i-tile ti has ti+1 tiles; interleave from both ends for balance.
            it.map(k -> (k % 2 == 0) ? tiles - 1 - k / 2 : k / 2).forEach(ti -> tileRow(x, rs, re, d, ti, lower));
        }
    }

    private static void tileRow(double[] x, int rs, int re, int d, int ti, double[] c) {
        int i0 = ti * T;
        for (int j0 = 0; j0 <= i0; j0 += T) {
            if (i0 + T <= d) {
                micro(x, rs, re, d, i0, j0, c);
            } else {
                edge(x, rs, re, d, i0, j0, c);
            }
        }
    }

    private static void micro(double[] x, int rs, int re, int d, int i0, int j0, double[] c) {
        double c00 = 0, c01 = 0, c02 = 0, c03 = 0;
        double c10 = 0, c11 = 0, c12 = 0, c13 = 0;
        double c20 = 0, c21 = 0, c22 = 0, c23 = 0;
        double c30 = 0, c31 = 0, c32 = 0, c33 = 0;
        for (int r = rs, base = rs * d; r < re; r++, base += d) {
            double a0 = x[base + i0];
            double a1 = x[base + i0 + 1];
            double a2 = x[base + i0 + 2];
            double a3 = x[base + i0 + 3];
            double b0 = x[base + j0];
            double b1 = x[base + j0 + 1];
            double b2 = x[base + j0 + 2];
            double b3 = x[base + j0 + 3];
            c00 += a0 * b0; c01 += a0 * b1; c02 += a0 * b2; c03 += a0 * b3;
            c10 += a1 * b0; c11 += a1 * b1; c12 += a1 * b2; c13 += a1 * b3;
            c20 += a2 * b0; c21 += a2 * b1; c22 += a2 * b2; c23 += a2 * b3;
            c30 += a3 * b0; c31 += a3 * b1; c32 += a3 * b2; c33 += a3 * b3;
        }
        double[] acc = {c00, c01, c02, c03, c10, c11, c12, c13, c20, c21, c22, c23, c30, c31, c32, c33};
        for (int a = 0; a < T; a++) {
            for (int b = 0; b < T; b++) {
                int i = i0 + a;
                int j = j0 + b;
                if (i >= j) {
                    c[i + j * d] += acc[a * T + b];
                }
            }
        }
    }

    private static void edge(double[] x, int rs, int re, int d, int i0, int j0, double[] c) {
        int iEnd = Math.min(d, i0 + T);
        int jEnd = Math.min(d, j0 + T);
        for (int i = i0; i < iEnd; i++) {
            for (int j = j0; j < jEnd && j <= i; j++) {
                double s = 0;
                for (int r = rs, base = rs * d; r < re; r++, base += d) {
                    s += x[base + i] * x[base + j];
                }
                c[i + j * d] += s;
            }
        }
    }
}
