package io.dpspectra.cli;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.PrivateMean;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.SchemaFile;
import io.dpspectra.data.SchemaRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.ComposedGuarantee;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.release.Bounding;
import io.dpspectra.release.BoundedSum;
import io.dpspectra.release.BudgetPlan;
import io.dpspectra.release.Centring;
import io.dpspectra.release.Components;
import io.dpspectra.release.NoiseKind;
import io.dpspectra.release.NormHistogram;
import io.dpspectra.release.Preprocessor;
import io.dpspectra.release.ReleaseListener;
import io.dpspectra.release.RowBound;
import io.dpspectra.release.RowInput;
import io.dpspectra.release.RowStatistics;
import io.dpspectra.release.StatisticSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The input and output options of the commands that make a private release from rows ({@code fit},
 * {@code covariance}, {@code ridge}): the schema, the centring, the row norm bound, the CSV options,
 * INPUT, {@code --output} and {@code --format}; and the steps they share: check the options and plan the
 * budget before reading, run the private preprocessing (a private bound, a private mean), and record the
 * {@link Pipeline} in the release.
 */
final class ReleaseInput {
    /** Default share of the budget for --center private (core's). */
    static final double DEFAULT_CENTER_FRACTION = Centring.DEFAULT_PRIVATE_SHARE;

    @ArgGroup(exclusive = true, multiplicity = "0..1", heading = "Row norm bound (one, or none with a bounded --schema):%n")
    BoundOptions bounds;

    @Option(names = "--schema", paramLabel = "FILE",
            description = "A public schema (JSON) listing every column of INPUT in order with its type and public "
                    + "domain: numeric (min/max, center, scale) or categorical (its categories, one-hot encoded), or "
                    + "ignore. Rows are mapped through it (values clamped to [min, max], (x - center)/scale, one-hot), "
                    + "and when every numeric column has min and max the row-norm bound follows by construction, so "
                    + "--clip-norm is optional. Shipped examples: docs/schemas/; a skeleton: 'dpspectra schema draft'.")
    Path schemaPath;

    @Option(names = "--center", paramLabel = "none|public|private[:F]",
            description = "Centring before the estimator. none: the uncentred second moment XᵀX (rows as they are). "
                    + "public: subtract the schema's public centres (needs --schema). private[:F]: after the schema's "
                    + "map, subtract a differentially private mean bought with a share F of the budget (default "
                    + DEFAULT_CENTER_FRACTION + "; Gaussian noise when the estimator uses delta, else Laplace; "
                    + "sensitivity from the row bound); the mean is released in the model. Default: public with a "
                    + "--schema that declares centres, none otherwise.")
    String center;

    @Mixin
    InputOptions input = new InputOptions();

    @Mixin
    OutputOption output = new OutputOption();

    @Mixin
    DiagnosticsOption diagnostics = new DiagnosticsOption();

    @Option(names = "--format", paramLabel = "json|compact|table|npy", defaultValue = "json",
            description = "Output format: json (machine-readable, indented), compact (JSON on one line, for large "
                    + "releases), table (for people; a summary beyond 8 columns), or npy (the matrix or components as a "
                    + "NumPy .npy file for --output FILE.npy, the rest of the release, guarantee included, in FILE.json "
                    + "beside it). Default: ${DEFAULT-VALUE}.")
    OutputFormat format;

    /**
     * Set by the command when its estimator reads the rows once (a Gram pass): with no private bound and
     * no private mean either, standard input is then streamed without a temporary copy.
     */
    boolean estimatorReadsOnce;

    /** Called with d once the header is read, before any row (the memory check of the command). */
    java.util.function.IntConsumer beforeReading = d -> { };

    @Parameters(index = "0", paramLabel = "INPUT",
            description = "Rows to analyse: a .csv/.csv.gz file (or any text table with --schema), - for standard "
                    + "input (CSV, or any text table with --schema), or a .dpsr binary file (see 'dpspectra convert').")
    Path inputPath;

    private SchemaFile schema;
    private Pipeline.Centre centre;
    private double centerFraction;
    private Pipeline pipeline;
    private final List<PrivacyGuarantee> preprocessingGuarantees = new ArrayList<>();

    /**
     * Rows opened and bounded for one release; the row count is taken only if an algorithm asks for it
     * ({@link #rowCount()}): a .dpsr file declares it, a CSV is then read once more to count (and says so).
     */
    record Bounded(Inputs.Opened opened, LongSupplier rowCounter, ClippedRows rows) {
        long rowCount() {
            return rowCounter.getAsLong();
        }
    }

