package io.dpspectra.cli.options;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.SchemaJson;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.SchemaFile;
import io.dpspectra.data.csv.SchemaRows;
import io.dpspectra.data.csv.CsvRows;
import io.dpspectra.release.Bounding;
import io.dpspectra.release.Preprocessing;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The preprocessing between INPUT and an estimator, as a release records it under "preprocessing" and as
 * {@code transform} and {@code evaluate} replay it: how the file is read (the schema, or the CSV column
 * selection and header), the centring (none, the schema's public centres, or a privately released
 * mean) and the row-norm bound with its origin and policy. Everything in it is public: declared by the
 * user, or released by a private mechanism whose cost is in the release's guarantee.
 *
 * @param schema     the schema and its file format, or null for a plain numeric CSV
 * @param csv        the CSV options of a plain CSV (--columns, --exclude-columns, --header, --header-names,
 *                   --separator, --skip-lines, --comment-prefix), or null with a schema
 * @param centre     none, public or private
 * @param mean       the privately released mean subtracted after the schema's map (private centring), else null
 * @param inputBound the L2 row-norm bound applied to the rows read (before a private centring)
 * @param bound      the L2 row-norm bound the estimator sees (after centring; inputBound without one)
 * @param boundOrigin how the bound was obtained, in words
 * @param policy     clip or reject
 * @param features   the names of the d features the estimator saw
 * @param idColumn   the privacy unit's column of a release that protected a person (never a feature: a plain CSV's
 *                   replay drops it by name when the file has it), or null
 */
