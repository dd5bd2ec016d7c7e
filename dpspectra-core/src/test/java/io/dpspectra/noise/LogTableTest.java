package io.dpspectra.noise;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import org.junit.jupiter.api.Test;

/**
 * The constants of {@link LogTable} and the ln 2 double-double of {@link DiscreteSamplers} are what their
 * definition gives: each entry is recomputed with a 45-digit series and must have the same bits.
 */
class LogTableTest {
    /** ln y for y &gt; 0 to the precision of mc, by 2·atanh((y − 1)/(y + 1)) (for y ∈ [1/2, 2]: s² ≤ 1/9). */
    static BigDecimal lnBig(BigDecimal y, MathContext mc) {
        BigDecimal s = y.subtract(BigDecimal.ONE).divide(y.add(BigDecimal.ONE), mc);
        BigDecimal s2 = s.multiply(s, mc);
        BigDecimal term = s;
        BigDecimal sum = BigDecimal.ZERO;
        BigDecimal eps = BigDecimal.ONE.movePointLeft(mc.getPrecision() + 2);
        for (int k = 0; term.abs().compareTo(eps) > 0; k++) {
            sum = sum.add(term.divide(BigDecimal.valueOf(2L * k + 1), mc), mc);
            term = term.multiply(s2, mc);
        }
        return sum.multiply(BigDecimal.valueOf(2), mc);
    }

    @Test
    void everyEntryIsTheDoubleDoubleOfItsLogarithm() {
        MathContext mc = new MathContext(45);
        assertThat(LogTable.INV).hasSize(LogTable.CELLS);
        assertThat(LogTable.HI).hasSize(LogTable.CELLS);
        assertThat(LogTable.LO).hasSize(LogTable.CELLS);
        for (int j = 0; j < LogTable.CELLS; j++) {
            assertThat(LogTable.INV[j]).isEqualTo(1 / LogTable.midpoint(j));
            BigDecimal ln = lnBig(BigDecimal.ONE.divide(new BigDecimal(LogTable.INV[j]), mc), mc);
            double hi = ln.doubleValue();
            double lo = ln.subtract(new BigDecimal(hi), mc).doubleValue();
            assertThat(Double.doubleToRawLongBits(LogTable.HI[j])).as("HI[%d]", j)
                    .isEqualTo(Double.doubleToRawLongBits(hi));
            assertThat(Double.doubleToRawLongBits(LogTable.LO[j])).as("LO[%d]", j)
                    .isEqualTo(Double.doubleToRawLongBits(lo));
        }
    }

    @Test
    void ln2DoubleDoubleIsWithinTwoToTheMinus106() {
        BigDecimal ln2 = lnBig(BigDecimal.valueOf(2), new MathContext(45));
        assertThat(ln2.subtract(new BigDecimal(DiscreteSamplers.LN2_HI)).subtract(new BigDecimal(DiscreteSamplers.LN2_LO))
                .abs()).isLessThanOrEqualTo(new BigDecimal(0x1.0p-106));
    }
}
