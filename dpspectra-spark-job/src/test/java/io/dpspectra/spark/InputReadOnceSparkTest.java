package io.dpspectra.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.Main;
import io.dpspectra.noise.RandomSource;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.RDDInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The Spark job reads its CSV once, counted by Spark's own task metrics: a listener sees every task of every job
 * the run launches and sorts the bytes each read (its input metrics) into bytes read from the file and bytes read
 * back from the persisted rows (Spark counts both as input). A task read the persisted rows when its stage holds
 * the persisted RDD and the task did not write that RDD's block (the one pass that writes the blocks is the one
 * that reads the file); every other task read the file.
 *
 * <p>The bound, for analyze-gauss and for private-power with a private bound and a private centre (a histogram, a
 * sum, a row check and a product per iteration: more than twenty passes): the file's bytes read from it are at
 * most 1.05 × its size plus the head, where the head is the first 200 lines (read on the driver to lay the file
 * out) plus one 64 KiB read buffer; and at least its size. The same bound holds for the local file system's own
 * read counter over the whole run. No rows travel to the driver: the tasks' results together stay under a tenth
 * of the file. The releases are the CLI's, bit for bit.
 */
class InputReadOnceSparkTest {
    private static final int ROWS = 15_000;
    private static final int D = 20;
    /** The lines the job reads from the head of INPUT to lay it out (SparkInput.SAMPLE_LINES). */
    private static final int HEAD_LINES = 200;
    private static final long READ_BUFFER = 64 * 1024;
    private static SparkSession spark;
    @TempDir
    static Path dir;
    private static Path csv;
    private static long headBytes;

