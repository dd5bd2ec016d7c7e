package io.dpspectra.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.RowCursor;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grouping by a privacy unit column when the kept rows do not fit the memory given: an external sort on disk that
 * releases the same bits as grouping in memory, and leaves no file behind.
 */
class UnitSpillTest {
    @TempDir
    Path dir;

    /**
     * A budget that the persons of the file's first part fit in and the second part's outgrow: the grouping spills in
     * the middle of the file, when several persons have been offered more than M rows (so their reservoirs have
     * drawn from their streams), and sorts the rest in runs of a few dozen rows.
     */
    private static final long TINY = 8000;

    /**
     * 40 persons with 1 to 20 rows each (some below M, some above). The file's first part holds 70% of the rows of
     * persons 0-9, shuffled; the second the rest of their rows and every row of persons 10-39, shuffled: a person's
     * rows are spread over the file. The id column is in the middle; written to {@code visits.csv}.
     */
    private Path visits() throws IOException {
        RandomSource r = RandomSource.seededForReproducibility(17);
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        for (int p = 0; p < 40; p++) {
            double[] centre = {r.standardNormal(), r.standardNormal(), r.standardNormal()};
            int n = 1 + (int) r.nextLong(20);
            for (int i = 0; i < n; i++) {
                String line = String.format(Locale.ROOT, "%.6f,id%02d,%.6f,%.6f", centre[0] + 0.3 * r.standardNormal(),
                        p, centre[1] + 0.3 * r.standardNormal(), centre[2] * 0.5 + 0.3 * r.standardNormal());
                (p < 10 && i < 0.7 * n ? first : second).add(line);
            }
        }
        java.util.Random order = new java.util.Random(5); // the file's order only, not a privacy draw
        Collections.shuffle(first, order);
        Collections.shuffle(second, order);
        first.addAll(second);
        Path f = dir.resolve("visits.csv");
        Files.writeString(f, "a,person,b,c\n" + String.join("\n", first) + "\n");
        return f;
    }

    private Path spillDir() throws IOException {
        return Files.createDirectories(dir.resolve("spill"));
    }

