package io.dpspectra.experiments.localdp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.dpspectra.experiments.Reproduction;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalDpReproductionTest {
    @TempDir
    Path dir;

    @Test
    void quickRunWritesEveryFigureAndAReportThatOpensWithThePapersItems() throws Exception {
        LocalDpReproduction r = new LocalDpReproduction();
        List<String> progress = new ArrayList<>();
        r.run(new Reproduction.Settings(List.of("3a", "4a"), 1, true, dir, 3, progress::add));
        for (String f : List.of("fig3a", "fig4a")) {
            assertThat(dir.resolve(f + ".csv")).exists();
            assertThat(Files.readAllBytes(dir.resolve(f + ".png"))[1]).isEqualTo((byte) 'P');
        }
        String report = Files.readString(dir.resolve("report.md"));
        assertThat(report).startsWith("<!-- dpspectra reproduce local-dp: quick run").contains("| Figure 1 |").contains("| Table 2 |")
                .contains("not available offline").contains("sqrt(2k)");
        assertThat(report.indexOf("| Theorem 1 |")).isLessThan(report.indexOf("| Figure 4 right |"));
        assertThat(report).contains("| Algorithm 1, Theorem 2 (privacy) | each report is (eps, delta)-LDP with "
                + "sigma_1^2 = 2 ln(1.25/delta)/eps^2 | **partly** (run differently:")
                .contains("| Theorem 2 (utility) |").contains("## Theorem 2").contains("central model");
        assertThat(Files.readString(dir.resolve("fig3a.csv"))).contains("central (reference)", "local (Algorithm 1)");
    }

    @Test
    void thePapersPrintedSigmaIsPrivateOnlyForSmallEpsilonAndTheoremTwosProofBoundIsVacuousAtFigureThree() {
        // exact Gaussian privacy profile at sensitivity sqrt(2); the same numbers as scipy's brentq on the
        // Balle-Wang formula: boundary 0.726 at delta = 1e-4 and 1.252 at 1e-3; true eps 1.042 at 1, 2.302 at 2
        assertThat(LocalDpReproduction.privateUpTo(1e-4)).isCloseTo(0.726, within(0.002));
        assertThat(LocalDpReproduction.privateUpTo(1e-3)).isCloseTo(1.252, within(0.002));
        assertThat(LocalDpReproduction.papersTrueEpsilon(1, 1e-4)).isCloseTo(1.042, within(0.002));
        assertThat(LocalDpReproduction.papersTrueEpsilon(2, 1e-4)).isCloseTo(2.302, within(0.002));
        assertThat(LocalDpReproduction.papersTrueEpsilon(0.5, 1e-4)).isLessThan(0.5);
        double[] th2 = LocalDpReproduction.theoremTwo();
        // kp 2 ln(1.25/delta)/(gap^2 n eps^2) with gap = 1/(10p) = 0.0025: 5*40*2*9.433/(6.25e-6*1e5*0.25) = 24146
        assertThat(th2[1]).isCloseTo(24_146, within(5.0));
        assertThat(th2[0]).as("the stated bound, with lambda_1^2 = 2.5e-5").isCloseTo(0.295, within(0.001));
    }

    @Test
    void theSquareRootAndTopEigenvectorsSurviveAPopulationMatrixWhoseEigenvaluesRepeatExactly() {
        // this seed's Sigma (k = 10 equal top eigenvalues, 30 equal others) makes LAPACK's dsyevr fail with info = 11
        Matrix sigma = io.dpspectra.synthetic.WangXuCovariance.dense(1, 40, 10, 1.0, 20261123L + 6000 + 74)
                .populationSecondMoment();
        Matrix root = LocalDpReproduction.sqrtPsd(sigma);
        assertThat(root.times(root).minus(sigma).maxAbs()).isLessThan(1e-15);
        Matrix top = LocalDpReproduction.topEigenvectors(sigma, 10);
        assertThat(io.dpspectra.metrics.SubspaceMetrics.projectorDistance(top,
                io.dpspectra.synthetic.WangXuCovariance.dense(1, 40, 10, 1.0, 20261123L + 6000 + 74).truthBasis()))
                .isLessThan(1e-9);
    }

    @Test
    void wishartDrawHasTheRightMean() {
        // E[W/n] = Sigma for the Bartlett draw: average 400 draws of a 3 x 3 case, n = 50
        Matrix sigma = Matrix.fromRows(new double[][] {{2, 0.5, 0}, {0.5, 1, 0.2}, {0, 0.2, 0.5}});
        Matrix root = LocalDpReproduction.sqrtPsd(sigma);
        RandomSource r = RandomSource.seededForReproducibility(9);
        Matrix sum = new Matrix(3, 3);
        int draws = 400;
        for (int t = 0; t < draws; t++) {
            sum = sum.plus(LocalDpReproduction.sampleSecondMoment(root, 50, r));
        }
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                // Var(W_ij/n) = (S_ij^2 + S_ii S_jj)/n; 5 standard errors of the mean over the draws
                double sd = Math.sqrt((sigma.get(i, j) * sigma.get(i, j) + sigma.get(i, i) * sigma.get(j, j)) / 50 / draws);
                assertThat(sum.get(i, j) / draws).isCloseTo(sigma.get(i, j), within(5 * sd));
            }
        }
    }

    @Test
    void theGramRouteGivesTheSameTopEigenvectorsAsTheCovariance() {
        // n = 12 rows, p = 60: the n x n route must span the top-3 eigenvectors of X^T X / n
        RandomSource r = RandomSource.seededForReproducibility(4);
        double[][] rows = new double[12][60];
        for (double[] row : rows) {
            for (int j = 0; j < 60; j++) {
                row[j] = r.standardNormal() * (j < 5 ? 3 : 1);
            }
        }
        Matrix x = Matrix.fromRows(rows);
        Matrix cov = x.transposeTimes(x).scaled(1.0 / 12);
        cov.symmetrizeInPlace();
        Matrix direct = io.dpspectra.linalg.SymmetricEigen.top(cov, 3).vectors();
        assertThat(io.dpspectra.metrics.SubspaceMetrics.projectorDistance(RealData.topEigenvectors(x, 3), direct))
                .isLessThan(1e-9);
    }
}
