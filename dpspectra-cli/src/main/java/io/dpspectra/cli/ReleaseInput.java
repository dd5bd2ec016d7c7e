package io.dpspectra.cli;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.PrivateMean;
import io.dpspectra.data.PrivateQuantile;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.SchemaRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyAccountant;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
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
    /** Default share of the budget for --center private. */
    static final double DEFAULT_CENTER_FRACTION = 0.1;

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

    private SchemaJson.Loaded schema;
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

    /** The budget split: the preprocessing shares and what is left for the estimator. */
    record Plan(PrivacyParams total, PrivacyParams bound, PrivacyParams centre, PrivacyParams main) {
        /**
         * The zCDP cost of the preprocessing parts plus {@code mainParts} (the estimator's share, split as the
         * command spends it, each with how it spends): NaN when a part has none. The bound is an exponential
         * mechanism (pure ε), the private mean Gaussian or Laplace.
         */
        double rho(List<Map.Entry<PrivacyParams, PrivacyOptions.Noise>> mainParts) {
            double r = PrivacyOptions.rho(bound, PrivacyOptions.Noise.PURE)
                    + PrivacyOptions.rho(centre, PrivacyOptions.Noise.GAUSSIAN);
            for (Map.Entry<PrivacyParams, PrivacyOptions.Noise> part : mainParts) {
                r += PrivacyOptions.rho(part.getKey(), part.getValue());
            }
            return r;
        }

        /** The privacy profile of the same parts, composed (for a ledger with PLD accounting). */
        io.dpspectra.privacy.PrivacyProfile profile(List<Map.Entry<PrivacyParams, PrivacyOptions.Noise>> mainParts) {
            List<io.dpspectra.privacy.PrivacyProfile> parts = new java.util.ArrayList<>();
            addPart(parts, PrivacyOptions.profile(bound, PrivacyOptions.Noise.PURE));
            addPart(parts, PrivacyOptions.profile(centre, PrivacyOptions.Noise.GAUSSIAN));
            for (Map.Entry<PrivacyParams, PrivacyOptions.Noise> part : mainParts) {
                addPart(parts, PrivacyOptions.profile(part.getKey(), part.getValue()));
            }
            return parts.isEmpty() ? io.dpspectra.privacy.PrivacyProfile.of(total)
                    : io.dpspectra.privacy.PrivacyProfile.compose(parts);
        }

        private static void addPart(List<io.dpspectra.privacy.PrivacyProfile> parts, io.dpspectra.privacy.PrivacyProfile p) {
            if (p != null) {
                parts.add(p);
            }
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
        }
        output.checkBeforeReading(inputPath, "the input file");
        diagnostics.checkBeforeReading(output, inputPath, "the input file");
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

    /**
     * Splits {@code total}: a private bound takes F_b·ε (pure), a private mean F_c·ε (and F_c·δ when the
     * estimator uses δ, so that its noise is Gaussian), the estimator the rest.
     */
    Plan plan(PrivacyParams total, boolean estimatorUsesDelta) {
        double eps = total.epsilon();
        double delta = total.delta();
        PrivacyParams bound = null;
        PrivacyParams mean = null;
        double left = 1;
        if (bounds != null && bounds.privateBound() != null) {
            double f = bounds.privateBound().fraction();
            bound = PrivacyParams.pure(eps * f);
            left -= f;
        }
        double deltaLeft = delta;
        if (centre == Pipeline.Centre.PRIVATE) {
            boolean gaussian = estimatorUsesDelta && delta > 0;
            mean = gaussian ? PrivacyParams.of(eps * centerFraction, delta * centerFraction)
                    : PrivacyParams.pure(eps * centerFraction);
            left -= centerFraction;
            deltaLeft -= mean.delta();
        }
        if (!(left > 0)) {
            throw CliException.usage("the budget shares of --clip-norm private and --center private add up to "
                    + (1 - left) + ", leaving nothing for the estimator", "use smaller shares, e.g. 0.1 each");
        }
        return new Plan(total, bound, mean, PrivacyParams.of(eps * left, Math.max(0, deltaLeft)));
    }

    /**
     * Opens INPUT through the pipeline: the schema (or the CSV options), the private bound if asked, the
     * centring, the bound; counts the rows (a CSV is validated in this pass: a malformed cell or a row over
     * --norm-bound fails here, exit 3); returns the bounded rows with a progress bar named {@code task}.
     * The private steps draw from {@code random} and spend the plan's shares under {@code neighbouring}.
     */
    Bounded open(String task, Plan plan, Neighbouring neighbouring, RandomSource random, Consumer<String> note) {
        boolean publicCentre = centre != Pipeline.Centre.NONE;
        RowSource raw = null;
        List<String> features;
        Inputs.Opened opened = null;
        // INPUT read where it lies (a cluster): the same options, exact statistics from there, noise here
        ExternalInputs.Rows external;
        if (schema != null) {
            // --separator, --skip-lines and --comment-prefix, when typed, override the schema's "format"
            schema = new SchemaJson.Loaded(schema.schema(), input.separator != null ? input.separator : schema.separator(),
                    input.skipLines != 0 ? input.skipLines : schema.skipLines(),
                    input.commentPrefix != null ? input.commentPrefix : schema.commentPrefix(), schema.description());
            features = schema.schema().featureNames();
            external = ExternalInputs.open(new ExternalInputs.Request(inputPath.toString(), null,
                    new ExternalInputs.SchemaInput(schema.schema(), schema.separator(), schema.skipLines(),
                            schema.commentPrefix(), publicCentre))).orElse(null);
            if (external == null) {
                SchemaRows s = Inputs.schemaRows(inputPath, schema, publicCentre);
                schemaRows = s;
                // standard input is read once: a later pass re-reads a temporary .dpsr copy of the mapped rows
                raw = Inputs.isStdin(inputPath) ? new Inputs.SpilledStream(s, note) : s;
                opened = new Inputs.Opened(raw, features, inputPath);
            }
        } else {
            external = ExternalInputs.open(new ExternalInputs.Request(inputPath.toString(), new ExternalInputs.Csv(
                    input.header, input.separator, input.skipLines, input.commentPrefix, input::configure), null))
                    .orElse(null);
            if (external == null) {
                opened = Inputs.open(inputPath, input, note, estimatorReadsOnce
                        && (bounds == null || bounds.privateBound() == null) && centre != Pipeline.Centre.PRIVATE);
                raw = opened.rows();
                features = opened.columnNames();
            } else {
                features = external.columnNames();
            }
        }
        beforeReading.accept(features.size());
        double bound;
        String origin;
        String policy = bounds == null ? "clip" : bounds.policy();
        DataBounds.Origin originKind = DataBounds.Origin.USER_GIVEN;
        BoundOptions.PrivateBound pb = bounds == null ? null : bounds.privateBound();
        if (pb != null) {
            // the grid's top: the schema's bound by construction (no row is above it), else a fixed 1e6
            double top = schema != null && schema.schema().rowNormBound(publicCentre).isPresent()
                    ? schema.schema().rowNormBound(publicCentre).getAsDouble() : BoundOptions.PRIVATE_GRID_TOP;
            double[] grid = PrivateQuantile.geometricGrid(top * BoundOptions.PRIVATE_GRID_SPAN, top,
                    BoundOptions.PRIVATE_GRID_RATIO);
            long[] histogram = external != null ? external.rowNormHistogram(grid)
                    : PrivateQuantile.rowNormHistogram(raw, grid);
            PrivateQuantile.Result q = PrivateQuantile.using(random).rowNormQuantile(histogram, pb.quantile(), grid,
                    plan.bound(), neighbouring);
            bound = q.value();
            origin = String.format(Locale.ROOT, "private %s-quantile of the row norms (exponential mechanism over the "
                    + "public grid %.6g * %s^i up to %.6g, %s)", pb.quantile(), grid[0], BoundOptions.PRIVATE_GRID_RATIO,
                    top, plan.bound());
            originKind = DataBounds.Origin.PRIVATELY_ESTIMATED;
            preprocessingGuarantees.add(q.guarantee());
        } else if (bounds != null) {
            bound = bounds.bound();
            origin = "user-given (--" + (bounds.clipNorm != null ? "clip-norm" : "norm-bound") + ")";
        } else {
            OptionalDouble b = schema.schema().rowNormBound(publicCentre);
            bound = b.getAsDouble();
            origin = "schema: " + schema.schema().boundDerivation(publicCentre);
        }
        double[] mean = null;
        double finalBound = bound;
        if (centre == Pipeline.Centre.PRIVATE) {
            PrivateMean.Sum sum = external != null ? external.boundedSum(bound, policyOf(policy))
                    : PrivateMean.sum(Pipeline.bounded(raw, bound, policy, originKind));
            PrivateMean.Result m = PrivateMean.of(neighbouring, random).estimate(sum, bound, plan.centre());
            mean = m.mean();
            preprocessingGuarantees.add(m.guarantee());
            finalBound = m.centredBound();
            origin = origin + "; after subtracting the private mean: " + String.format(Locale.ROOT, "%.6g", finalBound)
                    + " = bound + ||mean|| (triangle inequality, by construction)";
        }
        pipeline = new Pipeline(schema, schema == null ? input : null, centre, mean, bound, finalBound, origin, policy,
                features);
        ClippedRows rows;
        if (external != null) {
            // the cluster bounds (and centres) the rows as the chain below does; clipping them again is the identity
            raw = external.bounded(bound, policyOf(policy), mean, finalBound);
            opened = new Inputs.Opened(raw, features, inputPath);
            rows = Pipeline.bounded(raw, finalBound, mean == null ? policy : "clip", originKind);
            firstStage = rows;
        } else {
            Pipeline.Chain chain = pipeline.chain(Progress.track(raw, task), originKind);
            rows = chain.rows();
            firstStage = chain.first();
        }
        RowSource read = raw;
        long[] counted = {-1};
        LongSupplier count = () -> {
            if (counted[0] < 0) {
                if (read.knownSize().isEmpty()) {
                    note.accept("counting the rows of " + read.describe() + " first: this algorithm needs n before "
                            + "its own pass");
                }
                counted[0] = Inputs.rowCount(rows);
            }
            return counted[0];
        };
        return new Bounded(opened, count, rows);
    }

    private static DataBounds.Policy policyOf(String policy) {
        return policy.equals("reject") ? DataBounds.Policy.REJECT : DataBounds.Policy.CLIP;
    }

    private ClippedRows firstStage;
    private SchemaRows schemaRows;

    /** Records a further private spend made on the preprocessed rows (a private spectrum), for the composition. */
    void addPreprocessingGuarantee(PrivacyGuarantee g) {
        preprocessingGuarantees.add(g);
    }

    /** The pipeline of the last {@link #open}, for the release. */
    Pipeline pipeline() {
        return pipeline;
    }

    /**
     * The release's guarantee: the estimator's own when no preprocessing spent budget, else the basic
     * composition of every spend (each part listed), checked against the plan's total.
     */
    Map<String, Object> guaranteeJson(PrivacyGuarantee main, Plan plan) {
        if (preprocessingGuarantees.isEmpty() || main == null) {
            return Json.guarantee(main);
        }
        PrivacyAccountant accountant = PrivacyAccountant.total(plan.total());
        List<Map<String, Object>> parts = new ArrayList<>();
        for (PrivacyGuarantee g : preprocessingGuarantees) {
            accountant.spend(g.mechanism(), g.params());
            parts.add(Json.guarantee(g));
            checkSameRelation(g, main);
        }
        accountant.spend(main.mechanism(), main.params());
        parts.add(Json.guarantee(main));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("epsilon", accountant.spentEpsilon());
        m.put("delta", accountant.spentDelta());
        m.put("neighbouring", PrivacyOptions.cliName(main.neighbouring()));
        m.put("mechanism", "composition of " + parts.size() + " mechanisms: "
                + String.join(" + ", parts.stream().map(p -> (String) p.get("mechanism")).toList()));
        m.put("sensitivity", "each part's own, calibrated to its own share of the budget (see parts)");
        m.put("privacyUnit", main.privacyUnit() + " (the estimator's unit; the preprocessing parts bound the same row)");
        m.put("reference", "basic composition: Dwork & Roth 2014, Section 3.5, Theorem 3.16 (epsilons and deltas add "
                + "up); each part cites its own mechanism");
        m.put("composition", "basic");
        m.put("parts", parts);
        return m;
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

    /** Composition needs one neighbouring relation for every part. */
    private static void checkSameRelation(PrivacyGuarantee part, PrivacyGuarantee main) {
        if (part.neighbouring() != main.neighbouring()) {
            throw new IllegalStateException("the preprocessing was certified under " + part.neighbouring()
                    + " but the estimator under " + main.neighbouring() + "; this is a bug");
        }
    }

    /**
     * Adds the release's public preprocessing (the {@link Pipeline}), its composed guarantee and seeding to
     * {@code release}, and the curator's facts (the input file, rows counted, rows clipped, cells clamped)
     * to its diagnostics.
     */
    Release describe(Release release, Bounded in, RandomSource random, PrivacyGuarantee main, Plan plan) {
        release.preprocessing(pipeline.toJson()).noise(random);
        if (plan != null) {
            release.put("guarantee", guaranteeJson(main, plan));
        }
        // a diagnostic only: the rows of the estimator's last pass, else a count (which re-reads a CSV)
        long rows = in.rows().rowsInLastPass() > 0 ? in.rows().rowsInLastPass() : in.rowCount();
        release.diagnostic("input", inputPath.toString()).diagnostic("rows", rows);
        if (firstStage != null && firstStage.clippedRows() >= 0 && pipeline.policy().equals("clip")) {
            release.diagnostic("clippedRows", firstStage.clippedRows());
        }
        if (schemaRows != null && schemaRows.clampedCells() >= 0) {
            release.diagnostic("clampedCells", schemaRows.clampedCells());
        }
        return release;
    }

    /** Outputs the release to --output/stdout and its diagnostics to --diagnostics (see {@link Release}). */
    void publish(BaseCommand command, Release release) throws java.io.IOException {
        command.publish(release, format, output, diagnostics);
    }
}
