package io.dpspectra.cli;

import java.util.List;

/**
 * A {@link FitAlgorithm} whose fixed facts are declared once, in its constructor: the name, the one-line
 * summary, whether it needs δ &gt; 0, whether it forms d x d matrices, and which of its family's options it
 * reads (all of them when none are listed). A subclass adds only what differs: its checks and its fit.
 */
abstract class DeclaredFit implements FitAlgorithm {
    private final String name;
    private final String summary;
    private final boolean needsDelta;
    private final boolean formsDxD;
    private final List<String> options;

    /**
     * @param options the family options this algorithm reads (their longest names); empty: every one
     */
    DeclaredFit(String name, boolean needsDelta, boolean formsDxD, List<String> options, String summary) {
        this.name = name;
        this.summary = summary;
        this.needsDelta = needsDelta;
        this.formsDxD = formsDxD;
        this.options = List.copyOf(options);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String summary() {
        return summary;
    }

    @Override
    public final boolean needsDelta() {
        return needsDelta;
    }

    @Override
    public final boolean formsDxD() {
        return formsDxD;
    }

    @Override
    public final boolean usesOption(String option) {
        return options.isEmpty() || options.contains(option);
    }
}
