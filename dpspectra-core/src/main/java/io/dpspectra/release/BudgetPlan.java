package io.dpspectra.release;

import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.privacy.PrivacyProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The split of a release's total budget between its private parts, fixed and validated before any data is
 * read: a private row-norm bound takes F_b·ε (pure ε, the exponential mechanism); a private mean F_c·ε, and
 * F_c·δ when the estimator uses δ (its noise is then Gaussian, else Laplace); the private spectrum behind an
 * automatic k F_s of the total (F_s·ε and F_s·δ when the estimator uses δ, else pure F_s·ε); the estimator
 * what is left. The parts compose by basic composition, so that their sum is the total.
 *
 * <p>Every part is certified under one neighbouring relation: when the plan composes several parts and the
 * caller names none, the relation is replace-one ({@link #neighbouring(Neighbouring)}).
 */
public final class BudgetPlan {
    private final PrivacyParams total;
    private final PrivacyParams bound;
    private final PrivacyParams centre;
    private final PrivacyParams spectrum;
    private final PrivacyParams estimator;
    private final NoiseKind estimatorNoise;
    private final RowBound rowBound;
    /** The rows a release opened to count them while planning, handed on to its fit (one pass fewer). */
    private final java.util.concurrent.atomic.AtomicReference<StatisticSource> opened =
            new java.util.concurrent.atomic.AtomicReference<>();

    private BudgetPlan(PrivacyParams total, PrivacyParams bound, PrivacyParams centre, PrivacyParams spectrum,
                       PrivacyParams estimator, NoiseKind estimatorNoise, RowBound rowBound) {
        this.rowBound = rowBound;
        this.total = total;
        this.bound = bound;
        this.centre = centre;
        this.spectrum = spectrum;
        this.estimator = estimator;
        this.estimatorNoise = estimatorNoise;
    }

    /**
     * Splits {@code total} between the private parts the settings ask for.
     *
     * @param total               the whole release's (ε, δ)
     * @param bound               the row bound (a private quantile spends its share)
     * @param centring            the centring (a private mean spends its share)
     * @param components          the number of components (an automatic k spends its share), or null for a
     *                            release without components (a covariance)
     * @param estimatorNeedsDelta whether the estimator uses δ (then the private mean and spectrum get their
     *                            share of δ too)
     * @param estimatorNoise      how the estimator spends its share, for the zCDP cost
     * @param v                   the words of the messages
     * @return the plan
     * @throws ReleaseSettingException when the shares leave nothing for the estimator
     */
    public static BudgetPlan split(PrivacyParams total, RowBound bound, Centring centring, Components components,
                                   boolean estimatorNeedsDelta, NoiseKind estimatorNoise, Vocabulary v) {
        Objects.requireNonNull(total, "total");
        Objects.requireNonNull(bound, "bound");
        Objects.requireNonNull(centring, "centring");
        Objects.requireNonNull(estimatorNoise, "estimatorNoise");
        double eps = total.epsilon();
        double delta = total.delta();
        PrivacyParams boundPart = null;
        PrivacyParams mean = null;
        double left = 1;
        if (bound instanceof RowBound.PrivateQuantile q) {
            boundPart = PrivacyParams.pure(eps * q.budgetShare());
            left -= q.budgetShare();
        }
        double deltaLeft = delta;
        if (centring.isPrivate()) {
            boolean gaussian = estimatorNeedsDelta && delta > 0;
            mean = gaussian ? PrivacyParams.of(eps * centring.share(), delta * centring.share())
                    : PrivacyParams.pure(eps * centring.share());
            left -= centring.share();
            deltaLeft -= mean.delta();
        }
        if (!(left > 0)) {
            throw new ReleaseSettingException("the budget shares of " + v.name(Setting.PRIVATE_BOUND) + " and "
                    + v.name(Setting.PRIVATE_CENTRE) + " add up to " + (1 - left) + ", leaving nothing for the "
                    + "estimator", "use smaller shares, e.g. 0.1 each");
        }
        PrivacyParams main = PrivacyParams.of(eps * left, Math.max(0, deltaLeft));
        PrivacyParams spectrumPart = null;
        if (components != null && components.isAuto()) {
            spectrumPart = estimatorNeedsDelta ? total.scaled(components.share())
                    : PrivacyParams.pure(eps * components.share());
            double leftEps = main.epsilon() - spectrumPart.epsilon();
            if (!(leftEps > 0)) {
                throw new ReleaseSettingException(v.given(Setting.COMPONENTS, components.toString())
                        + " leaves no budget for the estimator", "use a smaller share F");
            }
            main = PrivacyParams.of(leftEps, Math.max(0, main.delta() - spectrumPart.delta()));
        }
        return new BudgetPlan(total, boundPart, mean, spectrumPart, main, estimatorNoise, bound);
    }

    /**
     * The row bound this plan was split for: a private quantile's share as planned (an automatic share planned
     * from a public n, {@link RowBound.PrivateQuantile#forPublicRows}), which the preprocessing spends.
     *
     * @return the bound
     */
    public RowBound rowBound() {
        return rowBound;
    }

    /** Keeps the source opened to count the rows while planning, for the fit of this plan. */
    void keepOpened(StatisticSource source) {
        opened.set(source);
    }

    /** The source opened while planning, once (null when none, or when a fit took it already). */
    StatisticSource takeOpened() {
        return opened.getAndSet(null);
    }

    /**
     * The whole release's budget.
     *
     * @return the total (ε, δ)
     */
    public PrivacyParams total() {
        return total;
    }

    /**
     * The private bound's share.
     *
     * @return its (ε, 0), or empty without a private bound
     */
    public Optional<PrivacyParams> bound() {
        return Optional.ofNullable(bound);
    }

    /**
     * The private mean's share.
     *
     * @return its (ε, δ), or empty without a private mean
     */
    public Optional<PrivacyParams> centre() {
        return Optional.ofNullable(centre);
    }

    /**
     * The private spectrum's share (an automatic k).
     *
     * @return its (ε, δ), or empty for a fixed k
     */
    public Optional<PrivacyParams> spectrum() {
        return Optional.ofNullable(spectrum);
    }

    /**
     * What the estimator may spend.
     *
     * @return the estimator's (ε, δ)
     */
    public PrivacyParams estimator() {
        return estimator;
    }

    /**
     * Whether the release composes several private parts (a private bound, mean or spectrum besides the
     * estimator).
     *
     * @return true for a composition
     */
    public boolean composes() {
        return bound != null || centre != null || spectrum != null;
    }

    /**
     * The relation every part is certified under: {@code requested}, else replace-one when the plan composes
     * (one relation for every part), else null (the estimator's own).
     *
     * @param requested the relation the user asked for, or null
     * @return the relation, or null for the estimator's own
     */
    public Neighbouring neighbouring(Neighbouring requested) {
        return requested != null ? requested : composes() ? Neighbouring.REPLACE_ROW : null;
    }

    /**
     * The zCDP cost of the whole plan, which a zCDP ledger charges: the bound's pure ε, the mean's and the
     * spectrum's Gaussian ρ, the estimator's by how it spends ({@link NoiseKind#rho}); NaN when a part states
     * none.
     *
     * @return ρ, or NaN
     */
    public double rho() {
        double r = NoiseKind.PURE.rho(bound) + NoiseKind.GAUSSIAN.rho(centre);
        r += estimatorNoise.rho(estimator);
        if (spectrum != null) {
            r += NoiseKind.GAUSSIAN.rho(spectrum); // Gaussian or Laplace
        }
        return r;
    }

    /**
     * The privacy profile of the whole plan, which a PLD ledger composes: the parts' profiles ({@link
     * NoiseKind#profile}: the bound's pure ε, the mean's and the spectrum's Gaussian, the estimator's by how it
     * spends), composed; the total's (ε, δ) point when no part spends.
     *
     * @return the profile
     */
    public PrivacyProfile profile() {
        List<PrivacyProfile> parts = new ArrayList<>();
        add(parts, NoiseKind.PURE.profile(bound));
        add(parts, NoiseKind.GAUSSIAN.profile(centre));
        add(parts, NoiseKind.GAUSSIAN.profile(spectrum)); // Gaussian, or Laplace when pure
        add(parts, estimatorNoise.profile(estimator));
        return parts.isEmpty() ? PrivacyProfile.of(total) : PrivacyProfile.compose(parts);
    }

    private static void add(List<PrivacyProfile> parts, PrivacyProfile p) {
        if (p != null) {
            parts.add(p);
        }
    }

    @Override
    public String toString() {
        return "BudgetPlan[total " + total + ": bound " + bound + ", centre " + centre + ", spectrum " + spectrum
                + ", estimator " + estimator + "]";
    }
}
