package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.privacy.BudgetExceededException;
import io.dpspectra.privacy.PrivacyParams;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Each kind of failure maps to its documented exit code, with a readable message and no stack trace. */
class ExitCodeMappingTest {

    @Command(name = "throwing")
    static final class Throwing implements Callable<Integer> {
        final Supplier<RuntimeException> failure;

        Throwing(Supplier<RuntimeException> failure) {
            this.failure = failure;
        }

        @Override
        public Integer call() {
            throw failure.get();
        }
    }

    static java.util.stream.Stream<Arguments> failures() {
        return java.util.stream.Stream.of(
                Arguments.of((Supplier<RuntimeException>) () -> new IllegalArgumentException("epsilon must be > 0"),
                        ExitCodes.USAGE),
                Arguments.of((Supplier<RuntimeException>) () -> new InvalidDataException("data.csv line 3 column 2: NaN"),
                        ExitCodes.BAD_DATA),
                Arguments.of((Supplier<RuntimeException>) () -> new BudgetExceededException("privacy budget exceeded",
                        PrivacyParams.of(2, 0), PrivacyParams.of(1, 0)), ExitCodes.BUDGET_REFUSED),
                Arguments.of((Supplier<RuntimeException>) () -> new IllegalStateException("invariant broken"),
                        ExitCodes.INTERNAL),
                Arguments.of((Supplier<RuntimeException>) () -> CliException.data("bad model", "fix it", null),
                        ExitCodes.BAD_DATA),
                Arguments.of((Supplier<RuntimeException>) () -> new java.io.UncheckedIOException("cannot write out.dpsr: "
                        + "no space left on device", new java.io.IOException("No space left on device")),
                        ExitCodes.BAD_DATA),
                Arguments.of((Supplier<RuntimeException>) () -> new io.dpspectra.privacy.ReleaseRefusedException(
                        "DP-Gauss-2 refused to release", "use more rows", new io.dpspectra.privacy.PrivacyGuarantee("m",
                        PrivacyParams.of(1, 1e-6), io.dpspectra.privacy.Neighbouring.ADD_REMOVE_ROW, "one row", "s",
                        "r"), null), ExitCodes.MECHANISM_REFUSED));
    }

    @ParameterizedTest
    @MethodSource("failures")
    void failureMapsToItsExitCodeWithAReadableMessage(Supplier<RuntimeException> failure, int expected) {
        CommandLine cl = Main.configure(new CommandLine(new Throwing(failure)));
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute();
        assertThat(code).isEqualTo(expected);
        String[] lines = err.toString().split("\\R");
        assertThat(lines).hasSizeBetween(1, 2);
        assertThat(lines[0]).startsWith(expected == ExitCodes.MECHANISM_REFUSED ? "dpspectra: DP-Gauss-2 refused"
                : "dpspectra: error: ").contains(failure.get().getMessage()).doesNotContain("bug");
    }
}
