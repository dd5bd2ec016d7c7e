package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.output.ExitCodes;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Useless releases are said plainly on stderr, and options that do not apply to the chosen algorithm are
 * refused.
 */
class UselessReleaseTest {
    @TempDir
    Path dir;

    static Stream<Arguments> inapplicable() {
        return Stream.of(
                Arguments.of("analyze-gauss", "--paper-literal", null, "k-dp-ojas, k-dp-pca"),
                Arguments.of("k-dp-ojas", "--tau", "0.1", "k-dp-pca"),
                Arguments.of("oja", "--paper-literal", null, "k-dp-ojas"),
                Arguments.of("analyze-gauss", "--iterations", "5", "private-power"),
                Arguments.of("private-power", "--perturbation-sigma", "0.1", "noisy-power"),
                Arguments.of("it-u", "--ies-failure-probability", "0.1", "ad"),
                Arguments.of("analyze-gauss", "--skip-last-vector", null, "it-u, ad"),
                Arguments.of("dp-gauss-2", "--on-small-gap", "fail", "dp-gauss-2"));
    }

    @ParameterizedTest
    @MethodSource("inapplicable")
    void anOptionTheAlgorithmDoesNotUseIsRefusedBeforeReading(String alg, String option, String value, String users)
            throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("fit", "--algorithm", alg, "-k", "1",
                "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1", option));
        if (value != null) {
            args.add(value);
        }
        args.add(csv.toString());
        Cli.Result r = Cli.run(args.toArray(new String[0]));
        if (alg.equals("dp-gauss-2")) {
            // the option's own algorithm accepts it (the control case)
            assertThat(r.err()).doesNotContain("does not apply");
            return;
        }
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains(option + " does not apply to --algorithm " + alg).contains(users);
    }

    @Test
    void aMeaninglessEpsilonIsSaidPlainly() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        Cli.Result r = Cli.run("covariance", "--algorithm", "laplace", "--epsilon", "25", "--clip-norm", "1",
                csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("warning: epsilon = 25.0 is so large that the release is not meaningfully private");
        Cli.Result ok = Cli.run("covariance", "--algorithm", "laplace", "--epsilon", "2", "--clip-norm", "1",
                csv.toString());
        assertThat(ok.err()).doesNotContain("meaningfully");
    }

    @Test
    void clippingMoreThanHalfTheRowsIsSaidPlainly() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(50, 3));
        Cli.Result r = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "0.05", csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("of the 50 rows were clipped to the norm bound").contains("larger --clip-norm");
        Cli.Result fine = Cli.run("fit", "--algorithm", "analyze-gauss", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "1", csv.toString());
        assertThat(fine.err()).doesNotContain("were clipped");
    }

    @Test
    void aRandomBasisInPlaceOfTheEstimateIsSaidPlainly() throws Exception {
        Path csv = Cli.write(dir, "flat.csv", "a,b\n1,0\n0,1\n");
        Cli.Result r = Cli.run("fit", "--algorithm", "dp-gauss-2", "-k", "1", "--epsilon", "1", "--delta", "1e-6",
                "--clip-norm", "1", "--on-small-gap", "random-basis", csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("the release is a uniformly random basis");
    }

    @Test
    void kDpPcaReturningItsRandomStartIsSaidPlainly() throws Exception {
        Path csv = Cli.write(dir, "data.csv", Cli.smallCsv(400, 3));
        Cli.Result r = Cli.run("fit", "--algorithm", "k-dp-pca", "-k", "1", "--epsilon", "0.5", "--delta", "1e-6",
                "--clip-norm", "1", csv.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("PrivRange) failed in all").contains("random starting basis");
    }
}
