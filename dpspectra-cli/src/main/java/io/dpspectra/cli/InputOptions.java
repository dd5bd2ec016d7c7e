package io.dpspectra.cli;

import io.dpspectra.data.CsvRows;
import java.util.List;
import picocli.CommandLine.Option;

/** How to read a CSV input (ignored for .dpsr binary inputs). */
final class InputOptions {
    @Option(names = "--columns", split = ",", paramLabel = "COL",
            description = "Use only these CSV columns, by header name or 1-based index "
                    + "(comma-separated, e.g. --columns 1,2,5 or --columns age,income). Default: all columns.")
    List<String> columns;

    @Option(names = "--header", paramLabel = "auto|present|absent", defaultValue = "auto",
            converter = HeaderConverter.class,
            description = "Whether the CSV's first line is a header: auto (a header if any cell is not a "
                    + "number), present or absent. Default: ${DEFAULT-VALUE}.")
    CsvRows.Header header = CsvRows.Header.AUTO;

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
