package io.dpspectra.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a user's project sees: a throw-away Spark application whose dependencies are the README's Install snippet
 * for Spark ({@code dpspectra-spark} declared before {@code spark-mllib_2.13}), built by a separate Maven against the
 * artifacts this build just made, starts a SparkContext in {@code local[1]} and fits {@code DpPca}. The artifacts are
 * installed (by this module's POM) into the consumer's own local repository, never into ~/.m2, which other builds
 * share; every other entry of that repository is a link to the outer build's local repository, so that third-party
 * artifacts resolve from what this build already has, offline as well.
 */
class ConsumerProjectIT {
    private static final Path ROOT = Path.of(System.getProperty("dpspectra.root")).toAbsolutePath().normalize();
    private static final String VERSION = System.getProperty("dpspectra.version");
    private static final Path LOCAL_REPOSITORY = Path.of(System.getProperty("consumer.localRepository"));
    private static final Path WORK = Path.of(System.getProperty("consumer.workDir"));
    private static final Path OUTER_REPOSITORY = Path.of(System.getProperty("outer.localRepository"));
    private static final long TIMEOUT_MINUTES = 10;

    /** The artifacts a dpspectra-spark user may receive from dpspectra, besides what Spark itself brings. */
    private static final List<String> ALLOWED_FROM_DPSPECTRA = List.of("io.dpspectra:", "info.picocli:picocli",
            "ch.randelshofer:fastdoubleparser", "dev.ludovic.netlib:", "net.sourceforge.f2j:");

    private static Path project;
    private static List<String> readmeSparkDependencies;
    private static List<String> classpath;
    private static String tree;
    /** The class path of a project that declares only dpspectra-spark and then spark-mllib_2.13. */
    private static List<String> mllibOnlyClasspath;

    @BeforeAll
    static void buildTheConsumerProject() throws Exception {
        readmeSparkDependencies = ReadmeInstall.read(ROOT.resolve("README.md")).mavenBlockWith("dpspectra-spark");
        deleteRecursively(WORK);
        project = WORK.resolve("project");
        copyResource("consumer/pom.xml", project.resolve("pom.xml"));
        copyResource("consumer/src/main/java/example/ConsumerApp.java",
                project.resolve("src/main/java/example/ConsumerApp.java"));
        String pom = Files.readString(project.resolve("pom.xml"));
        Files.writeString(project.resolve("pom.xml"), pom.replace("@README_DEPENDENCIES@",
                String.join("\n", readmeSparkDependencies)));
        assertThat(LOCAL_REPOSITORY.resolve("io/dpspectra/dpspectra-spark/" + VERSION)).as("the staged artifacts")
                .isDirectory();
        linkThirdPartyEntries(LOCAL_REPOSITORY);

        List<String> maven = new ArrayList<>(List.of(mavenExecutable(), "-B",
                "-Dmaven.repo.local=" + LOCAL_REPOSITORY));
        if ("offline=true".equals(System.getProperty("outer.offline"))) {
            maven.add("-o");
        }
        List<String> mvn = new ArrayList<>(maven);
        mvn.addAll(List.of("-f", project.resolve("pom.xml").toString(), "compile", "dependency:build-classpath",
                "-Dmdep.includeScope=test", "-Dmdep.outputFile=" + WORK.resolve("classpath.txt"), "dependency:tree",
                "-DoutputFile=" + WORK.resolve("tree.txt")));
        Run build = run(mvn, project);
        assertThat(build.code()).as("the consumer project's Maven build:\n%s", build.output()).isZero();
        classpath = readClasspath(WORK.resolve("classpath.txt"));
        tree = Files.readString(WORK.resolve("tree.txt"));

        // the same project with only dpspectra-spark and spark-mllib_2.13, in that order: resolved, not run (Maven
        // then picks an older scala-library than Spark's, which the README's spark-sql line avoids)
        Path mllibOnly = WORK.resolve("mllib-only");
        Files.createDirectories(mllibOnly);
        List<String> twoDependencies = readmeSparkDependencies.stream()
                .filter(d -> d.contains("<artifactId>dpspectra-spark</artifactId>")
                        || d.contains("<artifactId>spark-mllib_2.13</artifactId>"))
                .collect(Collectors.toList());
        Files.writeString(mllibOnly.resolve("pom.xml"), pom.replace("@README_DEPENDENCIES@",
                String.join("\n", twoDependencies)));
        List<String> resolve = new ArrayList<>(maven);
        resolve.addAll(List.of("-f", mllibOnly.resolve("pom.xml").toString(), "dependency:build-classpath",
                "-Dmdep.includeScope=test", "-Dmdep.outputFile=" + WORK.resolve("mllib-only-classpath.txt")));
        Run resolved = run(resolve, mllibOnly);
        assertThat(resolved.code()).as("resolving the mllib-only project:\n%s", resolved.output()).isZero();
        mllibOnlyClasspath = readClasspath(WORK.resolve("mllib-only-classpath.txt"));
    }

    /** Removes the links to the outer repository, so that nothing under target/ points into ~/.m2 afterwards. */
    @AfterAll
    static void unlinkThirdPartyEntries() throws IOException {
        for (Path dir : List.of(LOCAL_REPOSITORY, LOCAL_REPOSITORY.resolve("io"))) {
            if (!Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            try (Stream<Path> entries = Files.list(dir)) {
                for (Path entry : entries.collect(Collectors.toList())) {
                    if (Files.isSymbolicLink(entry)) {
                        Files.delete(entry);
                    }
                }
            }
        }
    }

    private static List<String> readClasspath(Path file) throws IOException {
        return Arrays.asList(Files.readString(file).trim().split(java.io.File.pathSeparator));
    }

    @Test
    void theReadmeDeclaresDpspectraSparkBeforeSparkMllib() {
        int dpspectra = indexOf(readmeSparkDependencies, "<artifactId>dpspectra-spark</artifactId>");
        int mllib = indexOf(readmeSparkDependencies, "<artifactId>spark-mllib_2.13</artifactId>");
        assertThat(dpspectra).as("the README's Spark snippet names dpspectra-spark").isGreaterThanOrEqualTo(0);
        assertThat(mllib).as("the README's Spark snippet names spark-mllib_2.13").isGreaterThan(dpspectra);
    }

    @Test
    void aSparkApplicationDependingOnDpspectraSparkStartsSparkAndFitsDpPca() throws Exception {
        List<String> command = new ArrayList<>(List.of(javaExecutable()));
        command.addAll(moduleFlags());
        command.addAll(List.of("-cp", project.resolve("target/classes") + java.io.File.pathSeparator
                + String.join(java.io.File.pathSeparator, classpath), "example.ConsumerApp"));
        Run app = run(command, project);

        assertThat(app.code()).as("the consumer application:\n%s", app.output()).isZero();
        Matcher fitted = Pattern.compile("fitted analyze-gauss: 3 x 1 components, PC1 = \\[(\\S+), (\\S+), (\\S+)], "
                + "400 rows transformed").matcher(app.output());
        assertThat(fitted.find()).as("the fit's summary in:\n%s", app.output()).isTrue();
        // the data lie along (1, 1, 0)/√2 with a top eigenvalue of XᵀX near 100 against noise of spectral norm
        // about 7 (σ ≈ 1.9 at ε = 2, δ = 1e-6, clip 1): the private PC1 is within a few degrees of it
        double cos = Math.abs(Double.parseDouble(fitted.group(1)) + Double.parseDouble(fitted.group(2))) / Math.sqrt(2);
        assertThat(cos).as("|cos| between the private PC1 and the data's direction").isGreaterThan(0.95);
        assertThat(app.output()).contains("guarantee: PrivacyGuarantee[mechanism=AnalyzeGauss (DP-Gauss-1)");
    }

    @Test
    void dpspectraBringsNoJacksonXchartOrProgressBarOntoASparkUsersClassPath() {
        // one Jackson line on the class path, Spark's: a newer databind beside Spark's annotations stops SparkContext
        // (NoClassDefFoundError JsonSerializeAs), which a project with only dpspectra-spark and spark-mllib_2.13 met
        assertThat(jacksonLines(classpath)).as("Jackson versions on the class path: %s", classpath).hasSize(1);
        assertThat(jacksonLines(mllibOnlyClasspath)).as("Jackson versions with spark-mllib alone: %s",
                mllibOnlyClasspath).isEqualTo(jacksonLines(classpath));
        List<String> fromDpspectra = subtreeOf(tree, "io.dpspectra:dpspectra-spark:jar:" + VERSION);
        assertThat(fromDpspectra).as("what dpspectra-spark brings (dependency:tree):\n%s", tree).isNotEmpty();
        for (String artifact : fromDpspectra) {
            assertThat(ALLOWED_FROM_DPSPECTRA).as("%s is brought by dpspectra-spark:\n%s", artifact, tree)
                    .anyMatch(artifact::startsWith);
        }
    }

    private static Set<String> jacksonLines(List<String> classpath) {
        return classpath.stream().map(ConsumerProjectIT::fileName)
                .filter(f -> f.matches("jackson-(databind|core|annotations)-.*\\.jar"))
                .map(f -> f.replaceAll("jackson-(databind|core|annotations)-(\\d+\\.\\d+).*", "$2"))
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    @Test
    void theSparkJobJarHoldsOnlyWhatTheJobNeedsAndRunsOnSparksOwnClassPath() throws Exception {
        Path jobJar = ROOT.resolve("dpspectra-spark/target/dpspectra-spark.jar");
        List<String> topLevel;
        try (ZipFile zip = new ZipFile(jobJar.toFile())) {
            topLevel = zip.stream().map(e -> e.getName()).filter(n -> !n.startsWith("META-INF/")).map(n -> {
                String[] parts = n.split("/");
                return parts.length > 2 ? parts[0] + "/" + parts[1] : parts[0];
            }).distinct().sorted().collect(Collectors.toList());
        }
        assertThat(topLevel).as("the packages in %s", jobJar)
                .contains("io/dpspectra", "picocli")
                .noneMatch(p -> p.startsWith("org/netlib") || p.startsWith("dev/ludovic")
                        || p.startsWith("com/fasterxml") || p.startsWith("org/apache") || p.startsWith("scala")
                        || p.startsWith("org/knowm") || p.startsWith("org/jline") || p.startsWith("me/tongfei")
                        || p.startsWith("org/j_paine"));

        // the job on Spark's own class path (the consumer's, less what dpspectra brings), as spark-submit runs it
        List<String> sparkClasspath = new ArrayList<>(List.of(jobJar.toString()));
        for (String entry : classpath) {
            String name = fileName(entry);
            boolean ours = name.startsWith("dpspectra-") || name.startsWith("picocli-")
                    || name.startsWith("fastdoubleparser-");
            if (!ours) {
                sparkClasspath.add(entry);
            }
        }
        Path csv = WORK.resolve("rows.csv");
        StringBuilder rows = new StringBuilder("a,b,c\n");
        for (int i = 0; i < 200; i++) {
            double t = ((i % 20) - 9.5) / 10.0;
            rows.append(String.format(Locale.ROOT, "%.4f,%.4f,%.4f%n", 0.6 * t, 0.6 * t, 0.02 * (i % 3)));
        }
        Files.writeString(csv, rows);
        Path release = WORK.resolve("release.json");
        List<String> command = new ArrayList<>(List.of(javaExecutable()));
        command.addAll(moduleFlags());
        command.addAll(List.of("-Dspark.master=local[1]", "-Dspark.ui.enabled=false", "-Dspark.driver.host=127.0.0.1",
                "-Dspark.driver.bindAddress=127.0.0.1", "-cp", String.join(java.io.File.pathSeparator, sparkClasspath),
                "io.dpspectra.spark.DpPcaJob", "fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1",
                "--delta", "1e-6", "--clip-norm", "1", "--header", "present", "--output", release.toString(),
                csv.toString()));
        Run job = run(command, WORK);
        assertThat(job.code()).as("the Spark job from the shaded jar:\n%s", job.output()).isZero();
        assertThat(Files.readString(release)).contains("\"guarantee\"").contains("AnalyzeGauss");
    }

    /** The artifacts ("group:artifact:...") below {@code root} in a dependency:tree listing. */
    static List<String> subtreeOf(String tree, String root) {
        List<String> lines = tree.lines().collect(Collectors.toList());
        List<String> found = new ArrayList<>();
        int depth = -1;
        for (String line : lines) {
            int start = indexOfArtifact(line);
            if (start < 0) {
                continue;
            }
            String artifact = line.substring(start).trim();
            if (depth >= 0) {
                if (start <= depth) {
                    break;
                }
                found.add(artifact);
            } else if (artifact.startsWith(root)) {
                depth = start;
            }
        }
        return found;
    }

    private static int indexOfArtifact(String line) {
        Matcher m = Pattern.compile("[a-zA-Z0-9_.-]+:[a-zA-Z0-9_.-]+:").matcher(line);
        return m.find() ? m.start() : -1;
    }

    private static int indexOf(List<String> elements, String text) {
        for (int i = 0; i < elements.size(); i++) {
            if (elements.get(i).contains(text)) {
                return i;
            }
        }
        return -1;
    }

    private static String fileName(String path) {
        return Path.of(path).getFileName().toString();
    }

    /**
     * Links every entry of the outer build's local repository into {@code dir}, except io.dpspectra (this build's
     * own artifacts are in {@code dir} already, and an io.dpspectra left in the outer repository by some other build
     * must not be seen). Entries {@code dir} already has (its own io/dpspectra, links of an earlier run) are kept.
     */
    private static void linkThirdPartyEntries(Path dir) throws IOException {
        try (Stream<Path> top = Files.list(OUTER_REPOSITORY)) {
            for (Path entry : top.collect(Collectors.toList())) {
                Path here = dir.resolve(entry.getFileName().toString());
                if (entry.getFileName().toString().equals("io") && Files.isDirectory(entry)) {
                    Files.createDirectories(here);
                    try (Stream<Path> groups = Files.list(entry)) {
                        for (Path group : groups.collect(Collectors.toList())) {
                            link(here.resolve(group.getFileName().toString()), group);
                        }
                    }
                } else {
                    link(here, entry);
                }
            }
        }
    }

    private static void link(Path link, Path target) throws IOException {
        if (!link.getFileName().toString().equals("dpspectra")
                && !Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Files.createSymbolicLink(link, target);
        }
    }

    private static List<String> moduleFlags() {
        return Arrays.stream(System.getProperty("spark.moduleFlags", "").trim().split("\\s+"))
                .filter(s -> !s.isEmpty()).collect(Collectors.toList());
    }

    private static String mavenExecutable() {
        String home = System.getProperty("outer.mavenHome");
        if (home != null && Files.isExecutable(Path.of(home, "bin", "mvn"))) {
            return Path.of(home, "bin", "mvn").toString();
        }
        return "mvn";
    }

    private static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void copyResource(String name, Path target) throws IOException {
        Files.createDirectories(target.getParent());
        try (InputStream in = ConsumerProjectIT.class.getClassLoader().getResourceAsStream(name)) {
            assertThat(in).as("test resource %s", name).isNotNull();
            Files.copy(in, target);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            // links are deleted, never followed: the linked repository is the shared one
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(p);
            }
        }
    }

    private record Run(int code, String output) {
    }

    private static Run run(List<String> command, Path dir) throws IOException, InterruptedException {
        Path log = Files.createTempFile(WORK, "run", ".log");
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            p.waitFor();
            return new Run(-1, "timed out after " + TIMEOUT_MINUTES + " minutes: " + String.join(" ", command) + "\n"
                    + Files.readString(log, StandardCharsets.UTF_8));
        }
        return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
