package io.dpspectra.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The README's Install section gives the coordinates this build produces. */
class ReadmeInstallTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void everyDpspectraCoordinateIsAPublishedModuleAtTheBuildsVersion() throws Exception {
        String version = projectVersion();
        List<ReadmeInstall.Coordinates> ours = ReadmeInstall.read(ROOT.resolve("README.md")).coordinates().stream()
                .filter(c -> "io.dpspectra".equals(c.groupId())).collect(Collectors.toList());
        for (String tool : List.of("maven", "gradle")) {
            assertThat(ours.stream().filter(c -> c.tool().equals(tool)).map(ReadmeInstall.Coordinates::artifactId))
                    .as("the %s coordinates of the README's Install section", tool)
                    .contains("dpspectra-core", "dpspectra-cli", "dpspectra-spark");
        }
        for (ReadmeInstall.Coordinates c : ours) {
            assertThat(c.version()).as("%s in the README", c).isEqualTo(version);
            assertThat(Files.isRegularFile(ROOT.resolve(c.artifactId()).resolve("pom.xml")))
                    .as("%s names a module of this build", c).isTrue();
            String pom = Files.readString(ROOT.resolve(c.artifactId()).resolve("pom.xml"));
            assertThat(pom).as("%s's pom", c.artifactId()).contains("<artifactId>" + c.artifactId() + "</artifactId>");
        }
    }

    @Test
    void theSparkSnippetNamesTheSparkAndScalaLinesThisBuildIsTestedWith() throws Exception {
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        String spark = pom.replaceAll("(?s).*<spark.version>([^<]+)</spark.version>.*", "$1");
        List<ReadmeInstall.Coordinates> sparks = ReadmeInstall.read(ROOT.resolve("README.md")).coordinates().stream()
                .filter(c -> "org.apache.spark".equals(c.groupId())).collect(Collectors.toList());
        assertThat(sparks.stream().map(ReadmeInstall.Coordinates::artifactId))
                .as("Spark in the README's Install section").contains("spark-sql_2.13", "spark-mllib_2.13");
        assertThat(sparks).allSatisfy(c -> assertThat(c.version()).as("%s", c).isEqualTo(spark));
        assertThat(sparks).allSatisfy(c -> assertThat(c.artifactId()).as("%s", c).endsWith("_2.13"));
    }

    /** The version of this build, read from the parent POM (the first version after the parent's artifactId). */
    private static String projectVersion() throws Exception {
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        return pom.replaceAll("(?s).*?<artifactId>dpspectra-parent</artifactId>\\s*<version>([^<]+)</version>.*", "$1");
    }
}
