package io.dpspectra.release;

import static io.dpspectra.release.Setting.ALGORITHM;
import static io.dpspectra.release.Setting.BATCH_SIZE;
import static io.dpspectra.release.Setting.DELTA;
import static io.dpspectra.release.Setting.GEODESIC;
import static io.dpspectra.release.Setting.INIT_SHARE;
import static io.dpspectra.release.Setting.ITERATIONS;
import static io.dpspectra.release.Setting.NEIGHBOURING;
import static io.dpspectra.release.Setting.PAPER_CONSTANT;
import static io.dpspectra.release.Setting.PAPER_LITERAL;
import static io.dpspectra.release.Setting.RESTARTS;
import static io.dpspectra.release.Setting.STEP_SIZE;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.result.PrivateSubspace;
import io.dpspectra.robust.Batch;
import io.dpspectra.robust.DescentOptions;
import io.dpspectra.robust.GrassmannDescent;
import io.dpspectra.robust.NoiseCalibration;
import io.dpspectra.robust.Reaper;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Outlier-robust PCA on the Grassmannian and the REAPER baselines of Maunu, Yu &amp; Lerman (ggd, sggd, dp-ggd,
 * dp-sggd, dp-gd-reap, dp-sgd-reap, dp-md-reap, dp-smd-reap). Rows are normalised to the unit sphere (a
 * per-record map) after the norm bound. They read the power methods' iterations, and the stochastic
 * family's batch size and paper-literal switch.
 */
final class RobustAlgorithms {
    private static final Set<Setting> READS;

    static {
        Set<Setting> s = PcaAlgorithm.Family.ROBUST.options();
        s.addAll(EnumSet.of(ITERATIONS, BATCH_SIZE, PAPER_LITERAL));
        READS = s;
    }

    private RobustAlgorithms() {
    }

    static List<PcaAlgorithm> all() {
        return List.of(new Descent("ggd"), new Descent("sggd"), new Descent("dp-ggd"), new Descent("dp-sggd"),
                new ReaperFit("dp-gd-reap"), new ReaperFit("dp-sgd-reap"), new ReaperFit("dp-md-reap"),
                new ReaperFit("dp-smd-reap"));
    }

    private static void validateShared(PcaOptions o, boolean isPrivate, Vocabulary v) {
        if (o.stepSize() != null && !(o.stepSize() > 0 && Double.isFinite(o.stepSize()))) {
            throw PcaAlgorithm.refuse(v.name(STEP_SIZE) + " must be > 0, got " + o.stepSize(),
                    "pass e.g. " + v.typed(STEP_SIZE, "1"));
        }
        if (o.restarts() != null && o.restarts() < 1) {
            throw PcaAlgorithm.refuse(v.name(RESTARTS) + " must be >= 1, got " + o.restarts(),
                    "pass e.g. " + v.typed(RESTARTS, "10"));
        }
        if (o.iterations() != null && o.iterations() < 1) {
            throw PcaAlgorithm.refuse(v.name(ITERATIONS) + " must be >= 1, got " + o.iterations(),
                    "pass e.g. " + v.typed(ITERATIONS, "2000"));
        }
        if (o.batchSize() != null && o.batchSize() < 1) {
            throw PcaAlgorithm.refuse(v.name(BATCH_SIZE) + " must be >= 1, got " + o.batchSize(),
                    "pass e.g. " + v.typed(BATCH_SIZE, "20"));
        }
        if (!(o.initShare() > 0 && o.initShare() < 1)) {
            throw PcaAlgorithm.refuse(v.name(INIT_SHARE) + " must be in (0, 1), got " + o.initShare(),
                    "pass e.g. " + v.typed(INIT_SHARE, "0.2"));
        }
        if (o.paperLiteral() && isPrivate && o.paperConstant() == null) {
            throw PcaAlgorithm.refuse(v.name(PAPER_LITERAL) + " needs " + v.typed(PAPER_CONSTANT, "C")
                    + ": the paper never gives its constant", "pass e.g. " + v.typed(PAPER_CONSTANT, "1")
                    + ", or drop " + v.name(PAPER_LITERAL) + " for the certified calibration");
        }
        if (o.paperConstant() != null && !(o.paperLiteral() && isPrivate)) {
            throw PcaAlgorithm.refuse(v.name(PAPER_CONSTANT) + " applies only with " + v.name(PAPER_LITERAL)
                    + " (and a private algorithm)", "add " + v.name(PAPER_LITERAL) + ", or drop "
                    + v.name(PAPER_CONSTANT));
        }
        if (o.paperConstant() != null && !(o.paperConstant() > 0 && Double.isFinite(o.paperConstant()))) {
            throw PcaAlgorithm.refuse(v.name(PAPER_CONSTANT) + " must be > 0 and finite, got " + o.paperConstant(),
                    "pass e.g. " + v.typed(PAPER_CONSTANT, "1"));
        }
    }

