package io.dpspectra.cli;

import io.dpspectra.covariance.IterativeEigenvectorSampling;
import io.dpspectra.covariance.PrivateCovariance;
import io.dpspectra.pca.PrivateSubspace;
import io.dpspectra.privacy.Neighbouring;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fit} algorithms and options: private PCA from the iterative eigenvector sampling covariance
 * release of papers/dp-covariance-estimation.txt (issue 5: it-u, ad). Only the top k vectors are sampled
 * (the vector budget ε/2 is split over k, not d), and the result is the release's top-k eigenpairs.
 */
@Command
final class CovariancePcaFamily implements AlgorithmFamily {
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
    public List<FitAlgorithm> fitAlgorithms() {
        return List.of(new Sampling(IterativeEigenvectorSampling.BudgetSplit.UNIFORM),
                new Sampling(IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE));
    }

    private final class Sampling implements FitAlgorithm {
        private final IterativeEigenvectorSampling.BudgetSplit split;

        Sampling(IterativeEigenvectorSampling.BudgetSplit split) {
            this.split = split;
        }

        @Override
        public String name() {
            return split == IterativeEigenvectorSampling.BudgetSplit.UNIFORM ? "it-u" : "ad";
        }

        @Override
        public boolean usesOption(String option) {
            return split == IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE || !option.equals("--ies-failure-probability");
        }

        @Override
        public String summary() {
            return "Amin et al. 2019 iterative eigenvector sampling (exact Bingham sampler), "
                    + (split == IterativeEigenvectorSampling.BudgetSplit.UNIFORM ? "uniform" : "adaptive")
                    + " budget split; pure epsilon-DP, replace neighbouring";
        }

        @Override
        public boolean releasesSpectrum() {
            return split == IterativeEigenvectorSampling.BudgetSplit.ADAPTIVE || eigenvalues;
        }

        @Override
        public void validateOptions() {
            if (!(failureProbability > 0 && failureProbability < 1)) {
                throw CliException.usage("--ies-failure-probability must be in (0, 1), got " + failureProbability,
                        "pass a probability such as 0.05");
            }
        }

        @Override
        public PrivateSubspace fit(FitContext c) {
            if (c.neighbouring() == Neighbouring.ADD_REMOVE_ROW) {
                throw CliException.usage(name() + " is proven under replace neighbouring only (Amin et al. 2019)",
                        "drop --neighbouring or pass --neighbouring replace");
            }
            if (c.params().delta() > 0) {
                c.warn().accept(name() + " is pure epsilon-DP; --delta " + c.params().delta() + " is not used");
            }
            int d = c.rows().dimension();
            if (skipLastVector && c.components() < d && c.chooser() == null) {
                c.warn().accept("--skip-last-vector has no effect with --components " + c.components() + " < d = "
                        + d + ": only the last of all d vectors is determined by the others");
            }
            IterativeEigenvectorSampling.Builder b = IterativeEigenvectorSampling.builder().split(split)
                    .failureProbability(failureProbability).vectors(c.components()).skipLastVector(skipLastVector)
                    .randomSource(c.random());
            int[] k = {c.components()};
            if (c.chooser() != null) {
                b.vectorsChosenBy(ev -> k[0] = c.chooser().applyAsInt(ev)); // from the d released eigenvalues
            }
            IterativeEigenvectorSampling ies = b.build();
            if (split == IterativeEigenvectorSampling.BudgetSplit.UNIFORM && !eigenvalues) {
                return ies.subspace(c.rows(), c.params());
            }
            PrivateCovariance release = ies.release(c.rows(), c.params());
            return release.topK(k[0]);
        }
    }
}
