package io.dpspectra.cli.command;

import io.dpspectra.advice.ReleaseAdvisor;
import io.dpspectra.advice.ReleaseFacts;
import io.dpspectra.advice.SpectrumCheck;
import io.dpspectra.cli.options.AlgorithmFamily;
import io.dpspectra.cli.options.BoundOptions;
import io.dpspectra.cli.options.CliVocabulary;
import io.dpspectra.cli.options.CovariancePcaFamily;
import io.dpspectra.cli.options.ExternalInputs;
import io.dpspectra.cli.options.Inputs;
import io.dpspectra.cli.options.PowerMethodFamily;
import io.dpspectra.cli.options.PrivacyOptions;
import io.dpspectra.cli.options.ReleaseInput;
import io.dpspectra.cli.options.RobustPcaFamily;
import io.dpspectra.cli.options.StochasticPcaFamily;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.Progress;
import io.dpspectra.cli.output.Release;
import io.dpspectra.cli.output.Tables;
import io.dpspectra.covariance.PrivateSpectrum;
import io.dpspectra.data.AdaptiveQuantile;
import io.dpspectra.data.NormProfile;
import io.dpspectra.data.PrivateTrace;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.ComposedGuarantee;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.release.Algorithms;
import io.dpspectra.release.BudgetPlan;
import io.dpspectra.release.Components;
import io.dpspectra.release.PcaAlgorithm;
import io.dpspectra.release.PcaOptions;
import io.dpspectra.release.PcaReference;
import io.dpspectra.release.PcaRelease;
import io.dpspectra.release.Preprocessing;
import io.dpspectra.release.PrivatePca;
import io.dpspectra.release.RefusedReleaseException;
import io.dpspectra.release.RowBound;
import io.dpspectra.release.Setting;
import io.dpspectra.release.Usefulness;
import io.dpspectra.release.UselessReleaseException;
import io.dpspectra.result.PrivateSubspace;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
public final class FitCommand extends BaseCommand {
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

    @Option(names = "--expect-variance-share", paramLabel = "S",
            description = "The share of the variance you expect each of the k directions to hold (in (0, 1]). Before "
                    + "anything is spent, fit asks the advisor (see 'dpspectra advise') whether the algorithm recovers "
                    + "directions holding S at this epsilon, n and d, and warns when it predicts a useless release. "
                    + "Default: " + ReleaseAdvisor.DEFAULT_EXPECTED_SHARE + ", or 2/d when that is more. The rows of a text INPUT under 64 MB are "
                    + "counted for it first (a .dpsr file declares n); for larger text files or standard input the "
                    + "check runs only with --refuse-useless (which counts them).")
    Double expectVarianceShare;

    @Option(names = "--refuse-useless",
            description = "Turn the warning of a useless release into a refusal: exit 5 before anything is read for "
                    + "the release, spent, charged to --ledger or written.")
    boolean refuseUseless;

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

    /** The --ledger charge of this run: checked before reading, made after the memory check (null until planned). */
    private PrivacyOptions.PendingCharge charge;

    /** The option families, in the order of the help text. */
    List<AlgorithmFamily> families() {
        return List.of(stochastic, powerMethods, covariancePca, robustPca);
    }