    /** The options both kinds share: k, the row map, the randomness, iterations, step size, batch size. */
    private static <B extends DescentOptions<B>> B configure(B b, PcaAlgorithm.Input c, PcaOptions o) {
        b.components(c.components()).rowNorm(o.rowNorm())
                .randomSource(c.random() != null ? c.random() : RandomSource.secure());
        if (o.iterations() != null) {
            b.iterations(o.iterations());
        }
        if (o.stepSize() != null) {
            b.stepSize(o.stepSize());
        }
        if (o.batchSize() != null) {
            b.batchSize(o.batchSize());
        }
        return b;
    }

    private static void replaceOnly(String name, Neighbouring n, Vocabulary v) {
        PcaAlgorithm.requireReplace(n, v, name + " is certified for " + v.typed(NEIGHBOURING, "replace")
                + " only (N is public)");
    }

    /** The Grassmannian descents ggd, sggd and their private versions. */
    private static final class Descent extends PcaAlgorithm {
        Descent(String name) {
            super(name, Family.ROBUST, name.startsWith("dp-"), name.startsWith("dp-"), true, READS);
        }

        @Override
        public String summary(Vocabulary v) {
            String needs = "needs " + v.name(DELTA) + " > 0";
            return switch (name()) {
                case "ggd" -> "Maunu-Yu-Lerman geodesic gradient descent on GLAD (robust PCA), full batch; NOT private";
                case "sggd" -> "Maunu-Yu-Lerman stochastic GGD (minibatches with replacement); NOT private";
                case "dp-ggd" -> "Maunu-Yu-Lerman dp-GGD: robust PCA, full-batch noisy GGD, Gaussian noise composed "
                        + "exactly over the steps, private PCA start; replace-one rows; " + needs;
                default -> "Maunu-Yu-Lerman dp-SGGD: robust PCA, Poisson minibatches, noise from the steps' privacy "
                        + "loss distribution, private PCA start; replace-one rows; " + needs + "; O(B d k) per step";
            };
        }

        /**
         * dp-GGD adds only Gaussian noise (its Analyze-Gauss start and its full-batch steps, each calibrated to its
         * share); dp-SGGD's subsampled steps, and the paper's literal noise, state only their (ε, δ).
         */
        @Override
        public NoiseKind noise() {
            return name().equals("dp-ggd") ? NoiseKind.GAUSSIAN : super.noise();
        }

        @Override
        public NoiseKind noise(PcaOptions o) {
            return o.paperLiteral() ? super.noise() : noise();
        }

        @Override
        void validate(PcaOptions o, Vocabulary v) {
            validateShared(o, isPrivate(), v);
        }

        @Override
        public void checkRelation(Neighbouring n, PcaOptions o, Vocabulary v) {
            if (isPrivate()) {
                replaceOnly(name(), n, v);
            }
        }

