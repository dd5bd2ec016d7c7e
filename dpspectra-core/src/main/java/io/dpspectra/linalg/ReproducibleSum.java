package io.dpspectra.linalg;

import java.io.Serializable;
import java.util.Arrays;

/**
 * An elementwise sum of arrays of doubles whose rounded result depends only on the multiset of arrays
 * added, never on the order in which they were added or in which partial sums were merged: the
 * accumulator behind {@link RowBlocks}, so that XᵀX summed over a file read on several threads, or over
 * the partitions of a cluster job combined in any order, or after a task is retried, is bit for bit the
 * same.
 *
 * <p>Method (binned summation, after Demmel and Nguyen's reproducible summation): the binary digits of
 * every summand are cut at fixed global boundaries, the multiples of {@value #BIN_BITS} bits, into
 * slices; slice j of every summand is added, as an integer, into a 64-bit counter for bin j, and
 * counters never carry into each other. Each entry keeps the {@value #BINS} bins below and including the
 * highest bin any of its summands reached; the slices of lower bins are dropped when the summand is
 * added or, if the highest bin rises later, then. What is kept is therefore the exact sum of the
 * summands' slices in the {@value #BINS} highest bins, whatever the order; it is rounded to a double
 * once, by {@link #round}. The kept part is accurate to at least 2⁻⁶⁴ of the largest summand of each
 * entry (a plain double sum of N terms can be off by N·2⁻⁵³ of their total).
 *
 * <p>Limits: at most 2³⁰ arrays are added in all (merges included) before the counters could overflow;
 * beyond that {@link #add} throws. Infinite and NaN summands give the IEEE result (NaN if a NaN or both
 * infinities were added, else the infinity), whatever the order.
 *
 * <p>Cost: about 25 integer operations per entry added; memory 26 bytes per entry. Not thread-safe.
 */
