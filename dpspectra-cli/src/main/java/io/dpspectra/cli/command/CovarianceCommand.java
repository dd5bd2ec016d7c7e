package io.dpspectra.cli.command;

import io.dpspectra.cli.options.CliVocabulary;
import io.dpspectra.cli.options.PrivacyOptions;
import io.dpspectra.cli.options.ReleaseInput;
import io.dpspectra.cli.output.ExitCodes;
import io.dpspectra.cli.output.Json;
import io.dpspectra.cli.output.Release;
import io.dpspectra.cli.output.Tables;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.release.Algorithms;
import io.dpspectra.release.BudgetPlan;
import io.dpspectra.release.CovarianceAlgorithm;
import io.dpspectra.release.CovarianceRelease;
import io.dpspectra.release.PrivateSecondMoment;
import io.dpspectra.result.PrivateCovariance;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code dpspectra covariance}: a private release of XᵀX. */
@Command(name = "covariance", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Release the uncentred second-moment matrix XᵀX of INPUT with a differentially private "
                + "mechanism, with its eigendecomposition (post-processing), as JSON (or a table).",
                "Algorithms: gaussian (Gaussian mechanism on the upper triangle; needs --delta > 0), "
                        + "laplace (Laplace mechanism; pure epsilon-DP), "
                        + "it-u and ad (Amin et al. 2019 iterative eigenvector sampling, uniform or adaptive budget "
                        + "split; pure epsilon-DP, replace neighbouring), "
                        + "kt (Kapralov-Talwar style rank-one subtraction; pure epsilon-DP, replace)."},
        footer = {"", "Example: dpspectra covariance --algorithm ad --epsilon 1 --clip-norm 1 data.csv"})
public final class CovarianceCommand extends BaseCommand {
    @Option(names = "--algorithm", paramLabel = "NAME", required = true,
            description = "The mechanism: it-u, ad, kt, laplace or gaussian.")
    String algorithm;

    @Mixin
    PrivacyOptions privacy = new PrivacyOptions();

    @Mixin
    ReleaseInput io = new ReleaseInput();

    @Option(names = "--skip-last-vector",
            description = "it-u and ad only: do not spend budget on the last eigenvector. The release has d "
                    + "eigenvectors and the last one is already fixed (up to its sign) by the other d-1: it is the "
                    + "only direction left orthogonal to them. The paper still gives it an equal share of the "
                    + "vector budget epsilon/2, which buys nothing; with this flag that share goes to the first d-1 "
                    + "vectors. Same epsilon and the same guarantee (no privacy cost), a little less noise in each "
                    + "vector: with it-u each gets d/(d-1) times the budget (2x for d = 2, about 1.1x for d = 10). "
                    + "Off by default, to match Amin et al. 2019.")
    boolean skipLastVector;

    @Option(names = "--no-eigenvectors",
            description = "Leave the d eigenvectors out of the release (post-processing of the matrix, recomputable "
                    + "from it): halves a large release. The eigenvalues stay.")
    boolean noEigenvectors;

    @Override
    public Integer call() throws Exception {
        CliVocabulary words = CliVocabulary.DEFAULT;
        CovarianceAlgorithm alg = Algorithms.covariance(algorithm.toLowerCase(Locale.ROOT), words);
        Neighbouring neighbouring = privacy.neighbouringOrNull();
        alg.checkRelation(neighbouring, words);
        alg.checkSkipLastVector(skipLastVector, words);
        PrivacyParams total = privacy.params(alg.name());
        if (alg.needsDelta()) {
            privacy.requirePositiveDelta("gaussian covariance");
        }
        if (alg.isSampling() && total.delta() > 0) {
            warn(alg.name() + " is pure epsilon-DP; --delta " + total.delta() + " is not used");
        }
        io.checkBeforeReading();
        PrivacyOptions.PendingCharge[] charge = new PrivacyOptions.PendingCharge[1];
        PrivateSecondMoment release = PrivateSecondMoment.of(io.rowInput("covariance", this::note)).schema(io.schema())
                .centre(io.centring()).bound(io.rowBound()).algorithm(alg).skipLastVector(skipLastVector)
                .neighbouring(neighbouring).vocabulary(words).listener(ReleaseInput.listener(d -> {
                    MemoryCheck.checkDense("covariance", d, Runtime.getRuntime().maxMemory());
                    charge[0].commit(); // after the memory check, before any row: a run refused for memory is free
                }, this::note, this::warn));
        BudgetPlan plan = release.plan(total);
        RandomSource random = privacy.randomSource(err());
        // gaussian: one Gaussian release; laplace, it-u, ad, kt: pure epsilon
        charge[0] = privacy.pendingCharge("covariance --algorithm " + alg.name() + " on " + io.inputPath, total,
                plan.rho(), plan.profile());
        CovarianceRelease r = release.randomSource(random).fit(plan);
        charge[0].commit(); // made before the rows were read; a no-op here, unless no row was read at all
        PrivateCovariance result = r.covariance();
        List<String> columns = r.preprocessing().features();

        Release out = io.describe(Release.of("covariance", r, !noEigenvectors), r.preprocessing(), r.diagnostics(),
                random);
        io.publish(this, out.table(() -> {
            StringBuilder sb = new StringBuilder();
            sb.append("algorithm: ").append(result.algorithm()).append("\nreleased XᵀX:\n");
            sb.append(Tables.squareMatrix(columns, result.matrix(), 10));
            double[] ev = result.eigenvalues();
            double[] ratios = Json.cumulativeRatios(ev);
            boolean full = ev.length <= Tables.FULL_TABLE_COLUMNS;
            String of = full ? "" : " (largest 10 of " + ev.length + ")";
            sb.append(Tables.values("eigenvalues" + of, full ? ev : java.util.Arrays.copyOf(ev, 10)));
            sb.append(Tables.values("explained variance ratio" + of, full ? ratios : java.util.Arrays.copyOf(ratios, 10)));
            sb.append(io.tableNotes(r.preprocessing(), r.guarantee()));
            sb.append(Tables.guarantee(result.guarantee()));
            return sb.toString();
        }));
        return ExitCodes.OK;
    }
}
