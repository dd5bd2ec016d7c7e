package io.dpspectra.cli.command;

import io.dpspectra.cli.options.Inputs;
import io.dpspectra.cli.output.AtomicFiles;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.privacy.BudgetLedger;
import io.dpspectra.privacy.ComposedGaussian;
import io.dpspectra.privacy.PrivacyAccountant;
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
                + "(exit 4) with what remains. Spends compose by basic composition (epsilons and deltas add up), with "
                + "'ledger init --accounting zcdp' by zero-concentrated DP (their rho add up), or with '--accounting pld' "
                + "by privacy loss distributions (the exact composition of what each release ran), which admit the "
                + "most releases from the same total."},
        subcommands = {LedgerCommand.Init.class, LedgerCommand.Show.class},
        footer = {"", "Example: dpspectra ledger init --epsilon 2 --delta 1e-6 adult.ledger",
                "         dpspectra fit --ledger adult.ledger --epsilon 1 ... adult.data.gz",
                "         dpspectra ledger show adult.ledger",
                "Many releases: dpspectra ledger init --accounting pld --epsilon 2 --delta 1e-6 adult.ledger"})
public final class LedgerCommand implements Runnable {
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

        @Option(names = "--accounting", paramLabel = "basic|zcdp|pld", defaultValue = "basic",
                description = "How spends compose. basic: epsilons and deltas add up (any mechanism). zcdp: each "
                        + "spend costs rho (epsilon^2/2 for pure epsilon; for a release made only of Gaussian "
                        + "mechanisms, the rho of the Gaussian mechanism that meets its (epsilon, delta)), the rhos add "
                        + "up, and the total rho is the largest whose conversion rho + 2*sqrt(rho*ln(1/delta)) meets "
                        + "the total: many Gaussian releases fit where basic composition refuses them. Needs --delta "
                        + "> 0; a release with no rho (e.g. subsampled DP-SGD steps) is refused. pld: each spend "
                        + "records what it ran (Gaussian noise of a given sensitivity/sigma, pure epsilon, or only its "
                        + "(epsilon, delta)), and a spend is admitted while all of them composed exactly (privacy loss "
                        + "distributions, never optimistic) meet the total: the most releases fit. Needs --delta > 0. "
                        + "Default: ${DEFAULT-VALUE}.")
        String accounting;

        @Parameters(index = "0", paramLabel = "FILE", description = "The ledger file to create.")
        Path file;

        @Override
        public Integer call() {
            AtomicFiles.checkWritableTarget(file, "FILE");
            PrivacyAccountant.Accounting kind = switch (accounting.toLowerCase(java.util.Locale.ROOT)) {
                case "basic" -> PrivacyAccountant.Accounting.BASIC;
                case "zcdp" -> PrivacyAccountant.Accounting.ZCDP;
                case "pld" -> PrivacyAccountant.Accounting.PLD;
                default -> throw CliException.usage("--accounting must be basic, zcdp or pld, got '" + accounting + "'",
                        "see 'dpspectra ledger init --help'");
            };
            if (kind == PrivacyAccountant.Accounting.ZCDP && delta == 0) {
                throw CliException.usage("--accounting zcdp needs --delta > 0 (its conversion to (epsilon, delta) "
                        + "spends delta)", "pass --delta 1e-6, or use --accounting basic for pure epsilon");
            }
            if (kind == PrivacyAccountant.Accounting.PLD && delta == 0) {
                throw CliException.usage("--accounting pld needs --delta > 0 (a pure epsilon total is met exactly by "
                        + "basic composition)", "pass --delta 1e-6, or use --accounting basic for pure epsilon");
            }
            BudgetLedger.init(file, PrivacyParams.of(epsilon, delta), kind);
            err().println("dpspectra: created ledger " + file + " with total " + PrivacyParams.of(epsilon, delta)
                    + switch (kind) {
                        case ZCDP -> " (zCDP accounting: total rho " + ComposedGaussian.zcdpRho(PrivacyParams.of(epsilon,
                                delta)) + ")";
                        case PLD -> " (PLD accounting: Gaussian releases fit while their mu compose to at most "
                                + io.dpspectra.privacy.pld.GaussianPrivacy.mu(PrivacyParams.of(epsilon, delta)) + ")";
                        case BASIC -> "";
                    });
            err().flush();
            return ExitCodes.OK;
        }
    }

    /** {@code ledger show}. */
    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Print a ledger's total, its spends and what remains, as JSON: the spends composed every way "
                    + "(basic; zCDP when every spend has a rho; privacy loss distributions of what each spend ran), and "
                    + "what remains under the ledger's accounting.")
    static final class Show extends BaseCommand {
        @Parameters(index = "0", paramLabel = "FILE", description = "The ledger file.")
        Path file;

        @Override
        public Integer call() throws Exception {
            Inputs.checkReadable(file);
            BudgetLedger.State s = BudgetLedger.read(file);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("accounting", s.accounting().name().toLowerCase(java.util.Locale.ROOT));
            Map<String, Object> total = new LinkedHashMap<>();
            total.put("epsilon", s.total().epsilon());
            total.put("delta", s.total().delta());
            if (s.total().delta() > 0) {
                total.put("rho", ComposedGaussian.zcdpRho(s.total()));
            }
            m.put("total", total);
            Map<String, Object> basic = new LinkedHashMap<>();
            basic.put("epsilon", s.spentEpsilon());
            basic.put("delta", s.spentDelta());
            m.put("spentBasic", basic);
            double rho = s.spentRho();
            Map<String, Object> z = new LinkedHashMap<>();
            if (Double.isNaN(rho)) {
                z.put("note", "not every spend has a zCDP cost (rho=none), so there is no zCDP total");
            } else {
                z.put("rho", rho);
                if (s.total().delta() > 0) {
                    z.put("epsilon", ComposedGaussian.zcdpEpsilon(rho, s.total().delta()));
                    z.put("delta", rho > 0 ? s.total().delta() : 0.0);
                    z.put("conversion", "epsilon = rho + 2*sqrt(rho*ln(1/delta)) at the total delta (Bun & Steinke "
                            + "2016, Prop. 1.3)");
                }
            }
            m.put("spentZcdp", z);
            io.dpspectra.privacy.PrivacyProfile composed = s.spentProfile();
            if (composed != null && s.total().delta() > 0) {
                Map<String, Object> pld = new LinkedHashMap<>();
                pld.put("epsilon", io.dpspectra.privacy.pld.ProfileAccounting.epsilonForDelta(composed, s.total().delta(),
                        io.dpspectra.privacy.pld.PrivacyLossDistribution.DEFAULT_DISCRETIZATION));
                pld.put("delta", s.total().delta());
                pld.put("composition", "privacy loss distributions of the spends' profiles (exact for Gaussian "
                        + "spends, pessimistic discretisation otherwise), epsilon at the total delta");
                m.put("spentPld", pld);
            }
            m.put("remaining", BudgetLedger.remaining(s));
            List<Map<String, Object>> spends = s.spends().stream().map(p -> {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("epsilon", p.params().epsilon());
                o.put("delta", p.params().delta());
                o.put("rho", p.hasRho() ? (Object) p.rho() : "none");
                o.put("profile", p.profile().describe());
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