public final class ReproducibleSum implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Bits per bin. */
    static final int BIN_BITS = 32;
    /** Bins kept per entry. */
    static final int BINS = 3;
    /** Arrays that can be added before a counter could overflow: (2³⁰)·(2³² − 1) + carries &lt; 2⁶³. */
    static final long MAX_ADDS = 1L << 30;
    private static final long MASK = (1L << BIN_BITS) - 1;
    private static final byte EMPTY = Byte.MIN_VALUE;
    private static final byte POS_INF = 1;
    private static final byte NEG_INF = 2;
    private static final byte NAN = 4;

    /** Entries per array. */
    private final int length;
    /** BINS counters per entry, lowest bin first. */
    private final long[] bins;
    /** The index of each entry's highest kept bin (its counters cover bins top − BINS + 1 .. top), or EMPTY. */
    private final byte[] top;
    /** Infinities and NaNs seen, per entry; null until the first. */
    private byte[] special;
    /** Arrays added so far (merged sums included). */
    private long adds;

    /**
     * The zero sum of arrays of {@code length} entries.
     *
     * @param length the number of entries, ≥ 0
     * @throws IllegalArgumentException for a negative length
     */
    public ReproducibleSum(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, got " + length);
        }
        this.length = length;
        this.bins = new long[MatrixTooLargeException.checkedLength("the reproducible sum", length, BINS)];
        this.top = new byte[length];
        Arrays.fill(top, EMPTY);
    }

    private ReproducibleSum(ReproducibleSum other) {
        this.length = other.length;
        this.bins = other.bins.clone();
        this.top = other.top.clone();
        this.special = other.special == null ? null : other.special.clone();
        this.adds = other.adds;
    }

    /**
     * An independent copy.
     *
     * @return the copy
     */
    public ReproducibleSum copy() {
        return new ReproducibleSum(this);
    }

    /**
     * Entries per array.
     *
     * @return the number of entries
     */
    public int length() {
        return length;
    }

    /**
     * Adds {@code values[from .. from + length)} entry by entry. Not modified: values.
     *
     * @param values the array holding the entries
     * @param from   the index of the first entry
     * @throws IllegalArgumentException when the array holds fewer than length entries from {@code from}
     */
    public void add(double[] values, int from) {
        if (from < 0 || (long) from + length > values.length) {
            throw new IllegalArgumentException("need " + length + " values from " + from + ", array has "
                    + values.length);
        }
        countAdds(1);
        for (int i = 0; i < length; i++) {
            double v = values[from + i];
            if (v != 0) {
                addEntry(i, v);
            }
        }
    }

    private void countAdds(long more) {
        if (adds + more > MAX_ADDS) {
            throw new IllegalStateException("a reproducible sum takes at most " + MAX_ADDS + " arrays; this one has "
                    + adds + " and was given " + more + " more");
        }
        adds += more;
    }

    private void addEntry(int i, double v) {
        long bits = Double.doubleToRawLongBits(v);
        int biased = (int) (bits >>> 52) & 0x7ff;
        if (biased == 0x7ff) {
            if (special == null) {
                special = new byte[length];
            }
            special[i] |= Double.isNaN(v) ? NAN : bits < 0 ? NEG_INF : POS_INF;
            return;
        }
        long m = bits & 0xFFFFFFFFFFFFFL;
        int e;
        if (biased == 0) {
            e = -1074;
        } else {
            m |= 1L << 52;
            e = biased - 1075;
        }
        // |v| = m·2^e = M·2^(lo·BIN_BITS) with M = m << shift, cut into three slices of BIN_BITS bits
        int lo = e >> 5;          // floor(e / BIN_BITS), BIN_BITS = 32
        int shift = e & 31;       // e − lo·BIN_BITS
        long s0 = (m << shift) & MASK;
        long rest = m >>> (BIN_BITS - shift);
        long s1 = rest & MASK;
        long s2 = rest >>> BIN_BITS;
        int high = s2 != 0 ? lo + 2 : s1 != 0 ? lo + 1 : lo;
        int base = i * BINS;
        int t = top[i];
        if (t == EMPTY) {
            t = high;
            top[i] = (byte) t;
        } else if (high > t) {
            dropLowBins(base, high - t);
            t = high;
            top[i] = (byte) t;
        }
        int k = lo - (t - BINS + 1);   // the counter of bin lo (may be below the kept bins)
        long sign = bits >> 63;   // 0 or −1: (s ^ sign) − sign is s or −s
        s0 = (s0 ^ sign) - sign;
        s1 = (s1 ^ sign) - sign;
        s2 = (s2 ^ sign) - sign;
        if (k == 0) {             // the usual case: the summand reaches the entry's highest bin
            bins[base] += s0;
            bins[base + 1] += s1;
            bins[base + 2] += s2;
            return;
        }
        if (k >= 0) {
            bins[base + k] += s0;
        }
        if (k + 1 >= 0 && k + 1 < BINS) {
            bins[base + k + 1] += s1;
        }
        if (k + 2 >= 0 && k + 2 < BINS) {
            bins[base + k + 2] += s2;
        }
    }

    /** Moves the counters of one entry down by {@code by} bins, dropping the lowest. */
    private void dropLowBins(int base, int by) {
        for (int k = 0; k < BINS; k++) {
            bins[base + k] = k + by < BINS ? bins[base + k + by] : 0;
        }
    }

    /**
     * Adds {@code other} (same length) into this sum. Modified: this. Not modified: other.
     *
     * @param other a sum of the same length
     * @throws IllegalArgumentException for another length
     */
    public void merge(ReproducibleSum other) {
        if (other.length != length) {
            throw new IllegalArgumentException("cannot merge a sum of " + other.length + " entries into one of "
                    + length);
        }
        countAdds(other.adds);
        for (int i = 0; i < length; i++) {
            int ot = other.top[i];
            if (ot == EMPTY) {
                continue;
            }
            int base = i * BINS;
            int t = top[i];
            if (t == EMPTY) {
                System.arraycopy(other.bins, base, bins, base, BINS);
                top[i] = (byte) ot;
                continue;
            }
            if (ot > t) {
                dropLowBins(base, ot - t);
                t = ot;
                top[i] = (byte) t;
            }
            int by = t - ot;   // other's counter k is this entry's counter k − by
            for (int k = by; k < BINS; k++) {
                bins[base + k - by] += other.bins[base + k];
            }
        }
        if (other.special != null) {
            if (special == null) {
                special = new byte[length];
            }
            for (int i = 0; i < length; i++) {
                special[i] |= other.special[i];
            }
        }
    }

    /**
     * The sum, entry by entry, rounded to doubles into {@code out[from .. from + length)}. Modified: out.
     *
     * @param out  the array written
     * @param from the index of the first entry written
     */
    public void round(double[] out, int from) {
        for (int i = 0; i < length; i++) {
            out[from + i] = round(i);
        }
    }

    /**
     * Entry {@code i} of the sum, rounded to a double.
     *
     * @param i the entry
     * @return the rounded sum
     */
    public double round(int i) {
        if (special != null && special[i] != 0) {
            byte s = special[i];
            if ((s & NAN) != 0 || (s & (POS_INF | NEG_INF)) == (POS_INF | NEG_INF)) {
                return Double.NaN;
            }
            return (s & POS_INF) != 0 ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        }
        int t = top[i];
        if (t == EMPTY) {
            return 0.0;
        }
        // carry the two low counters into BIN_BITS-bit digits (a canonical form of the kept sum)
        int base = i * BINS;
        long v0 = bins[base];
        long d0 = v0 & MASK;
        long v1 = bins[base + 1] + (v0 >> BIN_BITS);
        long d1 = v1 & MASK;
        long v2 = bins[base + 2] + (v1 >> BIN_BITS);
        // sum = hi·2^(BIN_BITS·t) + low·2^(BIN_BITS·(t − 2)), hi signed, low = d1·2^32 + d0 in [0, 2^64)
        long hi = v2;
        double hiRounded = (double) hi;
        long hiRest = hi - (long) hiRounded;   // exact: |hi| < 2^63 and hiRounded is within 2^10 of it
        double low = d1 * 0x1p32 + d0;
        int scale = BIN_BITS * t;
        return Math.scalb(hiRounded, scale) + (Math.scalb((double) hiRest, scale)
                + Math.scalb(low, scale - 2 * BIN_BITS));
    }
}
