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
        try (LocalReportWriter w = new LocalReportWriter(bytes, LocalReportFormat.BINARY)) {
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
        bytes[(int) (900L * RECORD) + 60] ^= 0x10; // a value of report 901 (2nd segment)
        bytes[(int) (2500L * RECORD) + 60] ^= 0x10; // report 2501 (4th segment)
        bytes[(int) (100L * RECORD) + 60] ^= 0x10; // report 101 (1st segment)
        Path bad = Files.write(dir.resolve("bad.bin"), bytes);
        assertThatThrownBy(() -> parallel(bad, false, new ArrayList<>())).isInstanceOf(InvalidReportException.class)
                .hasMessage(bad + " report 101 (byte " + 100L * RECORD + "): checksum mismatch: the report is corrupted");
        bytes[(int) (100L * RECORD) + 60] ^= 0x10;
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

    @Test
    void truncatedFileIsRefusedAtItsLastReportEvenWhenSkipping() throws Exception {
        byte[] bytes = Files.readAllBytes(write(reports(N, PRIVACY, 5), "r.bin"));
        Path cut = Files.write(dir.resolve("cut.bin"), java.util.Arrays.copyOf(bytes, bytes.length - 5));
        InvalidReportException seqError = sequentialRefusal(cut, true);
        assertThatThrownBy(() -> parallel(cut, true, new ArrayList<>())).hasMessage(seqError.getMessage())
                .hasMessageContaining("report " + N).hasMessageContaining("truncated");
    }

    @Test
    void corruptedFirstReportFallsBackToTheSequentialReader() throws Exception {
        byte[] bytes = Files.readAllBytes(write(reports(N, PRIVACY, 6), "r.bin"));
        bytes[60] ^= 0x10;
        Path bad = Files.write(dir.resolve("bad.bin"), bytes);
        List<InvalidReportException> refused = new ArrayList<>();
        LocalPcaAggregator a = parallel(bad, true, refused);
        assertThat(a.count()).isEqualTo(N - 1);
        assertThat(refused).singleElement().extracting(InvalidReportException::position)
                .isEqualTo(bad + " report 1 (byte 0)");
    }
}
