package io.dpspectra.release;

import static io.dpspectra.release.Setting.BATCH_SIZE;
import static io.dpspectra.release.Setting.BATCH_USE;
import static io.dpspectra.release.Setting.C1;
import static io.dpspectra.release.Setting.DELTA;
import static io.dpspectra.release.Setting.DP_POWER_ITERATIONS;
import static io.dpspectra.release.Setting.GRADIENT_CLIP;
import static io.dpspectra.release.Setting.L1_BOUND;
import static io.dpspectra.release.Setting.LEARNING_RATE;
import static io.dpspectra.release.Setting.NEIGHBOURING;
import static io.dpspectra.release.Setting.ON_SMALL_GAP;
import static io.dpspectra.release.Setting.PAPER_LITERAL;
import static io.dpspectra.release.Setting.PUBLIC_EIGENVALUES;
import static io.dpspectra.release.Setting.PUBLIC_RANGE;
import static io.dpspectra.release.Setting.RADIUS_FACTOR;
import static io.dpspectra.release.Setting.TAU;

import io.dpspectra.pca.AdaptiveOjaPca;
import io.dpspectra.pca.ClippedPowerMethod;
import io.dpspectra.pca.GaussOutputPerturbation;
import io.dpspectra.pca.KDpOja;
import io.dpspectra.pca.KDpPca;
import io.dpspectra.pca.ModifiedDpPca;
import io.dpspectra.pca.Oja;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.result.PrivateSubspace;
import java.util.EnumSet;
import java.util.List;

/**
 * The stochastic private k-PCA estimators of Düngler &amp; Sanyal (papers/kdp-pca-adaptive-noise.txt: k-dp-ojas,
 * k-dp-pca, oja, dp-gauss-2, dp-power-method) and this project's provably private k-dp-pca-adaptive.
 */
final class StochasticAlgorithms {
    private StochasticAlgorithms() {
    }

    static List<PcaAlgorithm> all() {
        return List.of(new KDpOjaPca(), new KDpPcaFit(), new Adaptive(), new OjaReference(), new GaussTwo(),
                new DpPower());
    }

    private static void checkBatch(PcaOptions o, int min, Vocabulary v) {
        Integer b = o.batchSize();
        if (b != null && b < min) {
            throw PcaAlgorithm.refuse(v.name(BATCH_SIZE) + " must be >= " + min + ", got " + b,
                    "pass a larger batch size");
        }
    }

    private static String deltaNeeded(Vocabulary v) {
        return "needs " + v.name(DELTA) + " > 0";
    }

    private static String replaceOnly(String name, Vocabulary v, String why) {
        return name + " is certified for " + v.typed(NEIGHBOURING, "replace") + " only" + why;
    }

    /** k-DP-Ojas: minibatch DP-Oja and deflation. */
    private static final class KDpOjaPca extends PcaAlgorithm {
        KDpOjaPca() {
            super("k-dp-ojas", Family.STOCHASTIC, true, true, false,
                    EnumSet.of(BATCH_SIZE, LEARNING_RATE, GRADIENT_CLIP, PAPER_LITERAL));
        }

        @Override
        public String summary(Vocabulary v) {
            return "k-DP-Ojas (Düngler & Sanyal, Cor. 4): minibatch DP-Oja + deflation, streaming O(dk) memory; "
                    + "replace-one rows; " + deltaNeeded(v);
        }

        /**
         * Each row is read by one step, one Gaussian release calibrated to (ε, δ) (the rest is post-processing);
         * the paper's literal shuffling-based noise states only its (ε, δ).
         */
        @Override
        public NoiseKind noise() {
            return NoiseKind.GAUSSIAN;
        }

        @Override
        public NoiseKind noise(PcaOptions o) {
            return o.paperLiteral() ? NoiseKind.OTHER : noise();
        }

        @Override
        void validate(PcaOptions o, Vocabulary v) {
            checkBatch(o, 1, v);
            Double clip = o.gradientClip();
            if (clip != null && !(clip > 0 && Double.isFinite(clip))) {
                throw refuse(v.name(GRADIENT_CLIP) + " must be > 0 and finite, got " + clip,
                        "choose it from domain knowledge, never from the data, or omit it");
            }
            if (o.paperLiteral() && o.batchSize() != null && o.batchSize() != 1) {
                throw refuse(v.name(PAPER_LITERAL) + " k-dp-ojas uses batch size 1, got "
                        + v.typed(BATCH_SIZE, String.valueOf(o.batchSize())),
                        "drop " + v.name(BATCH_SIZE) + " or " + v.name(PAPER_LITERAL));
            }
        }

        @Override
        public void checkRelation(Neighbouring n, PcaOptions o, Vocabulary v) {
            requireReplace(n, v, replaceOnly(name(), v, " (positional batches)"));
        }

