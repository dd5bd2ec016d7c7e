package io.dpspectra.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The segmented, parallel aggregation of a binary report file against the sequential reader. */
class ReportFileAggregationTest {
    private static final PrivacyParams PRIVACY = PrivacyParams.of(1.0, 1e-5);
    private static final int P = 3;
    private static final int N = 3000;
    private static final int SEGMENTS = 4; // 750 reports each: report 751 opens the 2nd segment
    private static final int RECORD = LocalReportFormat.binaryRecordBytes(P);

    @TempDir
    Path dir;

    private static List<LocalReport> reports(int n, PrivacyParams privacy, long seed) {
        LocalCovarianceRandomizer r = LocalCovarianceRandomizer.builder().dimension(P).privacy(privacy)
                .randomSource(RandomSource.seededForReproducibility(seed)).build();
        RandomSource data = RandomSource.seededForReproducibility(seed + 1);
        List<LocalReport> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double[] x = new double[P];
            for (int j = 0; j < P; j++) {
                x[j] = data.standardNormal() / Math.sqrt(P);
            }
            out.add(r.randomize(x));
        }
        return out;
    }

    private Path write(List<LocalReport> reports, String file) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (LocalReportWriter w = new LocalReportWriter(bytes, LocalReportFormat.BINARY, reports.size())) {
            reports.forEach(w::write);
        }
        return Files.write(dir.resolve(file), bytes.toByteArray());
    }

    private static LocalPcaAggregator sequential(Path file, boolean skip, List<InvalidReportException> refused) {
        LocalPcaAggregator a = LocalPcaAggregator.create();
        try (LocalReportReader r = LocalReportReader.open(file)) {
            refused.addAll(a.addAll(r, skip));
        }
        return a;
    }

    /** The refusal the sequential reader throws for {@code file}. */
    private static InvalidReportException sequentialRefusal(Path file, boolean skip) {
        try {
            sequential(file, skip, new ArrayList<>());
        } catch (InvalidReportException e) {
            return e;
        }
        throw new AssertionError("the sequential reader accepted " + file);
    }

    private static LocalPcaAggregator parallel(Path file, boolean skip, List<InvalidReportException> refused) {
        LocalPcaAggregator a = LocalPcaAggregator.create();
        refused.addAll(ReportFileAggregation.addAll(a, file, skip, SEGMENTS));
        return a;
    }

    private static List<String> messages(List<InvalidReportException> refused) {
        return refused.stream().map(Throwable::getMessage).toList();
    }

    @Test
    void segmentedSumIsTheSequentialOneWithinTheCompensatedBoundAndTheSameBitsEveryRun() throws Exception {
        Path file = write(reports(N, PRIVACY, 1), "reports.bin");
        double[] seq = sequential(file, false, new ArrayList<>()).sum();
        LocalPcaAggregator once = parallel(file, false, new ArrayList<>());
        assertThat(once.count()).isEqualTo(N);
        double[] par = once.sum();
        // both sums are compensated (blocks of 1024 added plainly, then Neumaier): each is within
        // (BLOCK + 2) u Σ|x_i| of the exact sum, so they differ by at most twice that
        double u = Math.ulp(1.0) / 2;
        List<LocalReport> all = reports(N, PRIVACY, 1);
        for (int i = 0; i < seq.length; i++) {
            double abs = 0;
            for (LocalReport r : all) {
                abs += Math.abs(r.values()[i]);
            }
            assertThat(Math.abs(par[i] - seq[i])).isLessThanOrEqualTo(2 * (LocalPcaAggregator.BLOCK + 2) * u * abs);
        }
        for (int run = 0; run < 3; run++) {
            assertThat(parallel(file, false, new ArrayList<>()).sum()).containsExactly(par);
        }
        // one segment (a small file through the public entry) gives the sequential bits exactly
        LocalPcaAggregator whole = LocalPcaAggregator.create();
        whole.addAll(file, false);
        assertThat(whole.sum()).containsExactly(seq);
    }

    @Test
    void corruptedReportInTheSecondSegmentIsRefusedWithItsNumberAndSkippedInFileOrder() throws Exception {
        Path good = write(reports(N, PRIVACY, 2), "good.bin");
        byte[] bytes = Files.readAllBytes(good);
        bytes[(int) (900L * RECORD) + 70] ^= 0x10; // a value of report 901 (2nd segment)
        bytes[(int) (2500L * RECORD) + 70] ^= 0x10; // report 2501 (4th segment)
        bytes[(int) (100L * RECORD) + 70] ^= 0x10; // report 101 (1st segment)
        Path bad = Files.write(dir.resolve("bad.bin"), bytes);
        assertThatThrownBy(() -> parallel(bad, false, new ArrayList<>())).isInstanceOf(InvalidReportException.class)
                .hasMessage(bad + " report 101 (byte " + 100L * RECORD + "): checksum mismatch: the report is corrupted");
        bytes[(int) (100L * RECORD) + 70] ^= 0x10;
        Files.write(bad, bytes);
        InvalidReportException seqError = sequentialRefusal(bad, false);
        assertThatThrownBy(() -> parallel(bad, false, new ArrayList<>())).hasMessage(seqError.getMessage())
                .hasMessageContaining("report 901");

        List<InvalidReportException> seqRefused = new ArrayList<>();
        List<InvalidReportException> parRefused = new ArrayList<>();
        double[] seq = sequential(bad, true, seqRefused).sum();
        LocalPcaAggregator par = parallel(bad, true, parRefused);
        assertThat(messages(parRefused)).containsExactlyElementsOf(messages(seqRefused)).hasSize(2);
        assertThat(parRefused.get(0).position()).contains("report 901");
        assertThat(parRefused.get(1).position()).contains("report 2501");
        assertThat(par.count()).isEqualTo(N - 2);
        double[] parSum = par.sum();
        for (int i = 0; i < seq.length; i++) {
            assertThat(parSum[i]).isCloseTo(seq[i], org.assertj.core.api.Assertions.within(1e-9 * (1 + Math.abs(seq[i]))));
        }
    }

    @Test
    void reportUnderOtherParametersInALaterSegmentIsRefusedAsTheSequentialReaderRefusesIt() throws Exception {
        List<LocalReport> mixed = new ArrayList<>(reports(N, PRIVACY, 3));
        mixed.set(1800, reports(1, PrivacyParams.of(2.0, 1e-5), 4).get(0)); // report 1801, 3rd segment
        Path file = write(mixed, "mixed.bin");
        InvalidReportException seqError = sequentialRefusal(file, false);
        assertThatThrownBy(() -> parallel(file, false, new ArrayList<>())).hasMessage(seqError.getMessage())
                .hasMessageContaining("report 1801").hasMessageContaining("reports before it")
                .hasMessageContaining("epsilon 2.0 differs from 1.0");
        List<InvalidReportException> refused = new ArrayList<>();
        assertThat(parallel(file, true, refused).count()).isEqualTo(N - 1);
        assertThat(refused).hasSize(1);
    }

    /** Both paths' verdicts on {@code file}, strict and skipping: the same messages, and the same sums when skipping. */
    private static List<InvalidReportException> sameVerdicts(Path file) {
        InvalidReportException seqError = sequentialRefusal(file, false);
        assertThatThrownBy(() -> parallel(file, false, new ArrayList<>())).hasMessage(seqError.getMessage());
        List<InvalidReportException> seqRefused = new ArrayList<>();
        List<InvalidReportException> parRefused = new ArrayList<>();
        LocalPcaAggregator seq = sequential(file, true, seqRefused);
        LocalPcaAggregator par = parallel(file, true, parRefused);
        assertThat(messages(parRefused)).containsExactlyElementsOf(messages(seqRefused));
        assertThat(par.count()).isEqualTo(seq.count());
        assertThat(LocalPcaAggregator.missing(parRefused)).isEqualTo(LocalPcaAggregator.missing(seqRefused));
        return parRefused;
    }

    @Test
    void fileEndingInsideAReportIsRefusedAndWithSkippingItsMissingReportIsCounted() throws Exception {
        byte[] bytes = Files.readAllBytes(write(reports(N, PRIVACY, 5), "r.bin"));
        Path cut = Files.write(dir.resolve("cut.bin"), java.util.Arrays.copyOf(bytes, bytes.length - 5));
        assertThatThrownBy(() -> parallel(cut, false, new ArrayList<>())).hasMessageContaining("report " + N)
                .hasMessageContaining("truncated").hasMessageContaining("inside a report");
        List<InvalidReportException> refused = sameVerdicts(cut);
        assertThat(refused).singleElement().isInstanceOf(MissingReportsException.class);
        assertThat(LocalPcaAggregator.missing(refused)).isEqualTo(1);
    }

    /** Before every report carried its place, a file cut at a report boundary was aggregated without a word. */
    @Test
    void fileCutAtAReportBoundaryIsRefusedAndWithSkippingTheMissingAreCounted() throws Exception {
        byte[] bytes = Files.readAllBytes(write(reports(N, PRIVACY, 7), "r.bin"));
        for (int kept : new int[] {N - 1, 1700, 750, 1}) {
            Path cut = Files.write(dir.resolve("cut" + kept + ".bin"), java.util.Arrays.copyOf(bytes, kept * RECORD));
            assertThatThrownBy(() -> parallel(cut, false, new ArrayList<>())).isInstanceOf(MissingReportsException.class)
                    .hasMessageContaining(cut + " end").hasMessageContaining("after report " + kept + " of " + N)
                    .hasMessageContaining("truncated");
            List<InvalidReportException> refused = sameVerdicts(cut);
            assertThat(LocalPcaAggregator.missing(refused)).isEqualTo(N - kept);
        }
    }

    @Test
    void reportsRemovedInsideASegmentOrAcrossASegmentBoundaryAreFoundMissing() throws Exception {
        List<LocalReport> all = reports(N, PRIVACY, 8);
        byte[] bytes = Files.readAllBytes(write(all, "all.bin"));
        java.io.ByteArrayOutputStream holes = new java.io.ByteArrayOutputStream();
        holes.write(bytes, 0, 100 * RECORD); // reports 1-100
        holes.write(bytes, 103 * RECORD, (745 - 103) * RECORD); // without 101-103; then 104-745
        holes.write(bytes, 760 * RECORD, bytes.length - 760 * RECORD); // without 746-760
        Path file = Files.write(dir.resolve("holes.bin"), holes.toByteArray());
        List<InvalidReportException> refused = sameVerdicts(file);
        assertThat(refused).hasSize(2).allMatch(e -> e instanceof MissingReportsException);
        assertThat(LocalPcaAggregator.missing(refused)).isEqualTo(3 + 15);
        assertThat(refused.get(0).getMessage()).contains("report 101 (byte").contains("report 101 of 3000 was due, "
                + "report 104 came");
    }

    @Test
    void concatenatedFilesAreReadAsOneAndAReportOfAnotherFileTakesNoPlace() throws Exception {
        byte[] a = Files.readAllBytes(write(reports(1000, PRIVACY, 9), "a.bin"));
        byte[] b = Files.readAllBytes(write(reports(2000, PRIVACY, 10), "b.bin"));
        byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        Path file = Files.write(dir.resolve("both.bin"), both);
        assertThat(parallel(file, false, new ArrayList<>()).count()).isEqualTo(3000);
        assertThat(sequential(file, false, new ArrayList<>()).count()).isEqualTo(3000);
        // the first report of another file (other parameters) put in at report 751, where a segment starts
        byte[] other = Files.readAllBytes(write(reports(1, PrivacyParams.of(2.0, 1e-5), 11), "other.bin"));
        java.io.ByteArrayOutputStream in = new java.io.ByteArrayOutputStream();
        in.write(both, 0, 750 * RECORD);
        in.write(other);
        in.write(both, 750 * RECORD, both.length - 750 * RECORD);
        Path inserted = Files.write(dir.resolve("inserted.bin"), in.toByteArray());
        List<InvalidReportException> refused = sameVerdicts(inserted);
        assertThat(refused).singleElement().isNotInstanceOf(MissingReportsException.class);
        assertThat(refused.get(0).getMessage()).contains("report 751").contains("epsilon 2.0 differs from 1.0");
    }

    /** Before the bound, a report with an entry of 1e9 was aggregated and decided the released component. */
    @Test
    void aReportWithAnEntryBeyondTheHonestBoundIsRefusedOrSkipped() throws Exception {
        List<LocalReport> all = new ArrayList<>(reports(N, PRIVACY, 12));
        LocalReport honest = all.get(1200);
        double[] poisoned = honest.values().clone();
        poisoned[0] = 1e9;
        all.set(1200, new LocalReport(honest.parameters(), poisoned));
        Path file = write(all, "poisoned.bin");
        assertThatThrownBy(() -> parallel(file, false, new ArrayList<>())).hasMessageContaining("report 1201")
                .hasMessageContaining("value 1 is 1.0E9").hasMessageContaining("beyond");
        List<InvalidReportException> refused = sameVerdicts(file);
        assertThat(refused).singleElement().isNotInstanceOf(MissingReportsException.class);
        assertThat(parallel(file, true, new ArrayList<>()).count()).isEqualTo(N - 1);
    }

    @Test
    void corruptedFirstReportFallsBackToTheSequentialReader() throws Exception {
        byte[] bytes = Files.readAllBytes(write(reports(N, PRIVACY, 6), "r.bin"));
        bytes[70] ^= 0x10;
        Path bad = Files.write(dir.resolve("bad.bin"), bytes);
        List<InvalidReportException> refused = new ArrayList<>();
        LocalPcaAggregator a = parallel(bad, true, refused);
        assertThat(a.count()).isEqualTo(N - 1);
        assertThat(refused).singleElement().extracting(InvalidReportException::position)
                .isEqualTo(bad + " report 1 (byte 0)");
    }
}
