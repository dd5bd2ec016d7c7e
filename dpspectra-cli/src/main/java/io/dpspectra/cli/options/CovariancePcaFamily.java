package io.dpspectra.cli.options;

import io.dpspectra.release.PcaAlgorithm;
import io.dpspectra.release.PcaOptions;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fit} options of private PCA from the iterative eigenvector sampling covariance release of
 * papers/dp-covariance-estimation.txt (it-u, ad), translated into core's {@link PcaOptions}.
 */
@Command
public final class CovariancePcaFamily implements AlgorithmFamily {
    @Option(names = "--ies-failure-probability", paramLabel = "BETA", defaultValue = "0.05",
            description = "ad only: the failure probability beta of Amin et al.'s Corollary 1 in the adaptive "
                    + "budget split, in (0, 1). Default: ${DEFAULT-VALUE} (the paper's experiments do not state it).")
    double failureProbability = 0.05;

    @Option(names = "--skip-last-vector",
            description = "it-u and ad only, and only with --components equal to the number of columns d: do not "
                    + "spend budget on the last eigenvector, which is already fixed (up to its sign) by the other "
                    + "d-1 as the only direction left orthogonal to them. The paper still gives it an equal share of "
                    + "the vector budget epsilon/2, which buys nothing; with this flag that share goes to the first "
                    + "d-1 vectors. Same epsilon and the same guarantee (no privacy cost), a little less noise in "
                    + "each vector (it-u: d/(d-1) times the budget each). Off by default, to match Amin et al. 2019.")
    boolean skipLastVector;

    @Option(names = "--eigenvalues",
            description = "it-u only: also buy and release private eigenvalue estimates (the paper's split: epsilon/2 "
                    + "on the d eigenvalues, epsilon/2 on the vectors). Without it, it-u gives the WHOLE budget to the "
                    + "k vectors (epsilon/k each) and releases no eigenvalues, since the subspace never uses them; the "
                    + "guarantee says which. ad always buys them: its adaptive split is computed from them.")
    boolean eigenvalues;

    @Override
    public void fill(PcaOptions.Builder o, Predicate<String> typed, PcaAlgorithm algorithm) {
        if (typed.test("--ies-failure-probability")) {
            o.iesFailureProbability(failureProbability);
        }
        if (typed.test("--skip-last-vector")) {
            o.skipLastVector(skipLastVector);
        }
        if (typed.test("--eigenvalues")) {
            o.eigenvalues(eigenvalues);
        }
    }
}
