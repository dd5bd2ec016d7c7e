package io.dpspectra.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A real standalone cluster on 127.0.0.1: a master and two workers (1 core, 1 GB each) started from
 * Spark's own jars as the distribution's scripts start them ({@code SPARK_HOME} with a {@code jars/}
 * folder and a {@code RELEASE} file, {@code SPARK_SCALA_VERSION}), and {@code DpPcaJob} submitted with
 * {@code SparkSubmit --master spark://127.0.0.1:PORT} in client mode, as {@code spark-submit} submits it.
 * The release equals the CLI's for the same file and seed, bit for bit; and so does the release of a run
 * during which one worker (and so its executor) is killed while a stage is running.
 *
 * <p>Runs in {@code mvn verify} (failsafe, after the job's jar is packaged); {@code -DskipITs} skips it.
 * The recipe is the one docs/guide/spark.md gives to users without a Spark distribution.
 */
@Tag("cluster")
class StandaloneClusterIT {
    private static final Duration START = Duration.ofSeconds(180);
    private static final Duration JOB = Duration.ofSeconds(600);
    private static final int ROWS = 120_000;
    private static final int DIM = 12;

    @TempDir
    static Path dir;
    private static Path sparkHome;
    private static Path csv;
    private static int masterPort;
    private static int masterUi;
    private static final List<Process> STARTED = new ArrayList<>();
    private static Process workerA;
    private static Process workerB;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final long T0 = System.nanoTime();

    /** The job's jar, as {@code mvn package} builds it. */
    private static Path jobJar() {
        Path jar = Path.of("target", "dpspectra-spark.jar").toAbsolutePath();
        assertThat(jar).as("run through mvn verify: the job's jar is packaged before this test").exists();
        return jar;
    }

    /**
     * SPARK_HOME as a distribution lays it out: {@code jars/} with Spark and its dependencies (here the
     * jars Maven resolved for this module, linked) and a {@code RELEASE} file, which tells Spark's
     * launcher to take its classpath from {@code jars/}.
     */
    private static Path sparkHome() throws IOException {
        Path home = Files.createDirectories(dir.resolve("spark-home"));
        Path jars = Files.createDirectories(home.resolve("jars"));
        // the test classpath (failsafe's fork runs from a manifest-only jar and names the real one here)
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (String entry : classpath.split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry);
            String name = p.getFileName().toString();
            // third-party jars only: dpspectra's own classes travel in the job's jar
            if (name.endsWith(".jar") && !entry.contains("dpspectra") && Files.isRegularFile(p)) {
                Path link = jars.resolve(name);
                if (!Files.exists(link)) {
                    Files.createSymbolicLink(link, p.toAbsolutePath());
                }
            }
        }
        Files.writeString(home.resolve("RELEASE"), "Spark, jars linked for the dpspectra cluster test\n");
        return home;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    private static List<String> moduleFlags() {
        String flags = System.getProperty("dpspectra.sparkModuleFlags", "");
        List<String> out = new ArrayList<>();
        for (String f : flags.trim().split("\\s+")) {
            if (!f.isEmpty()) {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * A JVM on Spark's jars running {@code mainClass}, its output in {@code log}. The driver inherits this
     * JVM's environment, in which the CLI's reference release is computed: with native OpenBLAS, the
     * eigendecomposition's last bits depend on OPENBLAS_NUM_THREADS, so the two must agree (the master and
     * workers, and so the executors, run dsyrk with one thread: XᵀX does not depend on it).
     */
    private static Process java(String heap, String mainClass, Path log, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + heap);
        cmd.addAll(moduleFlags());
        cmd.add("-cp");
        cmd.add(sparkHome.resolve("jars") + "/*");
        cmd.add(mainClass);
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("SPARK_HOME", sparkHome.toString());
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        if (!mainClass.endsWith("SparkSubmit")) {
            pb.environment().put("OPENBLAS_NUM_THREADS", "1");
        }
        Process p = pb.start();
        STARTED.add(p);
        return p;
    }

    private static String get(String url) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
                    .build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** Waits (bounded) until {@code condition} holds; fails with the logs otherwise. */
    private static void await(String what, Duration limit, java.util.function.BooleanSupplier condition)
            throws Exception {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out after " + limit.toSeconds() + " s waiting for " + what + "\n"
                        + logs());
            }
            Thread.sleep(250);
        }
    }

    private static String logs() throws IOException {
        StringBuilder sb = new StringBuilder();
        try (var files = Files.list(dir)) {
            for (Path log : files.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                sb.append("---- ").append(log.getFileName()).append(" (last 30 lines)\n");
                lines.subList(Math.max(0, lines.size() - 30), lines.size()).forEach(l -> sb.append(l).append('\n'));
            }
        }
        return sb.toString();
    }

    private static Process worker(String name) throws IOException {
        Path work = Files.createDirectories(dir.resolve("work-" + name));
        return java("256m", "org.apache.spark.deploy.worker.Worker", dir.resolve("worker-" + name + ".log"),
                List.of("--host", "127.0.0.1", "--cores", "1", "--memory", "1g", "--webui-port",
                        String.valueOf(freePort()), "--work-dir", work.toString(),
                        "spark://127.0.0.1:" + masterPort));
    }

    @BeforeAll
    static void startCluster() throws Exception {
        sparkHome = sparkHome();
        csv = dir.resolve("rows.csv");
        SplittableRandom r = new SplittableRandom(3);
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < DIM; j++) {
            sb.append(j == 0 ? "" : ",").append("x").append(j + 1);
        }
        sb.append('\n');
        for (int i = 0; i < ROWS; i++) {
            for (int j = 0; j < DIM; j++) {
                sb.append(j == 0 ? "" : ",").append(r.nextGaussian() * (j < 2 ? 2 : 0.5));
            }
            sb.append('\n');
        }
        Files.writeString(csv, sb);
        masterPort = freePort();
        masterUi = freePort();
        java("256m", "org.apache.spark.deploy.master.Master", dir.resolve("master.log"),
                List.of("--host", "127.0.0.1", "--port", String.valueOf(masterPort), "--webui-port",
                        String.valueOf(masterUi)));
        await("the master", START, () -> get("http://127.0.0.1:" + masterUi + "/json/").contains("\"status\""));
        workerA = worker("a");
        workerB = worker("b");
        await("two workers", START, () -> aliveWorkers() == 2);
        System.out.printf(Locale.ROOT, "cluster test: master and 2 workers up after %.1f s%n", seconds());
    }

    private static double seconds() {
        return (System.nanoTime() - T0) / 1e9;
    }

    private static int aliveWorkers() {
        String json = get("http://127.0.0.1:" + masterUi + "/json/");
        int at = json.indexOf("\"aliveworkers\"");
        if (at < 0) {
            return 0;
        }
        String rest = json.substring(json.indexOf(':', at) + 1).trim();
        int end = 0;
        while (end < rest.length() && Character.isDigit(rest.charAt(end))) {
            end++;
        }
        return end == 0 ? 0 : Integer.parseInt(rest.substring(0, end));
    }

    @AfterAll
    static void stopCluster() {
        for (Process p : STARTED) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : STARTED) {
            try {
                p.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static final String[] FIT = {"fit", "--algorithm", "analyze-gauss", "-k", "3", "--epsilon", "1",
        "--delta", "1e-6", "--clip-norm", "4", "--center", "private", "--seed", "11"};

    private static Path cliRelease() throws IOException {
        Path out = dir.resolve("cli.json");
        if (!Files.exists(out)) {
            List<String> args = new ArrayList<>(List.of(FIT));
            args.addAll(List.of("--output", out.toString(), csv.toString()));
            StringWriter err = new StringWriter();
            CommandLine cl = Main.newCommandLine();
            cl.setErr(new PrintWriter(err, true));
            assertThat(cl.execute(args.toArray(new String[0]))).as(err.toString()).isZero();
        }
        return out;
    }

    /** Submits the job as spark-submit does (client mode); returns the process, its release in {@code out}. */
    private static Process submit(Path out, int uiPort, String name) throws IOException {
        List<String> args = new ArrayList<>(List.of("--master", "spark://127.0.0.1:" + masterPort,
                "--class", "io.dpspectra.spark.DpPcaJob",
                "--conf", "spark.executor.memory=512m", "--conf", "spark.executor.cores=1",
                "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.ui.port=" + uiPort,
                // several partitions, so that both executors have tasks and a lost one has work to redo
                "--conf", "spark.sql.files.maxPartitionBytes=2m",
                "--conf", "spark.executorEnv.OPENBLAS_NUM_THREADS=1",
                "--conf", "spark.sql.warehouse.dir=" + dir.resolve("warehouse-" + name).toUri(),
                jobJar().toString()));
        args.addAll(List.of(FIT));
        args.addAll(List.of("--output", out.toString(), csv.toString()));
        return java("1g", "org.apache.spark.deploy.SparkSubmit", dir.resolve("submit-" + name + ".log"), args);
    }

    private static void finish(Process job, String name) throws Exception {
        assertThat(job.waitFor(JOB.toSeconds(), TimeUnit.SECONDS)).as("job " + name + " finished\n" + logs()).isTrue();
        assertThat(job.exitValue()).as("job " + name + " exit code\n" + logs()).isZero();
    }

    @Test
    void theClustersReleaseIsTheClisAndSurvivesTheLossOfAWorker() throws Exception {
        Path cli = cliRelease();

        long start = System.nanoTime();
        Path clean = dir.resolve("cluster.json");
        finish(submit(clean, freePort(), "clean"), "clean");
        System.out.printf(Locale.ROOT, "cluster test: clean job %.1f s%n", (System.nanoTime() - start) / 1e9);
        assertThat(Files.readString(clean)).isEqualTo(Files.readString(cli));

        // the same job; worker b is killed (its executor goes with it) while a stage is running
        start = System.nanoTime();
        int ui = freePort();
        Path afterLoss = dir.resolve("cluster-loss.json");
        Process job = submit(afterLoss, ui, "loss");
        await("a running stage with both executors registered", JOB, () -> {
            String apps = get("http://127.0.0.1:" + ui + "/api/v1/applications");
            int at = apps.indexOf("\"id\" : \"");
            if (at < 0) {
                return !job.isAlive();
            }
            String id = apps.substring(at + 8, apps.indexOf('"', at + 8));
            String base = "http://127.0.0.1:" + ui + "/api/v1/applications/" + id;
            String executors = get(base + "/executors");
            boolean both = executors.split("\"hostPort\"").length - 1 >= 3;   // the driver and two executors
            return both && get(base + "/stages?status=active").contains("\"numActiveTasks\"") || !job.isAlive();
        });
        assertThat(job.isAlive()).as("the job was still running when the worker was killed\n" + logs()).isTrue();
        workerB.descendants().forEach(ProcessHandle::destroyForcibly);
        workerB.destroyForcibly();
        finish(job, "loss");
        System.out.printf(Locale.ROOT, "cluster test: job with a lost worker %.1f s%n", (System.nanoTime() - start) / 1e9);
        assertThat(Files.readString(afterLoss)).isEqualTo(Files.readString(cli));
        assertThat(workerA.isAlive()).isTrue();
    }
}
