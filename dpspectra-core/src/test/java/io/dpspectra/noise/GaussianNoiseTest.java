package io.dpspectra.noise;

import static io.dpspectra.noise.NoiseTestSupport.gaussianCdf;

/** {@link GaussianNoise} satisfies the {@link NoiseContractTest} with the normal distribution N(0, σ²). */
class GaussianNoiseTest extends NoiseContractTest {
    @Override
    Noise noise(RandomSource random) {
        return new GaussianNoise(random);
    }

    @Override
    double cdf(double x, double scale) {
        return gaussianCdf(x, scale);
    }

    @Override
    double varianceAt(double scale) {
        return scale * scale;
    }

    @Override
    double varianceStandardError(double scale, int n) {
        // SE(sample variance) = √(2σ⁴/n)
        return Math.sqrt(2 * Math.pow(scale, 4) / n);
    }

    @Override
    double granularity(double scale) {
        return GaussianNoise.granularity(scale);
    }
}
