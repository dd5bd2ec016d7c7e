package io.dpspectra.cli.command;

import io.dpspectra.cli.output.AtomicFiles;
import io.dpspectra.cli.output.CliException;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.data.BinaryRows;
import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.synthetic.GaussianData;
import io.dpspectra.synthetic.SpikedCovariance;
import io.dpspectra.synthetic.SyntheticDataset;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dpspectra generate}: synthetic data with a known principal subspace. */
@Command(name = "generate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Generate synthetic rows with a known principal subspace and write them to a .csv or .dpsr "
                + "file (atomically).",
                "spiked: the spiked covariance model of Dwork et al. (k spikes with the given eigenvalues plus "
                        + "N(0, noise-sd^2 I)); gaussian: x ~ N(0, V diag(eigenvalues) V^T + noise-sd^2 I); haystack: "
                        + "the robust-PCA haystack model of Lerman et al. (a share --inlier-ratio of the rows on a random "
                        + "k-subspace, the rest Gaussian outliers, every row on the unit sphere)."})
public final class GenerateCommand extends BaseCommand {
    @Option(names = "--model", paramLabel = "spiked|gaussian|haystack", required = true,
            description = "The generative model: spiked, gaussian or haystack.")
    String model;

    @Option(names = "--inlier-ratio", paramLabel = "A", defaultValue = "0.5",
            description = "haystack: the share of rows on the k-subspace, in (0, 1]. Default: ${DEFAULT-VALUE}.")
    double inlierRatio;

    @Option(names = {"--components", "-k"}, paramLabel = "K",
            description = "Number of spikes k. Default: the number of --eigenvalues, or 1.")
    Integer components;

    @Option(names = "--eigenvalues", split = ",", paramLabel = "L",
            description = "The k signal eigenvalues, descending, comma-separated (e.g. 10,5). "
                    + "Default: 10/j for j = 1..k.")
    List<Double> eigenvalues;

    @Option(names = "--noise-sd", paramLabel = "S", defaultValue = "0.5",
            description = "Standard deviation of the isotropic noise. Default: ${DEFAULT-VALUE}.")
    double noiseSd;

    @Option(names = "--rows", paramLabel = "N", required = true, description = "Number of rows n (>= 1).")
    long rows;

    @Option(names = "--dim", paramLabel = "D", required = true, description = "Dimension d (>= k).")
    int dim;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Seed of the basis and of every row (the same seed gives the same file). "
                    + "Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = {"--output", "-o"}, paramLabel = "FILE", required = true,
            description = "The file to write: .csv (header x1..xd) or .dpsr (binary).")
    Path output;

    @Override
    public Integer call() throws Exception {
        String name = output.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean binary = name.endsWith(".dpsr");
        if (!binary && !name.endsWith(".csv")) {
            throw CliException.usage("--output " + output + " must end in .csv or .dpsr", "e.g. --output data.csv");
        }
        if (rows < 1) {
            throw CliException.usage("--rows must be >= 1, got " + rows, "e.g. --rows 10000");
        }
        DpPreconditions.checkAtLeast("--dim", dim, 1);
        DpPreconditions.checkPositive("--noise-sd", noiseSd);
        double[] lambdas = lambdas();
        DpPreconditions.checkComponents(lambdas.length, dim);
        AtomicFiles.checkWritableTarget(output, "--output");

        SyntheticDataset data;
        switch (model.toLowerCase(Locale.ROOT)) {
            case "spiked":
                data = (lambdas.length == 1 ? SpikedCovariance.rankOne(dim, lambdas[0], noiseSd)
                        : SpikedCovariance.rankK(dim, lambdas, noiseSd)).sample(rows, seed);
                break;
            case "gaussian":
                data = GaussianData.of(dim, lambdas, noiseSd).sample(rows, seed);
                break;
            case "haystack":
                if (!(inlierRatio > 0 && inlierRatio <= 1) || lambdas.length >= dim || rows > Integer.MAX_VALUE) {
                    throw CliException.usage("haystack needs --inlier-ratio in (0, 1], --components < --dim and fewer "
                            + "than 2^31 rows, got " + inlierRatio + ", " + lambdas.length + ", " + dim, "e.g. "
                            + "--inlier-ratio 0.5 --components 2 --dim 20");
                }
                io.dpspectra.synthetic.Haystack.Sample h = io.dpspectra.synthetic.Haystack.generate((int) rows, dim,
                        lambdas.length, inlierRatio, io.dpspectra.noise.RandomSource.seededForReproducibility(seed));
                data = new SyntheticDataset(io.dpspectra.data.InMemoryRows.of(h.rows()), h.truth(), null);
                break;
            default:
                throw CliException.usage("unknown --model '" + model + "'", "choose spiked, gaussian or haystack");
        }
        if (binary) {
            BinaryRows.write(data.rows(), output);
        } else {
            writeCsv(data.rows(), output);
        }
        err().println("dpspectra: wrote " + rows + " rows x " + dim + " columns to " + output);
        err().flush();
        return ExitCodes.OK;
    }

    private double[] lambdas() {
        if (eigenvalues != null && !eigenvalues.isEmpty()) {
            if (components != null && components != eigenvalues.size()) {
                throw CliException.usage("--components " + components + " does not match the " + eigenvalues.size()
                        + " values of --eigenvalues", "give one eigenvalue per component");
            }
            double[] l = new double[eigenvalues.size()];
            for (int i = 0; i < l.length; i++) {
                l[i] = DpPreconditions.checkPositive("--eigenvalues entry " + (i + 1), eigenvalues.get(i));
                if (i > 0 && l[i] > l[i - 1]) {
                    throw CliException.usage("--eigenvalues must be descending, got " + eigenvalues,
                            "e.g. --eigenvalues 10,5");
                }
            }
            return l;
        }
        int k = components == null ? 1 : DpPreconditions.checkAtLeast("--components", components, 1);
        double[] l = new double[k];
        for (int j = 0; j < k; j++) {
            l[j] = 10.0 / (j + 1);
        }
        return l;
    }

    static void writeCsv(RowSource source, Path target) throws java.io.IOException {
        int d = source.dimension();
        AtomicFiles.write(target, o -> {
            Writer w = new BufferedWriter(new OutputStreamWriter(o, StandardCharsets.UTF_8), 1 << 16);
            StringBuilder sb = new StringBuilder();
            for (int i = 1; i <= d; i++) {
                sb.append(i > 1 ? "," : "").append('x').append(i);
            }
            w.write(sb.append('\n').toString());
            double[] row = new double[d];
            try (RowCursor c = source.open()) {
                while (c.next(row)) {
                    sb.setLength(0);
                    for (int i = 0; i < d; i++) {
                        sb.append(i > 0 ? "," : "").append(row[i]);
                    }
                    w.write(sb.append('\n').toString());
                }
            }
            w.flush();
        });
    }
}
