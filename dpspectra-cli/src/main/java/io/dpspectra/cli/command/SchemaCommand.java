package io.dpspectra.cli.command;

import io.dpspectra.cli.options.Inputs;
import io.dpspectra.cli.options.OutputOption;
import io.dpspectra.cli.options.PrivacyOptions;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.SchemaJson;
import io.dpspectra.data.PrivateColumnRanges;
import io.dpspectra.data.Schema;
import io.dpspectra.data.csv.SchemaRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dpspectra schema}: public schemas for {@code --schema}. */
@Command(name = "schema", mixinStandardHelpOptions = true,
        description = {"Public schemas for --schema: every column of a table with its type and public domain.",
                "Format (JSON): {\"format\": {\"separator\": \",\"|\";\"|\"tab\"|\"whitespace\", \"skipLines\": N}, "
                        + "\"columns\": [{\"name\": \"age\", \"type\": \"numeric\", \"min\": 0, \"max\": 100, \"center\": "
                        + "50, \"scale\": 50}, {\"name\": \"sex\", \"type\": \"categorical\", \"categories\": [\"Female\", "
                        + "\"Male\"]}, {\"name\": \"label\", \"type\": \"ignore\"}]}.",
                "Examples for the UCI adult, airfoil and wine data: docs/schemas/."},
        subcommands = {SchemaCommand.Draft.class})
