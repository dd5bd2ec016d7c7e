package io.dpspectra.experiments;

import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.data.csv.CsvRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The six shipped real tables as a user without public bounds would hand them to {@code dpspectra fit}: the
 * raw numeric features, read by the same CSV reader and with the same options as the command line takes
 * (the label or target column left out, adult's six numeric columns), nothing rescaled. Each entry also
 * gives those command-line options, so that a measurement in memory and a run through the tool read the
 * same rows.
 *
 * @param name     short name
 * @param file     the file under the data-set folder
 * @param cliArgs  the input options of {@code dpspectra fit} that select these features
 */
public record RawTables(String name, String file, List<String> cliArgs) {
    /** wine, airfoil, adult, isolet5, colon, leukemia. */
    public static final List<RawTables> ALL = List.of(
            new RawTables("wine", "wine/wine_data.csv", List.of("--skip-lines", "1", "--header", "absent",
                    "--columns", "1,2,3,4,5,6,7,8,9,10,11,12,13")),
            new RawTables("airfoil", "airfoil/airfoil_self_noise.dat", List.of("--header", "absent")),
            new RawTables("adult", "adult/adult.data.gz", List.of("--header", "absent", "--columns", "1,3,5,11,12,13")),
            new RawTables("isolet5", "isolet5/isolet5.csv.gz", List.of("--exclude-columns", "label")),
            new RawTables("colon", "colon/colon.csv", List.of("--exclude-columns", "label")),
            new RawTables("leukemia", "leukemia/ALLAML.csv.gz", List.of("--exclude-columns", "label")));

    /** The entry named {@code name}. */
    public static RawTables named(String name) {
        return ALL.stream().filter(t -> t.name.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown table '" + name + "'"));
    }

    /** The file under {@code root}, if readable. */
    public Optional<Path> path(Path root) {
        Path p = root.resolve(file);
        return Files.isReadable(p) ? Optional.of(p) : Optional.empty();
    }

    /** The rows as the command line reads them with {@link #cliArgs}. */
    public RowSource open(Path root) {
        Path p = path(root).orElseThrow(() -> new IllegalArgumentException(root.resolve(file) + " is not readable"));
        CsvRows.Builder b = CsvRows.builder(p);
        for (int i = 0; i < cliArgs.size(); i += 2) {
            String v = cliArgs.get(i + 1);
            switch (cliArgs.get(i)) {
                case "--skip-lines" -> b.skipLines(Integer.parseInt(v));
                case "--header" -> b.header(v.equals("absent") ? CsvRows.Header.ABSENT : CsvRows.Header.PRESENT);
                case "--columns" -> b.columns(List.of(v.split(",")));
                case "--exclude-columns" -> b.excludeColumns(List.of(v.split(",")));
                default -> throw new IllegalStateException(cliArgs.get(i));
            }
        }
        return b.build();
    }

    /**
     * The columns of {@code raw} centred on their means and, with {@code zScore}, divided by their standard deviations
     * (over n; a constant column becomes zeros): what an exact reference PCA of the raw columns, centred or z-scored,
     * starts from.
     *
     * @param raw    n × d rows, n ≥ 1 (not modified)
     * @param zScore whether to divide each centred column by its standard deviation
     * @return new n × d rows
     */
    public static double[][] centredColumns(double[][] raw, boolean zScore) {
        int n = raw.length;
        int d = raw[0].length;
        double[][] x = new double[n][d];
        for (int j = 0; j < d; j++) {
            double mean = 0;
            for (double[] r : raw) {
                mean += r[j];
            }
            mean /= n;
            double var = 0;
            for (double[] r : raw) {
                var += (r[j] - mean) * (r[j] - mean);
            }
            double sd = Math.sqrt(var / n);
            for (int i = 0; i < n; i++) {
                x[i][j] = raw[i][j] - mean;
                if (zScore) {
                    x[i][j] = sd > 0 ? x[i][j] / sd : 0;
                }
            }
        }
        return x;
    }

    /** The rows in memory. */
    public double[][] load(Path root) {
        RowSource rows = open(root);
        List<double[]> out = new ArrayList<>();
        try (RowCursor c = rows.open()) {
            double[] r = new double[rows.dimension()];
            while (c.next(r)) {
                out.add(r.clone());
            }
        }
        return out.toArray(new double[0][]);
    }
}
