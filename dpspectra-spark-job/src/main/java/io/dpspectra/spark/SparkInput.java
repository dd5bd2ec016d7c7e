package io.dpspectra.spark;

import io.dpspectra.cli.options.ExternalInputs;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.PrivateBoundedMean;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.Schema;
import io.dpspectra.data.csv.SchemaRows;
import io.dpspectra.data.csv.CsvRanges;
import io.dpspectra.data.csv.CsvRows;
import io.dpspectra.release.BoundedSum;
import io.dpspectra.release.Bounding;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * INPUT of {@link DpPcaJob} read by Spark, with the CLI's meaning of every input option.
 *
 * <ul>
 *   <li>A CSV file (or a directory of CSV parts, or a glob): the CLI's own CSV logic (core's {@link CsvRows})
 *       resolves, from the first lines, the separator, the header and the selected columns ({@code --columns}
 *       and {@code --exclude-columns} with names, numbers and ranges, {@code --header}, {@code --header-names},
 *       {@code --skip-lines}, {@code --comment-prefix}); each split of the files is then parsed on the executors
 *       by core's own parser ({@link CsvChunkFormat}, {@link CsvRanges}), so the cell rules and the messages,
 *       line numbers included, are the CLI's. The files are read in the order of their names.</li>
 *   <li>With {@code --schema}: the header and separator are found as core's {@link SchemaRows} finds them, and
 *       each split is read on the executors line by line as {@link SchemaRows} reads a file
 *       ({@link SchemaRows#ranges}): comments, blank lines, lines to skip, cells, and each row mapped by core's
 *       {@link Schema} (clamping, standardising, one-hot), exactly as the CLI maps it, with the CLI's messages and
 *       line numbers. The files are read in the order of their names.</li>
 *   <li>With {@code --privacy-unit}: the same readers, each row with its person's id (the unit's column; with a
 *       schema, its {@code "type": "id"} column), grouped on the executors ({@link SparkUnitStatistics}).</li>
 *   <li>Parquet (told from text by its first bytes, "PAR1"): numeric (or text) columns, or one vector column; {@code --columns} and
 *       {@code --exclude-columns} select them as for a CSV with a header; with {@code --schema}, its columns
 *       must be the file's, in order.</li>
 * </ul>
 * The rows become core's source of exact statistics ({@link SparkStatistics}): the row-norm histogram, the
 * bounded sum and XᵀX are computed where the rows lie, and the CLI draws the noise on the driver. Before the
 * first pass only the head of INPUT is read, on the driver, without a Spark job (its first bytes and, for text,
 * its first lines); the readers are handed the columns, so they read nothing to find them. The first pass reads,
 * parses and maps each row once and persists the rows for the later passes; {@link #close()} releases them.
 */
final class SparkInput implements ExternalInputs.Opener, AutoCloseable {
    /** Lines read from the start of INPUT to lay it out (as the CLI samples the first lines of a file). */
    private static final int SAMPLE_LINES = 200;

    /** What INPUT holds: text (CSV, possibly gzip-compressed) or Parquet. */
    enum Format { CSV, PARQUET }

    private final SparkSession spark;
    private final String[] args;
    private final Format declared;
    private final List<SparkStatistics> opened = new ArrayList<>();
    private final List<SparkUnitStatistics> grouped = new ArrayList<>();

    /**
     * {@code args}: the job's command line, from which INPUT is taken as typed (a URI keeps its "//");
     * {@code declared}: the format given with {@code --input-format}, or null to tell it from the content.
     */
    SparkInput(SparkSession spark, String[] args, Format declared) {
        this.spark = spark;
        this.args = args.clone();
        this.declared = declared;
    }

    @Override
    public ExternalInputs.Rows open(ExternalInputs.Request request) {
        String raw = asTyped(request.input());
        Head head = head(raw);
        boolean csv = head.format() == Format.CSV;
        SparkStatistics rows;
        try {
            if (request.schema() != null) {
                rows = csv ? schemaCsv(raw, head, request.schema()) : schemaParquet(raw, request.schema());
            } else {
                rows = csv ? plainCsv(raw, head, request.csv()) : plainParquet(raw, request.csv());
            }
        } catch (Exception e) {   // AnalysisException (e.g. no such path) is checked, though Scala throws it undeclared
            if (e instanceof org.apache.spark.sql.AnalysisException) {
                throw new InvalidDataException("INPUT " + raw + " cannot be read: " + e.getMessage(), e);
            }
            throw e;
        }
        return new Rows(opened(rows));
    }

    /**
     * Refuses a release that forms d x d matrices too large for this cluster ({@link LargeDimension}), before
     * anything is spent (before any statistic of the rows).
     */
    @Override
    public void checkDense(String what, int d) {
        LargeDimension.checkGram(what, !args[0].equals("covariance"), d, spark.sparkContext().getConf(),
                Runtime.getRuntime().maxMemory(), LargeDimension.Front.JOB);
    }

    @Override
    public io.dpspectra.local.LocalAggregate aggregateReports(String reports) {
        return DistributedReports.aggregate(spark, asTyped(reports));
    }

    @Override
    public boolean groupsByUnit() {
        return true;
    }

    /**
     * INPUT grouped by the privacy unit's column on the executors ({@link SparkUnitStatistics}): the id column is
     * carried beside the features, never as one. A CSV is laid out by core exactly as the CLI lays it out
     * ({@link io.dpspectra.release.UnitCsv#open}: every CSV option, the unit column and the feature columns checked by
     * the same rules and words, from the first lines, before any Spark job), and each split is parsed on the executors
     * by core's parser with the id column ({@link CsvChunkFormat}), so the cells, the ids, the problems and their line
     * numbers are the CLI's. Parquet: the columns by name, each cell under the CLI's cell rule.
     */
    @Override
    public io.dpspectra.release.StatisticSource openByUnit(String input, io.dpspectra.release.UnitCsv.Options options,
            ExternalInputs.SchemaInput schema, io.dpspectra.release.PrivacyUnit unit,
            io.dpspectra.noise.RandomSource random) {
        String raw = asTyped(input);
        Head head = head(raw);
        String where = "INPUT " + raw;
        SparkUnitStatistics s;
        try {
            if (head.format() == Format.CSV) {
                CsvRanges ranges;
                List<String> names;
                if (schema != null) {
                    // the schema's id column is the unit's (the CLI checked it before anything was read)
                    ranges = SchemaRows.ranges(lines(head, raw), raw, schema.schema(), schema.centre(),
                            schema.separator(), schema.skipLines(), schema.commentPrefix(), LONGER_SPLITS);
                    names = schema.schema().featureNames();
                } else {
                    CsvRows layout = io.dpspectra.release.UnitCsv.open(CsvRows.fromStream(raw,
                            sample(lines(head, raw))), options, unit);
                    ranges = CsvRanges.of(layout, LONGER_SPLITS);
                    names = layout.columnNames();
                }
                s = SparkUnitStatistics.ofChunks(chunks(raw, ranges), ranges.dimension(), unit, random, names, where,
                        notes -> ranges.check(notes.stream().map(n -> (CsvRanges.Part) n).toList()));
            } else if (schema != null) {
                s = schemaParquetByUnit(raw, schema, unit, random);
            } else {
                s = parquetByUnit(raw, options, unit, random);
            }
        } catch (Exception e) {   // AnalysisException (e.g. no such path) is checked, though Scala throws it undeclared
            if (e instanceof org.apache.spark.sql.AnalysisException) {
                throw new InvalidDataException("INPUT " + raw + " cannot be read: " + e.getMessage(), e);
            }
            throw e;
        }
        grouped.add(s);
        return s;
    }

    /** A Parquet INPUT grouped by the unit's column: the columns by name, each cell under the CLI's cell rule. */
    private SparkUnitStatistics parquetByUnit(String raw, io.dpspectra.release.UnitCsv.Options options,
            io.dpspectra.release.PrivacyUnit unit, io.dpspectra.noise.RandomSource random) {
        if (options.separator() != null || options.skipLines() != 0 || options.commentPrefix() != null
                || options.header() != CsvRows.Header.AUTO || options.headerNames() != null) {
            throw csvOptionsOnParquet(raw, true);
        }
        Dataset<Row> data = spark.read().parquet(raw);
        List<String> header = Arrays.asList(data.columns());
        int[] features = io.dpspectra.release.UnitCsv.featureColumns(header, options, unit, "INPUT " + raw);
        int id = header.indexOf(unit.idColumn());
        String[] names = header.toArray(new String[0]);
        String where = "INPUT " + raw;
        String vectors = unit.idColumn().equals("features") ? "features_" : "features";
        JavaRDD<Row> rows = data.toJavaRDD().map(r -> {
            double[] x = new double[features.length];
            for (int j = 0; j < x.length; j++) {
                Object v = r.get(features[j]);
                x[j] = v instanceof Number n && Double.isFinite(n.doubleValue()) ? n.doubleValue()
                        : io.dpspectra.release.UnitCsv.cell(v == null ? "" : v.toString().trim(), where, "a row",
                                names[features[j]]);
            }
            Object person = r.get(id);
            return org.apache.spark.sql.RowFactory.create(person == null ? null : person.toString().trim(),
                    Vectors.dense(x));
        });
        Dataset<Row> frame = spark.createDataFrame(rows, new StructType()
                .add(unit.idColumn(), DataTypes.StringType, true).add(vectors, SQLDataTypes.VectorType(), false));
        List<String> featureNames = Arrays.stream(features).mapToObj(header::get).toList();
        return SparkUnitStatistics.of(frame, vectors, unit, random, featureNames, where);
    }

    /**
     * A Parquet INPUT read through a schema whose id column is the unit's: its columns must be the schema's, in order;
     * each row's cells, as text, are mapped on the executors by core's schema code, and its id is the id column's text.
     */
    private SparkUnitStatistics schemaParquetByUnit(String raw, ExternalInputs.SchemaInput s,
            io.dpspectra.release.PrivacyUnit unit, io.dpspectra.noise.RandomSource random) {
        Dataset<Row> data = spark.read().parquet(raw);
        checkSchemaColumns(data, raw, s.schema());
        Schema schema = s.schema();
        boolean centre = s.centre();
        int width = schema.columns().size();
        int d = schema.dimension();
        int id = schema.columns().stream().map(Schema.Column::name).toList().indexOf(unit.idColumn());
        String where = "a row of INPUT " + raw;
        String vectors = unit.idColumn().equals("features") ? "features_" : "features";
        JavaRDD<Row> rows = data.toJavaRDD().map(r -> {
            String[] cells = new String[width];
            for (int j = 0; j < width; j++) {
                cells[j] = r.isNullAt(j) ? "" : r.get(j).toString();
            }
            double[] out = new double[d];
            schema.map(cells, out, centre, new long[1], where);
            return org.apache.spark.sql.RowFactory.create(cells[id].trim(), Vectors.dense(out));
        });
        Dataset<Row> frame = spark.createDataFrame(rows, new StructType()
                .add(unit.idColumn(), DataTypes.StringType, true).add(vectors, SQLDataTypes.VectorType(), false));
        return SparkUnitStatistics.of(frame, vectors, unit, random, schema.featureNames(), "INPUT " + raw);
    }

    /** The refusal of the options that describe a CSV file when INPUT is Parquet. */
    private static RuntimeException csvOptionsOnParquet(String raw, boolean headerNames) {
        return ExternalInputs.unsupported("--header, " + (headerNames ? "--header-names, " : "") + "--separator, "
                + "--skip-lines and --comment-prefix describe a CSV file, but INPUT " + raw + " is Parquet",
                "drop them (Parquet names and types its columns)");
    }

    /** The statistics the CLI asks of the rows, computed by Spark. */
    private static final class Rows implements ExternalInputs.Rows {
        private final SparkStatistics rows;

        Rows(SparkStatistics rows) {
            this.rows = rows;
        }

        @Override
        public List<String> columnNames() {
            return rows.featureNames();
        }

        @Override
        public long[] rowNormHistogram(double[] grid) {
            return rows.normHistogram(grid).counts();
        }

        @Override
        public PrivateBoundedMean.Sum boundedSum(double bound, DataBounds.Policy policy) {
            BoundedSum sum = rows.boundedSum(Bounding.of(bound, policy, DataBounds.Origin.USER_GIVEN));
            return new PrivateBoundedMean.Sum(sum.sum(), sum.count());
        }

        @Override
        public RowSource bounded(double inputBound, DataBounds.Policy policy, double[] mean, double bound) {
            // the CLI declares the bound on the statistic (its origin too); bounding again is the identity
            return rows.statistic(new Bounding(inputBound, policy, mean == null ? null : mean.clone(), bound,
                    DataBounds.Origin.USER_GIVEN));
        }
    }

    /** Releases the rows persisted for the passes of the release (at the end of the job's command). */
    @Override
    public void close() {
        for (SparkStatistics s : opened) {
            s.close();
        }
        opened.clear();
        for (SparkUnitStatistics s : grouped) {
            s.close();
        }
        grouped.clear();
    }

    private SparkStatistics opened(SparkStatistics s) {
        opened.add(s);
        return s;
    }

    // ---- CSV without a schema

    /**
     * The rows of a CSV laid out from its first lines as the CLI lays it out, each split parsed by core's parser
     * ({@link CsvChunkFormat}): the CLI's cell rules, options (the separator, runs of whitespace, comment
     * prefixes, lines to skip before each file's header) and messages, line numbers included.
     */
    private SparkStatistics plainCsv(String raw, Head head, ExternalInputs.Csv options) {
        CsvRows layout = options.configure().apply(CsvRows.fromStream(raw, sample(lines(head, raw)))).build();
        CsvRanges ranges = CsvRanges.of(layout, LONGER_SPLITS);
        return SparkStatistics.ofChunks(chunks(raw, ranges), ranges.dimension(), layout.columnNames(), "INPUT " + raw,
                notes -> ranges.check(notes.stream().map(n -> (CsvRanges.Part) n).toList()));
    }

    /** What to do when a file's lines before the data run past its first split. */
    private static final String LONGER_SPLITS = "give Spark longer splits (--conf spark.sql.files.maxPartitionBytes="
            + "BYTES, more than the lines before the data)";

    /**
     * The files at {@code raw} in chunks of rows, each split parsed by core's parser ({@link CsvChunkFormat}) as
     * {@code ranges} lays them out, the splits in the order of the files' names, then their place in the file.
     */
    private JavaRDD<RowChunk> chunks(String raw, CsvRanges ranges) {
        org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(
                spark.sparkContext().hadoopConfiguration());
        org.apache.hadoop.fs.Path typedFile = null;
        try {
            org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(raw);
            org.apache.hadoop.fs.FileSystem fs = path.getFileSystem(conf);
            List<org.apache.hadoop.fs.FileStatus> files = dataFiles(fs, path);
            org.apache.hadoop.fs.FileStatus[] matched = fs.globStatus(path);
            if (matched != null && matched.length == 1 && matched[0].isFile()) {
                typedFile = fs.makeQualified(matched[0].getPath());
            }
            long split = splitBytes(files);
            conf.setLong(org.apache.hadoop.mapreduce.lib.input.FileInputFormat.SPLIT_MAXSIZE, split);
            conf.setLong(org.apache.hadoop.mapreduce.lib.input.FileInputFormat.SPLIT_MINSIZE, split);
        } catch (java.io.IOException e) {
            throw new InvalidDataException("INPUT " + raw + " cannot be listed: " + e.getMessage(), e);
        }
        CsvChunkFormat.configure(conf, ranges, raw, typedFile);
        JavaRDD<RowChunk> chunks = org.apache.spark.api.java.JavaSparkContext.fromSparkContext(spark.sparkContext())
                .newAPIHadoopFile(raw, CsvChunkFormat.class, org.apache.hadoop.io.LongWritable.class, RowChunk.class,
                        conf).values();
        return chunks;
    }

    /**
     * The length of the splits of {@code files}, as Spark's own file sources choose it: at most
     * {@code spark.sql.files.maxPartitionBytes}, else the files' bytes (each with {@code spark.sql.files.openCostInBytes}
     * added) shared among the default parallelism, and no less than the open cost.
     */
    private long splitBytes(List<org.apache.hadoop.fs.FileStatus> files) {
        org.apache.spark.sql.internal.SQLConf sql = spark.sessionState().conf();
        long openCost = sql.filesOpenCostInBytes();
        long total = 0;
        for (org.apache.hadoop.fs.FileStatus f : files) {
            total += f.getLen() + openCost;
        }
        int parallelism = sql.filesMinPartitionNum().isDefined() ? (Integer) sql.filesMinPartitionNum().get()
                : spark.sparkContext().defaultParallelism();
        return Math.min(sql.filesMaxPartitionBytes(), Math.max(openCost, total / Math.max(1, parallelism)));
    }

    /** The first lines of INPUT, as one stream for core's layout logic. */
    private static ByteArrayInputStream sample(List<String> lines) {
        return new ByteArrayInputStream((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * What the first bytes of INPUT's first file tell (its format) and, for text, its first lines: read once,
     * on the driver, through the file system (no Spark job); null lines when the bytes could not be read (the
     * declared format decides, and the lines are then taken by Spark).
     */
    private record Head(Format format, List<String> firstLines) {
    }

    /** The first lines of INPUT: those read with its first bytes, else (when they could not be) taken by Spark. */
    private List<String> lines(Head head, String raw) {
        if (head.firstLines() != null) {
            return head.firstLines();
        }
        return withoutByteOrderMark(new ArrayList<>(spark.read().textFile(raw).takeAsList(SAMPLE_LINES)));
    }

    private static List<String> withoutByteOrderMark(List<String> lines) {
        if (!lines.isEmpty() && lines.get(0).startsWith("\uFEFF")) {
            lines.set(0, lines.get(0).substring(1));
        }
        return lines;
    }

    /**
     * Up to {@link #SAMPLE_LINES} lines from {@code in} (the file's bytes, decompressed as Spark decompresses them:
     * by the file's name), decoded as UTF-8 as Spark's reader decodes them; null if they cannot be read here.
     */
    private List<String> firstLines(java.io.InputStream in, org.apache.hadoop.fs.Path file) {
        try {
            org.apache.hadoop.io.compress.CompressionCodec codec = new org.apache.hadoop.io.compress
                    .CompressionCodecFactory(spark.sparkContext().hadoopConfiguration()).getCodec(file);
            java.io.InputStream text = codec == null ? in : codec.createInputStream(in);
            java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(text,
                    StandardCharsets.UTF_8));
            List<String> lines = new ArrayList<>();
            for (String line = r.readLine(); line != null && lines.size() < SAMPLE_LINES; line = r.readLine()) {
                lines.add(line);
            }
            return withoutByteOrderMark(lines);
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    // ---- with a schema

    /**
     * A CSV read through a schema: laid out from its first lines as core's {@link SchemaRows} lays a file out, and
     * each split mapped line by line by core's schema reader on the executors ({@link SchemaRows#ranges}): the
     * CLI's comment and blank lines, lines to skip, separators (runs of whitespace included), cells, map, messages
     * and line numbers.
     */
    private SparkStatistics schemaCsv(String raw, Head head, ExternalInputs.SchemaInput s) {
        CsvRanges ranges = SchemaRows.ranges(lines(head, raw), raw, s.schema(), s.centre(), s.separator(),
                s.skipLines(), s.commentPrefix(), LONGER_SPLITS);
        return SparkStatistics.ofChunks(chunks(raw, ranges), ranges.dimension(), s.schema().featureNames(),
                "INPUT " + raw, notes -> ranges.check(notes.stream().map(n -> (CsvRanges.Part) n).toList()));
    }

    private SparkStatistics schemaParquet(String raw, ExternalInputs.SchemaInput s) {
        Dataset<Row> data = spark.read().parquet(raw);
        checkSchemaColumns(data, raw, s.schema());
        return mapped(data, raw, s);
    }

    /** Refuses a Parquet INPUT whose columns are not the schema's, in order, naming the first that differs. */
    private static void checkSchemaColumns(Dataset<Row> data, String raw, Schema schema) {
        List<Schema.Column> cols = schema.columns();
        String[] have = data.columns();
        for (int j = 0; j < Math.max(cols.size(), have.length); j++) {
            String want = j < cols.size() ? cols.get(j).name() : null;
            String got = j < have.length ? have[j] : null;
            if (want == null || !want.equals(got)) {
                throw new InvalidDataException("INPUT " + raw + ": column " + (j + 1) + " is "
                        + (got == null ? "missing" : "\"" + got + "\"") + " in the file but "
                        + (want == null ? "not in the schema" : "\"" + want + "\" in the schema") + "; the schema must "
                        + "list every column of the file in order (mark unused ones \"ignore\")");
            }
        }
    }

    /** Each row's cells as text, mapped on the executors by core's schema code. */
    private static SparkStatistics mapped(Dataset<Row> data, String raw, ExternalInputs.SchemaInput s) {
        Schema schema = s.schema();
        boolean centre = s.centre();
        int width = schema.columns().size();
        int d = schema.dimension();
        String where = "a row of INPUT " + raw;
        JavaRDD<Vector> vectors = data.toJavaRDD().map(r -> {
            if (r.length() != width) {
                throw new InvalidDataException(where + " has " + r.length() + " cells but the schema lists " + width
                        + " columns; fix the ragged line");
            }
            String[] cells = new String[width];
            for (int j = 0; j < width; j++) {
                cells[j] = r.isNullAt(j) ? "" : r.get(j).toString();
            }
            double[] out = new double[d];
            schema.map(cells, out, centre, new long[1], where);
            return Vectors.dense(out);
        });
        return SparkStatistics.of(vectors, d, schema.featureNames(), "INPUT " + raw);
    }

    // ---- Parquet without a schema

    private SparkStatistics plainParquet(String raw, ExternalInputs.Csv options) {
        if (options.separator() != null || options.skipLines() != 0 || options.commentPrefix() != null
                || options.header() != CsvRows.Header.AUTO) {
            throw csvOptionsOnParquet(raw, false);
        }
        Dataset<Row> data = spark.read().parquet(raw);
        StructField[] all = data.schema().fields();
        // the CLI's column selection (names, numbers, ranges, exclusions) over the file's column names
        StringBuilder header = new StringBuilder();
        StringBuilder zeros = new StringBuilder();
        for (int j = 0; j < all.length; j++) {
            header.append(j == 0 ? "" : ",").append('"').append(all[j].name().replace("\"", "\"\"")).append('"');
            zeros.append(j == 0 ? "0" : ",0");
        }
        byte[] text = (header + "\n" + zeros + "\n").getBytes(StandardCharsets.UTF_8);
        CsvRows layout = options.configure().apply(CsvRows.fromStream(raw, new ByteArrayInputStream(text)))
                .header(CsvRows.Header.PRESENT).separator(',').build();
        int[] sel = layout.selectedColumns();
        List<StructField> fields = new ArrayList<>();
        for (int j : sel) {
            fields.add(all[j]);
        }
        Dataset<Row> selected = data.select(fields.stream().map(f -> data.col("`" + f.name() + "`"))
                .toArray(org.apache.spark.sql.Column[]::new));
        if (fields.size() == 1 && fields.get(0).dataType().equals(SQLDataTypes.VectorType())) {
            // features named x1, x2, … (or by the vector column's attributes), its width found by the first pass
            return SparkStatistics.of(selected, fields.get(0).name(), "INPUT " + raw);
        }
        for (StructField f : fields) {
            DataType t = f.dataType();
            if (!(t instanceof NumericType || t.typeName().equals("string"))) {
                throw new IllegalArgumentException("column '" + f.name() + "' of " + raw + " has type "
                        + t.simpleString() + "; select numeric columns (or one vector column) with --columns");
            }
        }
        String[] names = layout.columnNames().toArray(new String[0]);
        JavaRDD<Vector> vectors = selected.toJavaRDD().map(r -> Vectors.dense(numbers(r, names)));
        return SparkStatistics.of(vectors, sel.length, layout.columnNames(), "INPUT " + raw);
    }

    // ---- shared

    private String asTyped(String input) {
        for (String a : args) {
            try {
                if (java.nio.file.Path.of(a).toString().equals(input)) {
                    return a;
                }
            } catch (java.nio.file.InvalidPathException e) {
                // not a path: not INPUT
            }
        }
        return input;
    }

    /**
     * The format of INPUT, from the first bytes of its first file (of a directory's visible files, or of a
     * glob's matches, in name order): Parquet files start with "PAR1"; anything else is read as text,
     * which Spark decompresses by the file's name (a gzip file must end in .gz). What is neither is
     * refused, naming it. {@code --input-format}, when given, must agree with the bytes; it decides alone
     * when the bytes cannot be read. For text, the first {@link #SAMPLE_LINES} lines are read in the same
     * opening of the file (its head only: at most those lines and one 64 KiB buffer), to lay INPUT out.
     */
    private Head head(String raw) {
        byte[] head;
        String file;
        List<String> lines = null;
        try {
            org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(raw);
            org.apache.hadoop.fs.FileSystem fs = path.getFileSystem(spark.sparkContext().hadoopConfiguration());
            org.apache.hadoop.fs.FileStatus first = firstFile(fs, path);
            if (first == null) {
                throw new InvalidDataException("INPUT " + raw + " does not exist, or is a folder without data files; "
                        + "check the path");
            }
            file = first.getPath().getName();
            head = new byte[4];
            int got = 0;
            try (java.io.InputStream in = new java.io.BufferedInputStream(fs.open(first.getPath()), 1 << 16)) {
                in.mark(head.length);
                int n;
                while (got < 4 && (n = in.read(head, got, 4 - got)) > 0) {
                    got += n;
                }
                in.reset();
                if (!new String(head, 0, got, StandardCharsets.ISO_8859_1).equals("PAR1")) {
                    lines = firstLines(in, first.getPath());
                }
            }
            head = Arrays.copyOf(head, got);
        } catch (java.io.IOException | RuntimeException e) {
            if (e instanceof InvalidDataException data) {
                throw data;
            }
            if (declared != null) {
                return new Head(declared, null);
            }
            throw new InvalidDataException("cannot read the first bytes of INPUT " + raw + " to tell its format ("
                    + e.getMessage() + "); give --input-format csv or --input-format parquet", e);
        }
        String magic = new String(head, StandardCharsets.ISO_8859_1);
        Format found;
        if (magic.equals("PAR1")) {
            found = Format.PARQUET;
        } else if (head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
            if (!file.toLowerCase(Locale.ROOT).endsWith(".gz")) {
                throw new InvalidDataException("INPUT " + raw + " is gzip-compressed but " + file + " does not end in "
                        + ".gz, and Spark decompresses files by their name; rename it to end in .gz");
            }
            found = Format.CSV;
        } else if (magic.equals(io.dpspectra.data.BinaryRows.MAGIC)) {
            throw new InvalidDataException("INPUT " + raw + " is a dpspectra binary rows file (.dpsr), which Spark does "
                    + "not read; run dpspectra on it, or give the Spark job the CSV or Parquet it was made from");
        } else if (magic.startsWith("ORC")) {
            throw new InvalidDataException("INPUT " + raw + " is an ORC file; the Spark job reads CSV and Parquet: "
                    + "write the table as Parquet");
        } else {
            found = Format.CSV;
        }
        if (declared != null && declared != found) {
            throw new InvalidDataException("--input-format " + declared.name().toLowerCase(Locale.ROOT) + " was given "
                    + "but INPUT " + raw + " is " + (found == Format.PARQUET ? "Parquet (it starts with PAR1)"
                    : "not Parquet (it does not start with PAR1)") + "; drop --input-format");
        }
        return new Head(found, lines);
    }

    /** The first data file at {@code path}: itself, or in name order the visible files of a folder or a glob. */
    private static org.apache.hadoop.fs.FileStatus firstFile(org.apache.hadoop.fs.FileSystem fs,
            org.apache.hadoop.fs.Path path) throws java.io.IOException {
        List<org.apache.hadoop.fs.FileStatus> files = dataFiles(fs, path);
        // the first file with bytes (an empty one only when all are empty: the reader then says so)
        files.sort(java.util.Comparator.comparing((org.apache.hadoop.fs.FileStatus f) -> f.getLen() == 0)
                .thenComparing(f -> f.getPath().toString()));
        return files.isEmpty() ? null : files.get(0);
    }

    /** The data files at {@code path}: itself, or the visible files of a folder or a glob. */
    private static List<org.apache.hadoop.fs.FileStatus> dataFiles(org.apache.hadoop.fs.FileSystem fs,
            org.apache.hadoop.fs.Path path) throws java.io.IOException {
        org.apache.hadoop.fs.FileStatus[] matched = fs.globStatus(path);
        List<org.apache.hadoop.fs.FileStatus> files = new ArrayList<>();
        for (org.apache.hadoop.fs.FileStatus s : matched == null ? new org.apache.hadoop.fs.FileStatus[0] : matched) {
            if (s.isDirectory()) {
                for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(s.getPath())) {
                    String name = f.getPath().getName();
                    if (f.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
                        files.add(f);
                    }
                }
            } else {
                files.add(s);
            }
        }
        return files;
    }

    /** The row's cells as finite numbers; an empty, non-numeric or non-finite cell is an error naming the column. */
    private static double[] numbers(Row r, String[] names) {
        double[] x = new double[r.length()];
        for (int j = 0; j < x.length; j++) {
            Object v = r.get(j);
            if (v == null) {
                throw new InvalidDataException("a row has an empty cell in column '" + names[j] + "'; remove or "
                        + "impute missing values first");
            }
            if (v instanceof Number n) {
                x[j] = n.doubleValue();
            } else {
                try {
                    x[j] = Double.parseDouble(v.toString().trim());
                } catch (NumberFormatException e) {
                    throw new InvalidDataException("a row has '" + v + "' in column '" + names[j] + "', which is not a "
                            + "number; every selected cell must be numeric");
                }
            }
            if (!Double.isFinite(x[j])) {
                throw new InvalidDataException("a row has '" + v + "' in column '" + names[j] + "', which is not a "
                        + "finite number; remove or impute missing and infinite values first");
            }
        }
        return x;
    }
}
