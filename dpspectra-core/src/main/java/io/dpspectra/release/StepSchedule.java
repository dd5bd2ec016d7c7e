package io.dpspectra.release;

import io.dpspectra.pca.LearningRate;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * The step-size schedule of the Oja-type estimators (k-dp-ojas, k-dp-pca, k-dp-pca-adaptive, oja), as a
 * public setting: every form is validated when it is made, and turned into the core {@link LearningRate}
 * when the estimator runs (App. G.1's schedule needs the number of rows n then). Public hyper-parameters,
 * never derived from the data.
 */
public final class StepSchedule {
    private enum Form { INVERSE_TIME, CONSTANT, APPENDIX_G }

    private final Form form;
    private final double a;
    private final double b;
    private final double[] lambdas;

    private StepSchedule(Form form, double a, double b, double[] lambdas) {
        this.form = form;
        this.a = a;
        this.b = b;
        this.lambdas = lambdas;
        rate(() -> 2); // validates, with the smallest n the App. G schedule takes
    }

    /**
     * η_t = c / (t0 + t), restarted every round; {@code inverseTime(1, 1)} is App. G.1's 1/(1 + t), the default.
     *
     * @param c the scale c > 0
     * @param t0 the offset t0 >= 0
     * @return the schedule
     */
    public static StepSchedule inverseTime(double c, double t0) {
        return new StepSchedule(Form.INVERSE_TIME, c, t0, new double[0]);
    }

    /**
     * A constant η.
     *
     * @param eta η > 0
     * @return the schedule
     */
    public static StepSchedule constant(double eta) {
        return new StepSchedule(Form.CONSTANT, eta, 0, new double[0]);
    }

    /**
     * App. G.1's k-DP-PCA schedule from the PUBLIC model constants σ and λ_1 ≥ λ_2 ≥ … (see {@link
     * LearningRate#appendixG}); its λ are also the default public eigenvalues of k-dp-pca-adaptive.
     *
     * @param sigma App. G.1's public σ
     * @param lambdas the public λ, descending (not modified)
     * @return the schedule
     */
    public static StepSchedule appendixG(double sigma, double[] lambdas) {
        return new StepSchedule(Form.APPENDIX_G, sigma, 0, lambdas.clone());
    }

    /**
     * The default: {@code inverseTime(1, 1)}.
     *
     * @return the schedule
     */
    public static StepSchedule defaultSchedule() {
        return inverseTime(1, 1);
    }

    /**
     * The core schedule for a run over {@code n} rows (asked only by App. G.1's schedule).
     *
     * @param n the number of rows, asked only by App. G.1's schedule
     * @return the core schedule
     */
    public LearningRate rate(LongSupplier n) {
        return switch (form) {
            case INVERSE_TIME -> LearningRate.inverseTime(a, b);
            case CONSTANT -> LearningRate.constant(a);
            case APPENDIX_G -> LearningRate.appendixG(a, lambdas, n.getAsLong());
        };
    }

    /**
     * App. G.1's λ for {@link #appendixG}, else none (an empty array).
     *
     * @return the λ (a copy)
     */
    public double[] lambdas() {
        return lambdas.clone();
    }

    @Override
    public String toString() {
        return switch (form) {
            case INVERSE_TIME -> "inverse-time:" + a + ":" + b;
            case CONSTANT -> "constant:" + a;
            case APPENDIX_G -> "appendix-g:" + a + ":" + Arrays.toString(lambdas);
        };
    }
}
