package io.dpspectra.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link LocalPcaAggregator#addAll(Path, boolean)}: aggregates a binary report file in one pass per report, on
 * every core, with the bits of the result independent of the machine.
 *
 * <p>The file's whole reports are split into a number of contiguous segments fixed by the report count alone
 * (min({@value #SEGMENTS}, ⌊n / {@value #MIN_SEGMENT_REPORTS}⌋), at least 1), never by the number of cores.
 * A pool of one thread per core (at most one per segment) takes the segments; each reads its segment by
 * positional reads into its own 256 KiB direct buffer (measured: as fast as 4 MiB, and a memory map
 * was 1.6x slower, its page faults costing more than the copy it saves) and, for each report while it is in cache, checks its
 * CRC-32, compares its header with the first report's (parsing and checking it only when it differs), copies
 * its values, checks them finite and adds them into the segment's own {@link LocalPcaAggregator} (blocks of
 * {@value LocalPcaAggregator#BLOCK} folded by Neumaier's compensated summation). The segments' sums are then
 * combined in file order, compensated again ({@link LocalPcaAggregator#absorb}). A file of fewer than
 * 2·{@value #MIN_SEGMENT_REPORTS} reports is one segment and gives the sequential reader's bits exactly; a
 * larger one differs from the sequential sum only within the compensated-summation bound.
 *
 * <p>Refusals are the sequential reader's, with the same messages and report numbers: without skipping, the
 * lowest-numbered refused report is thrown (a segment stops at its first refusal, later segments stop early,
 * and the reports before the refused one stay added, as in the sequential reader); with skipping, the
 * refusals are listed in file order. The place of each report in its file ({@link ReportSequence}) is checked
 * within a segment from its first readable report on; that report is checked against the end of the segment
 * before it when the segments are joined in file order, and the end of the file (after the whole reports, or
 * inside a report) against the last, so missing reports are found as one sequential pass finds them. JSON lines,
 * an empty file and a binary file whose first report would be refused go to the sequential
 * {@link LocalReportReader}, so their handling is unchanged.
 *
 * <p>Cost: each report's bytes are touched once from memory; memory O(p²): at most {@value #SEGMENTS}
 * segment sums (3·p(p+1)/2 doubles each), one report's values per thread, and a 256 KiB buffer per thread.
 */
final class ReportFileAggregation {
    static final int SEGMENTS = 16;
    static final int MIN_SEGMENT_REPORTS = 4096;
    /** Small enough for a core's L2 cache, so the CRC, the decode and the sum find the report there. */
    private static final int CHUNK_BYTES = 256 << 10;

    private ReportFileAggregation() {
    }

    static List<InvalidReportException> addAll(LocalPcaAggregator into, Path path, boolean skipInvalid) {
        return addAll(into, path, skipInvalid, -1);
    }

    /** As {@link #addAll(LocalPcaAggregator, Path, boolean)}; {@code segments} > 0 overrides the count (tests). */
    static List<InvalidReportException> addAll(LocalPcaAggregator into, Path path, boolean skipInvalid, int segments) {
        String name = path.toString();
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            ReportParameters first = firstReportIfAccepted(into, channel);
            if (first == null) {
                try (LocalReportReader reader = LocalReportReader.open(path)) {
                    return into.addAll(reader, skipInvalid);
                }
            }
            int recordBytes = LocalReportFormat.binaryRecordBytes(first.dimension());
            long size = channel.size();
            long reports = size / recordBytes;
            int count = segments > 0 ? (int) Math.min(segments, reports)
                    : (int) Math.max(1, Math.min(SEGMENTS, reports / MIN_SEGMENT_REPORTS));
            Segment[] parts = new Segment[count];
            AtomicInteger lowestFailed = new AtomicInteger(Integer.MAX_VALUE);
            ByteBuffer header = ByteBuffer.allocate(LocalReportFormat.PARAMETER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(header, 0);
            for (int s = 0; s < count; s++) {
                parts[s] = new Segment(s, reports * s / count, reports * (s + 1) / count, first, header.array(),
                        recordBytes, name, skipInvalid, lowestFailed);
            }
            run(parts, channel);
            List<InvalidReportException> refused = new ArrayList<>();
            ReportSequence sequence = ReportSequence.atStart();
            for (Segment part : parts) {
                into.absorb(part.sum);
                for (long[] before : part.beforeHead) { // replayed as the sequential pass meets them
                    if (before == null) {
                        sequence.unreadable();
                    } else if (sequence.isDue(before[0], before[1])) {
                        sequence.arrive(before[0], before[1], () -> "");
                    }
                }
                int head = part.headPosition == null ? part.refused.size() : part.refusedBeforeHead;
                refused.addAll(part.refused.subList(0, head));
                if (part.headPosition != null) {
                    String at = part.headPosition;
                    LocalPcaAggregator.note(sequence.arrive(part.headIndex, part.headCount, () -> at), skipInvalid,
                            refused);
                    sequence.copyFrom(part.sequence);
                }
                refused.addAll(part.refused.subList(head, part.refused.size()));
                if (part.failure != null) {
                    throw part.failure;
                }
            }
            long tail = size - reports * recordBytes;
            LocalPcaAggregator.note(sequence.end(tail > 0 ? BinaryRecords.position(name, reports + 1, recordBytes)
                    : name + " end", tail, recordBytes), skipInvalid, refused);
            return refused;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the reports in " + name + ": " + e.getMessage(), e);
        }
    }

    /** The first report's parameters when it is a whole binary report that {@code into} would accept; else null. */
    private static ReportParameters firstReportIfAccepted(LocalPcaAggregator into, FileChannel channel)
            throws IOException {
        ByteBuffer head = ByteBuffer.allocate(LocalReportFormat.BINARY_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        while (head.hasRemaining() && channel.read(head, head.position()) > 0) {
            // fill the header
        }
        int dimension = head.getInt(8);
        if (head.hasRemaining() || head.getInt(0) != LocalReportFormat.MAGIC || dimension < 1
                || dimension > ReportParameters.MAX_DIMENSION) {
            return null;
        }
        int recordBytes = LocalReportFormat.binaryRecordBytes(dimension);
        if (channel.size() < recordBytes) {
            return null;
        }
        ByteBuffer record = ByteBuffer.allocate(recordBytes).order(ByteOrder.LITTLE_ENDIAN);
        while (record.hasRemaining() && channel.read(record, record.position()) > 0) {
            // fill the record
        }
        if (!new BinaryRecords(record).checksumOk(0, recordBytes)) {
            return null;
        }
        ReportParameters parameters;
        try {
            parameters = LocalReportReader.headerParameters(record, 0, () -> "");
        } catch (InvalidReportException e) {
            return null;
        }
        if (!into.accepts(parameters)) {
            return null;
        }
        long index = record.getLong(LocalReportFormat.INDEX_AT);
        long count = record.getLong(LocalReportFormat.COUNT_AT);
        if (count < 1 || index < 1 || index > count) {
            return null;
        }
        double bound = parameters.entryBound();
        for (int i = LocalReportFormat.BINARY_HEADER; i < recordBytes - 4; i += 8) {
            if (!(Math.abs(record.getDouble(i)) <= bound)) {
                return null;
            }
        }
        return parameters;
    }

    /** Runs the segments on a pool of one thread per core (on this thread when that is one). */
    private static void run(Segment[] parts, FileChannel channel) throws IOException {
        int threads = Math.min(parts.length, Runtime.getRuntime().availableProcessors());
        if (threads <= 1) {
            for (Segment part : parts) {
                part.call(channel);
            }
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "dpspectra-report-segment");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (Segment part : parts) {
                done.add(pool.submit(() -> {
                    part.call(channel);
                    return null;
                }));
            }
            for (Future<Void> f : done) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the reports", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new IOException(cause);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Reports [from, to) (0-based) of the file, checked and summed into their own aggregator. */
    private static final class Segment {
        private final int index;
        private final long from;
        private final long to;
        private final ReportParameters first;
        private final long[] firstHeader = new long[LocalReportFormat.PARAMETER_BYTES / 8];
        private final int recordBytes;
        private final String name;
        private final boolean skipInvalid;
        private final AtomicInteger lowestFailed;
        final LocalPcaAggregator sum;
        final List<InvalidReportException> refused = new ArrayList<>();
        InvalidReportException failure;
        private long number;
        /** The place of each report, checked from the segment's first readable report (its head) on. */
        final ReportSequence sequence = ReportSequence.anywhere();
        /** The head: its place, its position (null: no readable report), the refusals and unreadable reports before it. */
        long headIndex;
        long headCount;
        String headPosition;
        int refusedBeforeHead;
        /**
         * Before the head, in order: null for a report that could not be read, {index, count} for one made under
         * other parameters (whether it was the report due is known only where the segment before ends).
         */
        final List<long[]> beforeHead = new ArrayList<>();

        Segment(int index, long from, long to, ReportParameters first, byte[] header, int recordBytes, String name,
                boolean skipInvalid, AtomicInteger lowestFailed) {
            this.index = index;
            this.from = from;
            this.to = to;
            this.first = first;
            ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < firstHeader.length; i++) {
                firstHeader[i] = h.getLong(8 * i);
            }
            this.recordBytes = recordBytes;
            this.name = name;
            this.skipInvalid = skipInvalid;
            this.lowestFailed = lowestFailed;
            this.sum = LocalPcaAggregator.segmentAfterFirst(first);
        }

        void call(FileChannel channel) throws IOException {
            int perChunk = Math.max(1, CHUNK_BYTES / recordBytes);
            ByteBuffer buffer = ByteBuffer.allocateDirect(perChunk * recordBytes).order(ByteOrder.LITTLE_ENDIAN);
            BinaryRecords records = new BinaryRecords(buffer);
            double[] values = new double[first.reportLength()];
            java.util.function.Supplier<String> position = () -> BinaryRecords.position(name, number, recordBytes);
            for (long start = from; start < to && lowestFailed.get() > index; start += perChunk) {
                int n = (int) Math.min(perChunk, to - start);
                long offset = start * recordBytes;
                buffer.clear().limit(n * recordBytes);
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer, offset + buffer.position()) < 0) {
                        throw new IOException("the file shrank while it was read");
                    }
                }
                if (!check(records, values, start, n, position)) {
                    return;
                }
            }
        }

        /** Checks and adds the {@code n} reports in {@code buffer}; false when one was refused and that ends the reading. */
        private boolean check(BinaryRecords records, double[] values, long start, int n,
                              java.util.function.Supplier<String> position) {
            ByteBuffer buffer = records.chunk();
            for (int k = 0, at = 0; k < n; k++, at += recordBytes) {
                number = start + k + 1;
                boolean readable = false;
                try {
                    if (!records.checksumOk(at, recordBytes)) {
                        throw new InvalidReportException(position.get(), "checksum mismatch: the report is corrupted");
                    }
                    ReportParameters parameters = sameHeader(buffer, at) ? first
                            : LocalReportReader.headerParameters(buffer, at, position);
                    long place = buffer.getLong(at + LocalReportFormat.INDEX_AT);
                    long of = buffer.getLong(at + LocalReportFormat.COUNT_AT);
                    ReportSequence.checkPlace(place, of, position);
                    readable = true;
                    records.decodeValues(at, values);
                    if (!sum.accepts(parameters)) {
                        if (headPosition == null) {
                            beforeHead.add(new long[] {place, of});
                            sum.add(parameters, values, position); // refused with the reason
                        } else if (!sequence.isDue(place, of)) {
                            sum.add(parameters, values, position); // another file's report: refused, no place
                        }
                    }
                    if (headPosition == null) {
                        headIndex = place;
                        headCount = of;
                        headPosition = position.get();
                        refusedBeforeHead = refused.size();
                    }
                    MissingReportsException gap = sequence.arrive(place, of, position);
                    if (gap != null) {
                        if (!refuse(gap)) {
                            return false;
                        }
                    }
                    sum.add(parameters, values, position);
                } catch (InvalidReportException e) {
                    if (!readable) {
                        if (headPosition == null) {
                            beforeHead.add(null);
                        } else {
                            sequence.unreadable();
                        }
                    }
                    if (!refuse(e)) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** Records a refusal; false when it ends the reading (no skipping). */
        private boolean refuse(InvalidReportException e) {
            if (!skipInvalid) {
                failure = e;
                lowestFailed.accumulateAndGet(index, Math::min);
                return false;
            }
            refused.add(e);
            return true;
        }

        private boolean sameHeader(ByteBuffer buffer, int at) {
            for (int i = 0; i < firstHeader.length; i++) {
                if (buffer.getLong(at + 8 * i) != firstHeader[i]) {
                    return false;
                }
            }
            return true;
        }
    }
}
