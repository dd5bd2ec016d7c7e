package io.dpspectra.cli;

import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.DataBounds;
import io.dpspectra.data.RowSource;
import io.dpspectra.privacy.DpPreconditions;
import picocli.CommandLine.Option;

/**
 * The per-row L2 norm bound B that every private release is calibrated to. Exactly one of
 * {@code --clip-norm} (scale rows above B down onto B) or {@code --norm-bound} (rows above B are an
 * error) must be given; the bound must come from domain knowledge, never from the data.
 */
final class BoundOptions {
    @Option(names = "--clip-norm", paramLabel = "B", required = true,
            description = "Clip every row to L2 norm <= B (rows above B are scaled down onto B). "
                    + "Choose B from domain knowledge, never from the data: a data-derived bound leaks.")
    Double clipNorm;

    @Option(names = "--norm-bound", paramLabel = "B", required = true,
            description = "Require every row to have L2 norm <= B; a row above B is an error (exit 3) "
                    + "naming its line. Choose B from domain knowledge, never from the data.")
    Double normBound;

    /** Checks the bound is finite and positive (a usage error otherwise), before any data is read. */
    void validate() {
        DpPreconditions.checkBound(clipNorm != null ? "--clip-norm" : "--norm-bound", bound());
    }

    /** The bounded source: clipped or rejecting. */
    ClippedRows apply(RowSource source) {
        if (clipNorm != null) {
            return source.clipL2(clipNorm);
        }
        return source.requireL2(normBound);
    }

    /** The bound as the library declares it: L2, user-given, clip or reject. */
    DataBounds dataBounds() {
        return new DataBounds(DataBounds.Norm.L2, bound(), DataBounds.Origin.USER_GIVEN,
                clipNorm != null ? DataBounds.Policy.CLIP : DataBounds.Policy.REJECT);
    }

    double bound() {
        return clipNorm != null ? clipNorm : normBound;
    }

    String policy() {
        return clipNorm != null ? "clip" : "reject";
    }
}