    private static List<String> list(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    private static double[][] all(ClippedRows rows) {
        List<double[]> out = new ArrayList<>();
        double[] row = new double[rows.dimension()];
        try (RowCursor c = rows.open()) {
            while (c.next(row)) {
                out.add(row.clone());
            }
        }
        return out.toArray(new double[0][]);
    }

    @Test
    void aSpilledReleaseHasTheSameBitsAsTheInMemoryOne() throws IOException {
        Path csv = visits();
        Path spill = spillDir();
        GroupingMemory inMemory = GroupingMemory.defaults().spillingTo(spill);
        GroupingMemory tiny = new GroupingMemory(TINY, spill);
        for (int m : new int[] {2, 6}) {
            for (boolean first : new boolean[] {true, false}) {
                for (boolean frobenius : new boolean[] {false, true}) {
                    PrivacyUnit unit = PrivacyUnit.column("person", m);
                    unit = first ? unit.firstRows() : unit;
                    unit = frobenius ? unit.frobenius() : unit;
                    String what = unit.toString();
                    PcaRelease a = fit(csv, inMemory, unit, frobenius);
                    PcaRelease b = fit(csv, tiny, unit, frobenius);
                    assertThat(b.components().toRowArrays()).as(what).isDeepEqualTo(a.components().toRowArrays());
                    assertThat(b.preprocessing().mean()).as(what).isEqualTo(a.preprocessing().mean());
                    assertThat(b.preprocessing().bound()).as(what).isEqualTo(a.preprocessing().bound());
                    assertThat(a.diagnostics().asMap()).as(what).containsEntry("spilled", false);
                    assertThat(b.diagnostics().asMap()).as(what).containsEntry("spilled", true)
                            .containsEntry("persons", 40L).containsEntry("rowsKept", a.diagnostics().get("rowsKept"))
                            .containsEntry("clippedRows", a.diagnostics().get("clippedRows"));
                    assertThat((Long) b.diagnostics().get("spillBytes")).as(what).isPositive();
                    assertThat(list(spill)).as("nothing left after " + what).isEmpty();
                }
            }
        }
        // the covariance mechanisms read the same statistic
        PrivacyUnit unit = PrivacyUnit.column("person", 3);
        double[][][] cov = new double[2][][];
        for (int i = 0; i < 2; i++) {
            cov[i] = PrivateSecondMoment.of(RowInput.csv(csv, i == 0 ? inMemory : tiny)).privacyUnit(unit)
                    .algorithm("gaussian").bound(RowBound.clip(1)).centre(Centring.PRIVATE)
                    .randomSource(RandomSource.seededForReproducibility(4)).fit(PrivacyParams.of(1, 1e-6))
                    .covariance().matrix().toRowArrays();
        }
        assertThat(cov[1]).isDeepEqualTo(cov[0]);
        assertThat(list(spill)).isEmpty();
    }

    /** A private bound, a private centre, and (for the rows bound) an automatic k: every pass over the persons. */
    private static PcaRelease fit(Path csv, GroupingMemory memory, PrivacyUnit unit, boolean frobenius) {
        return PrivatePca.of(RowInput.csv(csv, memory)).privacyUnit(unit).bound(RowBound.privateQuantile(0.9, 0.1))
                .centre(Centring.PRIVATE).components(frobenius ? Components.fixed(2) : Components.auto(0.8))
                .randomSource(RandomSource.seededForReproducibility(11)).fit(PrivacyParams.of(1, 1e-6));
    }

    @Test
    void theGroupedStatisticsAreTheSameAndTheSpillFilesAreOwnerOnlyAndDeletedOnClose() throws IOException {
        Path csv = visits();
        Path spill = spillDir();
        PrivacyUnit unit = PrivacyUnit.column("person", 4);
        Bounding bounding = new Bounding(2, DataBounds.Policy.CLIP, new double[] {0.1, -0.2, 0}, 2 + Math.sqrt(0.05),
                DataBounds.Origin.USER_GIVEN);
        UnitStatistics a = UnitCsv.read(csv, UnitCsv.Options.DEFAULT, unit, RandomSource.seededForReproducibility(3),
                GroupingMemory.defaults().spillingTo(spill));
        UnitStatistics b = UnitCsv.read(csv, UnitCsv.Options.DEFAULT, unit, RandomSource.seededForReproducibility(3),
                new GroupingMemory(TINY, spill));
        assertThat(a.spilled()).isFalse();
        assertThat(b.spilled()).isTrue();
        assertThat(b.spillBytes()).isPositive();
        assertThat(b.rowCount()).isEqualTo(a.rowCount()).isEqualTo(40);
        assertThat(b.rowsKept()).isEqualTo(a.rowsKept());
        assertThat(all(b.bounded(bounding))).isDeepEqualTo(all(a.bounded(bounding)));
        assertThat(b.boundedSum(bounding).sum()).isEqualTo(a.boundedSum(bounding).sum());
        double[] grid = {0.5, 1, 2, 4, 8};
        assertThat(b.normHistogram(grid).counts()).isEqualTo(a.normHistogram(grid).counts());
        // one private directory, owner-only, holding the kept rows only (the sorted runs are gone after the merge)
        List<String> dirs = list(spill);
        assertThat(dirs).hasSize(1).allSatisfy(n -> assertThat(n).startsWith("dpspectra-grouping-"));
        Path mine = spill.resolve(dirs.get(0));
        if (mine.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(mine))).isEqualTo("rwx------");
            for (String f : list(mine)) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(mine.resolve(f))))
                        .as(f).isEqualTo("rw-------");
            }
        }
        assertThat(list(mine)).hasSize(1);
        b.close();
        b.close();
        assertThat(list(spill)).isEmpty();
        assertThatThrownBy(() -> all(b.bounded(bounding))).isInstanceOf(IllegalStateException.class);
        assertThat(b.curatorFacts().asMap()).containsEntry("persons", 40L).containsEntry("spilled", true);
    }

    @Test
    void aReservoirResumedFromDiskKeepsWhatTheOneInMemoryKeepsWithSecureAndSeededStreams() {
        // person "one" is offered 300 rows, then 100 persons one row each outgrow the memory (the reservoir of "one",
        // having drawn from its stream, is written to disk), then "one" 600 rows more, sorted in more runs than one
        // merge takes; a seeded release keeps the same rows of "one" as in memory, a secure one M distinct rows
        PrivacyUnit unit = PrivacyUnit.column("id", 7);
        double[][][] kept = new double[2][][];
        for (int i = 0; i < 2; i++) {
            UnitStatistics.Builder b = UnitStatistics.builder(unit, List.of("x"), "t", RandomSource
                    .seededForReproducibility(9), i == 0 ? GroupingMemory.defaults() : new GroupingMemory(2000, dir));
            feed(b);
            try (UnitStatistics s = b.build()) {
                assertThat(s.spilled()).isEqualTo(i == 1);
                assertThat(s.rowCount()).isEqualTo(101);
                kept[i] = all(s.bounded(Bounding.of(1e9, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN)));
            }
        }
        assertThat(kept[1]).isDeepEqualTo(kept[0]);
        UnitStatistics.Builder b = UnitStatistics.builder(unit, List.of("x"), "t", RandomSource.secure(),
                new GroupingMemory(2000, dir));
        feed(b);
        try (UnitStatistics s = b.build()) {
            double[][] rows = all(s.bounded(Bounding.of(1e9, DataBounds.Policy.CLIP, DataBounds.Origin.USER_GIVEN)));
            // "one" sorts first: its 7 kept rows, distinct
            assertThat(java.util.Arrays.stream(rows).limit(7).mapToDouble(x -> x[0]).distinct().count()).isEqualTo(7);
            assertThat(java.util.Arrays.stream(rows).limit(7).mapToDouble(x -> x[0])).allSatisfy(x ->
                    assertThat(x).isLessThan(1000));
        }
    }

    private static void feed(UnitStatistics.Builder b) {
        for (int r = 0; r < 300; r++) {
            b.add("one", new double[] {r}, null);
        }
        for (int q = 0; q < 100; q++) {
            b.add("q" + q, new double[] {1000 + q}, null);
        }
        for (int r = 300; r < 900; r++) {
            b.add("one", new double[] {r}, null);
        }
    }

    @Test
    void aDataErrorAfterTheSpillKeepsItsMessageAndLeavesNoFile() throws IOException {
        Path spill = spillDir();
        StringBuilder sb = new StringBuilder("person,a,b\n");
        for (int i = 0; i < 200; i++) {
            sb.append("p").append(i % 13).append(',').append(i).append(",1\n");
        }
        sb.append("p3,x,1\n");
        Path f = dir.resolve("bad.csv");
        Files.writeString(f, sb.toString());
        PrivacyUnit unit = PrivacyUnit.column("person", 2);
        for (GroupingMemory memory : List.of(GroupingMemory.defaults().spillingTo(spill), new GroupingMemory(TINY,
                spill))) {
            assertThatThrownBy(() -> UnitCsv.read(f, UnitCsv.Options.DEFAULT, unit, RandomSource
                    .seededForReproducibility(1), memory)).isInstanceOf(InvalidDataException.class)
                    .hasMessageContaining("line 202, column 2 \"a\": value \"x\" is not a number");
            assertThat(list(spill)).isEmpty();
        }
        // and through a release chain: no file either
        assertThatThrownBy(() -> PrivatePca.of(RowInput.csv(f, new GroupingMemory(TINY, spill))).privacyUnit(unit)
                .bound(RowBound.clip(1)).components(1).fit(PrivacyParams.of(1, 1e-6)))
                .isInstanceOf(InvalidDataException.class);
        assertThat(list(spill)).isEmpty();
    }

    @Test
    void aSpillDirectoryThatCannotHoldTheFilesIsRefusedBeforeAnyRowWhetherOrNotTheGroupingWouldSpill()
            throws IOException {
        Path csv = visits();
        PrivacyUnit unit = PrivacyUnit.column("person", 2);
        Path missing = dir.resolve("no-such-dir");
        assertThatThrownBy(() -> UnitCsv.read(csv, UnitCsv.Options.DEFAULT, unit, RandomSource
                .seededForReproducibility(1), GroupingMemory.defaults().spillingTo(missing)))
                .isInstanceOf(ReleaseSettingException.class).hasMessageContaining(missing + " does not exist")
                .hasMessageContaining("grouping " + csv + " by column 'person'");
        assertThat(new GroupingMemory(1, csv).problem()).contains("is not a directory");
        Path locked = Files.createDirectories(dir.resolve("locked"));
        assumeThat(locked.getFileSystem().supportedFileAttributeViews()).contains("posix");
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-x------"));
        try {
            assumeThat(Files.isWritable(locked)).as("not running as root").isFalse();
            assertThat(new GroupingMemory(1, locked).problem()).contains("is not writable (permission denied)");
            assertThatThrownBy(() -> UnitCsv.read(csv, UnitCsv.Options.DEFAULT, unit, RandomSource
                    .seededForReproducibility(1), new GroupingMemory(TINY, locked)))
                    .isInstanceOf(ReleaseSettingException.class).hasMessageContaining("is not writable");
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void theDefaultMemoryIsAQuarterOfTheHeapOrTheSystemProperty() {
        String before = System.getProperty(GroupingMemory.PROPERTY);
        try {
            System.clearProperty(GroupingMemory.PROPERTY);
            assertThat(GroupingMemory.defaultBytes()).isEqualTo(Runtime.getRuntime().maxMemory() / 4);
            System.setProperty(GroupingMemory.PROPERTY, "3m");
            assertThat(GroupingMemory.defaults().bytes()).isEqualTo(3L << 20);
            assertThat(GroupingMemory.defaults().rowsInMemory(10)).isEqualTo((3L << 20) / 144);
            System.setProperty(GroupingMemory.PROPERTY, "-1");
            assertThatThrownBy(GroupingMemory::defaultBytes).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is not a positive size");
        } finally {
            if (before == null) {
                System.clearProperty(GroupingMemory.PROPERTY);
            } else {
                System.setProperty(GroupingMemory.PROPERTY, before);
            }
        }
    }
}
