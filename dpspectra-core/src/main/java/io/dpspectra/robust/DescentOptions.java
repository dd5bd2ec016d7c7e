package io.dpspectra.robust;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import java.util.Objects;

/**
 * The options that the builders of {@link GrassmannDescent} and {@link Reaper} share: the subspace dimension,
 * iterations, first step size, batch, noise calibration, the row map and the randomness.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class DescentOptions<B extends DescentOptions<B>> {
    int r = -1;
    int iterations;
    double stepSize;
    int batchSize;
    Batch batch;
    NoiseCalibration calibration;
    double paperConstant = Double.NaN;
    double tolerance = Glad.DEFAULT_TOLERANCE;
    RowNorm rowNorm = RowNorm.SPHERE;
    RandomSource random;
    double noiseMultiplier = 1.0;

    DescentOptions(double stepSize, Batch batch, NoiseCalibration calibration) {
        this.stepSize = stepSize;
        this.batch = batch;
        this.calibration = calibration;
    }

    abstract B self();

    /**
     * The subspace dimension r, 1 ≤ r &lt; D (required).
     *
     * @param r the subspace dimension
     * @return this builder
     */
    public B components(int r) {
        this.r = DpPreconditions.checkAtLeast("components", r, 1);
        return self();
    }

    /**
     * T ≥ 1; default N, the number of rows (the paper's Figure 1).
     *
     * @param t the number of iterations T
     * @return this builder
     */
    public B iterations(int t) {
        this.iterations = DpPreconditions.checkAtLeast("iterations", t, 1);
        return self();
    }

    /**
     * The first step size s &gt; 0 (defaults: the paper's experiments, see each class).
     *
     * @param s the first step size
     * @return this builder
     */
    public B stepSize(double s) {
        this.stepSize = DpPreconditions.checkPositive("step size", s);
        return self();
    }

    /**
     * The (expected) batch size B ≥ 1 of the minibatch methods; default max(⌈N√(ε/(4T))⌉, 1) (the paper's §5.1
     * after Bassily et al. 2019, rounded up; ε = 1 when not private).
     *
     * @param b the batch size B
     * @return this builder
     */
    public B batchSize(int b) {
        this.batchSize = DpPreconditions.checkAtLeast("batch size", b, 1);
        return self();
    }

    /**
     * How each iteration chooses its rows (default: the preset's).
     *
     * @param b full batch, with replacement or Poisson sampling; the private minibatch presets need {@link
     *          Batch#POISSON}
     * @return this builder
     */
    public B batch(Batch b) {
        this.batch = Objects.requireNonNull(b, "batch");
        return self();
    }

    /**
     * How the noise of each step is set (default: the preset's); only {@link NoiseCalibration#ZCDP} and {@link
     * NoiseCalibration#RDP_POISSON} give a privacy guarantee.
     *
     * @param c the calibration
     * @return this builder
     */
    public B calibration(NoiseCalibration c) {
        this.calibration = Objects.requireNonNull(c, "calibration");
        return self();
    }

    /**
     * The constant c of {@link NoiseCalibration#PAPER_LITERAL}; the paper gives none, so there is no default.
     *
     * @param c the constant c, &gt; 0
     * @return this builder
     */
    public B paperConstant(double c) {
        this.paperConstant = DpPreconditions.checkPositive("paper constant c", c);
        return self();
    }

    /**
     * Residual norms at or below τ₀ count as on the subspace; default 1e-12.
     *
     * @param tau τ₀, ≥ 0
     * @return this builder
     */
    public B tolerance(double tau) {
        this.tolerance = DpPreconditions.checkSensitivity("tolerance", tau);
        return self();
    }

    /**
     * How rows are brought to norm ≤ 1 (default: normalised to the sphere, as the paper does).
     *
     * @param policy the row map
     * @return this builder
     */
    public B rowNorm(RowNorm policy) {
        this.rowNorm = Objects.requireNonNull(policy, "rowNorm");
        return self();
    }

    /**
     * The noise and sampling randomness (default a secure source).
     *
     * @param source the randomness of the noise, the minibatches and the start
     * @return this builder
     */
    public B randomSource(RandomSource source) {
        this.random = Objects.requireNonNull(source, "randomSource");
        return self();
    }

    /** Scales σ by m: package-private, for the auditor's broken twin only; m &lt; 1 breaks the guarantee. */
    B noiseMultiplierForAuditTests(double m) {
        this.noiseMultiplier = DpPreconditions.checkPositive("noiseMultiplier", m);
        return self();
    }

    /** Checks what both builders share; call from {@code build()}. */
    void checkShared() {
        if (r < 0) {
            throw new IllegalArgumentException("components r was not set; call components(r) with 1 <= r < D");
        }
        if (calibration == NoiseCalibration.ZCDP && batch != Batch.FULL
                || calibration == NoiseCalibration.RDP_POISSON && batch != Batch.POISSON
                || calibration == NoiseCalibration.PLD && batch == Batch.WITH_REPLACEMENT) {
            throw new IllegalArgumentException(calibration + " noise needs " + switch (calibration) {
                case ZCDP -> "the full batch (zCDP over full-batch steps)";
                case RDP_POISSON -> "Poisson batches (the Renyi accountant assumes them)";
                default -> "the full batch or Poisson batches (the accountant assumes one of them)";
            });
        }
        if (random == null) {
            random = RandomSource.secure();
        }
    }

    /** The (expected) batch size on N rows for T iterations under ε (1 when not private). */
    int batchSizeFor(int n, int t, double epsilon) {
        return batch == Batch.FULL ? n : batchSize > 0 ? batchSize : NoisySteps.defaultBatchSize(n, t, epsilon);
    }
}
