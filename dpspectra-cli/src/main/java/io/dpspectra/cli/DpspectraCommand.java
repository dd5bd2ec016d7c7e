package io.dpspectra.cli;

import io.dpspectra.cli.command.AdviseCommand;
import io.dpspectra.cli.command.AuditCommand;
import io.dpspectra.cli.command.BenchCommand;
import io.dpspectra.cli.command.ConvertCommand;
import io.dpspectra.cli.command.CovarianceCommand;
import io.dpspectra.cli.command.DemoCommand;
import io.dpspectra.cli.command.EvaluateCommand;
import io.dpspectra.cli.command.FitCommand;
import io.dpspectra.cli.command.GenerateCommand;
import io.dpspectra.cli.command.LdpCommand;
import io.dpspectra.cli.command.LedgerCommand;
import io.dpspectra.cli.command.ReproduceCommand;
import io.dpspectra.cli.command.RidgeCommand;
import io.dpspectra.cli.command.SchemaCommand;
import io.dpspectra.cli.command.SpectralCommand;
import io.dpspectra.cli.command.TransformCommand;
import io.dpspectra.cli.options.CommonOptions;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The top-level {@code dpspectra} command: only dispatches to its subcommands. */
@Command(name = "dpspectra", mixinStandardHelpOptions = true, version = "dpspectra 0.1.0-SNAPSHOT",
        description = "Differentially private spectral analysis: private PCA and covariance release.",
        footer = {"", "Exit codes: 0 success; 1 internal error; 2 bad usage or parameters; 3 bad input data; "
                + "4 privacy budget refused; 5 the mechanism refused to release (documented, e.g. a failed private "
                + "gap test: the budget is spent, the result records the refusal).",
                "Run 'dpspectra COMMAND --help' for the options of a command; start with 'dpspectra demo'."})
final class DpspectraCommand implements Runnable {
    /**
     * The subcommands, in the order of the usage message. Not in the annotation, so that {@link Main} can
     * build only the one a command line names: picocli builds each subcommand's model by reflection,
     * about 0.16 CPU seconds for all of them at start-up (docs/benchmarks/csv.md, "Start-up").
     */
    static final List<Class<?>> SUBCOMMANDS = List.of(FitCommand.class, AdviseCommand.class, CovarianceCommand.class,
            TransformCommand.class, GenerateCommand.class, EvaluateCommand.class, ConvertCommand.class,
            DemoCommand.class, BenchCommand.class, ReproduceCommand.class, SpectralCommand.class, RidgeCommand.class,
            SchemaCommand.class, LedgerCommand.class, AuditCommand.class, LdpCommand.class,
            picocli.CommandLine.HelpCommand.class);

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common = new CommonOptions();

    @Override
    public void run() {
        // listed from the registered subcommands, so that a new command is never missing here
        throw new ParameterException(spec.commandLine(), "a command is required: "
                + String.join(", ", spec.subcommands().keySet()));
    }
}
