package io.dpspectra.cli.command;

import io.dpspectra.cli.options.InputOptions;
import io.dpspectra.cli.options.Inputs;
import io.dpspectra.cli.output.AtomicFiles;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Progress;
import io.dpspectra.data.BinaryRows;
import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code dpspectra convert}: CSV to the fast binary row format. */
@Command(name = "convert", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Convert a CSV file (.csv or .csv.gz) to dpspectra's binary row format (.dpsr: little-endian "
                + "float64, fast to stream). The output is written atomically; a bad cell stops the conversion "
                + "(exit 3) and leaves no output.")
public final class ConvertCommand extends BaseCommand {
    @Mixin
    InputOptions input = new InputOptions();

    @Parameters(index = "0", paramLabel = "INPUT", description = "The CSV file to read (.csv, .csv.gz, or - for standard input).")
    Path inputPath;

    @Parameters(index = "1", paramLabel = "OUTPUT", description = "The .dpsr file to write.")
    Path outputPath;

    @Override
    public Integer call() {
        if (!outputPath.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".dpsr")) {
            throw CliException.usage("OUTPUT " + outputPath + " must end in .dpsr", "e.g. dpspectra convert data.csv data.dpsr");
        }
        AtomicFiles.checkWritableTarget(outputPath, "OUTPUT");
        Inputs.Opened opened = Inputs.open(inputPath, input, this::note);
        long n = BinaryRows.write(Progress.track(opened.rows(), "convert"), outputPath);
        err().println("dpspectra: wrote " + n + " rows x " + opened.dimension() + " columns to " + outputPath);
        err().flush();
        return ExitCodes.OK;
    }
}
