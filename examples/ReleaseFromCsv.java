/*
 * A private principal-components release from a CSV file and its public schema, with dpspectra-core alone:
 * the same release as
 *
 *   dpspectra fit --algorithm analyze-gauss --schema SCHEMA --center private --components auto:0.9 \
 *                 --epsilon EPSILON --delta DELTA --seed SEED CSV
 *
 * (the same seed gives the same components). Run it as a single-file program:
 *
 *   java -cp <dpspectra-core and its runtime dependencies> examples/ReleaseFromCsv.java \
 *        SCHEMA CSV EPSILON DELTA SEED OUT
 *
 * It writes the released components to OUT as CSV (one component per line, d comma-separated numbers at full
 * double precision; written to a temporary file beside OUT, then renamed) and prints the release's composed
 * privacy guarantee on stdout. A seeded release is for reproducibility only: anyone who knows the seed can
 * undo the noise. For a real release, drop the seed (the noise then comes from SecureRandom).
 *
 * Exit codes, as the command line's: 0 released, 2 a bad argument or setting, 3 bad data, 5 the mechanism
 * refused to release (its budget counts as spent), 1 an output that cannot be written.
 */

import io.dpspectra.data.InvalidDataException;
import io.dpspectra.data.SchemaFile;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.privacy.ReleaseRefusedException;
import io.dpspectra.release.Centring;
import io.dpspectra.release.Components;
import io.dpspectra.release.PcaRelease;
import io.dpspectra.release.PrivatePca;
import io.dpspectra.release.RowBound;
import io.dpspectra.release.RowInput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

public final class ReleaseFromCsv {
    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        if (args.length != 6) {
            System.err.println("usage: java -cp <dpspectra-core and its dependencies> examples/ReleaseFromCsv.java "
                    + "SCHEMA CSV EPSILON DELTA SEED OUT");
            return 2;
        }
        Path schemaFile = Path.of(args[0]);
        Path csv = Path.of(args[1]);
        Path out = Path.of(args[5]);
        try {
            double epsilon = number("EPSILON", args[2]);
            double delta = number("DELTA", args[3]);
            long seed = whole("SEED", args[4]);
            PrivacyParams budget = PrivacyParams.of(epsilon, delta); // checks ε > 0 and δ in [0, 1)
            Path dir = out.toAbsolutePath().getParent();
            if (!Files.isDirectory(dir) || !Files.isWritable(dir)) { // before any row is read or noise drawn
                throw new IllegalArgumentException("OUT " + out + ": the directory " + dir
                        + " does not exist or cannot be written");
            }

            PcaRelease release = PrivatePca.of(RowInput.csv(csv))
                    .schema(SchemaFile.read(schemaFile))          // the public map of each column, and the bound
                    .bound(RowBound.fromSchema())                 // the row-norm bound the schema implies
                    .centre(Centring.PRIVATE)                     // a private mean, 10% of the budget
                    .components(Components.auto(0.9))             // smallest k whose private ratio reaches 0.9
                    .algorithm("analyze-gauss")
                    .randomSource(RandomSource.seededForReproducibility(seed))
                    .fit(budget);

            writeComponents(release.components(), out);
            System.out.print(release.guarantee().describe());
            return 0;
        } catch (ReleaseRefusedException e) {
            System.err.println("refused: " + e.getMessage() + hint(e.hint()));
            return 5;
        } catch (InvalidDataException e) {
            System.err.println("error: " + e.getMessage() + hint(e.hint()));
            return 3;
        } catch (IllegalArgumentException e) { // a setting or argument (ReleaseSettingException among them)
            System.err.println("error: " + e.getMessage());
            return 2;
        } catch (UncheckedIOException e) {
            System.err.println("error: cannot write " + out + ": " + e.getCause().getMessage());
            return 1;
        }
    }

    /** One component (a column of the d x k matrix) per line, written whole or not at all. */
    static void writeComponents(Matrix components, Path out) {
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < components.cols(); j++) {
            for (int i = 0; i < components.rows(); i++) {
                sb.append(i == 0 ? "" : ",").append(components.get(i, j)); // shortest exact repr of the double
            }
            sb.append('\n');
        }
        Path dir = out.toAbsolutePath().getParent();
        try {
            Path tmp = Files.createTempFile(dir, out.getFileName().toString(), ".tmp");
            try {
                Files.writeString(tmp, sb, StandardCharsets.UTF_8);
                Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static double number(String name, String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, got '" + text + "'");
        }
    }

    static long whole(String name, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, got '" + text + "'");
        }
    }

    static String hint(String hint) {
        return hint == null ? "" : System.lineSeparator() + "hint: " + hint;
    }
}