        @Override
        public PrivateSubspace fit(Input c, PcaOptions o, Vocabulary v) {
            GrassmannDescent.Builder b = switch (name()) {
                case "ggd" -> GrassmannDescent.ggd();
                case "sggd" -> GrassmannDescent.sggd();
                case "dp-ggd" -> GrassmannDescent.dpGgd();
                default -> GrassmannDescent.dpSggd();
            };
            checkRelation(c.neighbouring(), o, v);
            configure(b, c, o).initShare(o.initShare());
            if (o.restarts() != null) {
                b.restarts(o.restarts());
            }
            if (o.geodesic()) {
                b.step(GrassmannDescent.Step.GEODESIC);
            }
            if (o.paperLiteral() && isPrivate()) {
                c.warn().accept(v.name(PAPER_LITERAL) + ": " + name() + " uses the paper's Theorem 6 noise with c = "
                        + o.paperConstant() + "; the result is NOT certified differentially private");
                b.calibration(NoiseCalibration.PAPER_LITERAL).paperConstant(o.paperConstant());
                if (name().equals("dp-sggd")) {
                    b.batch(Batch.WITH_REPLACEMENT);
                }
                b.init(GrassmannDescent.Init.PCA);
            }
            return b.build().fit(c.rows(), c.params());
        }
    }

    /** The private REAPER methods. */
    private static final class ReaperFit extends PcaAlgorithm {
        ReaperFit(String name) {
            super(name, Family.ROBUST, true, true, true, READS);
        }

        @Override
        public String summary(Vocabulary v) {
            return "Maunu-Yu-Lerman " + name() + ": REAPER (convex robust PCA) by "
                    + (name().contains("md") ? "entropic mirror descent" : "projected subgradient descent") + ", "
                    + (name().contains("-s") ? "Poisson minibatches, noise from the steps' privacy loss distribution"
                    : "full batch, Gaussian noise composed exactly over the steps")
                    + "; forms d x d matrices (states memory and time first); needs " + v.name(DELTA) + " > 0";
        }

        /**
         * The full-batch methods add only Gaussian noise (T steps composed exactly; the start is data-independent);
         * the minibatch methods, and the paper's literal noise, state only their (ε, δ).
         */
        @Override
        public NoiseKind noise() {
            return name().contains("-s") ? super.noise() : NoiseKind.GAUSSIAN;
        }

        @Override
        public NoiseKind noise(PcaOptions o) {
            return o.paperLiteral() ? super.noise() : noise();
        }

        @Override
        void validate(PcaOptions o, Vocabulary v) {
            validateShared(o, true, v);
            if (o.restarts() != null || o.geodesic()) {
                throw refuse(v.name(RESTARTS) + " and " + v.name(GEODESIC)
                        + " apply to ggd, sggd, dp-ggd and dp-sggd only", "drop them for " + name());
            }
        }

        @Override
        public void checkRelation(Neighbouring n, PcaOptions o, Vocabulary v) {
            replaceOnly(name(), n, v);
        }

        @Override
        public PrivateSubspace fit(Input c, PcaOptions o, Vocabulary v) {
            checkRelation(c.neighbouring(), o, v);
            Reaper.Builder b = switch (name()) {
                case "dp-gd-reap" -> Reaper.dpGdReap();
                case "dp-sgd-reap" -> Reaper.dpSgdReap();
                case "dp-md-reap" -> Reaper.dpMdReap();
                default -> Reaper.dpSmdReap();
            };
            configure(b, c, o);
            if (o.paperLiteral()) {
                c.warn().accept(v.name(PAPER_LITERAL) + ": " + name() + " uses Appendix A's printed noise; the result "
                        + "is NOT certified differentially private");
                b.calibration(NoiseCalibration.PAPER_LITERAL);
                if (o.paperConstant() != null) {
                    b.paperConstant(o.paperConstant());
                }
                if (name().contains("-s")) {
                    b.batch(Batch.WITH_REPLACEMENT);
                }
            }
            Reaper reaper = b.build();
            c.warn().accept(reaper.plan((int) Math.min(Integer.MAX_VALUE, c.rowCount()), c.rows().dimension())
                    .describe(c.rows().dimension()));
            try {
                return reaper.fit(c.rows(), c.params());
            } catch (IllegalStateException tooBig) {
                if (tooBig.getMessage() != null && tooBig.getMessage().contains("of heap is available")) {
                    throw refuse(tooBig.getMessage(), "use " + v.typed(ALGORITHM, "dp-sggd") + " or dp-ggd for large d");
                }
                throw tooBig;
            }
        }
    }
}
