package io.dpspectra.cli.options;

import io.dpspectra.Diagnostics;
import io.dpspectra.cli.command.BaseCommand;
import io.dpspectra.cli.output.AtomicFiles;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.OutputFormat;
import io.dpspectra.cli.output.Progress;
import io.dpspectra.cli.output.Release;
import io.dpspectra.cli.output.SchemaJson;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.PrivateBoundedMean;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.SchemaFile;
import io.dpspectra.data.csv.SchemaRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.ComposedGuarantee;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.release.BoundedSum;
import io.dpspectra.release.Bounding;
import io.dpspectra.release.Centring;
import io.dpspectra.release.NormHistogram;
import io.dpspectra.release.Preprocessing;
import io.dpspectra.release.ReleaseListener;
import io.dpspectra.release.RowBound;
import io.dpspectra.release.RowInput;
import io.dpspectra.release.RowStatistics;
import io.dpspectra.release.StatisticSource;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
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
public final class ReleaseInput {
    /** Default share of the budget for --center private (core's). */
    public static final double DEFAULT_CENTER_FRACTION = Centring.DEFAULT_PRIVATE_SHARE;

    @ArgGroup(exclusive = true, multiplicity = "0..1", heading = "Row norm bound (one, or none with a bounded --schema):%n")
    public BoundOptions bounds;

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

    @Option(names = "--privacy-unit", paramLabel = "COLUMN",
            description = "Protect a person, not a row: COLUMN (named in the CSV header or by --header-names; with "
                    + "--schema, the column the schema marks \"type\": \"id\") identifies the person "
                    + "(a customer or patient id, any text); it is used for grouping only, never as a feature. Rows "
                    + "of one person need not be adjacent. Each person keeps at most --max-rows-per-unit M rows, "
                    + "each clipped to B/sqrt(M) for the bound B (or bounded together, --unit-bound frobenius), so one "
                    + "person's whole contribution to the second moment is bounded as one row's of norm B is, and the "
                    + "guarantee (add/remove or replace) is "
                    + "about one person. analyze-gauss, it-u, ad and the covariance mechanisms; the per-row "
                    + "algorithms refuse it. Rows are grouped in memory (at most M per person), and by an external "
                    + "sort on disk when the kept rows outgrow it (--spill-dir): the same release either way. See "
                    + "docs/guide/person-level.md.")
    String privacyUnit;

    @Option(names = "--max-rows-per-unit", paramLabel = "M",
            description = "With --privacy-unit: the most rows kept per person, chosen uniformly at random (the "
                    + "release's random source: secure, or seeded by --seed); required, since only you know how many "
                    + "rows a typical person has (choose it from domain knowledge, never from the data). A larger M "
                    + "keeps more rows but clips each to B/sqrt(M).")
    Integer maxRowsPerUnit;

    @Option(names = "--first-rows-per-unit",
            description = "With --privacy-unit: keep each person's first M rows in file order instead of M at random "
                    + "(the same guarantee; biased when the file's order means something).")
    boolean firstRowsPerUnit;

    @Option(names = "--unit-bound", paramLabel = "rows|frobenius",
            description = "With --privacy-unit: how each person's kept rows are bounded so that their sum of outer "
                    + "products P has norm <= B^2. rows (default): each row clipped to B/sqrt(M), which bounds the "
                    + "trace of P (every mechanism that takes --privacy-unit). frobenius: each row clipped to "
                    + "B/M^(1/4), then all the person's rows scaled by sqrt(min(1, B^2/||P||_F)), which bounds only "
                    + "the Frobenius norm of P: a person whose rows point in different directions keeps up to "
                    + "sqrt(M) times more signal, one whose rows point one way the same as with rows. Only "
                    + "analyze-gauss and covariance --algorithm gaussian accept it (the others, and --components "
                    + "auto, need a trace bound).")
    String unitBound;

