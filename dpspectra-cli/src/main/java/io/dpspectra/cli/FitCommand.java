package io.dpspectra.cli;

import io.dpspectra.covariance.PrivateSpectrum;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.PrivateTrace;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.PrivateSubspace;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.privacy.ReleaseRefusedException;
import io.dpspectra.release.Algorithms;
import io.dpspectra.release.BudgetPlan;
import io.dpspectra.release.Components;
import io.dpspectra.release.PcaAlgorithm;
import io.dpspectra.release.PcaOptions;
import io.dpspectra.release.Setting;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToIntFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpspectra fit}: private principal components of a data file. The algorithms are core's table
 * ({@link Algorithms}); their options are the {@link AlgorithmFamily} mixins listed in {@link #families()},
 * translated into core's typed options. This class handles the shared options, the input and the output.
 */
@Command(name = "fit", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Estimate the top-k principal components of INPUT (uncentred second moment XᵀX) with a "
                + "differentially private algorithm and print them as JSON (or a table).",
                "The algorithms are listed after the options."})
final class FitCommand extends BaseCommand {
    @Option(names = "--algorithm", paramLabel = "NAME", required = true,
            description = "The estimator (see the list of algorithms below).")
    String algorithm;

    @Option(names = {"--components", "-k"}, paramLabel = "K|auto:T[:F]", required = true,
            description = "Number of principal components k (1 <= k <= d), or auto:T to choose the smallest k whose "
                    + "private explained-variance ratio reaches T (e.g. auto:0.9). A share F of the budget (default "
                    + SPECTRUM_FRACTION + ") buys what the ratio needs: for an estimator that releases all d "
                    + "eigenvalues itself (analyze-gauss, ad, it-u --eigenvalues), only a private trace Tr X^T X "
                    + "(sensitivity B^2), and the ratio is its eigenvalues over that trace (post-processing); for "
                    + "the others a separate private spectrum (a Laplace or Gaussian covariance release): its "
                    + "eigenvalues over their sum. Gaussian noise when the estimator uses delta, Laplace otherwise. "
                    + "The spend, the spectrum, the ratios (unit-free) and the chosen k appear in the output.")
    String components;

    @Mixin
    PrivacyOptions privacy = new PrivacyOptions();

    @Mixin
    ReleaseInput io = new ReleaseInput();

    @Mixin
    StochasticPcaFamily stochastic = new StochasticPcaFamily();

    @Mixin
    PowerMethodFamily powerMethods = new PowerMethodFamily();

    @Mixin
    CovariancePcaFamily covariancePca = new CovariancePcaFamily();

    @Mixin
    RobustPcaFamily robustPca = new RobustPcaFamily();

    /** The option families, in the order of the help text. */
    List<AlgorithmFamily> families() {
        return List.of(stochastic, powerMethods, covariancePca, robustPca);
    }

    /** The help footer: one line per algorithm of core's table. */
    static String[] algorithmFooter() {
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add("Algorithms:");
        for (PcaAlgorithm a : Algorithms.pca()) {
            lines.addAll(Tables.hangingIndent(String.format(Locale.ROOT, "  %-16s ", a.name()),
                    a.summary(CliVocabulary.DEFAULT), 79));
        }
        lines.add("");
        lines.add("Example: dpspectra fit --algorithm analyze-gauss --components 2 --epsilon 1 \\");
        lines.add("             --delta 1e-6 --clip-norm 1 data.csv");
        return lines.toArray(new String[0]);
    }

    PcaAlgorithm chosen() {
        return Algorithms.findPca(algorithm).orElseThrow(() -> CliException.usage("unknown --algorithm '" + algorithm
                + "'", "choose one of: " + String.join(", ", Algorithms.pca().stream().map(PcaAlgorithm::name).toList())
                + " (see 'dpspectra fit --help')"));
    }

    /** The options typed for the families, as core's typed options for {@code alg}. */
    private PcaOptions options(PcaAlgorithm alg) {
        picocli.CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        PcaOptions.Builder b = PcaOptions.builder();
        for (AlgorithmFamily family : families()) {
            family.fill(b, name -> parsed != null && parsed.hasMatchedOption(name), alg);
        }
        return b.build();
    }

    /** Default budget share of the private spectrum behind --components auto. */
    static final double SPECTRUM_FRACTION = Components.DEFAULT_SPECTRUM_SHARE;

    /** --components auto:T[:F], parsed; null for a fixed k. */
    private double[] autoComponents() {
        String c = components.trim().toLowerCase(Locale.ROOT);
        if (!c.startsWith("auto")) {
            return null;
        }
        String[] p = c.split(":");
        if (p.length < 2 || p.length > 3 || !p[0].equals("auto")) {
            throw CliException.usage("--components " + components + " is not K or auto:T[:F]", "e.g. --components auto:0.9");
        }
        double t = BoundOptions.number(p[1], "--components " + components);
        double f = p.length == 3 ? BoundOptions.number(p[2], "--components " + components) : SPECTRUM_FRACTION;
        if (!(t > 0 && t <= 1) || !(f > 0 && f < 1)) {
            throw CliException.usage("--components " + components + ": T must be in (0, 1] and F in (0, 1)",
                    "e.g. --components auto:0.9 or auto:0.9:0.1");
        }
        return new double[] {t, f};
    }

    private int fixedComponents() {
        try {
            return DpPreconditions.checkAtLeast("--components", Integer.parseInt(components.trim()), 1);
        } catch (NumberFormatException e) {
            throw CliException.usage("--components must be a whole number k >= 1 or auto:T, got '" + components + "'",
                    "e.g. --components 2 or --components auto:0.9");
        }
    }

