package io.dpspectra.release;

import java.util.Locale;

/**
 * A setting of a release that a user gives (an option, a builder call or a Spark param), so that a message
 * can name it as the user wrote it through a {@link Vocabulary}: {@code --tau} on the command line,
 * {@code tau(...)} in Java. The release layer decides when a setting is wrong; the vocabulary decides the
 * words.
 *
 * <p>The algorithm options are listed family by family, in the order in which the command line declares
 * them, so that a check over several of them reports the one a reader of the help meets first.
 */
public enum Setting {
    /** The estimator's name. */
    ALGORITHM("algorithm", "algorithm"),
    /** The number of components k, or the rule that chooses it. */
    COMPONENTS("components", "components"),
    /** The automatic choice of k from a private spectrum. */
    AUTO_COMPONENTS("components auto", "Components.auto"),
    /** The privacy parameter ε. */
    EPSILON("epsilon", "epsilon"),
    /** The privacy parameter δ. */
    DELTA("delta", "delta"),
    /** The neighbouring relation of the guarantee. */
    NEIGHBOURING("neighbouring", "neighbouring"),
    /** A public row-norm bound onto which rows above it are clipped. */
    CLIP_NORM("clip-norm", "RowBound.clip"),
    /** A public row-norm bound that every row must already satisfy. */
    NORM_BOUND("norm-bound", "RowBound.require"),
    /** A row-norm bound taken as a private quantile of the row norms. */
    PRIVATE_BOUND("clip-norm private", "RowBound.privateQuantile"),
    /** The centring before the estimator. */
    CENTRE("center", "centre"),
    /** Centring by a private mean. */
    PRIVATE_CENTRE("center private", "Centring.privateMean"),
    /** The public schema of the input's columns. */
    SCHEMA("schema", "schema"),
    /** The column naming the person (the privacy unit), when one person has many rows. */
    PRIVACY_UNIT("privacy-unit", "privacyUnit"),
    /** The most rows kept per privacy unit. */
    MAX_ROWS_PER_UNIT("max-rows-per-unit", "PrivacyUnit.column"),
    /** How a person's kept rows are bounded: each row (rows), or the person's Gram in the Frobenius norm. */
    UNIT_BOUND("unit-bound", "PrivacyUnit.bounded"),
    /** The share of the variance each wanted direction is expected to hold, for the usefulness check. */
    EXPECT_VARIANCE_SHARE("expect-variance-share", "Usefulness.expecting"),
    /** Refuse, before spending, a release predicted useless. */
    REFUSE_USELESS("refuse-useless", "Usefulness.refusing"),

    // the stochastic k-PCA family (Düngler & Sanyal)
    /** Samples per step of the stochastic methods. */
    BATCH_SIZE("batch-size", "batchSize"),
    /** The step-size schedule of the Oja-type methods. */
    LEARNING_RATE("learning-rate", "learningRate"),
    /** k-DP-Ojas' gradient clip. */
    GRADIENT_CLIP("gradient-clip", "gradientClip"),
    /** The papers' printed constants where they are not provably private. */
    PAPER_LITERAL("paper-literal", "paperLiteral"),
    /** k-DP-PCA's failure probability of PrivRange and PrivMean. */
    TAU("tau", "tau"),
    /** k-DP-PCA's public bound on the gradients' top eigenvalue. */
    PUBLIC_RANGE("public-range", "publicRange"),
    /** k-DP-PCA's PrivRange subset constant. */
    C1("c1", "c1"),
    /** Which gradients k-DP-PCA's PrivRange and PrivMean read. */
    BATCH_USE("batch-use", "batchUse"),
    /** The adaptive variant's clip-radius factor. */
    RADIUS_FACTOR("radius-factor", "radiusFactor"),
    /** The adaptive variant's public eigenvalues of the rounds. */
    PUBLIC_EIGENVALUES("public-eigenvalues", "publicEigenvalues"),
    /** DP-Power-Method's L1 clip of the rows. */
    L1_BOUND("l1-bound", "l1Bound"),
    /** DP-Power-Method's number of iterations. */
    DP_POWER_ITERATIONS("dp-power-iterations", "dpPowerIterations"),
    /** DP-Gauss-2's behaviour when its private gap test fails. */
    ON_SMALL_GAP("on-small-gap", "onSmallGap"),

    // the power methods (Hardt & Price), whose iterations the robust methods share
    /** Number of iterations of the power and robust methods. */
    ITERATIONS("iterations", "iterations"),
    /** Block size p of the power methods. */
    BLOCK_SIZE("block-size", "blockSize"),
    /** The noisy power method's test perturbation (not privacy noise). */
    PERTURBATION_SIGMA("perturbation-sigma", "perturbationSigma"),

    // private PCA from iterative eigenvector sampling (Amin et al.)
    /** The adaptive split's failure probability β. */
    IES_FAILURE_PROBABILITY("ies-failure-probability", "iesFailureProbability"),
    /** Spend nothing on the last eigenvector, fixed by the others. */
    SKIP_LAST_VECTOR("skip-last-vector", "skipLastVector"),
    /** it-u: also buy and release the eigenvalues. */
    EIGENVALUES("eigenvalues", "eigenvalues"),

    // robust PCA on the Grassmannian and REAPER (Maunu, Yu & Lerman)
    /** The first step size. */
    STEP_SIZE("step-size", "stepSize"),
    /** Restarts of the Grassmannian descents. */
    RESTARTS("restarts", "restarts"),
    /** The per-row map onto the unit sphere or ball. */
    ROW_NORM("row-norm", "rowNorm"),
    /** Geodesic steps of the Grassmannian descents. */
    GEODESIC("geodesic", "geodesic"),
    /** The share of the budget spent on the private start. */
    INIT_SHARE("init-share", "initShare"),
    /** The paper's unstated noise constant, with the paper-literal calibration. */
    PAPER_CONSTANT("paper-constant", "paperConstant");

    private final String key;
    private final String javaName;

    Setting(String key, String javaName) {
        this.key = key;
        this.javaName = javaName;
    }

    /**
     * The setting's neutral name, lower case with dashes ("batch-size"): the command line's spelling without "--".
     *
     * @return the key
     */
    public String key() {
        return key;
    }

    /**
     * The name of the Java method (or type and method) that gives the setting, e.g. "batchSize".
     *
     * @return the name
     */
    public String javaName() {
        return javaName;
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
