package io.dpspectra.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A composed guarantee: its parts, the basic rule's sums, and what it refuses. */
class ComposedGuaranteeTest {
    private static PrivacyGuarantee part(String mechanism, double eps, double delta, Neighbouring n) {
        return new PrivacyGuarantee(mechanism, PrivacyParams.of(eps, delta), n, "one row with L2 norm <= 1", "s", "r");
    }

    @Test
    void basicCompositionAddsThePartsAndKeepsThemInOrder() {
        PrivacyGuarantee bound = part("quantile", 0.1, 0, Neighbouring.REPLACE_ROW);
        PrivacyGuarantee mean = part("mean", 0.2, 1e-7, Neighbouring.REPLACE_ROW);
        PrivacyGuarantee main = part("estimator", 0.7, 9e-7, Neighbouring.REPLACE_ROW);
        ComposedGuarantee c = ComposedGuarantee.basic(List.of(bound, mean, main), PrivacyParams.of(1, 1e-6));
        assertThat(c.rule()).isEqualTo(ComposedGuarantee.Rule.BASIC);
        assertThat(c.parts()).containsExactly(bound, mean, main);
        assertThat(c.estimator()).isEqualTo(main);
        assertThat(c.epsilon()).isCloseTo(1, within(1e-12));
        assertThat(c.delta()).isCloseTo(1e-6, within(1e-18));
        assertThat(c.neighbouring()).isEqualTo(Neighbouring.REPLACE_ROW);
        assertThat(c.overall().mechanism()).isEqualTo("composition of 3 mechanisms: quantile + mean + estimator");
        assertThat(c.overall().privacyUnit()).startsWith("one row with L2 norm <= 1");
    }

    @Test
    void oneMechanismIsItsOwnGuarantee() {
        PrivacyGuarantee g = part("estimator", 1, 0, Neighbouring.ADD_REMOVE_ROW);
        ComposedGuarantee c = ComposedGuarantee.basic(List.of(g), PrivacyParams.pure(1));
        assertThat(c.rule()).isEqualTo(ComposedGuarantee.Rule.SINGLE);
        assertThat(c.overall()).isEqualTo(g);
        assertThatThrownBy(() -> new ComposedGuarantee(g, List.of(g, g), ComposedGuarantee.Rule.SINGLE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void partsUnderDifferentRelationsOrAboveTheBudgetAreRefused() {
        PrivacyGuarantee a = part("mean", 0.5, 0, Neighbouring.ADD_REMOVE_ROW);
        PrivacyGuarantee b = part("estimator", 0.5, 0, Neighbouring.REPLACE_ROW);
        assertThatThrownBy(() -> ComposedGuarantee.basic(List.of(a, b), PrivacyParams.pure(1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("this is a bug");
        PrivacyGuarantee c = part("estimator", 0.6, 0, Neighbouring.ADD_REMOVE_ROW);
        assertThatThrownBy(() -> ComposedGuarantee.basic(List.of(a, c), PrivacyParams.pure(1)))
                .isInstanceOf(BudgetExceededException.class);
    }
}