    @Option(names = "--spill-dir", paramLabel = "DIR",
            description = "With --privacy-unit: where the grouping spills when the kept rows outgrow its memory (a "
                    + "quarter of the JVM's heap; JAVA_TOOL_OPTIONS=-Ddpspectra.groupingMemory=SIZE, e.g. 512m, sets "
                    + "another): the rows sorted by person and the kept rows, in a private subdirectory with "
                    + "owner-only permissions, deleted when the run ends. The files hold the data's raw values: put "
                    + "them on a disk you trust as much as INPUT's. Needs free space of up to about twice INPUT's "
                    + "values in binary (8 bytes a value). Default: the JVM's temporary directory (java.io.tmpdir). "
                    + "Checked before anything is read or charged, whether or not the run will spill.")
    Path spillDir;

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

    @Parameters(index = "0", paramLabel = "INPUT",
            description = "Rows to analyse: a .csv/.csv.gz file (or any text table with --schema), - for standard "
                    + "input (CSV, or any text table with --schema), or a .dpsr binary file (see 'dpspectra convert').")
    public Path inputPath;

    private SchemaFile schema;
    private Pipeline.Centre centre;
    private double centerFraction;
    private Inputs.Opened opened;
    /** The schema's bound by construction (with the centring's view of the columns), or empty. */
    private java.util.OptionalDouble schemaBound() {
        return schema == null ? java.util.OptionalDouble.empty()
                : schema.schema().rowNormBound(centre != Pipeline.Centre.NONE);
    }

    /**
     * The number of rows of INPUT, counted before anything is spent and without keeping them (one pass over a
     * text file, validating it as every release does first; a .dpsr file declares it), or empty for standard
     * input and for inputs read elsewhere (a cluster). Call after {@link #checkBeforeReading}.
     */
    public java.util.Optional<Shape> countRowsBeforeSpending() {
        if (Inputs.isStdin(inputPath) || ExternalInputs.isInstalled()) {
            return java.util.Optional.empty();
        }
        SchemaFile typed = schema == null ? null : SchemaJson.withTyped(schema, input);
        RowSource rows = typed != null ? Inputs.schemaRows(inputPath, typed, centre != Pipeline.Centre.NONE)
                : Inputs.open(inputPath, input, m -> { }).rows();
        if (!rowsCheaplyCounted() && rows.knownSize().isPresent()) {
            return java.util.Optional.of(new Shape(Inputs.rowCount(rows), rows.dimension(), null, rows));
        }
        io.dpspectra.data.NormProfile profile = io.dpspectra.data.NormProfile.of(rows);
        if (profile.rows() == 0) {
            throw CliException.data(rows.describe() + " has no data rows", "provide at least one row", null);
        }
        return java.util.Optional.of(new Shape(profile.rows(), rows.dimension(), profile, rows));
    }

    /**
     * n and d of INPUT, as {@link #countRowsBeforeSpending} found them, and the spread of its row norms when
     * it was read (NOT private: for the curator's warnings).
     */
    public record Shape(long rows, int dimension, io.dpspectra.data.NormProfile profile, RowSource source) {
    }

    /**
     * The bound the check before spending uses: the given or schema bound, or for a private Q-quantile bound not
     * drawn yet, the rows' exact Q-quantile norm (a stand-in, for the curator's check only).
     */
    public double boundForCheck(io.dpspectra.data.NormProfile profile) {
        BoundOptions.PrivateBound pb = bounds == null ? null : bounds.privateBound();
        return pb != null ? profile.quantile(pb.quantile()) : givenBound();
    }

    /**
     * What the check before spending compares the rows with, row for row: under a schema, INPUT's raw columns (its
     * numeric columns unclamped, uncentred, unscaled), z-scored when the schema scales a numeric column (a scale
     * declares a standardisation, whose exact form is the z-score), else centred; null without a schema (the rows
     * themselves, centred). For the curator's check only.
     */
    public io.dpspectra.advice.SpectrumCheck.Reference referenceForCheck() {
        if (schema == null) {
            return null;
        }
        SchemaFile typed = SchemaJson.withTyped(schema, input);
        boolean scales = typed.schema().columns().stream().anyMatch(c -> c instanceof io.dpspectra.data.Schema.Numeric n
                && n.scale() != null);
        return new io.dpspectra.advice.SpectrumCheck.Reference(Pipeline.rawColumns(typed, inputPath), scales);
    }

