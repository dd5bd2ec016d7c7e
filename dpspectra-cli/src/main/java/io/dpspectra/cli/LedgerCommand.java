package io.dpspectra.cli;

import io.dpspectra.privacy.BudgetLedger;
import io.dpspectra.privacy.PrivacyParams;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dpspectra ledger}: a privacy-budget ledger shared by several private commands. */
@Command(name = "ledger", mixinStandardHelpOptions = true,
        description = {"A privacy-budget ledger: a file holding a total (epsilon, delta) for one data set and every "
                + "spend made against it. Pass it to private commands with --ledger FILE: each checks and records its "
                + "spend atomically (file lock, write-then-rename) BEFORE reading data, and an overspend is refused "
                + "(exit 4) with what remains. Spends compose by basic composition (epsilons and deltas add up)."},
        subcommands = {LedgerCommand.Init.class, LedgerCommand.Show.class},
        footer = {"", "Example: dpspectra ledger init --epsilon 2 --delta 1e-6 adult.ledger",
                "         dpspectra fit --ledger adult.ledger --epsilon 1 ... adult.data.gz",
                "         dpspectra ledger show adult.ledger"})
final class LedgerCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "a subcommand is required: init or show");
    }

    /** {@code ledger init}. */
    @Command(name = "init", mixinStandardHelpOptions = true,
            description = "Create a new ledger FILE with a total budget (refuses to overwrite an existing ledger).")
    static final class Init extends BaseCommand {
        @Option(names = "--epsilon", paramLabel = "E", required = true, description = "Total epsilon (> 0).")
        double epsilon;

        @Option(names = "--delta", paramLabel = "D", defaultValue = "0",
                description = "Total delta in [0, 1). Default: ${DEFAULT-VALUE}.")
        double delta;

        @Parameters(index = "0", paramLabel = "FILE", description = "The ledger file to create.")
        Path file;

        @Override
        public Integer call() {
            AtomicFiles.checkWritableTarget(file, "FILE");
            BudgetLedger.init(file, PrivacyParams.of(epsilon, delta));
            err().println("dpspectra: created ledger " + file + " with total " + PrivacyParams.of(epsilon, delta));
            err().flush();
            return ExitCodes.OK;
        }
    }

    /** {@code ledger show}. */
    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Print a ledger's total, its spends and what remains, as JSON.")
    static final class Show extends BaseCommand {
        @Parameters(index = "0", paramLabel = "FILE", description = "The ledger file.")
        Path file;

        @Override
        public Integer call() throws Exception {
            Inputs.checkReadable(file);
            BudgetLedger.State s = BudgetLedger.read(file);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("total", Map.of("epsilon", s.total().epsilon(), "delta", s.total().delta()));
            m.put("spent", Map.of("epsilon", s.spentEpsilon(), "delta", s.spentDelta()));
            m.put("remaining", BudgetLedger.remaining(s));
            m.put("composition", "basic");
            List<Map<String, Object>> spends = s.spends().stream().map(p -> {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("epsilon", p.params().epsilon());
                o.put("delta", p.params().delta());
                o.put("at", p.at());
                o.put("purpose", p.purpose());
                return o;
            }).toList();
            m.put("spends", spends);
            emit(Json.write(m), null);
            return ExitCodes.OK;
        }
    }
}
