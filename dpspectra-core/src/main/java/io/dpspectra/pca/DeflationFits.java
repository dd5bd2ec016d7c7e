package io.dpspectra.pca;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.RowSource;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.util.List;
import java.util.Map;

/** Shared plumbing of the deflation estimators: run, then turn the run log into a result. */
final class DeflationFits {
    private DeflationFits() {
    }

    static PrivateSubspace finish(String name, Deflation.Result run, RowSource rows, LearningRate eta,
                                  PrivacyGuarantee guarantee, RandomSource random, List<String> warnings,
                                  Map<String, Object> extra) {
        Diagnostics.Builder diag = Diagnostics.builder();
        extra.forEach(diag::put);
        diag.put("learningRate", eta.describe());
        for (Map.Entry<String, Object> e : run.log().asMap().entrySet()) {
            diag.put(e.getKey(), e.getValue());
        }
        if (rows instanceof ClippedRows c && c.clippedRows() >= 0) {
            diag.put("clippedRows", c.clippedRows());
        }
        if (random != null) {
            diag.put("seededRandomness", random.isSeeded());
        }
        List<String> w = warnings.stream().filter(java.util.Objects::nonNull).toList();
        if (!w.isEmpty()) {
            diag.put("warning", String.join("; ", w));
        }
        diag.put("note", Diagnostics.PRIVATE_KEYS_NOTE);
        return new PrivateSubspace(name, run.basis(), null, guarantee, diag.build());
    }

    static void checkBudget(PrivacyParams budget, String algorithm) {
        java.util.Objects.requireNonNull(budget, "budget");
        io.dpspectra.privacy.DpPreconditions.checkPositiveDelta(budget.delta(), algorithm);
    }
}