public final class SchemaCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "a subcommand is required: draft");
    }

    /** {@code schema draft}. */
    @Command(name = "draft", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Write a skeleton schema for INPUT: its column names (from the header, or x1..xd) and types "
                    + "(numeric if every cell of the first 1000 rows is a number; the first line is a header iff some column has "
                    + "text there above numbers, else categorical with an EMPTY "
                    + "category list for you to fill in with the public categories). Never data-derived bounds or "
                    + "categories: add min/max (and center/scale) from domain knowledge, or estimate min/max privately "
                    + "with --private-epsilon."})
    static final class Draft extends BaseCommand {
        @Option(names = "--separator", paramLabel = ",|;|tab|whitespace",
                description = "The field separator. Default: detected from the first lines, as for CSV inputs.")
        String separator;

        @Option(names = "--skip-lines", paramLabel = "N", defaultValue = "0",
                description = "Lines to skip before the header or first row. Default: ${DEFAULT-VALUE}.")
        int skipLines;

        @Option(names = "--privacy-unit", paramLabel = "COLUMN",
                description = "The column naming the person each row belongs to (a customer or patient id): drafted "
                        + "as \"type\": \"id\", read for grouping only and never a feature, for 'fit --schema ... "
                        + "--privacy-unit COLUMN'. Not with --private-epsilon, whose private ranges protect one row, "
                        + "not a person with many rows.")
        String privacyUnit;

        @Option(names = "--private-epsilon", paramLabel = "E",
                description = "Estimate each numeric column's min and max privately: its median, then the Q- and "
                        + "(1-Q)-quantiles of its distance to the median (so that the spread is found whatever the "
                        + "offset), each by a private search over the octaves of the public signed ladder +-2^-30 ... "
                        + "+-2^50, then over the chosen octave's 8 cells (pure epsilon-DP, E split evenly over the 3 x "
                        + "numeric-column quantiles, replace and add/remove neighbouring); center is then the median "
                        + "and scale the standard deviation a normal column with those quantiles would have, so that "
                        + "the columns come out close to z-scores. Before spending, the draft is refused (exit 2) when E cannot locate even the "
                        + "quartiles of this many columns over this many rows; after, it is refused (exit 5, nothing "
                        + "written) when a column's range is degenerate (most values equal) or implausible (at the end "
                        + "of the ladder, or min above max), naming the columns. The spend is written in the schema's "
                        + "description (and charged to --ledger).")
        Double privateEpsilon;

        @Option(names = "--quantile", paramLabel = "Q", defaultValue = "0.01",
                description = "With --private-epsilon: the lower quantile Q (the upper is 1-Q), raised to the most "
                        + "extreme quantile the budget can locate when Q is beyond it (said on stderr). Default: "
                        + "${DEFAULT-VALUE}.")
        double quantile;

        @Option(names = "--seed", paramLabel = "S",
                description = "With --private-epsilon: seed the noise (reproducible, NOT private against anyone who knows it).")
        Long seed;

        @Option(names = "--ledger", paramLabel = "FILE",
                description = "With --private-epsilon: charge the spend to this ledger before reading data.")
        Path ledger;

        @Mixin
        OutputOption output = new OutputOption();

        @Parameters(index = "0", paramLabel = "INPUT", description = "The table (.csv, .csv.gz, .dat, ...).")
        Path inputPath;

        @Override
        public Integer call() throws Exception {
            output.checkBeforeReading();
            char sep;
            try {
                sep = SchemaJson.separator(separator == null ? "" : separator);
            } catch (IllegalArgumentException e) {
                throw CliException.usage("--separator must be ',', ';', tab or whitespace, got '" + separator + "'",
                        "e.g. --separator tab");
            }
            if (skipLines < 0) {
                throw CliException.usage("--skip-lines must be >= 0, got " + skipLines, "e.g. --skip-lines 1");
            }
            if (privacyUnit != null && privateEpsilon != null) {
                throw CliException.usage("schema draft --private-epsilon estimates each column's range privately for "
                        + "one row as the privacy unit; with --privacy-unit " + privacyUnit + " a person has many rows, "
                        + "and the ranges would have to protect all of them, which the draft does not do",
                        "draft without --private-epsilon and give min and max from domain knowledge (or from the "
                        + "columns' documentation), or drop --privacy-unit for a table with one row per person");
            }
            if (privacyUnit != null && privacyUnit.isBlank()) {
                throw CliException.usage("--privacy-unit needs a column name", "e.g. --privacy-unit customer_id");
            }
            PrivacyParams budget = null;
            PrivacyOptions.PendingCharge charge = PrivacyOptions.PendingCharge.NONE;
            if (privateEpsilon != null) {
                budget = PrivacyParams.pure(privateEpsilon);
                if (!(quantile > 0 && quantile < 0.5)) {
                    throw CliException.usage("--quantile must be in (0, 0.5), got " + quantile, "e.g. --quantile 0.005");
                }
                // checked before anything is opened, charged before any row is read (whatever the file holds)
                charge = PrivacyOptions.pendingCharge(ledger, "schema draft --private-epsilon on " + inputPath, budget,
                        io.dpspectra.release.NoiseKind.PURE.rho(budget),
                        io.dpspectra.release.NoiseKind.PURE.profile(budget));
            } else if (ledger != null || seed != null) {
                throw CliException.usage((ledger != null ? "--ledger" : "--seed") + " applies only with "
                        + "--private-epsilon (nothing else in a draft is private or random)",
                        "add --private-epsilon E, or drop " + (ledger != null ? "--ledger" : "--seed"));
            }
            Inputs.checkReadable(inputPath);
            charge.commit(); // a missing or unreadable file is refused free of charge
            List<List<String>> head = readHead(inputPath, sep, skipLines, 1001);
            if (head.isEmpty()) {
                throw CliException.data(inputPath + " has no rows", "check the file and --skip-lines", null);
            }
            if (sep == 0) {
                sep = SchemaRows.detectSeparator(rawLines(inputPath, skipLines, 20));
                head = readHead(inputPath, sep, skipLines, 1001);
            }
            List<String> first = head.get(0);
            // a header iff some column has a non-numeric first cell above numeric cells (never take data for names)
            List<List<String>> rest = head.subList(1, head.size());
            warnOfATitleLine(first, rest);
            boolean header = false;
            for (int j = 0; j < first.size() && !rest.isEmpty(); j++) {
                int col = j;
                header |= !SchemaRows.isNumber(first.get(j))
                        && rest.stream().allMatch(r -> col < r.size() && SchemaRows.isNumber(r.get(col)));
            }
            List<String> names = new ArrayList<>();
            for (int j = 0; j < first.size(); j++) {
                names.add(header ? first.get(j) : "x" + (j + 1));
            }
            if (privacyUnit != null && !names.contains(privacyUnit)) {
                throw CliException.usage("the privacy unit column '" + privacyUnit + "' is not in the "
                        + (header ? "header" : "generated names (no header)") + " of " + inputPath, "name one of its "
                        + "columns: " + String.join(", ", names));
            }
            List<List<String>> data = header ? head.subList(1, head.size()) : head;
            List<Map<String, Object>> cols = new ArrayList<>();
            List<Schema.Column> numericOnly = new ArrayList<>();
            List<Integer> numericIdx = new ArrayList<>();
            for (int j = 0; j < names.size(); j++) {
                int col = j;
                boolean numeric = !data.isEmpty() && data.stream().allMatch(r -> col < r.size()
                        && SchemaRows.isNumber(r.get(col)));
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("name", names.get(j));
                if (names.get(j).equals(privacyUnit)) {
                    c.put("type", "id");   // the person's id: never a feature, whatever its cells look like
                    numericOnly.add(new Schema.Ignored(names.get(j)));
                    cols.add(c);
                    continue;
                }
                c.put("type", numeric ? "numeric" : "categorical");
                if (!numeric) {
                    c.put("categories", List.of());
                    c.put("todo", "list the column's PUBLIC categories (from its documentation), or set \"type\": "
                            + "\"ignore\"");
                    numericOnly.add(new Schema.Ignored(names.get(j)));
                } else {
                    numericOnly.add(Schema.Numeric.unbounded(names.get(j)));
                    numericIdx.add(j);
                }
                cols.add(c);
            }
            String description = "drafted by 'dpspectra schema draft' from " + inputPath.getFileName()
                    + ": names and types only; add public bounds (min/max), centers and scales, and categories";
            if (budget != null && numericIdx.isEmpty()) {
                warn("--private-epsilon: no column is numeric, so no bound was estimated"
                        + (ledger != null ? " (the --ledger charge made before reading stands)" : ""));
            }
            if (budget != null && !numericIdx.isEmpty()) {
                SchemaRows rows = SchemaRows.open(inputPath, Schema.of(numericOnly), false, sep, skipLines);
                long n = Inputs.validate(rows); // public under replace neighbouring; malformed cells fail here
                PrivateColumnRanges.Plan plan = PrivateColumnRanges.plan(n, numericIdx.size(), privateEpsilon, quantile);
                if (!plan.feasible()) {
                    throw CliException.usage("--private-epsilon " + privateEpsilon + " cannot draft " + inputPath + ": "
                            + plan.why() + (ledger != null ? " (nothing was drawn; the --ledger charge made before "
                            + "reading stands)" : " (nothing was spent)"), "give the columns public bounds from their "
                            + "documentation, mark columns you do not need \"type\": \"ignore\" in a schema, or raise "
                            + "--private-epsilon");
                }
                if (plan.why() != null) {
                    warn(plan.why());
                }
                RandomSource random = seed == null ? RandomSource.secure() : RandomSource.seededForReproducibility(seed);
                if (seed != null) {
                    warn("--seed makes the noise reproducible; the bounds are NOT private against anyone who knows it");
                }
                PrivateColumnRanges.Draft draft = PrivateColumnRanges.using(random).fit(rows, plan, Neighbouring.REPLACE_ROW);
                if (!draft.problems().isEmpty()) {
                    List<String> lines = new ArrayList<>();
                    for (PrivateColumnRanges.Problem problem : draft.problems()) {
                        lines.add("column '" + names.get(numericIdx.get(problem.column())) + "': " + problem.why());
                    }
                    throw CliException.refused("the private draft of " + inputPath + " is refused (the budget is "
                            + "spent; no schema was written): " + String.join("; ", lines), "mark those columns "
                            + "\"type\": \"ignore\" or give them public bounds, then draft the others");
                }
                for (int i = 0; i < numericIdx.size(); i++) {
                    Map<String, Object> c = cols.get(numericIdx.get(i));
                    double lo = draft.lo()[i];
                    double hi = draft.hi()[i];
                    c.put("min", lo);
                    c.put("max", hi);
                    c.put("center", draft.median()[i]);
                    c.put("scale", draft.scale(i));
                }
                description += String.format(Locale.ROOT, "; numeric min/max are the private median plus the "
                        + "private %s- and %s-quantiles of the distance to it (noisy max over the octaves of a public "
                        + "ladder, then over cells; pure epsilon = %s in all, split over %d quantiles; the same epsilon "
                        + "under replace and add/remove neighbouring), center the median, scale (max - min)/(2 z) with z "
                        + "the standard normal quantile of the upper quantile (a normal column's standard deviation)",
                        round3(plan.quantile()), round3(1 - plan.quantile()), privateEpsilon, 3 * numericIdx.size());
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("description", description);
            Map<String, Object> format = new LinkedHashMap<>();
            format.put("separator", SchemaJson.separatorName(sep));
            format.put("skipLines", skipLines);
            m.put("format", format);
            m.put("columns", cols);
            emit(Json.write(m), output.file);
            err().println("dpspectra: drafted " + names.size() + " columns (" + numericIdx.size() + " numeric)"
                    + (header ? " from the header" : ", named x1..x" + names.size() + " (no header)"));
            err().flush();
            return ExitCodes.OK;
        }

        private static String round3(double v) {
            return String.format(Locale.ROOT, "%.3g", v);
        }

        /**
         * Warns when the first line has another number of cells than most lines after it: a title line (such as
         * scikit-learn's "569,30,malignant,benign": rows, features, class names) rather than a header, which would
         * give the draft the title's columns.
         */
        private void warnOfATitleLine(List<String> first, List<List<String>> rest) {
            java.util.Map<Integer, Integer> widths = new java.util.HashMap<>();
            rest.forEach(r -> widths.merge(r.size(), 1, Integer::sum));
            java.util.Optional<java.util.Map.Entry<Integer, Integer>> usual = widths.entrySet().stream()
                    .max(java.util.Map.Entry.comparingByValue());
            if (usual.isPresent() && usual.get().getKey() != first.size() && 2 * usual.get().getValue() >= rest.size()) {
                warn(inputPath + ": its first line" + (skipLines > 0 ? " after the skipped ones" : "") + " has "
                        + first.size() + " cells but the lines after it have " + usual.get().getKey() + ", so it is "
                        + "probably a title line, not a header (scikit-learn's CSV files start with one: rows, "
                        + "features, class names); if so, draft again with --skip-lines " + (skipLines + 1));
            }
        }

        private static List<String> rawLines(Path path, int skip, int max) {
            List<String> out = new ArrayList<>();
            try (BufferedReader r = reader(path)) {
                for (int i = 0; i < skip; i++) {
                    r.readLine();
                }
                for (String s = r.readLine(); s != null && out.size() < max; s = r.readLine()) {
                    out.add(s);
                }
            } catch (IOException e) {
                throw unreadable(path, e);
            }
            return out;
        }

        private static CliException unreadable(Path path, IOException e) {
            return CliException.data("cannot read " + path + ": " + io.dpspectra.data.IoErrors.inWords(e),
                    "check that the file is complete and (for .gz) valid gzip; nothing was written", e);
        }

        private static List<List<String>> readHead(Path path, char sep, int skip, int max) {
            List<List<String>> out = new ArrayList<>();
            if (sep == 0) {
                sep = SchemaRows.detectSeparator(rawLines(path, skip, 20));
            }
            try (BufferedReader r = reader(path)) {
                for (int i = 0; i < skip; i++) {
                    r.readLine();
                }
                String line;
                long no = skip;
                while (out.size() < max && (line = r.readLine()) != null) {
                    no++;
                    if (line.isBlank()) {
                        continue;
                    }
                    out.add(SchemaRows.splitLine(line, sep, path, no));
                }
            } catch (IOException e) {
                throw unreadable(path, e);
            }
            return out;
        }

        private static BufferedReader reader(Path path) throws IOException {
            InputStream in = Files.newInputStream(path);
            if (path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".gz")) {
                in = new GZIPInputStream(in);
            }
            return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
    }
}
