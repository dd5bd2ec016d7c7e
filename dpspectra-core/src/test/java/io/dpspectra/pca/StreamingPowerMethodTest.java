package io.dpspectra.pca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.metrics.SubspaceMetrics;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.synthetic.GaussianData;
import io.dpspectra.synthetic.SyntheticDataset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StreamingPowerMethodTest {

    /** Counts passes and rows handed out. */
    private static final class CountingRows implements RowSource {
        final RowSource inner;
        final AtomicInteger opens = new AtomicInteger();
        final AtomicLong rows = new AtomicLong();

        CountingRows(RowSource inner) {
            this.inner = inner;
        }

        @Override
        public int dimension() {
            return inner.dimension();
        }

        @Override
        public RowCursor open() {
            opens.incrementAndGet();
            RowCursor c = inner.open();
            return new RowCursor() {
                @Override
                public boolean next(double[] into) {
                    boolean ok = c.next(into);
                    if (ok) {
                        rows.incrementAndGet();
                    }
                    return ok;
                }

                @Override
                public String position() {
                    return c.position();
                }

                @Override
                public long rowsRead() {
                    return c.rowsRead();
                }

                @Override
                public void close() {
                    c.close();
                }
            };
        }
    }

    private static double error(long n, long seed) {
        // [HP] spiked model N(0, UΛ²Uᵀ + σ²I) with λ = (1, 0.8), σ = 0.5: GaussianData with λ² as its eigenvalues
        SyntheticDataset data = GaussianData.of(40, new double[] {1.0, 0.64}, 0.5).sample(n, seed);
        PowerMethodResult r = StreamingPowerMethod.builder().components(2).blockSize(4).iterations(8)
                .randomSource(RandomSource.seededForReproducibility(seed + 1)).build().run(data.rows(), n);
        return SubspaceMetrics.projectionResidual(r.basis(), data.truthBasis());
    }

    @Test
    void errorShrinksWithSampleSizeOnTheSpikedModel() {
        double small = 0;
        double large = 0;
        for (long s = 0; s < 4; s++) {
            small += error(2_000, 100 + s) / 4;
            large += error(64_000, 200 + s) / 4;
        }
        // Cor. 3.4: ε ∝ 1/√n, so 32× the samples should cut the error by about √32 ≈ 5.7; ask for 3×
        assertThat(large).isLessThan(small / 3);
        assertThat(large).isLessThan(0.15);
    }

    @Test
    void readsEachRowAtMostOnceInASinglePass() {
        SyntheticDataset data = GaussianData.of(10, new double[] {4}, 1).sample(1003, 3);
        CountingRows rows = new CountingRows(InMemoryRows.copyOf(data.rows()));
        StreamingPowerMethod.builder().components(1).blockSize(2).iterations(10).blockRows(7)
                .randomSource(RandomSource.seededForReproducibility(4)).build().run(rows, 1003);
        assertThat(rows.opens.get()).isEqualTo(1);
        assertThat(rows.rows.get()).isEqualTo(1000); // L·T = 10·100; the last 3 rows are never read
    }

    @Test
    void fewerRowsThanIterationsIsRejected() {
        InMemoryRows rows = InMemoryRows.of(new double[][] {{1, 0}, {0, 1}});
        assertThatThrownBy(() -> StreamingPowerMethod.builder().components(1).iterations(5).build().run(rows, 2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("n >= L");
    }

    @Test
    void streamShorterThanAnnouncedIsADataError() {
        InMemoryRows rows = InMemoryRows.of(new double[][] {{1, 0}, {0, 1}, {1, 1}});
        assertThatThrownBy(() -> StreamingPowerMethod.builder().components(1).iterations(2)
                .randomSource(RandomSource.seededForReproducibility(1)).build().run(rows, 10))
                .isInstanceOf(InvalidDataException.class).hasMessageContaining("ended after 3 rows");
    }
}
