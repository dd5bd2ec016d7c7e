package io.dpspectra.experiments.robustpca;

import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import io.dpspectra.robust.Batch;
import io.dpspectra.robust.GrassmannDescent;
import io.dpspectra.robust.NoiseCalibration;
import io.dpspectra.robust.Reaper;
import java.util.ArrayList;
import java.util.List;

/** The methods of the robust-PCA paper's experiments, run on in-memory unit rows with an error trace. */
enum Methods {
    DP_GGD("dp-GGD"),
    DP_SGGD("dp-SGGD"),
    DP_GD_REAP("dp-GD-REAP"),
    DP_SGD_REAP("dp-SGD-REAP"),
    DP_MD_REAP("dp-MD-REAP"),
    DP_SMD_REAP("dp-SMD-REAP"),
    /** dp-SGGD with the paper's printed Theorem-6 variance (c₂ = 1, with replacement): NOT private. */
    DP_SGGD_PAPER("dp-SGGD paper-literal (c2=1, not private)"),
    /** dp-GGD with the paper's printed Theorem-6 variance (c = 1): NOT private. */
    DP_GGD_PAPER("dp-GGD paper-literal (c=1, not private)");

    static final double TOLERANCE = 1e-2;

    final String label;

    Methods(String label) {
        this.label = label;
    }

    /** The method whose label (as written in the CSVs) is {@code label}. */
    static Methods byLabel(String label) {
        for (Methods m : values()) {
            if (m.label.equals(label)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown method '" + label + "' in a result CSV");
    }

    boolean isReaper() {
        return name().contains("REAP");
    }

    /**
     * One run's trace: error d² = Σθ² (the paper's §5.1 "error") of the iterate (GGD) or of the average
     * iterate's top-r eigenspace (REAPER) at the recorded iterations, with the run's wall time (recording
     * excluded), the final error and the time at which the error first reached {@link #TOLERANCE} (NaN if never).
     */
    record Trace(int[] iterations, double[] error, double[] seconds, double finalError, double timeToTolerance,
            Matrix basis) {
    }

    /**
     * Runs this method for T iterations on {@code rows} with budget (ε, δ); {@code batch} null for the
     * paper's default; records every {@code every} iterations.
     */
    Trace run(double[][] rows, Matrix truth, int r, PrivacyParams budget, int t, Integer batch, long seed, int every) {
        List<Integer> its = new ArrayList<>();
        List<Double> errs = new ArrayList<>();
        List<Double> secs = new ArrayList<>();
        long[] excluded = {0};
        long start = System.nanoTime();
        double[] ttt = {Double.NaN};
        RandomSource random = RandomSource.seededForReproducibility(seed);
        PrivateSubspace fit;
        if (isReaper()) {
            // the committed runs used the zCDP / Renyi calibrations; the library's default is now the tighter PLD one
            Reaper.Builder b = switch (this) {
                case DP_GD_REAP -> Reaper.dpGdReap().calibration(NoiseCalibration.ZCDP);
                case DP_SGD_REAP -> Reaper.dpSgdReap().calibration(NoiseCalibration.RDP_POISSON);
                case DP_MD_REAP -> Reaper.dpMdReap().calibration(NoiseCalibration.ZCDP);
                default -> Reaper.dpSmdReap().calibration(NoiseCalibration.RDP_POISSON);
            };
            b.components(r).iterations(t).randomSource(random);
            if (batch != null) {
                b.batchSize(batch);
            }
            b.listener((k, p, avg) -> {
                long t0 = System.nanoTime();
                if (k % every == 0 || k == t) {
                    record(k, SymmetricEigen.top(avg, r).vectors(), truth, t0 - start - excluded[0], its, errs, secs, ttt);
                }
                excluded[0] += System.nanoTime() - t0;
            });
            fit = b.build().fit(rows, budget);
        } else {
            GrassmannDescent.Builder b = switch (this) {
                case DP_GGD -> GrassmannDescent.dpGgd().calibration(NoiseCalibration.ZCDP);
                case DP_SGGD -> GrassmannDescent.dpSggd().calibration(NoiseCalibration.RDP_POISSON);
                case DP_GGD_PAPER -> GrassmannDescent.ggd().calibration(NoiseCalibration.PAPER_LITERAL).paperConstant(1)
                        .init(GrassmannDescent.Init.ANALYZE_GAUSS);
                default -> GrassmannDescent.sggd().batch(Batch.WITH_REPLACEMENT)
                        .calibration(NoiseCalibration.PAPER_LITERAL).paperConstant(1)
                        .init(GrassmannDescent.Init.ANALYZE_GAUSS);
            };
            if (rows[0].length > GrassmannDescent.DENSE_INIT_MAX_DIMENSION && (this == DP_GGD_PAPER || this == DP_SGGD_PAPER)) {
                b.init(GrassmannDescent.Init.PRIVATE_POWER_METHOD);
            }
            b.components(r).iterations(t).randomSource(random);
            if (batch != null) {
                b.batchSize(batch);
            }
            b.listener((k, v) -> {
                long t0 = System.nanoTime();
                if (k % every == 0 || k == t) {
                    record(k, v, truth, t0 - start - excluded[0], its, errs, secs, ttt);
                }
                excluded[0] += System.nanoTime() - t0;
            });
            fit = b.build().fit(rows, budget);
        }
        int m = its.size();
        int[] ia = new int[m];
        double[] ea = new double[m];
        double[] sa = new double[m];
        for (int i = 0; i < m; i++) {
            ia[i] = its.get(i);
            ea[i] = errs.get(i);
            sa[i] = secs.get(i);
        }
        double fin = truth == null ? Double.NaN : error(fit.components(), truth);
        return new Trace(ia, ea, sa, fin, ttt[0], fit.components());
    }

    private static void record(int k, Matrix v, Matrix truth, long nanos, List<Integer> its, List<Double> errs,
                               List<Double> secs, double[] ttt) {
        if (truth == null) {
            return;
        }
        double e = error(v, truth);
        its.add(k);
        errs.add(e);
        secs.add(nanos / 1e9);
        if (Double.isNaN(ttt[0]) && e <= TOLERANCE) {
            ttt[0] = nanos / 1e9;
        }
    }

    /** d²(Sp(V), Sp(V*)) = Σ θ_j², floored at 1e-30 so that its log10 is finite. */
    static double error(Matrix v, Matrix truth) {
        double s = 0;
        for (double th : SubspaceMetrics.principalAngles(v, truth)) {
            s += th * th;
        }
        return Math.max(s, 1e-30);
    }
}
