package io.dpspectra.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The aggregate's bits do not depend on the order Spark combines partial results in. */
class OrderedSumTest {
    /** Values whose floating-point sum depends on the order of addition. */
    private static final double[][] PARTS = {{1e16, 0.5}, {1.0, 1e-3}, {-1e16, 3.0}, {1.0, -0.25}, {0.75, 1e17}};

    private static List<List<Integer>> permutations(List<Integer> items) {
        if (items.isEmpty()) {
            return List.of(List.of());
        }
        List<List<Integer>> out = new ArrayList<>();
        for (Integer first : items) {
            List<Integer> rest = new ArrayList<>(items);
            rest.remove(first);
            for (List<Integer> tail : permutations(rest)) {
                List<Integer> p = new ArrayList<>();
                p.add(first);
                p.addAll(tail);
                out.add(p);
            }
        }
        return out;
    }

    @Test
    void everyOrderOfArrivalGivesTheSameBits() {
        Set<List<Double>> totals = new HashSet<>();
        Set<List<Double>> naiveTotals = new HashSet<>();
        for (List<Integer> order : permutations(List.of(0, 1, 2, 3, 4))) {
            // as treeAggregate may: some partials combined on executors first, then folded on the driver
            OrderedSum left = new OrderedSum();
            OrderedSum right = new OrderedSum();
            double[] naive = new double[2];
            for (int i = 0; i < order.size(); i++) {
                int p = order.get(i);
                (i % 2 == 0 ? left : right).merge(OrderedSum.of(p, PARTS[p].clone(), 10 + p, p));
                naive[0] += PARTS[p][0];
                naive[1] += PARTS[p][1];
            }
            OrderedSum.Total t = new OrderedSum().merge(right).merge(left).total(5);
            totals.add(List.of(t.values()[0], t.values()[1]));
            naiveTotals.add(List.of(naive[0], naive[1]));
            assertThat(t.rows()).isEqualTo(60);
            assertThat(t.clipped()).isEqualTo(10);
        }
        assertThat(totals).hasSize(1);
        assertThat(naiveTotals).as("a plain fold in arrival order is order-dependent for these values").hasSizeGreaterThan(1);
    }

    @Test
    void aMissingOrDuplicatedPartitionIsAnError() {
        OrderedSum s = OrderedSum.of(0, new double[] {1}, 1, 0).merge(OrderedSum.of(2, new double[] {1}, 1, 0));
        assertThatThrownBy(() -> s.total(3)).isInstanceOf(IllegalStateException.class).hasMessageContaining("covers 2");
        assertThatThrownBy(() -> s.merge(OrderedSum.of(2, new double[] {1}, 1, 0)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("counted twice");
    }
}
