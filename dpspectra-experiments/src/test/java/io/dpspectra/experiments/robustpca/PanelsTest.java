package io.dpspectra.experiments.robustpca;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Font;
import java.awt.font.FontRenderContext;
import org.junit.jupiter.api.Test;

class PanelsTest {
    private static final FontRenderContext FRC = new FontRenderContext(null, true, true);

    @Test
    void aShortTitleKeepsTwelvePoints() {
        assertThat(Panels.titleFont("dp-GGD (Procrustes error 0.97)", 520).getSize2D()).isEqualTo(12f);
    }

    @Test
    void aLongTitleShrinksUntilItFitsThePanel() {
        String title = "dp-SMD-REAP paper-literal (c2 = 1, NOT private, resampled start) (Procrustes error 0.97)";
        Font twelve = new Font(Font.SANS_SERIF, Font.BOLD, 12);
        assertThat(twelve.getStringBounds(title, FRC).getWidth()).as("the title overflows at 12 points")
                .isGreaterThan(520 - 24);
        Font f = Panels.titleFont(title, 520);
        assertThat(f.getSize2D()).isLessThan(12f).isGreaterThanOrEqualTo(8f);
        assertThat(f.getStringBounds(title, FRC).getWidth()).isLessThanOrEqualTo(520 - 24);
        assertThat(f.isBold()).isTrue();
    }

    @Test
    void aTitleTooLongForEightPointsStopsShrinkingThere() {
        String title = "x".repeat(400);
        assertThat(Panels.titleFont(title, 520).getSize2D()).isEqualTo(8f);
    }
}
