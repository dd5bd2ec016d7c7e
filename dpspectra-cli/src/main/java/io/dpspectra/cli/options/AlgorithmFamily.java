package io.dpspectra.cli.options;

import io.dpspectra.cli.command.FitCommand;
import io.dpspectra.release.PcaAlgorithm;
import io.dpspectra.release.PcaOptions;
import java.util.function.Predicate;

/**
 * The command-line options of one family of {@code fit} algorithms (one paper): a picocli mixin of
 * {@link FitCommand}, whose {@code @Option} fields appear in {@code dpspectra fit --help} and are translated
 * into core's typed {@link PcaOptions}. The algorithms, their checks and their defaults are core's
 * ({@link io.dpspectra.release.Algorithms}).
 */
public interface AlgorithmFamily {
    /**
     * Sets on {@code options} every option of this family the user typed ({@code typed} tests an option's
     * longest name), for {@code algorithm}. An option typed in text form that {@code algorithm} does not read
     * is marked as given without being parsed, so that core refuses it as not applying.
     */
    void fill(PcaOptions.Builder options, Predicate<String> typed, PcaAlgorithm algorithm);
}