    /** The help footer: one line per algorithm of core's table. */
    public static String[] algorithmFooter() {
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

    private static String shares(SpectrumCheck c, int count) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.min(count, c.eigenvalues().length); i++) {
            out.add(String.format(Locale.ROOT, "%.3g%%", 100 * c.share(i)));
        }
        return String.join(", ", out);
    }

    private static String referenceShares(SpectrumCheck c, int count) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.min(count, c.referenceEigenvalues().length); i++) {
            out.add(String.format(Locale.ROOT, "%.3g%%", 100 * c.referenceShare(i)));
        }
        return String.join(", ", out);
    }

    /**
     * The plan's private bound and mean, to simulate on the exact rows (the curator's check), or null when
     * neither is private.
     */
    private SpectrumCheck.PrivateSteps privateSteps(BudgetPlan plan, Neighbouring effective) {
        if (plan.bound().isEmpty() && plan.centre().isEmpty()) {
            return null;
        }
        AdaptiveQuantile.Ladder ladder = null;
        double quantile = Double.NaN;
        double bracket = Double.NaN;
        if (plan.bound().isPresent() && plan.rowBound() instanceof RowBound.PrivateQuantile pq) {
            ladder = RowBound.PrivateQuantile.ladder(io.schemaBoundForCheck());
            quantile = pq.quantile();
            bracket = pq.bracketShare();
        }
        return new SpectrumCheck.PrivateSteps(ladder, quantile, bracket, ladder == null ? null : plan.bound().get(),
                plan.centre().orElse(null), effective);
    }

    /** The private steps, as typed. */
    private String stepsDescription(BudgetPlan plan) {
        List<String> s = new ArrayList<>();
        if (plan.bound().isPresent()) {
            s.add("the row-norm bound, " + io.boundDescription());
        }
        if (plan.centre().isPresent()) {
            s.add("the mean, --center private");
        }
        return String.join(", and ", s);
    }

    /**
     * The curator's checks before anything is spent, charged or written, when INPUT's rows were read cheaply
     * ({@code shape.profile()}): with {@code own}, the exact spectrum of the rows as the estimator will see them
     * decides whether the release is useless (NOT private: for the data's curator; a warning, or with
     * --refuse-useless a refusal, exit 5); and a heavy tail of row norms is a warning. The check on public facts
     * is core's ({@link Usefulness}), run by the plan.
     */
    private void checkBeforeSpending(PcaAlgorithm alg, boolean own, ReleaseInput.Shape shape, int kk,
                                     BudgetPlan plan, Neighbouring effective) {
        if (shape == null) {
            return;
        }
        PrivacyParams params = plan.estimator();
        int d = shape.dimension();
        String useless = null;
        if (own) {
            SpectrumCheck.Reference reference = io.referenceForCheck();
            SpectrumCheck c = SpectrumCheck.of(alg.name(), shape.source(), reference,
                    io.boundForCheck(shape.profile()), io.centres(), privateSteps(plan, effective),
                    new ReleaseFacts(shape.rows(), d, kk, params, effective, Double.NaN, 1));
            String against = reference == null ? "the exact top-" + kk + " scores"
                    : "the exact top-" + kk + " scores of the " + (reference.zScored() ? "z-scored" : "centred")
                    + " raw columns";
            if (common.verbose) {
                note(String.format(Locale.ROOT, "usefulness check on the exact spectrum of %s (not private): directions "
                        + "1..%d hold %s of the variance; predicted squared score correlation %.3f, mean kept %.3f, kept "
                        + "through the clipping %.3f (against %s, whose directions 1..%d hold %s); noise %.3g of the "
                        + "variance; simulated private steps: %d draws, %d below one half, lower decile %.3f, bounds %.4g "
                        + "to %.4g", io.inputPath, kk, shares(c, kk + 1), c.scoreCorrelation(), 1 - c.meanSin2(),
                        c.clippingKept(), against, kk, referenceShares(c, kk + 1), c.noiseShare(), c.drawn().count(),
                        c.drawn().below(), c.drawn().lowDecile(), c.drawn().lowestBound(), c.drawn().highestBound()));
            }
            List<String> why = new ArrayList<>();
            if (c.predictedThroughClipping() < 0.5 && c.scoreCorrelation() < 0.5) {
                why.add(String.format(Locale.ROOT, "on the exact spectrum of %s (the rows as the estimator will see "
                        + "them: direction %d holds %.3g%% of their variance, direction %d %.3g%%), the rows' scores on "
                        + "a release of %s at epsilon = %.3g are predicted to share only %.0f%% of their variance with "
                        + "the exact top-%d scores (squared correlation; each direction keeps %s of itself on "
                        + "average, a random basis %s): the release would be close to useless", io.inputPath, kk,
                        100 * c.share(kk - 1), kk + 1, 100 * c.share(Math.min(kk, d - 1)), alg.name(),
                        params.epsilon(), 100 * c.scoreCorrelation(), kk, UsefulnessCheck.percent(1 - c.meanSin2()),
                        UsefulnessCheck.percent((double) kk / d)));
            } else if (c.predictedThroughClipping() < 0.5 && reference != null) {
                why.add(String.format(Locale.ROOT, "on the exact rows of %s, the schema's map (its clamps%s) and the "
                        + "row bound change the rows so much that their projection through them (what 'dpspectra "
                        + "transform' outputs) keeps only %.0f%% of the variance of %s even for a noiseless release "
                        + "(mean squared canonical correlation; with the noise of %s at epsilon = %.3g, %.0f%% is "
                        + "predicted): the release's projections would be close to useless; bounds and scales from "
                        + "the columns' documentation (public domain knowledge) change them less", io.inputPath,
                        reference.zScored() ? ", centres and scales" : "", 100 * c.clippingKept(), against,
                        alg.name(), params.epsilon(), 100 * c.predictedThroughClipping()));
            } else if (c.predictedThroughClipping() < 0.5) {
                why.add(String.format(Locale.ROOT, "on the exact rows of %s, the row-norm bound (%s) clips so many "
                        + "rows so far that their projection through it (what 'dpspectra transform' outputs) keeps only "
                        + "%.0f%% of the exact top-%d scores' variance even for a noiseless release (mean squared "
                        + "canonical correlation; with the noise of %s at epsilon = %.3g, %.0f%% is predicted): the "
                        + "release's projections would be close to useless; a bound that clips fewer rows (a higher "
                        + "quantile, e.g. --clip-norm private:0.9, or a --schema with public bounds, which also puts "
                        + "the columns on comparable scales) keeps more", io.inputPath, io.boundDescription(),
                        100 * c.clippingKept(), kk, alg.name(), params.epsilon(), 100 * c.predictedThroughClipping()));
            } else if (c.drawnUseless()) {
                why.add(String.format(Locale.ROOT, "on the exact rows of %s, the private steps before the release (%s) "
                        + "are noisy on %d rows: in %d of %d simulated draws of them (their own mechanisms and budgets, "
                        + "run on the exact rows for this check only; the bound drawn ranged from %.4g to %.4g), the "
                        + "rows' projection through the release is predicted to keep less than half of %s' variance "
                        + "(lower decile %.0f%%; %.0f%% at the exact quantile and mean): the release's projections "
                        + "would be close to useless one time in ten or more; more rows, a larger epsilon, or public "
                        + "bounds and centres (a --schema from the columns' documentation) make them reliable",
                        io.inputPath, stepsDescription(plan), shape.rows(), c.drawn().below(), c.drawn().count(),
                        c.drawn().lowestBound(), c.drawn().highestBound(), against, 100 * c.drawn().lowDecile(),
                        100 * c.predictedThroughClipping()));
            }
            if (c.flat()) {
                why.add(String.format(Locale.ROOT, "the %s of %s have an almost flat spectrum: directions %d and %d "
                        + "hold %.3g%% and %.3g%% of their variance, a gap of %s, less than the noise of %s at "
                        + "epsilon = %.3g (its expected spectral norm is %s of the variance the estimator sees): "
                        + "their top-%d plane is not defined at this noise, and no release can be expected to recover "
                        + "it%s", reference == null ? "rows (centred, before the bound)"
                        : (reference.zScored() ? "z-scored" : "centred") + " raw columns", io.inputPath, kk, kk + 1,
                        100 * c.referenceShare(kk - 1), 100 * c.referenceShare(kk),
                        UsefulnessCheck.percent(c.referenceShare(kk - 1) - c.referenceShare(kk)), alg.name(),
                        params.epsilon(), UsefulnessCheck.percent(c.noiseShare()), kk,
                        why.isEmpty() ? ": the release would be close to useless" : ""));
            }
            if (!why.isEmpty()) {
                useless = String.join("; ", why) + " (exact figures from INPUT, for you, the data's curator: not "
                        + "private; see 'dpspectra advise' for what would work)";
            }
        }
        if (useless != null && refuseUseless) {
            throw CliException.refused(useless + "; refused (--refuse-useless): nothing was spent, charged or written",
                    "see 'dpspectra advise' for what would work");
        }
        if (useless != null) {
            warn(useless + " (--refuse-useless makes this a refusal before anything is spent)");
        }
        if (shape.profile() != null && shape.profile().fewRowsDominate()) {
            warn(String.format(Locale.ROOT, "the longest %.0f%% of the rows of %s hold %.0f%% of their total squared "
                    + "norm: a private release must bound each row's influence, so it will describe the other rows, "
                    + "not the exact principal components these few drive (an exact figure from INPUT, for you, the "
                    + "data's curator: not private)", 100 * NormProfile.TOP_FRACTION, io.inputPath,
                    100 * shape.profile().topShare(NormProfile.TOP_FRACTION)));
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
        PrivatePca release = PrivatePca.of(io.rowInput("fit", this::note)).schema(io.schema()).centre(io.centring())
                .bound(io.rowBound()).components(auto == null ? Components.fixed(k) : Components.auto(auto[0], auto[1]))
                .algorithm(alg).options(options).neighbouring(privacy.neighbouringOrNull()).vocabulary(words)
                .privacyUnit(io.privacyUnit())
                .listener(ReleaseInput.listener(d -> {
                    beforeReading(alg, options, d);
                    if (charge != null) {
                        charge.commit(); // after the memory check, before any row: a run refused for memory is free
                    }
                }, this::note, this::warn));
        release.check();
        BudgetPlan plan = null;
        if (alg.isPrivate()) {
            PrivacyParams total = privacy.params(alg.name());
            Neighbouring neighbouring = privacy.neighbouringOrNull();
            Neighbouring effective = neighbouring != null ? neighbouring
                    : io.spendsOnPreprocessing() || auto != null ? Neighbouring.REPLACE_ROW
                    : UsefulnessCheck.defaultNeighbouring(alg.name());
            boolean perPerson = !io.privacyUnit().isRow();
            if (perPerson && (refuseUseless || expectVarianceShare != null)) {
                throw CliException.usage("--refuse-useless and --expect-variance-share predict for rows and do not "
                        + "combine with --privacy-unit yet", "drop them");
            }
            // the usefulness check predicts for one row as the unit: skipped for a person
            boolean check = !perPerson && UsefulnessCheck.covers(alg.name()) && (refuseUseless || io.rowsCheaplyCounted());
            if (check && refuseUseless && Inputs.isStdin(io.inputPath) && !ExternalInputs.isInstalled()) {
                throw CliException.usage("--refuse-useless needs the number of rows before anything is spent, but "
                        + io.inputPath + " is read once (standard input)", "pass a file, or drop --refuse-useless");
            }
            ReleaseInput.Shape shape = check ? io.countRowsBeforeSpending().orElse(null) : null;
            int d = shape == null ? 0 : shape.dimension();
            int kk = k > 0 ? Math.min(k, d) : 1;
            // the exact spectrum of a file read cheaply decides (the curator's check, below); else core's check on
            // public facts, as every release chain runs it (the automatic bound share is planned there too)
            boolean own = shape != null && shape.profile() != null && d <= SpectrumCheck.MAX_DIMENSION && kk < d
                    && ReleaseAdvisor.predicts(alg.name(), new ReleaseFacts(shape.rows(), d, kk, total, effective,
                            Double.NaN, 1));
            if (expectVarianceShare != null && !(expectVarianceShare > 0 && expectVarianceShare <= 1)) {
                throw CliException.usage("--expect-variance-share must be in (0, 1], got " + expectVarianceShare,
                        "e.g. --expect-variance-share 0.2 for directions holding a fifth of the variance each");
            }
            Usefulness usefulness = expectVarianceShare == null ? Usefulness.WARN
                    : Usefulness.expecting(expectVarianceShare);
            release = check && !own ? release.usefulness(refuseUseless ? usefulness.refusing() : usefulness)
                    : release.withoutUsefulnessCheck();
            try {
                plan = release.plan(total);
            } catch (UselessReleaseException e) {
                throw CliException.refused(e.getMessage() + ", charged or written", e.hint());
            }
            checkBeforeSpending(alg, own, shape, kk, plan, effective);
        } else {
            warn("--algorithm " + alg.name() + " is NOT differentially private: its output reveals the data; "
                    + "use it only as a reference");
            if (privacy.epsilon != null || privacy.ledger != null) {
                warn("--epsilon/--delta/--ledger are ignored by --algorithm " + alg.name());
            }
        }
        // a private release's noise, or a reference algorithm's random start: seeded only with --seed
        RandomSource random = alg.isPrivate() ? privacy.randomSource(err()) : privacy.referenceSource();
        if (alg.isPrivate()) {
            charge = privacy.pendingCharge("fit --algorithm " + alg.name() + " on " + io.inputPath, plan.total(),
                    plan.rho(), plan.profile());
        }
        release = release.randomSource(random);

        Release out;
        PrivateSubspace result;
        Preprocessing preprocessing;
        ComposedGuarantee guarantee = null;
        PrivateSpectrum chosen = null;
        if (alg.isPrivate()) {
            PcaRelease r;
            try {
                r = release.fit(plan);
            } catch (RefusedReleaseException e) {
                charge.commit(); // the budget counts as spent (made before the rows were read; a no-op here)
                io.publish(this, io.describe(Release.refused("fit", alg.name(), e), e.preprocessing(),
                        e.curatorFacts(), random));
                throw CliException.refused(e);
            }
            charge.commit(); // made before the rows were read; a no-op here, unless no row was read at all
            out = io.describe(Release.of("fit", r), r.preprocessing(), r.diagnostics(), random);
            result = r.subspace();
            preprocessing = r.preprocessing();
            guarantee = r.guarantee();
            chosen = r.spectrum().orElse(null);
        } else {
            PcaReference r = release.fitWithoutPrivacy();
            out = io.describe(Release.of("fit", r), r.preprocessing(), r.diagnostics(), random);
            result = r.subspace();
            preprocessing = r.preprocessing();
        }
        if (chosen != null) {
            warn("--components " + components + " chose k = " + chosen.k() + " (private explained-variance ratio "
                    + String.format(Locale.ROOT, "%.3f", chosen.ratios()[chosen.k() - 1]) + ", from "
                    + chosen.source() + ")");
        }
        List<String> columns = preprocessing.features();
        PrivateSpectrum spectrum = chosen;
        if (spectrum != null) {
            out.put("explainedVarianceRatio", java.util.Arrays.copyOf(spectrum.ratios(), result.k()));
            out.put("spectrum", Json.spectrum(spectrum));
        }
        ComposedGuarantee composed = guarantee;
        io.publish(this, out.table(() -> {
            StringBuilder sb = new StringBuilder();
            sb.append("algorithm: ").append(result.algorithm()).append('\n');
            sb.append(Tables.matrix(columns, Tables.componentNames(result.k()), result.components()));
            result.explainedVariance().ifPresent(ev -> sb.append(Tables.values("explained variance (XᵀX units)", ev)));
            if (spectrum != null) {
                sb.append(Tables.values("explained-variance ratio (cumulative)",
                        java.util.Arrays.copyOf(spectrum.ratios(), result.k())));
            }
            sb.append(io.tableNotes(preprocessing, composed));
            sb.append(Tables.guarantee(composed == null ? null : composed.estimator()));
            return sb.toString();
        }));
        return ExitCodes.OK;
    }

    /**
     * Before any row is read: refuses (exit 2) an algorithm that forms d x d matrices too large for the heap,
     * and suggests a .dpsr copy to an algorithm that makes several passes over a large text file.
     */
    private void beforeReading(PcaAlgorithm alg, PcaOptions options, int d) {
        if (alg.formsDxD()) {
            MemoryCheck.checkDense("--algorithm " + alg.name(), d, Runtime.getRuntime().maxMemory());
        }
        Inputs.Opened opened = io.opened();
        if (alg.passes(options) > 1 && opened != null && !Inputs.isBinaryRows(opened.rows())
                && opened.rows().sizeInBytes() >= Progress.MIN_BYTES) {
            note("--algorithm " + alg.name() + " makes " + alg.passes(options) + " passes over " + io.inputPath
                    + ", parsing the text each time; for a large file convert it once ('dpspectra convert "
                    + io.inputPath + " data.dpsr') and fit the .dpsr, which streams several times faster");
        }
    }
}