public record Pipeline(SchemaFile schema, InputOptions csv, Centre centre, double[] mean,
                double inputBound, double bound, String boundOrigin, String policy, List<String> features,
                String idColumn) {

    /** Core's record of a release's preprocessing, with the CSV options of a plain CSV (null with a schema). */
    static Pipeline of(Preprocessing p, InputOptions csv) {
        return new Pipeline(p.schema(), csv, Centre.valueOf(p.centring().kind().name()), p.mean(), p.inputBound(),
                p.bound(), p.boundOrigin(), p.policy() == DataBounds.Policy.REJECT ? "reject" : "clip", p.features(),
                null);
    }

    /** How rows are centred before the estimator. */
    enum Centre {
        /** No centring: the estimator sees the uncentred second moment XᵀX. */
        NONE,
        /** The schema's public centres (no privacy cost). */
        PUBLIC,
        /** A differentially private mean, spent from the budget and released with the model. */
        PRIVATE;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * This pipeline reading its rows otherwise (the schema's format, or the CSV options, as typed for another
     * file); what it makes of the rows (features, centring, bound) is unchanged.
     */
    Pipeline withReading(SchemaFile schema, InputOptions csv) {
        return new Pipeline(schema, csv, centre, mean, inputBound, bound, boundOrigin, policy, features, idColumn);
    }

    /** Rows of {@code input} through the file-reading and schema part of the pipeline (before centring by a mean). */
    public RowSource read(Path input) {
        if (schema != null) {
            SchemaRows rows = Inputs.schemaRows(input, schema, centre != Centre.NONE);
            return Inputs.isStdin(input) ? new Inputs.SpilledStream(rows, m -> { }) : rows;
        }
        Inputs.Opened opened = Inputs.openDroppingId(input, csv, idColumn);
        if (opened.dimension() != features.size()) {
            throw CliException.data(input + " has " + opened.dimension() + " columns but the model has dimension "
                    + features.size() + " (fitted on " + abbreviate(features) + ")", "pass a file with the model's "
                    + "columns", null);
        }
        if (opened.rows() instanceof CsvRows csv && csv.hasHeader() && !csv.columnNames().equals(features)) {
            throw CliException.data(input + " has columns " + abbreviate(csv.columnNames()) + " but the model was "
                    + "fitted on " + abbreviate(features), "pass a file with the model's columns", null);
        }
        return opened.rows();
    }

    /**
     * The raw selected columns of {@code input}, before any public map: the CSV's columns as read, or the schema's
     * columns with their numeric values as they stand (no clamp, centre or scale; categories one-hot as in the
     * release), for comparing a release with exact PCA of the data itself.
     */
    public RowSource readRaw(Path input) {
        if (schema == null) {
            return read(input);
        }
        return rawColumns(schema, input);
    }

    /**
     * The raw columns of {@code input} under {@code schema}: its numeric columns as they stand (no clamp, centre or
     * scale), its categories one-hot as mapped, row for row with the mapped rows.
     *
     * @param schema the schema (its format as typed)
     * @param input  the file
     * @return the raw rows
     */
    public static RowSource rawColumns(SchemaFile schema, Path input) {
        List<io.dpspectra.data.Schema.Column> raw = new ArrayList<>();
        for (io.dpspectra.data.Schema.Column c : schema.schema().columns()) {
            raw.add(c instanceof io.dpspectra.data.Schema.Numeric n ? io.dpspectra.data.Schema.Numeric.unbounded(n.name())
                    : c);
        }
        SchemaFile unbounded = new SchemaFile(io.dpspectra.data.Schema.of(raw), schema.separator(), schema.skipLines(),
                schema.commentPrefix(), schema.description());
        return Inputs.schemaRows(input, unbounded, false);
    }

    /** The whole pipeline on {@code input}: read, bound, centre by the released mean (and bound again). */
    public ClippedRows apply(Path input) {
        return bounding(DataBounds.Origin.USER_GIVEN).apply(read(input));
    }

    /**
     * The bounding chain of this pipeline, core's {@link Bounding}: the rows read, bounded by inputBound (clip or
     * reject); with a private mean, then centred by it and clipped to bound = inputBound + ‖mean‖, which they
     * satisfy by construction.
     *
     * @param origin how the bound is declared to what reads the rows (user-given when replayed on new rows)
     * @return the chain
     */
    public Bounding bounding(DataBounds.Origin origin) {
        return new Bounding(inputBound, policy.equals("reject") ? DataBounds.Policy.REJECT : DataBounds.Policy.CLIP,
                mean, mean == null ? inputBound : bound, origin);
    }

    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        if (schema != null) {
            m.put("schema", SchemaJson.toJson(schema.schema(), schema.separator(), schema.skipLines(),
                    schema.commentPrefix(), schema.description()));
        } else {
            m.put("csv", csvJson(csv));
        }
        m.put("center", centre.label());
        if (mean != null) {
            m.put("privateMean", mean);
        }
        if (mean != null) {
            m.put("inputNormBound", inputBound);
        }
        m.put("normBound", bound);
        m.put("normBoundOrigin", boundOrigin);
        m.put("boundPolicy", policy);
        m.put("features", features);
        return m;
    }

    /**
     * The pipeline recorded in a release, or null when it records none: a model from an older version, or a
     * local-DP release, whose "preprocessing" holds the reports' public parameters (each client clipped its
     * own record; see {@link Json#readModel}).
     */
    public static Pipeline fromJson(JsonNode root, Path model) {
        JsonNode p = root.get("preprocessing");
        if (p == null || !p.isObject() || isLocalReports(p)) {
            return null;
        }
        try {
            SchemaFile schema = p.has("schema") ? SchemaJson.parse(p.get("schema")) : null;
            InputOptions csv = p.has("csv") ? csvOptions(p.get("csv")) : null;
            Centre centre = Centre.valueOf(p.path("center").asText("none").toUpperCase(Locale.ROOT));
            double[] mean = null;
            if (p.path("privateMean").isArray()) {
                JsonNode a = p.get("privateMean");
                mean = new double[a.size()];
                for (int i = 0; i < mean.length; i++) {
                    mean[i] = a.get(i).asDouble();
                }
            }
            List<String> features = new ArrayList<>();
            p.path("features").forEach(f -> features.add(f.asText()));
            double bound = p.path("normBound").asDouble();
            double inputBound = p.path("inputNormBound").asDouble(bound);
            if (!(bound > 0 && inputBound > 0)) {
                throw new IllegalArgumentException("its \"normBound\" must be > 0");
            }
            return new Pipeline(schema, csv, centre, mean, inputBound, bound, p.path("normBoundOrigin").asText(""),
                    p.path("boundPolicy").asText("clip"), List.copyOf(features),
                    p.path("privacyUnit").hasNonNull("column") ? p.path("privacyUnit").get("column").asText() : null);
        } catch (IllegalArgumentException e) {
            throw CliException.data("model file " + model + ": its \"preprocessing\" is damaged (" + e.getMessage()
                    + ")", "pass a file written by 'dpspectra fit --output FILE'", e);
        }
    }

    /**
     * Refuses (exit 2), before any budget is charged or any row read, reading options that a model could not
     * record so that {@code transform} and {@code evaluate} read files back the same way: the preprocessing of
     * a release made with them is written, read back and written again, and both must agree.
     *
     * @param schema the schema with the typed format, or null for a plain CSV read with {@code csv}
     */
    static void checkRecordable(SchemaFile schema, InputOptions csv, Centre centre, String policy) {
        List<String> features = schema != null ? schema.schema().featureNames() : List.of("x1");
        double[] mean = centre == Centre.PRIVATE ? new double[features.size()] : null;
        JsonNode written;
        Pipeline back;
        try {
            Pipeline p = new Pipeline(schema, schema == null ? csv : null, centre, mean, 1, mean == null ? 1 : 2,
                    "(checked before reading)", policy, features, null);
            written = Json.MAPPER.valueToTree(p.toJson());
            back = fromJson(Json.MAPPER.createObjectNode().set("preprocessing", written), Path.of("(this release)"));
        } catch (IllegalArgumentException | CliException e) {
            throw unrecordable(e.getMessage());
        }
        if (back == null || !Json.MAPPER.valueToTree(back.toJson()).equals(written)) {
            throw unrecordable("it would read back as " + (back == null ? "nothing" : back.toJson()) + " instead of "
                    + written);
        }
    }

    private static CliException unrecordable(String why) {
        return CliException.usage("the release could not record how it read INPUT so that 'transform' and 'evaluate' "
                + "read other files the same way: " + why, "use other reading options (e.g. --separator); nothing was "
                + "charged or read");
    }

    /** True for the "preprocessing" of an 'ldp aggregate' release: the public parameters of its reports. */
    public static boolean isLocalReports(JsonNode preprocessing) {
        return preprocessing.has("reportVersion") && preprocessing.has("clipNorm") && !preprocessing.has("normBound");
    }

    /** The CSV options as the release records them (only those that were set). */
    private static Map<String, Object> csvJson(InputOptions o) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("header", o.header.name().toLowerCase(Locale.ROOT));
        putIfSet(m, "columns", o.columns);
        putIfSet(m, "excludeColumns", o.excludeColumns);
        // the names themselves, not a --header-names FILE that another directory or machine would not have
        putIfSet(m, "headerNames", o.headerNames == null ? null
                : String.join(",", InputOptions.parseHeaderNames(o.headerNames)));
        putIfSet(m, "separator", o.separator == null ? null : SchemaJson.separatorName(o.separator));
        if (o.skipLines != 0) {
            m.put("skipLines", o.skipLines);
        }
        putIfSet(m, "commentPrefix", o.commentPrefix);
        return m;
    }

    private static void putIfSet(Map<String, Object> m, String key, Object v) {
        if (v != null) {
            m.put(key, v);
        }
    }

    private static InputOptions csvOptions(JsonNode c) {
        InputOptions o = new InputOptions();
        o.header = switch (c.path("header").asText("auto")) {
            case "present" -> CsvRows.Header.PRESENT;
            case "absent" -> CsvRows.Header.ABSENT;
            default -> CsvRows.Header.AUTO;
        };
        o.columns = strings(c.get("columns"));
        o.excludeColumns = strings(c.get("excludeColumns"));
        o.headerNames = c.hasNonNull("headerNames") ? c.get("headerNames").asText() : null;
        if (c.hasNonNull("separator")) {
            char sep = SchemaJson.separator(c.get("separator").asText());
            o.separator = sep == 0 ? null : sep;
        }
        o.skipLines = c.path("skipLines").asInt(0);
        o.commentPrefix = c.hasNonNull("commentPrefix") ? c.get("commentPrefix").asText() : null;
        return o;
    }

    private static List<String> strings(JsonNode a) {
        if (a == null || !a.isArray()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        a.forEach(t -> out.add(t.asText()));
        return out;
    }

    private static String abbreviate(List<String> names) {
        return names.size() <= 6 ? names.toString()
                : names.subList(0, 6).toString().replace("]", ", ... (" + names.size() + " in all)]");
    }
}
