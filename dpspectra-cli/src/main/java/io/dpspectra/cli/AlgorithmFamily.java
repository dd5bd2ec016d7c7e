package io.dpspectra.cli;

import java.util.List;

/**
 * A group of {@link FitAlgorithm}s from one paper, together with their command-line options. Each
 * implementation is a picocli mixin of {@link FitCommand}: its {@code @Option} fields appear in
 * {@code dpspectra fit --help} under the family's heading.
 */
interface AlgorithmFamily {
    /** The algorithms of this family, configured from the family's parsed options. */
    List<FitAlgorithm> fitAlgorithms();
}
