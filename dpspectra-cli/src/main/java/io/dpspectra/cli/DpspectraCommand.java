package io.dpspectra.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The top-level {@code dpspectra} command: only dispatches to its subcommands. */
@Command(name = "dpspectra", mixinStandardHelpOptions = true, version = "dpspectra 0.1.0-SNAPSHOT",
        description = "Differentially private spectral analysis: private PCA and covariance release.",
        subcommands = {FitCommand.class, CovarianceCommand.class, TransformCommand.class, GenerateCommand.class,
            EvaluateCommand.class, ConvertCommand.class, DemoCommand.class, BenchCommand.class,
            ReproduceCommand.class, SpectralCommand.class, RidgeCommand.class, SchemaCommand.class,
            LedgerCommand.class, AuditCommand.class, LdpCommand.class},
        footer = {"", "Exit codes: 0 success; 1 internal error; 2 bad usage or parameters; 3 bad input data; "
                + "4 privacy budget refused.",
                "Run 'dpspectra COMMAND --help' for the options of a command; start with 'dpspectra demo'."})
final class DpspectraCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common = new CommonOptions();

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a command is required (fit, covariance, transform, "
                + "generate, evaluate, convert, demo, bench, reproduce, spectral, ldp)");
    }
}
