package io.dpspectra.linalg;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The library writes nothing to stderr by default: first use of the linear algebra in a
 * fresh JVM (where netlib looks for its optional implementations and the backend is chosen) is silent.
 */
class LibraryLoggingTest {
    /** A fresh JVM's first use of the Java API: a Gram matrix and its eigendecomposition. */
    public static void main(String[] args) {
        Matrix x = Matrix.fromRows(new double[][] {{1, 2, 3}, {4, 5, 6}, {7, 8, 10}});
        Matrix g = Gram.of(x);
        System.out.println(SymmetricEigen.top(g, 1).values()[0] > 0 ? "ok" : "bad");
    }

    private static Result runFreshJvm(String... properties) throws Exception {
        String javaBin = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(javaBin, "-cp",
                System.getProperty("java.class.path")));
        cmd.addAll(java.util.List.of(properties));
        cmd.add(LibraryLoggingTest.class.getName());
        Process p = new ProcessBuilder(cmd).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    private record Result(String out, String err) {
    }

    @Test
    void firstUseOfTheJavaApiWritesNothingToStderr() throws Exception {
        Result r = runFreshJvm();
        assertThat(r.out().strip()).isEqualTo("ok");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void netlibsNotesCanBeAskedFor() throws Exception {
        // with the opt-in property netlib's own notes come back (on a machine where some implementation is
        // missing, as VectorBLAS is without --add-modules jdk.incubator.vector)
        Result r = runFreshJvm("-Ddpspectra.netlibLogging=true");
        assertThat(r.out().strip()).isEqualTo("ok");
        assertThat(r.err()).contains("dev.ludovic.netlib");
    }
}
