package io.dpspectra.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.privacy.PrivacyProfile;
import io.dpspectra.privacy.pld.PrivacyLossDistribution;
import io.dpspectra.privacy.pld.ProfileAccounting;
import org.junit.jupiter.api.Test;

/** The budget split: shares, noise families, composition back to the total, and refusals before any data. */
class BudgetPlanTest {
    private static final PrivacyParams TOTAL = PrivacyParams.of(2, 1e-6);

    @Test
    void thePartsAddUpToTheTotal() {
        BudgetPlan plan = BudgetPlan.split(TOTAL, RowBound.privateQuantile(0.9, 0.1), Centring.privateMean(0.2),
                Components.auto(0.9, 0.15), true, NoiseKind.GAUSSIAN, Vocabulary.JAVA);
        double eps = plan.bound().orElseThrow().epsilon() + plan.centre().orElseThrow().epsilon()
                + plan.spectrum().orElseThrow().epsilon() + plan.estimator().epsilon();
        double delta = plan.centre().orElseThrow().delta() + plan.spectrum().orElseThrow().delta()
                + plan.estimator().delta();
        assertThat(eps).isCloseTo(2, within(1e-12));
        assertThat(delta).isCloseTo(1e-6, within(1e-18));
        assertThat(plan.bound().orElseThrow().isPure()).as("the exponential mechanism is pure").isTrue();
        assertThat(plan.centre().orElseThrow().delta()).as("Gaussian mean for a delta estimator")
                .isCloseTo(0.2e-6, within(1e-18));
        assertThat(plan.composes()).isTrue();
        assertThat(plan.neighbouring(null)).isEqualTo(Neighbouring.REPLACE_ROW);
        assertThat(plan.neighbouring(Neighbouring.ADD_REMOVE_ROW)).isEqualTo(Neighbouring.ADD_REMOVE_ROW);
    }

    @Test
    void aPureEstimatorGetsPureSharesAndKeepsTheDelta() {
        BudgetPlan plan = BudgetPlan.split(TOTAL, RowBound.clip(1), Centring.privateMean(0.1), Components.auto(0.9),
                false, NoiseKind.PURE, Vocabulary.JAVA);
        assertThat(plan.centre().orElseThrow().isPure()).isTrue();
        assertThat(plan.spectrum().orElseThrow().isPure()).isTrue();
        assertThat(plan.bound()).isEmpty();
        assertThat(plan.estimator().delta()).isEqualTo(1e-6);
        assertThat(plan.estimator().epsilon()).isCloseTo(2 * 0.8, within(1e-12));
    }

    @Test
    void aSingleEstimatorSpendsEverythingUnderItsOwnRelation() {
        BudgetPlan plan = BudgetPlan.split(TOTAL, RowBound.fromSchema(), Centring.PUBLIC, Components.fixed(3), true,
                NoiseKind.GAUSSIAN, Vocabulary.JAVA);
        assertThat(plan.estimator()).isEqualTo(TOTAL);
        assertThat(plan.composes()).isFalse();
        assertThat(plan.neighbouring(null)).isNull();
        assertThat(plan.rho()).isEqualTo(NoiseKind.GAUSSIAN.rho(TOTAL));
    }

    @Test
    void theZcdpCostSumsThePartsAndIsNoneForAnEstimatorWithoutOne() {
        BudgetPlan plan = BudgetPlan.split(TOTAL, RowBound.privateQuantile(0.9), Centring.PRIVATE, null, true,
                NoiseKind.GAUSSIAN, Vocabulary.JAVA);
        assertThat(plan.rho()).isEqualTo(NoiseKind.PURE.rho(plan.bound().orElseThrow())
                + NoiseKind.GAUSSIAN.rho(plan.centre().orElseThrow()) + NoiseKind.GAUSSIAN.rho(plan.estimator()));
        assertThat(BudgetPlan.split(TOTAL, RowBound.clip(1), Centring.NONE, Components.fixed(1), true,
                NoiseKind.OTHER, Vocabulary.JAVA).rho()).isNaN();
    }

