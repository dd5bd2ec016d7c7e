package io.dpspectra.noise;

/**
 * Not a test: prints nanoseconds per sample of GaussianNoise and LaplaceNoise (seeded and secure)
 * and of the raw lattice samplers. Run after test-compile with
 * {@code java -cp dpspectra-core/target/classes:dpspectra-core/target/test-classes io.dpspectra.noise.NoiseSpeed}.
 */
public final class NoiseSpeed {
    private NoiseSpeed() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        for (int round = 0; round < 3; round++) {
            System.out.println("round " + round);
            time("GaussianNoise seeded", n, new GaussianNoise(RandomSource.seededForReproducibility(1)));
            time("GaussianNoise secure", n, new GaussianNoise(RandomSource.secure()));
            time("LaplaceNoise seeded", n, new LaplaceNoise(RandomSource.seededForReproducibility(2)));
            time("LaplaceNoise secure", n, new LaplaceNoise(RandomSource.secure()));
        }
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
