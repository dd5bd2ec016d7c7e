package io.dpspectra.release;

import io.dpspectra.Diagnostics;
import io.dpspectra.privacy.ComposedGuarantee;
import io.dpspectra.privacy.ReleaseRefusedException;
import java.util.Objects;

/**
 * A release whose estimator documented a refusal (e.g. DP-Gauss-2's private gap test failed) after the
 * release's private preprocessing: nothing but the refusal is released, and the whole composition counts as
 * spent. It carries what a record of the refusal publishes (the composed {@link #guarantee()} and the public
 * {@link #preprocessing()}) and the curator's facts. Its message, hint, {@link #spent()} (the estimator's own
 * guarantee) and diagnostics are the estimator's refusal's.
 */
public final class RefusedReleaseException extends ReleaseRefusedException {
    private static final long serialVersionUID = 1L;

    /** What the whole release spent. */
    private final transient ComposedGuarantee guarantee;
    /** The public preprocessing. */
    private final transient Preprocessing preprocessing;
    /** Facts about the data, not private. */
    private final transient Diagnostics curatorFacts;

    RefusedReleaseException(ReleaseRefusedException refusal, ComposedGuarantee guarantee, Preprocessing preprocessing,
                            Diagnostics curatorFacts) {
        super(refusal.getMessage(), refusal.hint(), refusal.spent(), refusal.diagnostics());
        initCause(refusal);
        this.guarantee = Objects.requireNonNull(guarantee, "guarantee");
        this.preprocessing = Objects.requireNonNull(preprocessing, "preprocessing");
        this.curatorFacts = Objects.requireNonNull(curatorFacts, "curatorFacts");
    }

    /**
     * What the whole release spent, every private part composed; the refusal satisfies it.
     *
     * @return the composed guarantee
     */
    public ComposedGuarantee guarantee() {
        return guarantee;
    }

    /**
     * The public preprocessing that ran before the refusal.
     *
     * @return the preprocessing
     */
    public Preprocessing preprocessing() {
        return preprocessing;
    }

    /**
     * Facts learned from the data WITHOUT privacy (rows, clipped rows, clamped cells), for the data's curator.
     *
     * @return the facts
     */
    public Diagnostics curatorFacts() {
        return curatorFacts;
    }
}