    @BeforeAll
    static void start() throws Exception {
        // the blocks each task wrote are in its metrics only when asked for
        spark = SparkSession.builder().master("local[2]").appName("dpspectra-job-test")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.taskMetrics.trackUpdatedBlockStatuses", "true")
                .getOrCreate();
        RandomSource r = RandomSource.seededForReproducibility(3);
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < D; j++) {
            sb.append(j == 0 ? "" : ",").append("c").append(j + 1);
        }
        sb.append('\n');
        for (int i = 0; i < ROWS; i++) {
            for (int j = 0; j < D; j++) {
                sb.append(j == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.15f",
                        r.standardNormal() * (j == 0 ? 0.2 : 0.05)));
            }
            sb.append('\n');
        }
        csv = Files.writeString(dir.resolve("rows.csv"), sb);
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        for (int i = 0; i < HEAD_LINES; i++) {
            headBytes += lines.get(i).length() + 1;
        }
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    /** Bytes read so far from the local file system, by every thread of this JVM (Spark's local executors too). */
    private static long localBytesRead() {
        org.apache.hadoop.fs.StorageStatistics file = org.apache.hadoop.fs.FileSystem.getGlobalStorageStatistics()
                .get("file");
        Long read = file == null ? null : file.getLong("bytesRead");
        return read == null ? 0 : read;
    }

    /** Every task's input bytes, sorted into the file's and the persisted rows', and the bytes of its result. */
    private static final class Reads extends SparkListener {
        private final Map<Integer, Set<Integer>> persistedByStage = new ConcurrentHashMap<>();
        private final List<String> stages = java.util.Collections.synchronizedList(new ArrayList<>());
        long fromFile;
        long fromPersisted;
        long results;
        int tasksWritingRows;
        final Set<Integer> stagesReadingFile = java.util.Collections.synchronizedSet(new HashSet<>());

        @Override
        public void onStageSubmitted(SparkListenerStageSubmitted e) {
            Set<Integer> persisted = new HashSet<>();
            scala.collection.Iterator<RDDInfo> it = e.stageInfo().rddInfos().iterator();
            while (it.hasNext()) {
                RDDInfo rdd = it.next();
                if (rdd.storageLevel().isValid()) {
                    persisted.add(rdd.id());
                }
            }
            persistedByStage.put(e.stageInfo().stageId(), persisted);
            stages.add(e.stageInfo().stageId() + " " + e.stageInfo().name());
        }

        @Override
        public synchronized void onTaskEnd(SparkListenerTaskEnd e) {
            if (e.taskMetrics() == null) {
                return;
            }
            long read = e.taskMetrics().inputMetrics().bytesRead();
            results += e.taskMetrics().resultSize();
            Set<Integer> persisted = persistedByStage.getOrDefault(e.stageId(), Set.of());
            boolean wrote = false;
            scala.collection.Iterator<scala.Tuple2<org.apache.spark.storage.BlockId,
                    org.apache.spark.storage.BlockStatus>> blocks = e.taskMetrics().updatedBlockStatuses().iterator();
            while (blocks.hasNext()) {
                org.apache.spark.storage.BlockId id = blocks.next()._1();
                if (id.asRDDId().isDefined() && persisted.contains(id.asRDDId().get().rddId())) {
                    wrote = true;
                }
            }
            if (wrote) {
                tasksWritingRows++;
            }
            if (!persisted.isEmpty() && !wrote) {
                fromPersisted += read;
            } else {
                fromFile += read;
                if (read > 0) {
                    stagesReadingFile.add(e.stageId());
                }
            }
        }
    }

    private static String[] fit(String algorithm, Path output) {
        List<String> a = new ArrayList<>(List.of("fit", "--algorithm", algorithm, "-k", "2", "--epsilon", "1",
                "--delta", "1e-6", "--seed", "7", "--output", output.toString()));
        if (algorithm.equals("private-power")) {
            a.addAll(List.of("--clip-norm", "private:0.9", "--center", "private"));
        } else {
            a.addAll(List.of("--clip-norm", "1"));
        }
        a.add(csv.toString());
        return a.toArray(new String[0]);
    }

    @ParameterizedTest
    @ValueSource(strings = {"analyze-gauss", "private-power"})
    void theCsvIsReadOnceAndNoRowsReachTheDriver(String algorithm) throws Exception {
        long size = Files.size(csv);
        // 1.5 MB splits: four partitions of the 5.6 MB file
        spark.conf().set("spark.sql.files.maxPartitionBytes", String.valueOf(3 << 19));
        Reads reads = new Reads();
        spark.sparkContext().addSparkListener(reads);
        Path jobOut = dir.resolve("job-" + algorithm + ".json");
        StringWriter err = new StringWriter();
        long before = localBytesRead();
        int code;
        try {
            code = DpPcaJob.run(fit(algorithm, jobOut), spark, new PrintWriter(new StringWriter(), true),
                    new PrintWriter(err, true));
            spark.sparkContext().listenerBus().waitUntilEmpty();
        } finally {
            spark.sparkContext().removeSparkListener(reads);
            spark.conf().unset("spark.sql.files.maxPartitionBytes");
        }
        long fileSystem = localBytesRead() - before;
        assertThat(code).as(err.toString()).isZero();
        long bound = (long) (1.05 * size) + headBytes + READ_BUFFER;
        System.out.printf(Locale.ROOT, "%s: %d-byte CSV, head bound %d; tasks read %d from the file and %d from the "
                + "persisted rows (%d tasks wrote them); the file system counted %d; task results %d bytes; stages %s%n",
                algorithm, size, headBytes + READ_BUFFER, reads.fromFile, reads.fromPersisted, reads.tasksWritingRows,
                fileSystem, reads.results, reads.stages);
        assertThat(reads.tasksWritingRows).as("the partitions whose rows were persisted").isEqualTo(4);
        assertThat(reads.stagesReadingFile).as("the stages that read the file").hasSize(1);
        assertThat(reads.fromFile).as("bytes Spark's tasks read from the file").isBetween(size, bound);
        assertThat(fileSystem).as("bytes read from the local file system").isBetween(size, bound);
        assertThat(reads.results).as("bytes of the tasks' results (no rows streamed to the driver)")
                .isLessThan(size / 10);
        if (algorithm.equals("private-power")) {
            assertThat(reads.fromPersisted).as("the later passes read the persisted rows").isGreaterThan(10 * size / 4);
        }

        Path cliOut = dir.resolve("cli-" + algorithm + ".json");
        CommandLine cl = Main.newCommandLine();
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(new StringWriter(), true));
        assertThat(cl.execute(fit(algorithm, cliOut))).isZero();
        com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
        assertThat(m.readTree(jobOut.toFile())).as("the job's release is the CLI's")
                .isEqualTo(m.readTree(cliOut.toFile()));
    }
}