        @Override
        public PrivateSubspace fit(Input c, PcaOptions o, Vocabulary v) {
            checkRelation(c.neighbouring(), o, v);
            KDpOja.Builder b = KDpOja.builder().components(c.components()).randomSource(c.random())
                    .learningRate(o.learningRate().rate(c::rowCount)).paperLiteral(o.paperLiteral());
            if (o.batchSize() != null) {
                b.batchSize(o.batchSize());
            }
            if (o.gradientClip() != null) {
                b.clipThreshold(o.gradientClip());
            }
            if (o.paperLiteral()) {
                c.warn().accept(v.name(PAPER_LITERAL) + ": k-dp-ojas uses the paper's shuffling-based noise; the "
                        + "result is NOT certified differentially private");
            }
            return b.build().fit(c.rows(), c.params());
        }
    }

    /** k-DP-PCA: minibatch Oja with PrivRange and PrivMean, and deflation. */
    private static final class KDpPcaFit extends PcaAlgorithm {
        KDpPcaFit() {
            super("k-dp-pca", Family.STOCHASTIC, true, true, false,
                    EnumSet.of(BATCH_SIZE, LEARNING_RATE, PAPER_LITERAL, TAU, PUBLIC_RANGE, C1, BATCH_USE));
        }

        @Override
        public String summary(Vocabulary v) {
            return "k-DP-PCA (Düngler & Sanyal, Alg. 1-2): minibatch Oja with PrivRange + PrivMean (adaptive noise) + "
                    + "deflation; replace-one rows; " + deltaNeeded(v);
        }

        @Override
        void validate(PcaOptions o, Vocabulary v) {
            checkBatch(o, 4, v);
            if (!(o.tau() > 0 && o.tau() < 1)) {
                throw refuse(v.name(TAU) + " must be in (0, 1), got " + o.tau(), "use e.g. " + v.typed(TAU, "0.01"));
            }
            if (!(o.c1() > 0) || !Double.isFinite(o.c1())) {
                throw refuse(v.name(C1) + " must be > 0, got " + o.c1(), "use e.g. " + v.typed(C1, "1")
                        + " (default) or " + v.typed(C1, "6"));
            }
        }

        @Override
        public void checkRelation(Neighbouring n, PcaOptions o, Vocabulary v) {
            if (!o.paperLiteral()) {
                requireReplace(n, v, replaceOnly(name(), v, ""));
            }
        }

        @Override
        public PrivateSubspace fit(Input c, PcaOptions o, Vocabulary v) {
            checkRelation(c.neighbouring(), o, v);
            KDpPca.Builder b = KDpPca.builder().components(c.components()).randomSource(c.random())
                    .learningRate(o.learningRate().rate(c::rowCount)).paperLiteral(o.paperLiteral());
            if (o.batchSize() != null) {
                b.batchSize(o.batchSize());
            }
            b.oracle().tau(o.tau()).c1(o.c1()).batchUse(o.batchUse());
            if (o.publicRange() != null) {
                b.oracle().rangeOverride(o.publicRange());
            }
            if (o.paperLiteral()) {
                c.warn().accept(v.name(PAPER_LITERAL) + ": k-dp-pca's histograms use the add/remove calibration the "
                        + "paper claims; the result is NOT certified differentially private");
            }
            KDpPca algorithm = b.build();
            ModifiedDpPca.Preflight pre = algorithm.preflight(c.rowCount(), c.rows().dimension(), c.params());
            if (!pre.canRelease()) {
                c.warn().accept(KDpPca.cannotReleaseWarning(pre));
            }
            return algorithm.fit(c.rows(), c.params());
        }
    }

    /** This project's provably private adaptive-noise k-DP-PCA. */
    private static final class Adaptive extends PcaAlgorithm {
        Adaptive() {
            super("k-dp-pca-adaptive", Family.STOCHASTIC, true, true, true,
                    EnumSet.of(BATCH_SIZE, LEARNING_RATE, RADIUS_FACTOR, PUBLIC_EIGENVALUES));
        }

        @Override
        public String summary(Vocabulary v) {
            return "this project's provably private adaptive-noise k-DP-PCA: orthogonal Oja gradients, one stable "
                    + "histogram picks the clip radius, Gaussian on the other half; streaming O(dk); replace-one rows; "
                    + deltaNeeded(v) + " (docs/privacy/adaptive-oja-pca.md)";
        }

        @Override
        void validate(PcaOptions o, Vocabulary v) {
            checkBatch(o, 4, v);
            if (!(o.radiusFactor() >= 1) || !Double.isFinite(o.radiusFactor())) {
                throw refuse(v.name(RADIUS_FACTOR) + " must be >= 1, got " + o.radiusFactor(),
                        "use e.g. " + v.typed(RADIUS_FACTOR, "4"));
            }
            for (double l : o.publicEigenvalues()) {
                if (!(l >= 0) || !Double.isFinite(l)) {
                    throw refuse(v.name(PUBLIC_EIGENVALUES) + " must be >= 0 and finite, got " + l,
                            "pass the model's eigenvalues, e.g. " + v.typed(PUBLIC_EIGENVALUES, "10,5"));
                }
            }
        }

        @Override
        public void checkRelation(Neighbouring n, PcaOptions o, Vocabulary v) {
            requireReplace(n, v, replaceOnly(name(), v, " (positional batches)"));
        }

