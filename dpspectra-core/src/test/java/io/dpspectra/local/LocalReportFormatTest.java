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
        try (LocalReportWriter w = new LocalReportWriter(bytes, format, reports.size())) {
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
            assertThatThrownBy(() -> LocalPcaAggregator.create().addAll(r, false))
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
        bytes[2 * size + 70] ^= 0x10; // a value bit of report 3
        assertThatThrownBy(() -> aggregate(bytes, false)).isInstanceOf(InvalidReportException.class)
                .hasMessageContaining("reports report 3 (byte " + 2 * size + ")").hasMessageContaining("checksum");
        List<LocalReport> without = new ArrayList<>(good);
        without.remove(2);
        assertThat(aggregate(bytes, true)).isEqualTo(aggregate(encode(without, LocalReportFormat.BINARY), false));
    }

    @Test
    void binaryFileEndingInsideAReportIsRefusedAndWithSkippingCountedAsMissing() {
        byte[] bytes = encode(reports(3, 2, PRIVACY, 6), LocalReportFormat.BINARY);
        byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 5);
        assertThatThrownBy(() -> aggregate(cut, false)).hasMessageContaining("report 2").hasMessageContaining("truncated");
        LocalPcaAggregator a = LocalPcaAggregator.create();
        List<InvalidReportException> refused;
        try (LocalReportReader r = reader(cut)) {
            refused = a.addAll(r, true);
        }
        assertThat(a.count()).isEqualTo(1);
        assertThat(LocalPcaAggregator.missing(refused)).isEqualTo(1);
    }

    /** Before every report carried its place in its file, a file cut at a report boundary was aggregated silently. */
    @ParameterizedTest
    @EnumSource(LocalReportFormat.class)
    void fileCutAtAReportBoundaryIsRefusedAndWithSkippingTheMissingAreCounted(LocalReportFormat format) {
        List<LocalReport> written = reports(3, 200, PRIVACY, 13);
        byte[] whole = encode(written, format);
        byte[] alone = encode(written.subList(0, 60), format); // a file of 60 reports written as such
        int cutAt = 0;
        for (int lines = 0; lines < 60; cutAt++) { // after the 60th report: its record, or its line's '\n'
            if (format == LocalReportFormat.BINARY ? (cutAt + 1) % LocalReportFormat.binaryRecordBytes(3) == 0
                    : whole[cutAt] == '\n') {
                lines++;
            }
        }
        byte[] first60 = java.util.Arrays.copyOf(whole, cutAt); // the file of 200, cut exactly after report 60
        assertThatThrownBy(() -> aggregate(first60, false)).isInstanceOf(MissingReportsException.class)
                .hasMessageContaining("after report 60 of 200").hasMessageContaining("reports 61 to 200 (140) are missing");
        LocalPcaAggregator a = LocalPcaAggregator.create();
        List<InvalidReportException> refused;
        try (LocalReportReader r = reader(first60)) {
            refused = a.addAll(r, true);
        }
        assertThat(a.count()).isEqualTo(60);
        assertThat(LocalPcaAggregator.missing(refused)).isEqualTo(140);
        assertThat(aggregate(alone, false).rows()).isEqualTo(3);
    }

    @Test
    void reportsMissingFromTheMiddleOrTheStartAreCounted() {
        List<LocalReport> written = reports(2, 10, PRIVACY, 14);
        String[] lines = new String(encode(written, LocalReportFormat.JSON_LINES), StandardCharsets.UTF_8).split("\n");
        String holes = String.join("\n", lines[2], lines[3], lines[7], lines[8], lines[9]) + "\n"; // 3, 4, 8, 9, 10 of 10
        LocalPcaAggregator a = LocalPcaAggregator.create();
        List<InvalidReportException> refused;
        try (LocalReportReader r = reader(holes.getBytes(StandardCharsets.UTF_8))) {
            refused = a.addAll(r, true);
        }
        assertThat(refused).extracting(InvalidReportException::position).containsExactly("reports line 1", "reports line 3");
        assertThat(refused.get(0)).hasMessageContaining("2 reports are missing before it");
        assertThat(LocalPcaAggregator.missing(refused)).isEqualTo(5);
        assertThat(a.count()).isEqualTo(5);
    }

    @Test
    void aReportBeyondTheHonestBoundIsRefusedAndAnHonestOneNeverIs() {
        List<LocalReport> written = reports(3, 2000, PRIVACY, 15);
        ReportParameters q = written.get(0).parameters();
        double bound = q.entryBound();
        assertThat(bound).isEqualTo(1 + 1e-12 + 10 * q.sigma() * Math.sqrt(2 * Math.log(4)));
        double largest = 0;
        for (LocalReport r : written) {
            for (double v : r.values()) {
                largest = Math.max(largest, Math.abs(v));
            }
        }
        // 12,000 honest entries: the largest is about 4.3 sigma, far below the bound of 1 + 16.7 sigma
        assertThat(largest).isLessThan(bound / 2);
        List<LocalReport> poisoned = new ArrayList<>(written.subList(0, 3));
        double[] v = poisoned.get(1).values().clone();
        v[4] = -Math.nextUp(bound);
        poisoned.set(1, new LocalReport(q, v));
        byte[] bytes = encode(poisoned, LocalReportFormat.BINARY);
        assertThatThrownBy(() -> aggregate(bytes, false)).hasMessageContaining("reports report 2")
                .hasMessageContaining("value 5 is").hasMessageContaining("beyond " + bound);
        LocalPcaAggregator a = LocalPcaAggregator.create();
        try (LocalReportReader r = reader(bytes)) {
            assertThat(a.addAll(r, true)).singleElement().isNotInstanceOf(MissingReportsException.class);
        }
        assertThat(a.count()).isEqualTo(2);
        v[4] = -bound; // exactly on the bound: accepted
        poisoned.set(1, new LocalReport(q, v));
        assertThat(aggregate(encode(poisoned, LocalReportFormat.BINARY), false).rows()).isEqualTo(3);
    }

    /** Before the strict JSON parser, a space after a colon made a valid report unreadable. */
    @Test
    void jsonReportsWithWhitespaceAndKeysInAnyOrderAreRead() {
        LocalReport r = reports(2, 1, PRIVACY, 16).get(0);
        ReportParameters q = r.parameters();
        double[] v = r.values();
        String spaced = String.format(java.util.Locale.ROOT, "{ \"values\" : [ %s , %s,%s ] , \"sigma\": %s, "
                + "\"calibration\" : \"ANALYTIC\", \"clipNorm\":\t%s, \"delta\": %s, \"epsilon\": %s,"
                + " \"dimension\": 2, \"count\": 1, \"index\": 1, \"dpspectraLdpReport\": 2 }  \n",
                v[0], v[1], v[2], q.sigma(), q.clipNorm(), q.delta(), q.epsilon());
        try (LocalReportReader reader = reader(spaced.getBytes(StandardCharsets.UTF_8))) {
            assertThat(reader.next()).isTrue();
            assertThat(reader.parameters()).isEqualTo(q);
            assertThat(reader.values()).containsExactly(v);
            assertThat(reader.index()).isEqualTo(1);
            assertThat(reader.count()).isEqualTo(1);
        }
        String unknownKey = spaced.replace("\"index\": 1,", "\"index\": 1, \"weight\": 5,");
        String duplicate = spaced.replace("\"index\": 1,", "\"index\": 1, \"index\": 1,");
        String missing = spaced.replace("\"count\": 1, ", "");
        String wrongLength = spaced.replace("[ ", "[ 1.5, ");
        for (String[] bad : new String[][] {{unknownKey, "unknown key \"weight\""}, {duplicate, "appears twice"},
            {missing, "\"count\" is missing"}, {wrongLength, "holds 4 numbers"}}) {
            try (LocalReportReader reader = reader(bad[0].getBytes(StandardCharsets.UTF_8))) {
                assertThatThrownBy(reader::next).isInstanceOf(InvalidReportException.class)
                        .hasMessageContaining("reports line 1").hasMessageContaining(bad[1]);
            }
        }
    }

    @Test
    void versionOneFilesAreRefusedWithHowToMakeThemAgain() {
        // a version-1 binary report: the 48-byte parameter block, the values, the CRC (no place in the file)
        LocalReport r = reports(2, 1, PRIVACY, 17).get(0);
        ReportParameters q = r.parameters();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(48 + 8 * 3 + 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(LocalReportFormat.MAGIC).putInt(1).putInt(2).putInt(0).putDouble(q.epsilon()).putDouble(q.delta())
                .putDouble(q.clipNorm()).putDouble(q.sigma());
        for (double x : r.values()) {
            b.putDouble(x);
        }
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(b.array(), 0, b.capacity() - 4);
        b.putInt((int) crc.getValue());
        for (boolean skip : new boolean[] {false, true}) {
            assertThatThrownBy(() -> aggregate(b.array(), skip)).hasMessageContaining("format version 1")
                    .hasMessageContaining("make the reports again");
        }
        String v1 = String.format(java.util.Locale.ROOT, "{\"dpspectraLdpReport\":1,\"dimension\":2,\"epsilon\":%s,"
                + "\"delta\":%s,\"clipNorm\":1.0,\"calibration\":\"ANALYTIC\",\"sigma\":%s,\"values\":[1,2,3]}\n",
                q.epsilon(), q.delta(), q.sigma());
        assertThatThrownBy(() -> aggregate(v1.getBytes(StandardCharsets.UTF_8), false)).hasMessageContaining("reports line 1")
                .hasMessageContaining("format version 1").hasMessageContaining("make the reports again");
    }

    @Test
    void otherVersionIsRefused() {
        String line = new String(encode(reports(2, 1, PRIVACY, 7), LocalReportFormat.JSON_LINES), StandardCharsets.US_ASCII);
        byte[] v3 = line.replace("{\"dpspectraLdpReport\":2,", "{\"dpspectraLdpReport\":3,").getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> aggregate(v3, false)).hasMessageContaining("reports line 1")
                .hasMessageContaining("version 3 is not supported");
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
        assertThat(refused.get(0)).hasMessageContaining("not valid JSON at column"); // NaN is not a JSON number
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
