package io.dpspectra.experiments.localdp;

import io.dpspectra.experiments.Datasets;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.Orthonormal;
import io.dpspectra.linalg.SymmetricEigen;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * Wang &amp; Xu's real data sets of Tables 1–2 that are available offline, with their preprocessing, and
 * the non-private row-sparse reference subspace.
 *
 * <p>Preprocessing (the paper: "orthogonalize each row to 1", read as unit-norm rows, spec A-W7): the label
 * (last CSV column) is dropped and every row is scaled to unit L2 norm; no centring (the paper's PCA is
 * uncentred).
 *
 * <p>Reference [deviation]: the paper takes the best of 50 runs of Wang, Lu &amp; Liu (2014) with sparsity s.
 * We use a deterministic row-sparse orthogonal iteration from the top-k eigenvectors of the non-private
 * S: U ← orth(T_s(S U)), T_s keeping the s rows of largest norm, 200 steps. Like the paper's reference it is
 * a k-dimensional subspace supported on s rows.
 *
 * <p>The folder is {@link Datasets#root()}.
 */
final class RealData {
    /** Run in the full reproduction, in the paper's table order. */
    static final List<String> RUNNABLE = List.of("leukemia", "colon", "isolet5");

    private RealData() {
    }

    static Optional<Matrix> load(String name) throws IOException {
        Path f = switch (name) {
            case "isolet5" -> Datasets.root().resolve("isolet5/isolet5.csv.gz");
            case "colon" -> Datasets.root().resolve("colon/colon.csv");
            case "leukemia" -> Datasets.root().resolve("leukemia/ALLAML.csv.gz");
            default -> throw new IllegalArgumentException("unknown data set " + name);
        };
        if (!Files.isReadable(f)) {
            return Optional.empty();
        }
        List<double[]> rows = new ArrayList<>();
        try (InputStream raw = Files.newInputStream(f);
             InputStream in = f.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            r.readLine(); // header
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                String[] cells = line.split(",");
                double[] x = new double[cells.length - 1]; // the label is the last column
                double norm = 0;
                for (int j = 0; j < x.length; j++) {
                    x[j] = Double.parseDouble(cells[j]);
                    norm += x[j] * x[j];
                }
                norm = Math.sqrt(norm);
                for (int j = 0; j < x.length && norm > 0; j++) {
                    x[j] /= norm;
                }
                rows.add(x);
            }
        }
        return Optional.of(Matrix.fromRows(rows.toArray(new double[0][])));
    }

    /** The first {@code cols} columns, rows renormalised (quick runs only). */
    static Matrix leadingColumns(Matrix x, int cols) {
        double[][] r = new double[x.rows()][cols];
        for (int i = 0; i < x.rows(); i++) {
            double norm = 0;
            for (int j = 0; j < cols; j++) {
                r[i][j] = x.get(i, j);
                norm += r[i][j] * r[i][j];
            }
            norm = Math.sqrt(norm);
            for (int j = 0; j < cols && norm > 0; j++) {
                r[i][j] /= norm;
            }
        }
        return Matrix.fromRows(r);
    }

    /**
     * A k-dimensional subspace on s rows: row-truncated orthogonal iteration on S = XᵀX/n from its top-k
     * eigenvectors. S is applied as Xᵀ(X U)/n and its top-k eigenvectors come from the n × n Gram XXᵀ/n
     * (v = Xᵀu/√(nγ)), so the cost is O(npk) per step whatever p is: the same subspace as iterating on S.
     */
    static Matrix rowSparsePca(Matrix x, int k, int sparsity) {
        int n = x.rows();
        int p = x.cols();
        Matrix u = topEigenvectors(x, k);
        for (int it = 0; it < 200; it++) {
            Matrix m = x.transposeTimes(x.times(u)).scaled(1.0 / n);
            double[] norms = new double[p];
            Integer[] order = new Integer[p];
            for (int i = 0; i < p; i++) {
                order[i] = i;
                for (int j = 0; j < k; j++) {
                    norms[i] += m.get(i, j) * m.get(i, j);
                }
            }
            java.util.Arrays.sort(order, (a, b) -> Double.compare(norms[b], norms[a]));
            for (int r = sparsity; r < p; r++) {
                for (int j = 0; j < k; j++) {
                    m.set(order[r], j, 0);
                }
            }
            u = Orthonormal.qr(m);
        }
        return u;
    }

    /** The top-k eigenvectors of XᵀX/n, through the smaller of the p × p and n × n problems. */
    static Matrix topEigenvectors(Matrix x, int k) {
        int n = x.rows();
        if (n >= x.cols() || k > n) {
            Matrix cov = x.transposeTimes(x).scaled(1.0 / n);
            cov.symmetrizeInPlace();
            return SymmetricEigen.top(cov, k).vectors();
        }
        Matrix gram = x.times(x.transpose()).scaled(1.0 / n);
        gram.symmetrizeInPlace();
        SymmetricEigen e = SymmetricEigen.top(gram, k);
        Matrix v = x.transposeTimes(e.vectors());
        for (int j = 0; j < k; j++) {
            double scale = 1 / Math.sqrt(Math.max(n * e.values()[j], Double.MIN_NORMAL));
            for (int i = 0; i < v.rows(); i++) {
                v.set(i, j, v.get(i, j) * scale);
            }
        }
        return Orthonormal.qr(v);
    }
}
