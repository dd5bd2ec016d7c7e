package io.dpspectra.spark;

import java.io.Serializable;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;

/**
 * Combines one partial result per partition on the executors, in a tree of shuffles with
 * {@value #FAN_IN} partials per node, so that the driver receives the finished value of the root only
 * (one d × d block for XᵀX, whatever the number of partitions). Spark's {@code treeAggregate} instead
 * sends the partials of its last level (up to √P of them, and with an order-sensitive merge all P) to
 * the driver.
 *
 * <p>The merge must be exactly associative and commutative (core's {@code RowBlocks} and
 * {@code ReproducibleSum} are): the tree's shape, the order in which a node's partials arrive, task
 * retries and speculative copies then cannot change a bit of the result.
 */
final class CombineTree {
    /** Partials merged per node: 64 partitions take two levels. */
    static final int FAN_IN = 8;

    private CombineTree() {
    }

    /**
     * The merge of all partials of {@code parts} (one per partition), finished by {@code finish} on an
     * executor; one Spark job of ⌈log₈ P⌉ shuffles. {@code zero} (finished on the driver) when there is
     * no partition.
     */
    static <T extends Serializable, R> R combine(JavaRDD<T> parts, Function2<T, T, T> merge, Function<T, R> finish,
                                                  T zero) {
        JavaRDD<T> level = parts;
        int width = level.getNumPartitions();
        if (width == 0) {
            try {
                return finish.call(zero);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        while (width > 1) {
            int next = (width + FAN_IN - 1) / FAN_IN;
            // partition i's partials go to node i / FAN_IN, which is partition i / FAN_IN of the next level
            // (Integer keys 0 .. next - 1 hash to themselves)
            level = level.mapPartitionsWithIndex((Integer i, Iterator<T> it) -> {
                java.util.ArrayList<Tuple2<Integer, T>> keyed = new java.util.ArrayList<>();
                it.forEachRemaining(t -> keyed.add(new Tuple2<>(i / FAN_IN, t)));
                return keyed.iterator();
            }, true).mapToPair(t -> t).reduceByKey(merge, next).values();
            width = next;
        }
        List<R> out = level.map(finish).collect();
        if (out.size() != 1) {
            throw new IllegalStateException("the combine tree ended with " + out.size() + " results, expected 1");
        }
        return out.get(0);
    }
}