    /**
     * Validates the schema, the centring, the bound and the output target before any data is read (usage
     * errors, exit 2). Reads the schema file (public), never INPUT.
     */
    void checkBeforeReading() {
        if (schemaPath != null) {
            schema = SchemaJson.read(schemaPath);
            if (input.columns != null && !input.columns.isEmpty() || input.excludeColumns != null
                    && !input.excludeColumns.isEmpty() || input.headerNames != null) {
                throw CliException.usage("--columns, --exclude-columns and --header-names do not combine with --schema "
                        + "(the schema names and selects the columns)", "mark unused columns \"type\": \"ignore\" in "
                        + "the schema instead");
            }
            if (input.commentPrefix != null && input.commentPrefix.isBlank()) {
                throw CliException.usage("--comment-prefix must be visible text, got '" + input.commentPrefix + "'",
                        "e.g. --comment-prefix '#'");
            }
        }
        centre = parseCentre();
        if (bounds != null) {
            bounds.validate();
        } else if (schema == null) {
            throw CliException.usage("a row norm bound is required: --clip-norm B, --clip-norm private:Q, "
                    + "--norm-bound B, or a --schema with bounds", "e.g. --clip-norm 1 (from domain knowledge)");
        } else if (schema.schema().rowNormBound(centre != Pipeline.Centre.NONE).isEmpty()) {
            throw CliException.usage("--schema " + schemaPath + " gives no row norm bound: "
                    + schema.schema().boundDerivation(true), "add min and max to those columns in the schema, or "
                    + "pass --clip-norm B or --clip-norm private:0.95");
        } else {
            BoundOptions.check("the row norm bound of --schema " + schemaPath,
                    schema.schema().rowNormBound(centre != Pipeline.Centre.NONE).getAsDouble());
        }
        output.checkBeforeReading(inputPath, "the input file");
        diagnostics.checkBeforeReading(output, inputPath, "the input file");
        // a model that transform and evaluate could not read back is refused before any budget is spent
        Pipeline.checkRecordable(schema == null ? null : SchemaJson.withTyped(schema, input), input, centre,
                bounds == null ? "clip" : bounds.policy());
        if (format == OutputFormat.npy) {
            if (output.file == null || !output.file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".npy")) {
                throw CliException.usage("--format npy writes a binary NumPy file and needs --output FILE.npy",
                        "pass e.g. --output release.npy (the guarantee and the rest go to release.json beside it)");
            }
            Path beside = Release.besideNpy(output.file);
            AtomicFiles.checkNotAnInput(beside, "--output's JSON", inputPath, "the input file");
            if (diagnostics.file != null && AtomicFiles.sameFile(beside, diagnostics.file)) {
                throw CliException.usage("--diagnostics " + diagnostics.file + " is where --format npy writes the "
                        + "release's JSON", "give the diagnostics another file");
            }
        }
    }

    private Pipeline.Centre parseCentre() {
        String c = center == null ? (schema != null && schema.schema().hasCenters() ? "public" : "none")
                : center.toLowerCase(Locale.ROOT);
        centerFraction = 0;
        if (c.equals("none")) {
            return Pipeline.Centre.NONE;
        }
        if (c.equals("public")) {
            if (schema == null) {
                throw CliException.usage("--center public needs a --schema with public centres",
                        "pass --schema FILE, or --center private to centre by a private mean, or --center none");
            }
            return Pipeline.Centre.PUBLIC;
        }
        if (c.equals("private") || c.startsWith("private:")) {
            centerFraction = c.equals("private") ? DEFAULT_CENTER_FRACTION
                    : BoundOptions.number(c.substring("private:".length()), "--center " + center);
            if (!(centerFraction > 0 && centerFraction < 1)) {
                throw CliException.usage("--center " + center + ": the budget share F must be in (0, 1)",
                        "e.g. --center private:0.1");
            }
            return Pipeline.Centre.PRIVATE;
        }
        throw CliException.usage("--center must be none, public or private[:F], got '" + center + "'",
                "see --help");
    }

    /** True when some preprocessing spends budget (then the release's guarantee is a composition). */
    boolean spendsOnPreprocessing() {
        return centre == Pipeline.Centre.PRIVATE || bounds != null && bounds.privateBound() != null;
    }

    /** The row bound as core's setting: a private quantile, a given bound (clip or reject), or the schema's. */
    RowBound rowBound() {
        if (bounds == null) {
            return RowBound.fromSchema();
        }
        BoundOptions.PrivateBound pb = bounds.privateBound();
        if (pb != null) {
            return RowBound.privateQuantile(pb.quantile(), pb.fraction());
        }
        return bounds.clipNorm != null ? RowBound.clip(bounds.bound()) : RowBound.require(bounds.bound());
    }

    /** The centring as core's setting (after {@link #checkBeforeReading}). */
    Centring centring() {
        return switch (centre) {
            case NONE -> Centring.NONE;
            case PUBLIC -> Centring.PUBLIC;
            case PRIVATE -> Centring.privateMean(centerFraction);
        };
    }

    /**
     * Splits {@code total} with core's {@link BudgetPlan}: a private bound, a private mean and the private
     * spectrum of an automatic k ({@code components}; null for a covariance) take their shares, the estimator
     * the rest.
     */
    BudgetPlan plan(PrivacyParams total, Components components, boolean estimatorUsesDelta, NoiseKind noise,
                    CliVocabulary words) {
        return BudgetPlan.split(total, rowBound(), centring(), components, estimatorUsesDelta, noise, words);
    }

    /**
     * Opens INPUT through the pipeline: the schema (or the CSV options), the private bound if asked, the
     * centring, the bound (core's {@link Preprocessor} over the seam of exact statistics: local files here,
     * a cluster through {@link ExternalInputs}); returns the bounded rows with a progress bar named
     * {@code task}, and the row count, taken only if an algorithm asks for n first (a CSV is validated in that
     * pass: a malformed cell or a row over --norm-bound fails there, exit 3). The private steps draw from
     * {@code random} and spend the plan's shares under {@code neighbouring}.
     */
    Bounded open(String task, BudgetPlan plan, Neighbouring neighbouring, RandomSource random, Consumer<String> note) {
        boolean publicCentre = centre != Pipeline.Centre.NONE;
        if (schema != null) {
            // --separator, --skip-lines and --comment-prefix, when typed, override the schema's "format"
            schema = SchemaJson.withTyped(schema, input);
        }
        RowInput.Request request = new RowInput.Request(schema, publicCentre, estimatorReadsOnce
                && (bounds == null || bounds.privateBound() == null) && centre != Pipeline.Centre.PRIVATE);
        StatisticSource source = ExternalInputs.isInstalled() ? external(request) : local(request, task, note);
        ReleaseListener listener = new ReleaseListener() {
            @Override
            public void beforeReading(int d) {
                ReleaseInput.this.beforeReading.accept(d);
            }

            @Override
            public void note(String message) {
                note.accept(message);
            }
        };
        Preprocessor.Prepared prepared = Preprocessor.prepare(source, schema, rowBound(), centring(), plan, neighbouring,
                random, CliVocabulary.DEFAULT, listener);
        preprocessingGuarantees.addAll(prepared.spent());
        this.source = source;
        pipeline = Pipeline.of(prepared.preprocessing(), schema == null ? input : null);
        return new Bounded(opened, prepared.rowCount(), prepared.rows());
    }

    /** INPUT read here: through the schema (standard input copied for a second pass), or as a CSV or .dpsr file. */
    private StatisticSource local(RowInput.Request request, String task, Consumer<String> note) {
        if (request.schema() != null) {
            SchemaRows s = Inputs.schemaRows(inputPath, request.schema(), request.publicCentres());
            // standard input is read once: a later pass re-reads a temporary .dpsr copy of the mapped rows
            RowSource raw = Inputs.isStdin(inputPath) ? new Inputs.SpilledStream(s, note) : s;
            opened = new Inputs.Opened(raw, request.schema().schema().featureNames(), inputPath);
            return RowStatistics.of(raw, opened.columnNames()).clampedCells(s::clampedCells)
                    .estimatorPass(rows -> Progress.track(rows, task));
        }
        opened = Inputs.open(inputPath, input, note, request.readsOnce());
        return RowStatistics.of(opened.rows(), opened.columnNames()).estimatorPass(rows -> Progress.track(rows, task));
    }

    /**
     * INPUT read where it lies (a cluster, through the installed {@link ExternalInputs} opener): the same options,
     * exact statistics from there, noise here.
     */
    private StatisticSource external(RowInput.Request request) {
        SchemaFile s = request.schema();
        ExternalInputs.Rows ext = ExternalInputs.open(s != null
                ? new ExternalInputs.Request(inputPath.toString(), null, new ExternalInputs.SchemaInput(s.schema(),
                        s.separator(), s.skipLines(), s.commentPrefix(), request.publicCentres()))
                : new ExternalInputs.Request(inputPath.toString(), new ExternalInputs.Csv(input.header, input.separator,
                        input.skipLines, input.commentPrefix, input::configure), null)).orElseThrow();
        List<String> features = s != null ? s.schema().featureNames() : ext.columnNames();
        return new StatisticSource() {
            private ClippedRows declared;
            private DataBounds.Policy policy;

            @Override
            public int dimension() {
                return features.size();
            }

            @Override
            public List<String> featureNames() {
                return features;
            }

            @Override
            public String describe() {
                return inputPath.toString();
            }

            @Override
            public NormHistogram normHistogram(double[] grid) {
                return new NormHistogram(grid, ext.rowNormHistogram(grid));
            }

            @Override
            public BoundedSum boundedSum(Bounding b) {
                PrivateMean.Sum sum = ext.boundedSum(b.inputBound(), b.policy());
                return new BoundedSum(sum.sum(), sum.rows());
            }

            @Override
            public ClippedRows bounded(Bounding b) {
                // the cluster bounds (and centres) the rows as the chain does; clipping them again is the identity
                RowSource raw = ext.bounded(b.inputBound(), b.policy(), b.mean(), b.bound());
                opened = new Inputs.Opened(raw, features, inputPath);
                policy = b.policy();
                declared = b.declare(raw);
                return declared;
            }

            @Override
            public Diagnostics curatorFacts() {
                return declared != null && declared.clippedRows() >= 0 && policy == DataBounds.Policy.CLIP
                        ? Diagnostics.builder().put("clippedRows", declared.clippedRows()).build() : Diagnostics.empty();
            }
        };
    }

    private Inputs.Opened opened;
    private StatisticSource source;

    /** Records a further private spend made on the preprocessed rows (a private spectrum), for the composition. */
    void addPreprocessingGuarantee(PrivacyGuarantee g) {
        preprocessingGuarantees.add(g);
    }

    /** The pipeline of the last {@link #open}, for the release. */
    Pipeline pipeline() {
        return pipeline;
    }

    /**
     * The release's guarantee: the estimator's own when no preprocessing spent budget, else core's basic
     * composition of every spend (each part listed), checked against the plan's total.
     */
    Map<String, Object> guaranteeJson(PrivacyGuarantee main, BudgetPlan plan) {
        if (preprocessingGuarantees.isEmpty() || main == null) {
            return Json.guarantee(main);
        }
        List<PrivacyGuarantee> parts = new ArrayList<>(preprocessingGuarantees);
        parts.add(main);
        return Json.guarantee(ComposedGuarantee.basic(parts, plan.total()));
    }

    /** For --format table: the preprocessing, and the composition when preprocessing spent budget. */
    String tableNotes(PrivacyGuarantee main) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "preprocessing: %d features%s; center %s; row-norm bound %.6g (%s)%n",
                pipeline.features().size(), schema == null ? "" : " from --schema " + schemaPath, pipeline.centre().label(),
                pipeline.bound(), pipeline.boundOrigin()));
        if (!preprocessingGuarantees.isEmpty() && main != null) {
            double e = main.epsilon();
            double d = main.delta();
            for (PrivacyGuarantee g : preprocessingGuarantees) {
                e += g.epsilon();
                d += g.delta();
            }
            sb.append("privacy in all: ").append(PrivacyParams.of(round(e), round(d)))
                    .append(", basic composition of:").append(System.lineSeparator());
            for (PrivacyGuarantee g : preprocessingGuarantees) {
                sb.append(String.format(Locale.ROOT, "  %s %s%n", g.params(), g.mechanism()));
            }
            sb.append(String.format(Locale.ROOT, "  %s %s (below)%n", main.params(), main.mechanism()));
        }
        return sb.toString();
    }

    /** v to 12 significant digits (so that 0.1 + 0.9 prints as 1.0). */
    private static double round(double v) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.12g", v));
    }

    /**
     * Adds the release's public preprocessing (the {@link Pipeline}), its composed guarantee and seeding to
     * {@code release}, and the curator's facts (the input file, rows counted, rows clipped, cells clamped)
     * to its diagnostics.
     */
    Release describe(Release release, Bounded in, RandomSource random, PrivacyGuarantee main, BudgetPlan plan) {
        release.preprocessing(pipeline.toJson()).noise(random);
        if (plan != null) {
            release.put("guarantee", guaranteeJson(main, plan));
        }
        // a diagnostic only: the rows of the estimator's last pass, else a count (which re-reads a CSV)
        long rows = in.rows().rowsInLastPass() > 0 ? in.rows().rowsInLastPass() : in.rowCount();
        release.diagnostic("input", inputPath.toString()).diagnostic("rows", rows);
        source.curatorFacts().asMap().forEach(release::diagnostic);
        return release;
    }

    /** Outputs the release to --output/stdout and its diagnostics to --diagnostics (see {@link Release}). */
    void publish(BaseCommand command, Release release) throws java.io.IOException {
        command.publish(release, format, output, diagnostics);
    }
}
