package io.dpspectra.cli.options;

import io.dpspectra.cli.output.CliException;
import io.dpspectra.data.csv.CsvRows;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** How to read a CSV input (ignored for .dpsr binary inputs). */
public final class InputOptions {
    @Option(names = "--columns", split = ",", paramLabel = "COL",
            description = "Use only these CSV columns, in this order: header names, 1-based numbers, or ranges of "
                    + "either (comma-separated, e.g. --columns 1-617, --columns 1,2,5 or --columns age,income). "
                    + "Default: all columns.")
    List<String> columns;

    @Option(names = "--exclude-columns", split = ",", paramLabel = "COL",
            description = "Drop these columns (names, 1-based numbers or ranges), e.g. --exclude-columns label.")
    List<String> excludeColumns;

    @Option(names = "--header", paramLabel = "auto|present|absent", defaultValue = "auto",
            converter = HeaderConverter.class,
            description = "Whether the CSV's first line (after --skip-lines and comments) is a header: auto (a "
                    + "header if any selected cell is not a number), present or absent. Default: ${DEFAULT-VALUE}.")
    CsvRows.Header header = CsvRows.Header.AUTO;

    @Option(names = "--header-names", paramLabel = "FILE|a,b,c",
            description = "Names for the file's columns, in file order, for a file without a header: a "
                    + "comma-separated list, or a file with one name per line (or comma-separated). "
                    + "--columns and --exclude-columns may then use them.")
    String headerNames;

    @Option(names = "--separator", paramLabel = "SEP", converter = SeparatorConverter.class,
            description = "Cell separator: ',' ';' tab (also written \\t or 'tab') or 'whitespace' (any run of "
                    + "spaces and tabs). Default: detected from the first lines (comma, tab, semicolon, whitespace), "
                    + "and reported on stderr when it is not a comma.")
    public Character separator;

    @Option(names = "--skip-lines", paramLabel = "N", defaultValue = "0",
            description = "Drop the first N lines of the file (before the header), e.g. a title line. "
                    + "Default: ${DEFAULT-VALUE}.")
    public int skipLines;

    @Option(names = "--comment-prefix", paramLabel = "TEXT",
            description = "Ignore lines starting with TEXT (after spaces), e.g. --comment-prefix '#'. Default: none.")
    public String commentPrefix;

    /** True if any CSV-only option was given (refused for .dpsr inputs). */
    boolean anyCsvOption() {
        return (columns != null && !columns.isEmpty()) || (excludeColumns != null && !excludeColumns.isEmpty())
                || headerNames != null || separator != null || skipLines != 0 || commentPrefix != null;
    }

    /** Applies the options to a builder. */
    CsvRows.Builder configure(CsvRows.Builder builder) {
        builder.header(header);
        if (columns != null && !columns.isEmpty()) {
            builder.columns(columns);
        }
        if (excludeColumns != null && !excludeColumns.isEmpty()) {
            builder.excludeColumns(excludeColumns);
        }
        if (separator != null) {
            builder.separator(separator);
        }
        if (skipLines < 0) {
            throw CliException.usage("--skip-lines must be >= 0, got " + skipLines, "pass the number of lines to drop");
        }
        builder.skipLines(skipLines);
        if (commentPrefix != null) {
            if (commentPrefix.isBlank()) {
                throw CliException.usage("--comment-prefix must be visible text, got '" + commentPrefix + "'",
                        "e.g. --comment-prefix '#'");
            }
            builder.commentPrefix(commentPrefix);
        }
        if (headerNames != null) {
            builder.headerNames(parseHeaderNames(headerNames));
        }
        return builder;
    }

    /** A file of names (one a line, or comma-separated), or else the comma-separated list itself. */
    static List<String> parseHeaderNames(String value) {
        String text = value;
        Path file = Path.of(value);
        if (!value.contains(",") && Files.isRegularFile(file)) {
            try {
                text = Files.readString(file, StandardCharsets.UTF_8).strip().replace("\r", "").replace('\n', ',');
            } catch (IOException e) {
                throw CliException.data("cannot read --header-names file " + value + ": " + e.getMessage(),
                        "check the path and its permissions", e);
            }
        }
        List<String> names = new ArrayList<>();
        for (String n : text.split(",", -1)) {
            names.add(n.strip());
        }
        if (names.stream().anyMatch(String::isEmpty)) {
            throw CliException.usage("--header-names has an empty name in '" + (value.length() <= 60 ? value : value.substring(0, 57) + "...") + "'",
                    "give one non-empty name per column, e.g. --header-names age,income,label");
        }
        return names;
    }

    /** Parses ',' ';' tab/\t and whitespace/space. */
    static final class SeparatorConverter implements picocli.CommandLine.ITypeConverter<Character> {
        @Override
        public Character convert(String value) {
            switch (value.toLowerCase(java.util.Locale.ROOT)) {
                case ",", "comma":
                    return ',';
                case ";", "semicolon":
                    return ';';
                case "\t", "\\t", "tab":
                    return '\t';
                case " ", "whitespace", "space", "spaces":
                    return ' ';
                case "|", "pipe":
                    return '|';
                default:
                    throw new picocli.CommandLine.TypeConversionException(
                            "expected ',', ';', tab ('\\t'), 'whitespace' or '|', got '" + value + "'");
            }
        }
    }

    /** Parses auto|present|absent case-insensitively. */
    static final class HeaderConverter implements picocli.CommandLine.ITypeConverter<CsvRows.Header> {
        @Override
        public CsvRows.Header convert(String value) {
            switch (value.toLowerCase(java.util.Locale.ROOT)) {
                case "auto":
                    return CsvRows.Header.AUTO;
                case "present":
                    return CsvRows.Header.PRESENT;
                case "absent":
                    return CsvRows.Header.ABSENT;
                default:
                    throw new picocli.CommandLine.TypeConversionException(
                            "expected auto, present or absent, got '" + value + "'");
            }
        }
    }
}
