package io.dpspectra.noise;

/**
 * Not a test: prints nanoseconds per sample of GaussianNoise and LaplaceNoise (seeded and secure;
 * one value per call, and the bulk path of addNoiseInPlace on all cores) and of the raw lattice samplers. Run after test-compile with
 * {@code java -cp dpspectra-core/target/classes:dpspectra-core/target/test-classes io.dpspectra.noise.NoiseSpeed}.
 */
public final class NoiseSpeed {
    private NoiseSpeed() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        words("GaussianNoise", n / 10, r -> new GaussianNoise(r));
        words("LaplaceNoise", n / 10, r -> new LaplaceNoise(r));
        long sigma = (long) Math.ceil(1.7 / GaussianNoise.granularity(1.7));
        words("Gaussian reference", n / 10,
            r -> (v, sc) -> DiscreteSamplers.discreteGaussianReference(r, sigma));
        words("Laplace reference", n / 10,
            r -> (v, sc) -> DiscreteSamplers.discreteLaplaceReference(r, sigma, 1));
        long latticeSigma = (long) Math.ceil(1.7 / GaussianNoise.granularity(1.7));
        words("binned table (bulk)", n / 10, r -> {
            BinnedDiscreteGaussian table = new BinnedDiscreteGaussian(latticeSigma);
            return (v, sc) -> table.sample(r);
        });
        for (int round = 0; round < 3; round++) {
            System.out.println("round " + round);
            bulk("GaussianNoise bulk seeded", n, new GaussianNoise(RandomSource.seededForReproducibility(4)));
            bulk("GaussianNoise bulk secure", n, new GaussianNoise(RandomSource.secure()));
            bulk("LaplaceNoise bulk seeded", n, new LaplaceNoise(RandomSource.seededForReproducibility(5)));
            bulk("LaplaceNoise bulk secure", n, new LaplaceNoise(RandomSource.secure()));
            BinnedDiscreteGaussian table = new BinnedDiscreteGaussian(latticeSigma);
            time("binned table, 1 thread", n, (v, sc) -> v + table.sample(seededOne));
            time("GaussianNoise seeded", n, new GaussianNoise(RandomSource.seededForReproducibility(1)));
            time("GaussianNoise secure", n, new GaussianNoise(RandomSource.secure()));
            time("LaplaceNoise seeded", n, new LaplaceNoise(RandomSource.seededForReproducibility(2)));
            time("LaplaceNoise secure", n, new LaplaceNoise(RandomSource.secure()));
        }
    }

    /** Random 64-bit words per sample with the seeded source (coin flips cost a whole word here). */
    private static void words(String name, int n, java.util.function.Function<RandomSource, Noise> make) {
        long[] count = new long[1];
        RandomSource seeded = RandomSource.seededForReproducibility(3);
        RandomSource counting = new RandomSource() {
            @Override
            public long nextLong() {
                count[0]++;
                return seeded.nextLong();
            }

            @Override
            public RandomSource split() {
                throw new UnsupportedOperationException();
            }

            @Override
            public boolean isSeeded() {
                return true;
            }
        };
        Noise noise = make.apply(counting);
        for (int i = 0; i < n; i++) {
            noise.addNoise(0, 1.7);
        }
        System.out.printf("%-24s %8.2f words/sample%n", name, count[0] / (double) n);
    }

    private static final RandomSource seededOne = RandomSource.seededForReproducibility(6);

    /** addNoiseInPlace on n values: the bulk path (all cores beyond one chunk). */
    private static void bulk(String name, int n, Noise noise) {
        double[] v = new double[n];
        long t0 = System.nanoTime();
        noise.addNoiseInPlace(v, 1.7);
        long t1 = System.nanoTime();
        System.out.printf("%-24s %8.1f ns/value, all cores (checksum %.3e)%n", name, (t1 - t0) / (double) n, v[n / 2]);
    }

    private static void time(String name, int n, Noise noise) {
        double sink = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            sink += noise.addNoise(i * 1e-3, 1.7);
        }
        long t1 = System.nanoTime();
        System.out.printf("%-24s %8.1f ns/sample (checksum %.3e)%n", name, (t1 - t0) / (double) n, sink);
    }
}
