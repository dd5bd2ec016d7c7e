package io.dpspectra.linalg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.noise.RandomSource;
import org.junit.jupiter.api.Test;

class CsrMatrixTest {

    @Test
    void productMatchesTheDenseProductForRandomSparseSymmetricMatrices() {
        RandomSource r = RandomSource.seededForReproducibility(1);
        for (int trial = 0; trial < 5; trial++) {
            int d = 30 + trial;
            CsrMatrix.Builder b = CsrMatrix.builder(d);
            Matrix dense = new Matrix(d, d);
            for (int e = 0; e < 3 * d; e++) {
                int i = r.nextInt(d);
                int j = r.nextInt(d);
                double v = r.standardNormal();
                b.addSymmetric(i, j, v);
                dense.add(i, j, v);
                if (i != j) {
                    dense.add(j, i, v);
                }
            }
            CsrMatrix a = b.build();
            for (int p : new int[] {1, 4}) {
                Matrix x = new Matrix(d, p);
                for (int q = 0; q < x.data().length; q++) {
                    x.data()[q] = r.standardNormal();
                }
                Matrix diff = a.times(x).minus(dense.times(x));
                assertThat(diff.maxAbs()).isLessThan(1e-12);
            }
            assertThat(a.toDense().minus(dense).maxAbs()).isLessThan(1e-15);
        }
    }

    @Test
    void duplicateEntriesAreSummedAndNonZerosCounted() {
        CsrMatrix a = CsrMatrix.builder(3).addSymmetric(0, 1, 2).addSymmetric(1, 0, 3).add(2, 2, 1).build();
        assertThat(a.get(0, 1)).isEqualTo(5);
        assertThat(a.get(1, 0)).isEqualTo(5);
        assertThat(a.get(2, 2)).isEqualTo(1);
        assertThat(a.get(0, 0)).isZero();
        assertThat(a.nonZeros()).isEqualTo(3);
    }

    @Test
    void asymmetricEntriesAreRejectedWithTheirPosition() {
        assertThatThrownBy(() -> CsrMatrix.builder(3).add(0, 2, 1.0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("entry (1, 3) = 1.0 but (3, 1) = 0.0");
    }

    @Test
    void outOfRangeIndexIsRejected() {
        assertThatThrownBy(() -> CsrMatrix.builder(3).add(3, 0, 1.0)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
