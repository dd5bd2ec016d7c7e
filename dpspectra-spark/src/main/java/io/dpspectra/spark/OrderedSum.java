package io.dpspectra.spark;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * A sum of per-partition arrays (Gram blocks, Xᵀ(XW) blocks) and row counts whose floating-point result
 * does not depend on the order in which Spark combines partial results.
 *
 * <p>Spark's {@code treeAggregate} folds partial results in task-completion order, and floating-point
 * addition is not associative, so a plain fold could change the last bits of XᵀX between two runs, or
 * after a task is retried. Here each partial result carries the partition indices it covers, as aligned
 * dyadic blocks [m·2ˡ, (m+1)·2ˡ): two sibling blocks are merged only as (left) + (right), whichever
 * arrives first, and the final total adds the remaining maximal blocks in index order. The summation tree
 * is therefore fixed by the number of partitions alone: the same rows in the same partitions give the
 * same bits, whatever the scheduling, retries or speculative copies.
 *
 * <p>Memory: a partial holds one array per maximal block it covers. Blocks merge only when adjacent, and
 * {@code treeAggregate}'s intermediate level groups partitions by index modulo a stride, so in the worst
 * case the driver holds one d × d array per partition at once (P·d²·8 bytes: 80 MB for P = 1000 at
 * d = 100; in the usual case, results arriving roughly in index order, about log₂ P). For many partitions
 * at large d, coalesce the input first.
 */
final class OrderedSum implements Serializable {
    private static final long serialVersionUID = 1L;

    /** A block of partitions [start, start + 2^level): its summed array and counts. */
    private record Block(int level, double[] values, long rows, long clipped) implements Serializable {
    }

    private final TreeMap<Integer, Block> blocks = new TreeMap<>();

    /** The empty sum (the zero of the aggregation). */
    OrderedSum() {
    }

    /** The contribution of one partition. */
    static OrderedSum of(int partition, double[] values, long rows, long clipped) {
        OrderedSum s = new OrderedSum();
        s.insert(partition, new Block(0, values, rows, clipped));
        return s;
    }

    /** Adds every block of {@code other} into this sum and returns this. Modified: this. */
    OrderedSum merge(OrderedSum other) {
        for (Map.Entry<Integer, Block> e : other.blocks.entrySet()) {
            insert(e.getKey(), e.getValue());
        }
        return this;
    }

    private void insert(int start, Block block) {
        while (true) {
            Block same = blocks.get(start);
            if (same != null) {
                throw new IllegalStateException("partition block at " + start + " counted twice; a partial "
                        + "result was combined more than once");
            }
            int size = 1 << block.level;
            boolean left = ((start >> block.level) & 1) == 0;
            int siblingStart = left ? start + size : start - size;
            Block sibling = blocks.get(siblingStart);
            if (sibling == null || sibling.level != block.level) {
                blocks.put(start, block);
                return;
            }
            blocks.remove(siblingStart);
            Block l = left ? block : sibling;
            Block r = left ? sibling : block;
            block = new Block(block.level + 1, add(l.values, r.values), l.rows + r.rows, l.clipped + r.clipped);
            start = Math.min(start, siblingStart);
        }
    }

    private static double[] add(double[] left, double[] right) {
        if (left.length != right.length) {
            throw new IllegalStateException("partial sums of different sizes: " + left.length + " and " + right.length);
        }
        double[] out = new double[left.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = left[i] + right[i];
        }
        return out;
    }

    /** The number of partitions covered. */
    int partitions() {
        int n = 0;
        for (Block b : blocks.values()) {
            n += 1 << b.level;
        }
        return n;
    }

    /**
     * The total over partitions 0 .. partitions − 1, after checking that each was counted exactly once.
     *
     * @throws IllegalStateException if a partition is missing
     */
    Total total(int expectedPartitions) {
        if (blocks.isEmpty() || blocks.firstKey() != 0 || partitions() != expectedPartitions) {
            throw new IllegalStateException("the aggregate covers " + partitions() + " partitions, expected "
                    + expectedPartitions);
        }
        double[] sum = null;
        long rows = 0;
        long clipped = 0;
        for (Block b : blocks.values()) {
            sum = sum == null ? b.values.clone() : add(sum, b.values);
            rows += b.rows;
            clipped += b.clipped;
        }
        return new Total(sum, rows, clipped);
    }

    /** The summed array, the number of rows and of clipped rows. */
    record Total(double[] values, long rows, long clipped) {
    }
}