    /** The schema's bound by construction for the ladder of a private bound, or empty. */
    public java.util.OptionalDouble schemaBoundForCheck() {
        return schemaBound();
    }

    /** The bound as typed, for a message: "--clip-norm private:0.5", "--norm-bound 3", "the schema's". */
    public String boundDescription() {
        if (bounds == null) {
            return "the schema's, by construction";
        }
        return bounds.clipNorm != null ? "--clip-norm " + bounds.clipNorm : "--norm-bound " + bounds.normBound;
    }

    /** True when the estimator sees centred rows (public or private centring). */
    public boolean centres() {
        return centre != Pipeline.Centre.NONE;
    }

    /**
     * True when counting the rows before spending costs little: a .dpsr file declares n, and a text file under
     * {@value #CHEAP_COUNT_BYTES} bytes is parsed in well under a second.
     */
    public boolean rowsCheaplyCounted() {
        if (Inputs.isStdin(inputPath) || ExternalInputs.isInstalled()) {
            return false;
        }
        try {
            return Inputs.isBinary(inputPath) || java.nio.file.Files.size(inputPath) < CHEAP_COUNT_BYTES;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** Text inputs below this size are counted before spending for the usefulness check. */
    static final long CHEAP_COUNT_BYTES = 64L << 20;

    /** The given or schema bound, or NaN for a private bound (not drawn yet). */
    private double givenBound() {
        if (bounds != null && bounds.privateBound() != null) {
            return Double.NaN;
        }
        if (bounds != null) {
            return bounds.bound();
        }
        return schemaBound().getAsDouble();
    }

    /**
     * Validates the schema, the centring, the bound and the output target before any data is read (usage
     * errors, exit 2). Reads the schema file (public), never INPUT.
     */
    public void checkBeforeReading() {
        checkUnit();
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
            // the person's column is the one the schema marks "type": "id", and such a schema needs --privacy-unit
            io.dpspectra.release.UnitCsv.checkSchema(schema.schema(), privacyUnit(), "--schema " + schemaPath,
                    CliVocabulary.DEFAULT);
        }
        centre = parseCentre();
        if (bounds != null) {
            bounds.validate();
        } else if (schema == null) {
            throw CliException.usage("a row norm bound is required: --clip-norm B, --clip-norm private[:Q], "
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
        if (schema != null) {
            // --separator, --skip-lines and --comment-prefix, when typed, override the schema's "format"
            schema = SchemaJson.withTyped(schema, input);
        }
        // a model that transform and evaluate could not read back is refused before any budget is spent
        Pipeline.checkRecordable(schema, input, centre, bounds == null ? "clip" : bounds.policy());
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

    /** The --privacy-unit options, checked before anything is read (usage errors, exit 2). */
    private void checkUnit() {
        if (privacyUnit == null) {
            if (maxRowsPerUnit != null || firstRowsPerUnit || unitBound != null || spillDir != null) {
                throw CliException.usage((maxRowsPerUnit != null ? "--max-rows-per-unit" : firstRowsPerUnit
                        ? "--first-rows-per-unit" : unitBound != null ? "--unit-bound" : "--spill-dir")
                        + " applies only with --privacy-unit", "add --privacy-unit COLUMN, or drop it");
            }
            return;
        }
        contributionBound();
        if (privacyUnit.isBlank()) {
            throw CliException.usage("--privacy-unit needs a column name", "e.g. --privacy-unit customer_id");
        }
        if (maxRowsPerUnit == null) {
            throw CliException.usage("--privacy-unit " + privacyUnit + " needs --max-rows-per-unit M, the most rows "
                    + "kept per person", "choose M from what you know of the data (e.g. the visits a patient "
                    + "typically has), never from the data itself: e.g. --max-rows-per-unit 20");
        }
        if (maxRowsPerUnit < 1) {
            throw CliException.usage("--max-rows-per-unit must be at least 1, got " + maxRowsPerUnit,
                    "e.g. --max-rows-per-unit 20");
        }
        if (Inputs.isBinary(inputPath)) {
            throw CliException.usage("--privacy-unit reads the person's column from a CSV file's header, but "
                    + inputPath + " is a binary file without it", "pass the CSV file");
        }
        if (ExternalInputs.installed().map(o -> !o.groupsByUnit()).orElse(false)) {
            throw CliException.usage("--privacy-unit is not supported by this program", "run the release locally");
        }
        if (ExternalInputs.isInstalled() && spillDir != null) {
            throw CliException.usage("--spill-dir applies to grouping on this machine, but this program groups "
                    + "INPUT where it lies (its shuffle spills to its own local directories)", "drop --spill-dir");
        }
        if (!ExternalInputs.isInstalled()) {
            String problem = groupingMemory().problem();
            if (problem != null) {
                throw CliException.usage((spillDir != null ? "--spill-dir: " : "the temporary directory "
                        + "(java.io.tmpdir), where --privacy-unit spills the rows it groups when they outgrow memory: ")
                        + problem, spillDir != null ? "create it, or give a writable directory with --spill-dir DIR"
                        : "give a writable directory with --spill-dir DIR");
            }
        }
        if (schemaPath == null && !ExternalInputs.isInstalled() && java.nio.file.Files.isReadable(inputPath)) {
            // (a program that reads INPUT elsewhere checks its header there, before any row)
            // the header alone (no row): a missing unit column, or one also selected as a feature, is a usage error
            // before anything is spent or charged to a ledger
            io.dpspectra.release.UnitCsv.checkHeader(inputPath, unitCsvOptions(), privacyUnit());
        }
    }

    /** The grouping's memory (a quarter of the heap, or -Ddpspectra.groupingMemory) and --spill-dir. */
    private io.dpspectra.release.GroupingMemory groupingMemory() {
        io.dpspectra.release.GroupingMemory m = io.dpspectra.release.GroupingMemory.defaults();
        return spillDir == null ? m : m.spillingTo(spillDir);
    }

    private io.dpspectra.release.UnitCsv.Options unitCsvOptions() {
        if (input.skipLines < 0) {
            throw CliException.usage("--skip-lines must be >= 0, got " + input.skipLines,
                    "pass the number of lines to drop");
        }
        if (input.commentPrefix != null && input.commentPrefix.isBlank()) {
            throw CliException.usage("--comment-prefix must be visible text, got '" + input.commentPrefix + "'",
                    "e.g. --comment-prefix '#'");
        }
        return new io.dpspectra.release.UnitCsv.Options(input.separator, input.columns, input.excludeColumns,
                input.commentPrefix, input.skipLines, input.header,
                input.headerNames == null ? null : InputOptions.parseHeaderNames(input.headerNames));
    }

    /** The privacy unit of --privacy-unit, or one row. */
    public io.dpspectra.release.PrivacyUnit privacyUnit() {
        if (privacyUnit == null) {
            return io.dpspectra.release.PrivacyUnit.ROW;
        }
        io.dpspectra.release.PrivacyUnit u = io.dpspectra.release.PrivacyUnit.column(privacyUnit, maxRowsPerUnit)
                .bounded(contributionBound());
        return firstRowsPerUnit ? u.firstRows() : u;
    }

    /** The contribution bound of --unit-bound (rows by default). */
    private io.dpspectra.release.PrivacyUnit.ContributionBound contributionBound() {
        if (unitBound == null) {
            return io.dpspectra.release.PrivacyUnit.ContributionBound.ROWS;
        }
        for (io.dpspectra.release.PrivacyUnit.ContributionBound b
                : io.dpspectra.release.PrivacyUnit.ContributionBound.values()) {
            if (b.word().equals(unitBound.trim().toLowerCase(Locale.ROOT))) {
                return b;
            }
        }
        throw CliException.usage("--unit-bound must be rows or frobenius, got '" + unitBound + "'",
                "e.g. --unit-bound frobenius");
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
    public boolean spendsOnPreprocessing() {
        return centre == Pipeline.Centre.PRIVATE || bounds != null && bounds.privateBound() != null;
    }

    /** The row bound as core's setting: a private quantile, a given bound (clip or reject), or the schema's. */
    public RowBound rowBound() {
        if (bounds == null) {
            return RowBound.fromSchema();
        }
        BoundOptions.PrivateBound pb = bounds.privateBound();
        if (pb != null) {
            // an automatic share (F not given) is planned by core from n when n is public
            return RowBound.privateQuantile(pb.quantile(), pb.fraction());
        }
        return bounds.clipNorm != null ? RowBound.clip(bounds.bound()) : RowBound.require(bounds.bound());
    }

    /** The centring as core's setting (after {@link #checkBeforeReading}). */
    public Centring centring() {
        return switch (centre) {
            case NONE -> Centring.NONE;
            case PUBLIC -> Centring.PUBLIC;
            case PRIVATE -> Centring.privateMean(centerFraction);
        };
    }

    /** The schema of --schema (its format overridden by the CSV options typed), or null (after {@link #checkBeforeReading}). */
    public SchemaFile schema() {
        return schema;
    }

    /**
     * INPUT as core's {@link RowInput}: read here (a progress bar named {@code task} on the estimator's passes,
     * {@code note} for one-line notes), or where it lies when a program embedding the command line installed an
     * {@link ExternalInputs} opener.
     */
    public RowInput rowInput(String task, Consumer<String> note) {
        return new RowInput() {
            @Override
            public StatisticSource open(RowInput.Request request) {
                return ExternalInputs.isInstalled() ? external(request, note) : local(request, task, note);
            }

            @Override
            public boolean countable() {
                return ExternalInputs.isInstalled() || !Inputs.isStdin(inputPath); // standard input is read once
            }
        };
    }

    /** INPUT as opened by the last release (null before, and until the estimator's rows for a cluster's input). */
    public Inputs.Opened opened() {
        return opened;
    }

    /** Hears core's release: the memory check before any row, notes and warnings on stderr. */
    public static ReleaseListener listener(java.util.function.IntConsumer beforeReading, Consumer<String> note,
                                    Consumer<String> warn) {
        return new ReleaseListener() {
            @Override
            public void beforeReading(int d) {
                beforeReading.accept(d);
            }

            @Override
            public void note(String message) {
                note.accept(message);
            }

            @Override
            public void warning(String message) {
                warn.accept(message);
            }
        };
    }

    /** INPUT read here: through the schema (standard input copied for a second pass), or as a CSV or .dpsr file. */
    private StatisticSource local(RowInput.Request request, String task, Consumer<String> note) {
        if (!request.unit().isRow()) {
            io.dpspectra.release.PrivacyUnit u = request.unit();
            io.dpspectra.release.GroupingMemory memory = groupingMemory();
            // the header only (a file or standard input, read once): a missing unit column is refused here, before
            // any row, and the width is known for the memory stated before the rows are read
            SchemaRows mapped = request.schema() == null ? null
                    : Inputs.schemaRows(inputPath, request.schema(), request.publicCentres());
            io.dpspectra.data.csv.CsvRows rows = mapped != null ? null : io.dpspectra.release.UnitCsv.open(
                    Inputs.isStdin(inputPath) ? io.dpspectra.data.csv.CsvRows.fromStream("standard input", System.in)
                            : io.dpspectra.data.csv.CsvRows.builder(inputPath), unitCsvOptions(), u);
            int d = mapped != null ? request.schema().schema().featureNames().size() : rows.columnNames().size();
            note.accept(String.format(Locale.ROOT, "grouping %s by column '%s': at most %d rows per person kept; %s",
                    Inputs.isStdin(inputPath) ? "standard input" : inputPath, u.idColumn(), u.maxRowsPerUnit(),
                    memory.describe(d)));
            io.dpspectra.release.UnitStatistics grouped;
            try {
                if (mapped != null) {
                    grouped = io.dpspectra.release.UnitCsv.read(mapped, u, request.random(), memory);
                } else {
                    Inputs.noteSeparator(rows, note);
                    grouped = io.dpspectra.release.UnitCsv.read(rows, u, request.random(), memory);
                }
            } catch (io.dpspectra.release.SpillException e) {
                throw CliException.data(e.getMessage() + " (nothing was released, charged or written; the spill "
                        + "files are deleted)", "free space in " + e.directory() + ", or spill elsewhere with "
                        + "--spill-dir DIR", e);
            }
            if (grouped.spilled()) {
                note.accept(String.format(Locale.ROOT, "the kept rows outgrew memory: grouped by an external sort in "
                        + "%s (%s written; the same release as in memory)", memory.spillDirectory(),
                        io.dpspectra.release.GroupingMemory.size(grouped.spillBytes())));
            }
            return grouped;
        }
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
    private StatisticSource external(RowInput.Request request, Consumer<String> note) {
        if (!request.unit().isRow()) {
            io.dpspectra.release.PrivacyUnit u = request.unit();
            note.accept(String.format(Locale.ROOT, "grouping %s by column '%s' where it lies: at most %d rows per "
                    + "person kept (the shuffle that groups them spills to disk)", inputPath, u.idColumn(),
                    u.maxRowsPerUnit()));
            SchemaFile s = request.schema();
            return ExternalInputs.installed().orElseThrow().openByUnit(inputPath.toString(), unitCsvOptions(),
                    s == null ? null : new ExternalInputs.SchemaInput(s.schema(), s.separator(), s.skipLines(),
                            s.commentPrefix(), request.publicCentres()), request.unit(), request.random());
        }
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
                PrivateBoundedMean.Sum sum = ext.boundedSum(b.inputBound(), b.policy());
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

    /**
     * For --format table: the preprocessing, and the composition when several private parts were spent
     * ({@code guarantee} null for a non-private reference).
     */
    public String tableNotes(Preprocessing p, ComposedGuarantee guarantee) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "preprocessing: %d features%s; center %s; row-norm bound %.6g (%s)%n",
                p.features().size(), schema == null ? "" : " from --schema " + schemaPath, p.centring().label(),
                p.bound(), p.boundOrigin()));
        if (guarantee != null && guarantee.rule() != ComposedGuarantee.Rule.SINGLE) {
            PrivacyGuarantee main = guarantee.estimator();
            List<PrivacyGuarantee> before = guarantee.parts().subList(0, guarantee.parts().size() - 1);
            double e = main.epsilon();
            double d = main.delta();
            for (PrivacyGuarantee g : before) {
                e += g.epsilon();
                d += g.delta();
            }
            sb.append("privacy in all: ").append(PrivacyParams.of(round(e), round(d)))
                    .append(", basic composition of:").append(System.lineSeparator());
            for (PrivacyGuarantee g : before) {
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
     * Adds the release's public preprocessing (the {@link Pipeline}) and seeding to {@code release}, and the
     * curator's facts (the input file, then core's: rows, rows clipped, cells clamped, the fit's seconds) to
     * its diagnostics.
     */
    public Release describe(Release release, Preprocessing p, Diagnostics facts, RandomSource random) {
        java.util.Map<String, Object> pipeline = Pipeline.of(p, schema == null ? input : null).toJson();
        if (privacyUnit != null) {
            java.util.Map<String, Object> unit = new java.util.LinkedHashMap<>();
            unit.put("column", privacyUnit);
            unit.put("maxRowsPerUnit", maxRowsPerUnit);
            unit.put("selection", firstRowsPerUnit ? "first in file order" : "uniformly at random");
            unit.put("bound", privacyUnit().contributionBound().word());
            unit.put("rowBound", privacyUnit().rowBound(p.bound()));
            pipeline = new java.util.LinkedHashMap<>(pipeline);
            pipeline.put("privacyUnit", unit);
        }
        release.preprocessing(pipeline).noise(random);
        release.diagnostic("input", inputPath.toString());
        facts.asMap().forEach(release::diagnostic);
        return release;
    }

    /** Outputs the release to --output/stdout and its diagnostics to --diagnostics (see {@link Release}). */
    public void publish(BaseCommand command, Release release) throws java.io.IOException {
        command.publish(release, format, output, diagnostics);
    }
}
