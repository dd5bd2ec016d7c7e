package io.dpspectra.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.covariance.GaussianCalibration;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** Report format round trips, and the aggregator's refusals (mismatched, corrupted, versioned) by position. */
class LocalReportFormatTest {
    private static final PrivacyParams PRIVACY = PrivacyParams.of(1.0, 1e-5);

    private static List<LocalReport> reports(int p, int n, PrivacyParams privacy, long seed) {
        LocalCovarianceRandomizer r = LocalCovarianceRandomizer.builder().dimension(p).privacy(privacy)
                .randomSource(RandomSource.seededForReproducibility(seed)).build();
        List<LocalReport> out = new ArrayList<>();
        RandomSource data = RandomSource.seededForReproducibility(seed + 1);
        for (int i = 0; i < n; i++) {
            double[] x = new double[p];
            for (int j = 0; j < p; j++) {
                x[j] = data.standardNormal() / Math.sqrt(p);
            }
            out.add(r.randomize(x));
        }
        return out;
    }

    private static byte[] encode(List<LocalReport> reports, LocalReportFormat format) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (LocalReportWriter w = new LocalReportWriter(bytes, format)) {
            reports.forEach(w::write);
        }
        return bytes.toByteArray();
    }

    private static LocalReportReader reader(byte[] bytes) {
        return LocalReportReader.of(new ByteArrayInputStream(bytes), "reports");
    }

    private static Matrix aggregate(byte[] bytes, boolean skipInvalid) {
        LocalPcaAggregator a = LocalPcaAggregator.create();
        try (LocalReportReader r = reader(bytes)) {
            a.addAll(r, skipInvalid);
        }
        return a.aggregate().mean();
    }

    @ParameterizedTest
    @EnumSource(LocalReportFormat.class)
    void reportsRoundTripExactly(LocalReportFormat format) {
        List<LocalReport> written = reports(4, 5, PRIVACY, 1);
        try (LocalReportReader r = reader(encode(written, format))) {
            assertThat(r.format()).isEqualTo(format);
            for (LocalReport expected : written) {
                assertThat(r.next()).isTrue();
                assertThat(r.parameters()).isEqualTo(expected.parameters());
                assertThat(r.values()).containsExactly(expected.values());
            }
            assertThat(r.next()).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(LocalReportFormat.class)
    void aggregateIsTheMeanOfTheReports(LocalReportFormat format) {
        List<LocalReport> written = reports(3, 2500, PRIVACY, 2); // more than one summation block
        Matrix mean = aggregate(encode(written, format), false);
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i <= j; i++) {
                double s = 0;
                for (LocalReport rep : written) {
                    s += rep.values()[LocalReport.index(i, j)];
                }
                assertThat(mean.get(i, j)).isCloseTo(s / written.size(), org.assertj.core.api.Assertions.within(1e-12));
                assertThat(mean.get(j, i)).isEqualTo(mean.get(i, j));
            }
        }
    }

    @Test
    void fileOfSeveralChunksIsReadWithPrefetchingAndTruncationIsCaught(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        List<LocalReport> written = reports(40, 1500, PRIVACY, 11); // 1500 * 6612 bytes: three 4 MiB chunks
        java.nio.file.Path file = dir.resolve("reports.bin");
        java.nio.file.Files.write(file, encode(written, LocalReportFormat.BINARY));
        LocalPcaAggregator fromFile = LocalPcaAggregator.create();
        try (LocalReportReader r = LocalReportReader.open(file)) {
            fromFile.addAll(r, false);
        }
        LocalPcaAggregator direct = LocalPcaAggregator.create();
        written.forEach(rep -> direct.add(rep, "memory"));
        assertThat(fromFile.count()).isEqualTo(1500);
        assertThat(fromFile.aggregate().mean()).isEqualTo(direct.aggregate().mean());

        byte[] bytes = java.nio.file.Files.readAllBytes(file);
        java.nio.file.Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 100));
        try (LocalReportReader r = LocalReportReader.open(file)) {
            assertThatThrownBy(() -> LocalPcaAggregator.create().addAll(r, true))
                    .hasMessageContaining("report 1500").hasMessageContaining("truncated");
        }
    }

    @Test
    void reportWithOtherEpsilonIsRefusedWithItsLineAndNothingOfItIsAggregated() {
        List<LocalReport> good = reports(3, 4, PRIVACY, 3);
        List<LocalReport> mixed = new ArrayList<>(good.subList(0, 2));
        mixed.add(reports(3, 1, PrivacyParams.of(2.0, 1e-5), 4).get(0));
        mixed.addAll(good.subList(2, 4));
        byte[] bytes = encode(mixed, LocalReportFormat.JSON_LINES);
        assertThatThrownBy(() -> aggregate(bytes, false)).isInstanceOf(InvalidReportException.class)
                .hasMessageContaining("reports line 3").hasMessageContaining("epsilon 2.0 differs from 1.0");
        assertThat(aggregate(bytes, true)).isEqualTo(aggregate(encode(good, LocalReportFormat.JSON_LINES), false));
    }

    @Test
    void corruptedBinaryReportIsRefusedByItsChecksumAndSkippedWhenAsked() {
        List<LocalReport> good = reports(3, 4, PRIVACY, 5);
        byte[] bytes = encode(good, LocalReportFormat.BINARY);
        int size = LocalReportFormat.binaryRecordBytes(3);
        bytes[2 * size + 60] ^= 0x10; // a value bit of report 3
        assertThatThrownBy(() -> aggregate(bytes, false)).isInstanceOf(InvalidReportException.class)
                .hasMessageContaining("reports report 3 (byte " + 2 * size + ")").hasMessageContaining("checksum");
        List<LocalReport> without = new ArrayList<>(good);
        without.remove(2);
        assertThat(aggregate(bytes, true)).isEqualTo(aggregate(encode(without, LocalReportFormat.BINARY), false));
    }

    @Test
    void truncatedBinaryFileIsRefusedEvenWhenSkipping() {
        byte[] bytes = encode(reports(3, 2, PRIVACY, 6), LocalReportFormat.BINARY);
        byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 5);
        assertThatThrownBy(() -> aggregate(cut, true)).hasMessageContaining("report 2").hasMessageContaining("truncated");
    }

    @Test
    void otherVersionIsRefused() {
        String line = new String(encode(reports(2, 1, PRIVACY, 7), LocalReportFormat.JSON_LINES), StandardCharsets.US_ASCII);
        byte[] v2 = line.replace("{\"dpspectraLdpReport\":1,", "{\"dpspectraLdpReport\":2,").getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> aggregate(v2, false)).hasMessageContaining("reports line 1")
                .hasMessageContaining("version 2 is not supported");
    }

    @Test
    void sigmaThatIsNotTheCalibrationIsRefused() {
        LocalReport r = reports(2, 1, PRIVACY, 8).get(0);
        ReportParameters q = r.parameters();
        ReportParameters lying = new ReportParameters(q.version(), 2, q.epsilon(), q.delta(), q.clipNorm(),
                GaussianCalibration.ANALYTIC, q.sigma() / 2);
        LocalPcaAggregator a = LocalPcaAggregator.create();
        assertThatThrownBy(() -> a.add(lying, r.values(), "line 1")).hasMessageContaining("is not the ANALYTIC calibration");
        assertThat(a.count()).isZero();
    }

    @Test
    void malformedJsonAndNonFiniteValuesAreRefusedByLine() {
        String good = new String(encode(reports(2, 2, PRIVACY, 9), LocalReportFormat.JSON_LINES), StandardCharsets.US_ASCII);
        String[] lines = good.split("\n");
        String nan = lines[1].replaceFirst("\"values\":\\[[^,]*,", "\"values\":[NaN,");
        byte[] bytes = (lines[0] + "\n" + nan + "\n" + lines[0].substring(0, 40) + "\n").getBytes(StandardCharsets.US_ASCII);
        LocalPcaAggregator a = LocalPcaAggregator.create();
        List<InvalidReportException> refused;
        try (LocalReportReader r = reader(bytes)) {
            refused = a.addAll(r, true);
        }
        assertThat(refused).extracting(InvalidReportException::position).containsExactly("reports line 2", "reports line 3");
        assertThat(refused.get(0)).hasMessageContaining("NaN");
        assertThat(a.count()).isEqualTo(1);
    }

    @Test
    void emptyInputHasNothingToAggregate() {
        LocalPcaAggregator a = LocalPcaAggregator.create();
        try (LocalReportReader r = reader(new byte[0])) {
            a.addAll(r, false);
        }
        assertThatThrownBy(a::aggregate).hasMessageContaining("no report was accepted");
    }

    @Test
    void expectedParametersRefuseTheFirstReportToo() {
        LocalReport r = reports(2, 1, PRIVACY, 10).get(0);
        ReportParameters other = ReportParameters.calibrated(2, PrivacyParams.of(0.5, 1e-5), 1.0, GaussianCalibration.ANALYTIC);
        LocalPcaAggregator a = LocalPcaAggregator.expecting(other);
        assertThatThrownBy(() -> a.add(r, "line 1")).hasMessageContaining("line 1").hasMessageContaining("expected ones");
    }
}
