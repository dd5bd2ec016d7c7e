package io.dpspectra.linalg;

import java.io.Serializable;
import java.util.BitSet;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * A sum over rows that is the same bit for bit however the rows are split up: the canonical block
 * structure behind every sufficient statistic of this library (XᵀX in {@link Gram}, and the other sums a
 * pass over rows makes), shared by one process reading a file on several threads and by a cluster job
 * over any partitioning.
 *
 * <p>The rows are numbered 0, 1, 2, … in the order of the data. Block b is rows [b·R, (b + 1)·R), with R
 * the leaf's {@link Leaf#blockRows()} (the last block may be shorter). Each block is
 * turned into an array of numbers by the {@link Leaf} (for XᵀX: one dsyrk over the block's rows) and the
 * block arrays are added into a {@link ReproducibleSum}, whose rounded result does not depend on the
 * order of addition. Rows may be given in any order and in pieces that do not line up with blocks, by
 * any number of {@code RowBlocks} (one per thread or per partition, each holding the rows it was given
 * at their global positions): a block split between pieces is kept until its rows are complete, then
 * folded, and {@link #merge} joins two holders, completing the blocks split between them. The result
 * is therefore a function of the rows and their order alone: the same for a file read row by row or on
 * parser threads, and for the same rows in 1 or 64 partitions combined in any order, after retries.
 *
 * <p>Memory: the sum (26 bytes per entry of the leaf's array), the rows given of each block split
 * between pieces (a sparse row as its non-zeros), and the leaf's scratch. Thread-safe: several threads
 * may {@link #add} at once (the leaf's work runs outside the lock).
 */
public final class RowBlocks implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Rows per block unless a leaf says otherwise. */
    public static final int DEFAULT_BLOCK_ROWS = 256;

    /**
     * What a block contributes: an array of {@link #length()} numbers computed from the block's rows
     * alone (never from their position or from other rows), the same bits whenever it is called on the
     * same rows. Implementations are serializable so that a cluster can ship a {@code RowBlocks}.
     */
    public interface Leaf extends Serializable {
        /**
         * Length of a block's array.
         *
         * @return the length
         */
        int length();

        /**
         * Rows per block: part of the definition of the result, so a function of the leaf's parameters
         * (its width, say) only. Larger blocks make the order-free additions rarer.
         *
         * @return the rows per block
         */
        default int blockRows() {
            return DEFAULT_BLOCK_ROWS;
        }

        /**
         * Writes the array of rows [from, from + count) of the row-major {@code rows} (width d) into
         * {@code out} (length {@link #length()}, contents undefined on entry). Not modified: rows.
         *
         * @param rows  the rows, row-major, width d
         * @param from  the block's first row in {@code rows}
         * @param count the block's number of rows
         * @param out   receives the block's array
         */
        void apply(double[] rows, int from, int count, double[] out);
    }

    /**
     * The sums of the columns of a block of rows (width d), each added row by row in row order from 0:
     * with {@link RowBlocks}, the sum of rows that is the same whatever the partitioning.
     *
     * @param d the width of the rows
     * @return the leaf
     */
    public static Leaf columnSums(int d) {
        return new ColumnSums(d);
    }

    private record ColumnSums(int d) implements Leaf {
        @Override
        public int length() {
            return d;
        }

        @Override
        public void apply(double[] rows, int from, int count, double[] out) {
            java.util.Arrays.fill(out, 0, d, 0.0);
            for (int r = from; r < from + count; r++) {
                int base = r * d;
                for (int j = 0; j < d; j++) {
                    out[j] += rows[base + j];
                }
            }
        }
    }

    /**
     * The rows given so far of a block that is not complete, each kept as its d values or, when at most half
     * of them are non-zero, as its non-zeros: a block split between the partitions of wide sparse rows is held
     * (and shipped between a cluster's machines) as its non-zeros, not as blockRows × d numbers. The values
     * come back exactly (only +0.0 entries are left out), so the block's array is the same.
     */
    private static final class Partial implements Serializable {
        private static final long serialVersionUID = 2L;
        final int d;
        final BitSet filled;
        /** Each given row's d values, or its non-zero values (then {@link #index} holds their columns). */
        final double[][] values;
        final int[][] index;

        Partial(int d, int blockRows) {
            this.d = d;
            filled = new BitSet(blockRows);
            values = new double[blockRows][];
            index = new int[blockRows][];
        }

        /** Keeps row {@code row} of the block: the d values of {@code data} from {@code at}. */
        void put(int row, double[] data, int at) {
            int nonzero = 0;
            for (int j = at; j < at + d; j++) {
                if (Double.doubleToRawLongBits(data[j]) != 0) {
                    nonzero++;
                }
            }
            if (2L * nonzero > d) {
                values[row] = java.util.Arrays.copyOfRange(data, at, at + d);
                index[row] = null;
                return;
            }
            double[] v = new double[nonzero];
            int[] ix = new int[nonzero];
            for (int j = 0, m = 0; j < d; j++) {
                if (Double.doubleToRawLongBits(data[at + j]) != 0) {
                    ix[m] = j;
                    v[m++] = data[at + j];
                }
            }
            values[row] = v;
            index[row] = ix;
        }

        /** The first {@code count} rows, row-major (each must have been given). */
        double[] dense(int count) {
            double[] out = new double[count * d];
            for (int r = 0; r < count; r++) {
                if (index[r] == null) {
                    System.arraycopy(values[r], 0, out, r * d, d);
                } else {
                    for (int e = 0; e < index[r].length; e++) {
                        out[r * d + index[r][e]] = values[r][e];
                    }
                }
            }
            return out;
        }
    }

    /** The width of the rows. */
    private final int d;
    /** Rows per block, the leaf's. */
    private final int blockRows;
    /** What each block contributes. */
    private final Leaf leaf;
    /**
     * The order-free sum of the complete blocks' arrays; null until the first (a holder of a few rows that
     * complete no block, such as a small partition's, is then shipped without its leaf-sized sum).
     */
    private ReproducibleSum sum;
    /** The blocks given in part so far, by block number: their rows, until complete. */
    private final TreeMap<Long, Partial> partial = new TreeMap<>();
    /** Rows given so far. */
    private long rows;
    /** One past the highest row given. */
    private long end;
    private transient ThreadLocal<double[]> scratch;

    /**
     * No rows yet, of width {@code d}, each block summarised by {@code leaf}.
     *
     * @param d    the width of the rows, at least 1
     * @param leaf what each block contributes
     */
    public RowBlocks(int d, Leaf leaf) {
        if (d < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, got " + d);
        }
        this.d = d;
        this.leaf = leaf;
        this.blockRows = leaf.blockRows();
        if (blockRows < 1) {
            throw new IllegalArgumentException("a block needs at least one row, got " + blockRows);
        }
        MatrixTooLargeException.checkedLength("a block of rows", blockRows, d);
    }

    /**
     * The width of the rows.
     *
     * @return d
     */
    public int dimension() {
        return d;
    }

    /**
     * Rows per block (the leaf's): read rows in chunks that end on multiples of it to copy none.
     *
     * @return the rows per block
     */
    public int blockRows() {
        return blockRows;
    }

    /**
     * Rows given so far (to this holder and every holder merged into it).
     *
     * @return the number of rows
     */
    public synchronized long rowCount() {
        return rows;
    }

    /**
     * Adds the rows [from, from + count) of the row-major {@code data} (width d), which are rows
     * [firstRow, firstRow + count) of the data set. Each row must be given exactly once, to one holder.
     * Not modified: data.
     *
     * @param firstRow the position in the data set of the first row given
     * @param data     the rows, row-major, width d
     * @param from     the first row of {@code data} to add
     * @param count    how many rows to add
     */
    public void add(long firstRow, double[] data, int from, int count) {
        if (firstRow < 0 || from < 0 || count < 0 || (long) (from + count) * d > data.length) {
            throw new IllegalArgumentException("rows " + from + " to " + (from + count) + " of an array of "
                    + data.length / d + " rows, at row " + firstRow);
        }
        long row = firstRow;
        int at = from;
        int stop = from + count;
        double[] out = null;   // the leaf's array, taken from this thread's scratch on first use
        while (at < stop) {
            long block = row / blockRows;
            int offset = (int) (row - block * blockRows);
            int take = Math.min(blockRows - offset, stop - at);
            if (take == blockRows) {
                if (out == null) {
                    out = leafScratch();
                }
                leaf.apply(data, at, blockRows, out);
                synchronized (this) {
                    sum().add(out, 0);
                }
            } else {
                Partial complete = stage(block, offset, data, at, take);
                if (complete != null) {
                    if (out == null) {
                        out = leafScratch();
                    }
                    leaf.apply(complete.dense(blockRows), 0, blockRows, out);
                    synchronized (this) {
                        sum().add(out, 0);
                    }
                }
            }
            row += take;
            at += take;
        }
        synchronized (this) {
            rows += count;
            this.end = Math.max(this.end, firstRow + count);
        }
    }

    /** The sum, made on first use (call with this holder's lock). */
    private ReproducibleSum sum() {
        if (sum == null) {
            sum = new ReproducibleSum(leaf.length());
        }
        return sum;
    }

    private double[] leafScratch() {
        synchronized (this) {
            if (scratch == null) {
                scratch = ThreadLocal.withInitial(() -> new double[leaf.length()]);
            }
        }
        return scratch.get();
    }

    /** Copies rows into the partial block; returns it, removed, once all its rows are there. */
    private synchronized Partial stage(long block, int offset, double[] data, int at, int take) {
        Partial p = staged(block, offset, take);
        for (int r = 0; r < take; r++) {
            p.put(offset + r, data, (at + r) * d);
        }
        return completed(block, p, offset, take);
    }

    /** Takes rows [from, to) of another holder's partial block into this one's (the rows are never modified). */
    private synchronized Partial stage(long block, Partial other, int from, int to) {
        Partial p = staged(block, from, to - from);
        System.arraycopy(other.values, from, p.values, from, to - from);
        System.arraycopy(other.index, from, p.index, from, to - from);
        return completed(block, p, from, to - from);
    }

    private Partial staged(long block, int offset, int take) {
        Partial p = partial.computeIfAbsent(block, b -> new Partial(d, blockRows));
        int clash = p.filled.nextSetBit(offset);
        if (clash >= 0 && clash < offset + take) {
            throw new IllegalStateException("row " + (block * blockRows + clash) + " was given twice");
        }
        return p;
    }

    private Partial completed(long block, Partial p, int offset, int take) {
        p.filled.set(offset, offset + take);
        if (p.filled.cardinality() == blockRows) {
            partial.remove(block);
            return p;
        }
        return null;
    }

    /**
     * Adds every row of {@code other} (the same width and leaf, holding other rows of the same data
     * set) into this holder. Modified: this. Not modified: other.
     *
     * @param other a holder of other rows of the same data set
     */
    public void merge(RowBlocks other) {
        if (other == this) {
            throw new IllegalArgumentException("cannot merge a holder into itself");
        }
        if (other.d != d || other.leaf.length() != leaf.length() || other.blockRows != blockRows) {
            throw new IllegalArgumentException("cannot merge rows of width " + other.d + " into rows of width " + d);
        }
        ReproducibleSum otherSum;
        TreeMap<Long, Partial> otherPartial;
        long otherRows;
        long otherEnd;
        synchronized (other) {
            otherSum = other.sum == null ? null : other.sum.copy();
            otherPartial = new TreeMap<>(other.partial);
            otherRows = other.rows;
            otherEnd = other.end;
        }
        synchronized (this) {
            if (otherSum != null) {
                sum().merge(otherSum);
            }
            rows += otherRows;
            end = Math.max(end, otherEnd);
        }
        for (Map.Entry<Long, Partial> e : otherPartial.entrySet()) {
            Partial p = e.getValue();
            long block = e.getKey();
            for (int from = p.filled.nextSetBit(0); from >= 0; ) {
                int to = p.filled.nextClearBit(from);
                Partial complete = stage(block, p, from, to);
                if (complete != null) {
                    double[] out = new double[leaf.length()];
                    leaf.apply(complete.dense(blockRows), 0, blockRows, out);
                    synchronized (this) {
                        sum().add(out, 0);
                    }
                }
                from = to >= blockRows ? -1 : p.filled.nextSetBit(to);
            }
        }
    }

    /**
     * The sum over rows [0, n) once every one of them was given (n = {@link #rowCount()}), the last,
     * possibly shorter, block included; this holder is not changed and may take more rows after.
     *
     * @return the sum of the blocks' arrays, of the leaf's length
     * @throws IllegalStateException if some rows below the highest given were never given
     */
    public synchronized double[] result() {
        long n = rows;
        if (end != n) {
            throw new IllegalStateException(n + " rows were given but the highest is row " + (end - 1)
                    + ": some rows were never added");
        }
        ReproducibleSum total = sum();
        long lastBlock = n == 0 ? -1 : (n - 1) / blockRows;
        int lastRows = (int) (n - lastBlock * blockRows);
        Iterator<Map.Entry<Long, Partial>> it = partial.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, Partial> e = it.next();
            Partial p = e.getValue();
            if (e.getKey() != lastBlock || p.filled.nextClearBit(0) != lastRows || p.filled.length() != lastRows) {
                throw new IllegalStateException("the rows of block " + e.getKey() + " are incomplete ("
                        + p.filled.cardinality() + " of " + blockRows + ") with " + n + " rows given: some rows "
                        + "were never added");
            }
            double[] out = new double[leaf.length()];
            leaf.apply(p.dense(lastRows), 0, lastRows, out);
            total = sum().copy();
            total.add(out, 0);
        }
        double[] result = new double[leaf.length()];
        total.round(result, 0);
        return result;
    }
}
