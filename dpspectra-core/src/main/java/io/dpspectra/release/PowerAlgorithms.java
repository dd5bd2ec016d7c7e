package io.dpspectra.release;

import static io.dpspectra.release.Setting.BLOCK_SIZE;
import static io.dpspectra.release.Setting.COMPONENTS;
import static io.dpspectra.release.Setting.ITERATIONS;
import static io.dpspectra.release.Setting.PERTURBATION_SIGMA;

import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.NoisyPowerMethod;
import io.dpspectra.pca.Perturbation;
import io.dpspectra.pca.PowerMethodOptions;
import io.dpspectra.pca.PrivatePowerMethod;
import io.dpspectra.pca.StreamingPowerMethod;
import io.dpspectra.result.PrivateSubspace;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** The noisy, streaming and private power methods of Hardt &amp; Price (papers/noisy-power-method.txt). */
final class PowerAlgorithms {
    /** The options every method but noisy-power reads. */
    private static final Set<Setting> ITERATION_OPTIONS = EnumSet.of(ITERATIONS, BLOCK_SIZE);

    private PowerAlgorithms() {
    }

    static List<PcaAlgorithm> all() {
        return List.of(new PrivatePower(), new StreamingPower(), new NoisyPower());
    }

    private static int iterations(PcaOptions o) {
        return o.iterations() == null ? NoisyPowerMethod.DEFAULT_ITERATIONS : o.iterations();
    }

    private static void validateShared(PcaOptions o, Vocabulary v) {
        if (o.iterations() != null && o.iterations() < 1) {
            throw PcaAlgorithm.refuse(v.name(ITERATIONS) + " must be >= 1, got " + o.iterations(),
                    "pass e.g. " + v.typed(ITERATIONS, "20"));
        }
        if (o.blockSize() != null && o.blockSize() < 1) {
            throw PcaAlgorithm.refuse(v.name(BLOCK_SIZE) + " must be >= 1, got " + o.blockSize(),
                    "pass p >= k, e.g. 2k");
        }
    }

    /**
     * The randomness of a non-private method (its random start, noisy-power's perturbation): the chain's source,
     * seeded only when the caller asked for a reproducible run; secure when none is given.
     */
    private static RandomSource startSource(PcaAlgorithm.Input c) {
        return c.random() != null ? c.random() : RandomSource.secure();
    }

    /** k, L, p and the randomness: what the three power methods' builders share. */
    private static <B extends PowerMethodOptions<B>> B configure(B builder, PcaAlgorithm.Input c, PcaOptions o,
                                                                 RandomSource random, Vocabulary v) {
        builder.components(c.components()).iterations(iterations(o)).randomSource(random);
        Integer p = o.blockSize();
        if (p != null && p < c.components()) {
            throw PcaAlgorithm.refuse(v.name(BLOCK_SIZE) + " must be >= " + v.name(COMPONENTS) + " = " + c.components()
                    + ", got " + p, "omit it (p = k) or pass e.g. " + v.typed(BLOCK_SIZE,
                    String.valueOf(2 * c.components())));
        }
        if (p != null) {
            builder.blockSize(p);
        }
        return builder;
    }

    /** The private power method on XᵀX as Xᵀ(XW), one pass per iteration. */
    private static final class PrivatePower extends PcaAlgorithm {
        PrivatePower() {
            super("private-power", Family.POWER_METHOD, true, false, false, ITERATION_OPTIONS);
        }

        @Override
        public String summary(Vocabulary v) {
            return "private power method (Hardt & Price Fig. 3) on XᵀX, applied as Xᵀ(XW) per pass: Gaussian noise "
                    + "composed exactly over the p*L products (delta > 0) or Laplace (delta = 0) for unit spectral "
                    + "change beta²; " + v.name(ITERATIONS) + ", " + v.name(BLOCK_SIZE);
        }

        /** Gaussian products only, composed exactly to its (ε, δ), when δ &gt; 0; Laplace (pure ε) otherwise. */
        @Override
        public NoiseKind noise() {
            return NoiseKind.GAUSSIAN;
        }

        @Override
        public int passes(PcaOptions o) {
            return iterations(o);
        }

        @Override
        void validate(PcaOptions o, Vocabulary v) {
            validateShared(o, v);
        }

        @Override
        public PrivateSubspace fit(Input c, PcaOptions o, Vocabulary v) {
            PrivatePowerMethod.Builder b = configure(PrivatePowerMethod.builder(), c, o, c.random(), v);
            if (c.neighbouring() != null) {
                b.rowNeighbouring(c.neighbouring());
            }
            return b.build().fit(c.rows(), c.params());
        }
    }

    /** The streaming power method: one pass, O(dp) memory; not private. */
    private static final class StreamingPower extends PcaAlgorithm {
        StreamingPower() {
            super("streaming-power", Family.POWER_METHOD, false, false, false, ITERATION_OPTIONS);
        }

        @Override
        public String summary(Vocabulary v) {
            return "streaming power method (Mitliagkas et al.; Hardt & Price Fig. 2): one pass, O(dp) memory; NOT "
                    + "private; " + v.name(ITERATIONS) + ", " + v.name(BLOCK_SIZE);
        }

        @Override
        void validate(PcaOptions o, Vocabulary v) {
            validateShared(o, v);
        }

        @Override
        public PrivateSubspace fit(Input c, PcaOptions o, Vocabulary v) {
            return configure(StreamingPowerMethod.builder(), c, o, startSource(c), v).build()
                    .fit(c.rows(), c.rowCount());
        }
    }

    /** The noisy power method with an optional Gaussian test perturbation; not private. */
    private static final class NoisyPower extends PcaAlgorithm {
        NoisyPower() {
            super("noisy-power", Family.POWER_METHOD, false, false, false,
                    EnumSet.of(ITERATIONS, BLOCK_SIZE, PERTURBATION_SIGMA));
        }

        @Override
        public String summary(Vocabulary v) {
            return "noisy power method (Hardt & Price Fig. 1) on XᵀX with an optional Gaussian test perturbation ("
                    + v.name(PERTURBATION_SIGMA) + "); NOT private";
        }

        @Override
        public int passes(PcaOptions o) {
            return iterations(o);
        }

        @Override
        void validate(PcaOptions o, Vocabulary v) {
            validateShared(o, v);
            Double s = o.perturbationSigma();
            if (s != null && (!(s >= 0) || !Double.isFinite(s))) {
                throw refuse(v.name(PERTURBATION_SIGMA) + " must be >= 0 and finite, got " + s,
                        "pass e.g. " + v.typed(PERTURBATION_SIGMA, "0.1") + ", or omit it for the exact power method");
            }
        }

        @Override
        public PrivateSubspace fit(Input c, PcaOptions o, Vocabulary v) {
            return configure(NoisyPowerMethod.builder(), c, o, startSource(c), v)
                    .perturbation(o.perturbationSigma() == null ? Perturbation.none()
                            : Perturbation.gaussian(o.perturbationSigma()))
                    .build().fit(c.rows());
        }
    }
}