    @Test
    void sharesThatLeaveNothingForTheEstimatorAreRefusedInTheCallersWords() {
        assertThatThrownBy(() -> BudgetPlan.split(TOTAL, RowBound.privateQuantile(0.9, 0.5), Centring.privateMean(0.5),
                null, true, NoiseKind.GAUSSIAN, Vocabulary.JAVA))
                .isInstanceOf(ReleaseSettingException.class)
                .hasMessage("the budget shares of RowBound.privateQuantile and Centring.privateMean add up to 1.0, "
                        + "leaving nothing for the estimator");
        assertThatThrownBy(() -> BudgetPlan.split(TOTAL, RowBound.clip(1), Centring.privateMean(0.1),
                Components.auto(0.9, 0.95), true, NoiseKind.GAUSSIAN, Vocabulary.JAVA))
                .hasMessage("components(auto:0.9:0.95) leaves no budget for the estimator");
    }

    @Test
    void settingsOutOfRangeAreRefusedWhenMade() {
        assertThatThrownBy(() -> RowBound.privateQuantile(1.2)).hasMessageContaining("quantile Q must be in (0, 1)");
        assertThatThrownBy(() -> RowBound.clip(0)).hasMessageContaining("must be > 0");
        assertThatThrownBy(() -> Centring.privateMean(1)).hasMessageContaining("(0, 1)");
        assertThatThrownBy(() -> Components.auto(0)).hasMessageContaining("threshold T in (0, 1]");
        assertThatThrownBy(() -> Components.fixed(-1)).hasMessageContaining(">= 1");
        assertThat(Components.auto(0.9).toString()).isEqualTo("auto:0.9");
    }

    /**
     * What a PLD ledger composes: the bound as pure epsilon, the Gaussian mean and estimator merged into one Gaussian,
     * which (by the parts' own (epsilon, delta)) is never less private than the total, and is strictly more private
     * than basic composition says; an estimator of unknown noise is its (epsilon, delta) point.
     */
    @Test
    void theProfileComposesThePartsAsTheyRun() {
        BudgetPlan plan = BudgetPlan.split(TOTAL, RowBound.privateQuantile(0.9, 0.1), Centring.privateMean(0.2),
                Components.fixed(2), true, NoiseKind.GAUSSIAN, Vocabulary.JAVA);
        PrivacyProfile p = plan.profile();
        assertThat(p).isInstanceOf(PrivacyProfile.Composition.class);
        assertThat(((PrivacyProfile.Composition) p).parts()).hasSize(2)
                .anySatisfy(q -> assertThat(q).isInstanceOf(PrivacyProfile.Gaussian.class))
                .anySatisfy(q -> assertThat(q).isEqualTo(new PrivacyProfile.Pure(0.2)));
        double h = PrivacyLossDistribution.DEFAULT_DISCRETIZATION;
        double eps = ProfileAccounting.epsilonForDelta(p, TOTAL.delta(), h);
        assertThat(eps).as("composed exactly, below the basic sum").isLessThan(TOTAL.epsilon()).isGreaterThan(1);
        assertThat(ProfileAccounting.fits(p, TOTAL, h)).isTrue();

        BudgetPlan other = BudgetPlan.split(TOTAL, RowBound.clip(1), Centring.NONE, Components.fixed(2), true,
                NoiseKind.OTHER, Vocabulary.JAVA);
        assertThat(other.profile()).isEqualTo(new PrivacyProfile.Point(2, 1e-6));
        // a Gaussian-only estimator given delta = 0 (private-power with Laplace noise) is pure
        assertThat(NoiseKind.GAUSSIAN.profile(PrivacyParams.pure(0.5))).isEqualTo(new PrivacyProfile.Pure(0.5));
        assertThat(NoiseKind.GAUSSIAN.profile(null)).isNull();
        assertThat(NoiseKind.PURE.profile(TOTAL)).isEqualTo(new PrivacyProfile.Pure(2));
    }
}
