package io.dpspectra.cli.command;

import static io.dpspectra.cli.command.CountingRandomSource.counting;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpspectra.cli.Cli;
import io.dpspectra.cli.output.Json;
import io.dpspectra.noise.RandomSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The non-private reference power methods start from a random matrix (and noisy-power perturbs each product):
 * with {@code --seed} a run repeats bit for bit and another seed gives other bits (two iterations do not
 * converge); without it the randomness comes from the secure source, is drawn from, and the output says it was
 * not seeded.
 */
class ReferenceRandomnessTest {
    @TempDir
    static Path dir;

    private static Path rows() throws Exception {
        RandomSource r = RandomSource.seededForReproducibility(2);
        StringBuilder csv = new StringBuilder("a,b,c,d,e\n");
        for (int i = 0; i < 300; i++) {
            csv.append(String.format(Locale.ROOT, "%.6f,%.6f,%.6f,%.6f,%.6f%n", 0.5 * r.standardNormal(),
                    0.4 * r.standardNormal(), 0.3 * r.standardNormal(), 0.2 * r.standardNormal(),
                    0.1 * r.standardNormal()));
        }
        return Cli.write(dir, "rows.csv", csv.toString());
    }

    private static String[] fit(String algorithm, Path data, String... extra) {
        List<String> a = new ArrayList<>(List.of("fit", "--algorithm", algorithm, "-k", "2", "--iterations", "2",
                "--clip-norm", "1"));
        if (algorithm.equals("noisy-power")) {
            a.addAll(List.of("--perturbation-sigma", "0.01"));
        }
        a.addAll(List.of(extra));
        a.add(data.toString());
        return a.toArray(new String[0]);
    }

    @ParameterizedTest
    @ValueSource(strings = {"streaming-power", "noisy-power"})
    void aSeededRunRepeatsAndAnUnseededOneDrawsFromTheSecureSource(String algorithm) throws Exception {
        Path data = rows();
        Cli.Result first = Cli.run(fit(algorithm, data, "--seed", "11"));
        Cli.Result again = Cli.run(fit(algorithm, data, "--seed", "11"));
        Cli.Result other = Cli.run(fit(algorithm, data, "--seed", "12"));
        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(first.err()).as("--seed is used, not ignored").doesNotContain("--seed");
        JsonNode j = Json.MAPPER.readTree(first.out());
        assertThat(j.get("seededNoise").asBoolean()).isTrue();
        assertThat(again.out()).as("the same seed").isEqualTo(first.out());
        assertThat(Json.MAPPER.readTree(other.out()).get("components")).as("another seed")
                .isNotEqualTo(j.get("components"));

        List<RandomSource> given = new ArrayList<>();
        AtomicLong words = new AtomicLong();
        Cli.Result secure = Cli.run(cl -> ((FitCommand) cl.getSubcommands().get("fit").getCommand()).privacy
                .sourceWrapperForTests = s -> {
                    given.add(s);
                    return counting(s, words);
                }, fit(algorithm, data));
        assertThat(secure.exitCode()).as(secure.toString()).isZero();
        assertThat(given).hasSize(1);
        assertThat(given.get(0).isSeeded()).as("the source without --seed").isFalse();
        assertThat(words.get()).as("random words drawn for the start").isPositive();
        assertThat(Json.MAPPER.readTree(secure.out()).get("seededNoise").asBoolean()).isFalse();
    }
}