    @Override
    public Integer call() throws Exception {
        PcaAlgorithm alg = chosen();
        double[] auto = autoComponents();
        int k = auto == null ? fixedComponents() : -1;
        io.checkBeforeReading();
        CliVocabulary words = CliVocabulary.DEFAULT.typedAs(Setting.COMPONENTS, components);
        PcaOptions options = options(alg);
        alg.check(options, words);
        PrivacyParams params = null;
        Neighbouring neighbouring = privacy.neighbouringOrNull();
        BudgetPlan plan = null;
        PrivacyParams spectrumParams = null;
        if (alg.isPrivate()) {
            PrivacyParams total = privacy.params(alg.name());
            if (alg.needsDelta()) {
                privacy.requirePositiveDelta(alg.name());
            }
            plan = io.plan(total, auto == null ? Components.fixed(k) : Components.auto(auto[0], auto[1]),
                    alg.needsDelta(), alg.noise(options), words);
            params = plan.estimator();
            spectrumParams = plan.spectrum().orElse(null);
            neighbouring = plan.neighbouring(neighbouring); // one relation for every part of a composition
            alg.checkRelation(neighbouring, options, words);
        } else {
            if (io.spendsOnPreprocessing() || auto != null) {
                throw CliException.usage("--algorithm " + alg.name() + " is not private, so --center private, "
                        + "--clip-norm private and --components auto do not apply", "give k and a bound");
            }
            warn("--algorithm " + alg.name() + " is NOT differentially private: its output reveals the data; "
                    + "use it only as a reference");
            if (privacy.epsilon != null || privacy.seed != null || privacy.ledger != null) {
                warn("--epsilon/--delta/--seed/--ledger are ignored by --algorithm " + alg.name());
            }
        }
        RandomSource random = alg.isPrivate() ? privacy.randomSource(err()) : null;
        if (alg.isPrivate()) {
            privacy.chargeLedger("fit --algorithm " + alg.name() + " on " + io.inputPath, plan.total(), plan.rho(),
                    plan.profile());
        }

        io.beforeReading = d -> {
            if (alg.formsDxD()) {
                MemoryCheck.checkDense("--algorithm " + alg.name(), d, Runtime.getRuntime().maxMemory());
            }
        };
        io.estimatorReadsOnce = alg.readsOnce() && auto == null;
        ReleaseInput.Bounded in = io.open("fit", plan, neighbouring, random, this::note);
        if (alg.passes(options) > 1 && !Inputs.isBinaryRows(in.opened().rows())
                && in.opened().rows().sizeInBytes() >= Progress.MIN_BYTES) {
            note("--algorithm " + alg.name() + " makes " + alg.passes(options) + " passes over " + io.inputPath
                    + ", parsing the text each time; for a large file convert it once ('dpspectra convert "
                    + io.inputPath + " data.dpsr') and fit the .dpsr, which streams several times faster");
        }
        ClippedRows rows = in.rows();
        PrivateSpectrum[] spectrum = new PrivateSpectrum[1];
        ToIntFunction<double[]> chooser = null;
        if (auto != null && alg.releasesSpectrum(options)) {
            // only the trace is bought; k comes from the estimator's own released eigenvalues over it
            PrivateTrace.Result trace = PrivateTrace.of(neighbouring, random).release(rows, spectrumParams);
            io.addPreprocessingGuarantee(trace.guarantee());
            double threshold = auto[0];
            chooser = ev -> {
                spectrum[0] = PrivateSpectrum.fromReleased(ev, trace, threshold, alg.name());
                return spectrum[0].k();
            };
            k = in.opened().dimension();
        } else if (auto != null) {
            spectrum[0] = PrivateSpectrum.release(rows, spectrumParams, neighbouring, random, auto[0]);
            io.addPreprocessingGuarantee(spectrum[0].guarantee());
            k = spectrum[0].k();
        }
        DpPreconditions.checkComponents(k, in.opened().dimension());
        long start = System.nanoTime();
        PrivateSubspace result;
        try {
            result = alg.fit(new PcaAlgorithm.Input(rows, in::rowCount, k, params, neighbouring, random,
                    this::warn, chooser), options, words);
        } catch (ReleaseRefusedException e) {
            io.publish(this, io.describe(Release.refused("fit", alg.name(), e), in, random, e.spent(), plan));
            throw CliException.refused(e);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        PrivateSpectrum chosen = spectrum[0];
        if (chosen != null) {
            warn("--components " + components + " chose k = " + chosen.k() + " (private explained-variance ratio "
                    + String.format(Locale.ROOT, "%.3f", chosen.ratios()[chosen.k() - 1]) + ", from "
                    + chosen.source() + ")");
        }
        List<String> columns = in.opened().columnNames();

        Release release = io.describe(Release.of("fit", result, columns), in, random,
                result.guarantee().orElse(null), plan).diagnostic("fitSeconds", seconds);
        if (chosen != null) {
            release.put("explainedVarianceRatio", java.util.Arrays.copyOf(chosen.ratios(), result.k()));
            release.put("spectrum", Json.spectrum(chosen));
        }
        io.publish(this, release.table(() -> {
            StringBuilder sb = new StringBuilder();
            sb.append("algorithm: ").append(result.algorithm()).append('\n');
            sb.append(Tables.matrix(columns, Tables.componentNames(result.k()), result.components()));
            result.explainedVariance().ifPresent(ev -> sb.append(Tables.values("explained variance (XᵀX units)", ev)));
            if (chosen != null) {
                sb.append(Tables.values("explained-variance ratio (cumulative)",
                        java.util.Arrays.copyOf(chosen.ratios(), result.k())));
            }
            sb.append(io.tableNotes(result.guarantee().orElse(null)));
            sb.append(Tables.guarantee(result.guarantee().orElse(null)));
            return sb.toString();
        }));
        return ExitCodes.OK;
    }
}