        @Override
        public PrivateSubspace fit(Input c, PcaOptions o, Vocabulary v) {
            checkRelation(c.neighbouring(), o, v);
            AdaptiveOjaPca.Builder b = AdaptiveOjaPca.builder().components(c.components()).randomSource(c.random())
                    .learningRate(o.learningRate().rate(c::rowCount)).radiusFactor(o.radiusFactor())
                    .publicEigenvalues(o.publicEigenvalues());
            if (o.batchSize() != null) {
                b.batchSize(o.batchSize());
            }
            return b.build().fit(c.rows(), c.params());
        }
    }

    /** Oja's algorithm and deflation: not private, a reference. */
    private static final class OjaReference extends PcaAlgorithm {
        OjaReference() {
            super("oja", Family.STOCHASTIC, false, false, false, EnumSet.of(BATCH_SIZE, LEARNING_RATE));
        }

        @Override
        public String summary(Vocabulary v) {
            return "Oja's algorithm + deflation (Alg. 5): streaming, NOT private, a reference";
        }

        @Override
        void validate(PcaOptions o, Vocabulary v) {
            checkBatch(o, 1, v);
        }

        @Override
        public PrivateSubspace fit(Input c, PcaOptions o, Vocabulary v) {
            Oja.Builder b = Oja.builder().components(c.components()).learningRate(o.learningRate().rate(c::rowCount));
            if (o.batchSize() != null) {
                b.batchSize(o.batchSize());
            }
            return b.build().fit(c.rows());
        }
    }

    /** DP-Gauss-2: Gaussian noise on the top-k projector behind a private gap test. */
    private static final class GaussTwo extends PcaAlgorithm {
        GaussTwo() {
            super("dp-gauss-2", Family.STOCHASTIC, true, true, true, EnumSet.of(PAPER_LITERAL, ON_SMALL_GAP));
        }

        @Override
        public String summary(Vocabulary v) {
            return "DP-Gauss-2 (Dwork et al. 2014 Alg. 2): Gaussian noise on the top-k projector, scaled by a private "
                    + "eigengap test; add/remove rows; " + deltaNeeded(v);
        }

        @Override
        public void checkRelation(Neighbouring n, PcaOptions o, Vocabulary v) {
            if (n != null) {
                try {
                    GaussOutputPerturbation.builder().neighbouring(n);
                } catch (IllegalArgumentException e) {
                    throw refuse(e.getMessage(), "drop " + v.name(NEIGHBOURING));
                }
            }
        }

        @Override
        public PrivateSubspace fit(Input c, PcaOptions o, Vocabulary v) {
            GaussOutputPerturbation.Builder b = GaussOutputPerturbation.builder().components(c.components())
                    .randomSource(c.random()).onSmallGap(o.onSmallGap()).paperLiteral(o.paperLiteral());
            checkRelation(c.neighbouring(), o, v);
            if (c.neighbouring() != null) {
                b.neighbouring(c.neighbouring());
            }
            if (o.paperLiteral()) {
                c.warn().accept(v.name(PAPER_LITERAL) + ": dp-gauss-2 resamples its gap noise; the result is NOT "
                        + "differentially private");
            }
            return b.build().fit(c.rows(), c.params());
        }
    }

    /** DP-Power-Method: the private power method on L2/L1-clipped rows. */
    private static final class DpPower extends PcaAlgorithm {
        DpPower() {
            super("dp-power-method", Family.STOCHASTIC, true, true, true, EnumSet.of(L1_BOUND, DP_POWER_ITERATIONS));
        }

        @Override
        public String summary(Vocabulary v) {
            return "DP-Power-Method ([DS] App. G): private power method on L2/L1-clipped rows; add/remove rows; "
                    + deltaNeeded(v);
        }

        /** Gaussian column releases only, whose composition meets (ε, δ). */
        @Override
        public NoiseKind noise() {
            return NoiseKind.GAUSSIAN;
        }

        @Override
        void validate(PcaOptions o, Vocabulary v) {
            Integer l = o.dpPowerIterations();
            if (l != null && l < 1) {
                throw refuse(v.name(DP_POWER_ITERATIONS) + " must be >= 1, got " + l,
                        "pass e.g. " + v.typed(DP_POWER_ITERATIONS, "6"));
            }
            Double a = o.l1Bound();
            if (a != null && !(a > 0 && Double.isFinite(a))) {
                throw refuse(v.name(L1_BOUND) + " must be > 0 and finite, got " + a,
                        "choose it from domain knowledge, never from the data");
            }
        }

        @Override
        public PrivateSubspace fit(Input c, PcaOptions o, Vocabulary v) {
            ClippedPowerMethod.Builder b = ClippedPowerMethod.builder().components(c.components())
                    .randomSource(c.random());
            if (c.neighbouring() != null) {
                b.neighbouring(c.neighbouring());
            }
            if (o.dpPowerIterations() != null) {
                b.iterations(o.dpPowerIterations());
            }
            if (o.l1Bound() != null) {
                b.l1Bound(o.l1Bound());
            }
            return b.build().fit(c.rows(), c.params());
        }
    }
}
