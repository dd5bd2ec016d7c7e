package io.dpspectra.cli;

import io.dpspectra.Diagnostics;
import io.dpspectra.covariance.PrivateCovariance;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.PrivateSubspace;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a releasing command ({@code fit}, {@code covariance}, {@code spectral}, ...) outputs, as two
 * separate documents. This is the one place where a result is split; every releasing command builds a
 * {@code Release} and hands it to {@link BaseCommand#publish}.
 *
 * <ul>
 *   <li>The <b>release</b>: the private output alone (components or matrix, private eigenvalues, the
 *       guarantee) and the public preprocessing that produced it (norm bound, bound policy, and later a
 *       schema). It goes to {@code --output} or stdout, and is what may be published.</li>
 *   <li>The <b>diagnostics</b>: everything the run learned from the data without privacy (rows,
 *       clipped rows, proposal counts, timings, iterations, the input's path), for the data's curator.
 *       It goes to {@code --diagnostics FILE} and, with {@code --verbose}, to stderr; it opens with
 *       {@link #NOT_PRIVATE} and is never mixed into the release.</li>
 * </ul>
 *
 * <p>Put a value in the release only if it is a private output, post-processing of one, or public
 * (given by the user, not computed from the data). When in doubt, it is a diagnostic.
 */
final class Release {
    /** The key that marks a diagnostics document (and lets a reader refuse one in place of a model). */
    static final String NOT_PRIVATE_KEY = "notPrivate";
    static final String NOT_PRIVATE = "these facts were computed from the input data WITHOUT differential privacy; "
            + "keep them with the data's curator and do not publish them with the release";

    private final Map<String, Object> release = new LinkedHashMap<>();
    private final Map<String, Object> diagnostics = new LinkedHashMap<>();
    private String table;

    /** An empty release of {@code command} (e.g. "fit") with algorithm {@code algorithm}. */
    Release(String command, String algorithm) {
        release.put("algorithm", algorithm);
        diagnostics.put(NOT_PRIVATE_KEY, NOT_PRIVATE);
        diagnostics.put("command", command);
        diagnostics.put("algorithm", algorithm);
    }

    /** Components, explained variance and guarantee of a subspace; its library diagnostics as diagnostics. */
    static Release of(String command, PrivateSubspace s, List<String> columns) {
        Release r = new Release(command, s.algorithm());
        r.put("dimension", s.dimension()).put("k", s.k());
        if (columns != null) {
            r.put("columns", columns);
        }
        r.put("components", Json.columns(s.components()));
        s.explainedVariance().ifPresent(ev -> r.put("explainedVariance", ev)
                .put("explainedVarianceUnits", Json.EIGENVALUE_UNITS));
        r.put("guarantee", Json.guarantee(s.guarantee().orElse(null)));
        return r.diagnostics(s.diagnostics());
    }

    /**
     * The released matrix, its eigenvalues and (unless {@code eigenvectors} is false) eigenvectors, and
     * the guarantee; the library diagnostics as diagnostics.
     */
    static Release of(String command, PrivateCovariance c, List<String> columns, boolean eigenvectors) {
        Release r = new Release(command, c.algorithm());
        r.put("dimension", c.dimension()).put("columns", columns);
        r.put("matrix", c.matrix().toRowArrays());
        r.put("eigenvalues", c.eigenvalues());
        r.put("eigenvalueUnits", Json.EIGENVALUE_UNITS);
        r.put("explainedVarianceRatio", Json.cumulativeRatios(c.eigenvalues()));
        if (eigenvectors) {
            r.put("eigenvectors", Json.columns(c.eigenvectors()));
        }
        r.put("guarantee", Json.guarantee(c.guarantee()));
        return r.diagnostics(c.diagnostics());
    }

    /** Adds a private output or a public fact to the release. */
    Release put(String key, Object value) {
        release.put(key, value);
        return this;
    }

    /** The public preprocessing that produced the release (bound, policy; schema, centring, ...). */
    Release preprocessing(Map<String, Object> preprocessing) {
        return put("preprocessing", preprocessing);
    }

    /** Records in the release whether the noise was seeded (a seeded release is not private). */
    Release noise(RandomSource random) {
        if (random != null) {
            put("seededNoise", random.isSeeded());
        }
        return this;
    }

    /** Adds a fact learned from the data without privacy (or any curator-only fact) to the diagnostics. */
    Release diagnostic(String key, Object value) {
        diagnostics.put(key, value);
        return this;
    }

    /** Adds every entry of a library result's diagnostics (all treated as not private). */
    Release diagnostics(Diagnostics d) {
        d.asMap().forEach((k, v) -> {
            if (!k.equals("note")) {
                diagnostics.put(k, v);
            }
        });
        return this;
    }

    /** The text for {@code --format table} (the release only); JSON is used when none is set. */
    Release table(String text) {
        this.table = text;
        return this;
    }

    /** The release document (a live view, for tests and commands that add to it). */
    Map<String, Object> releaseDocument() {
        return release;
    }

    Map<String, Object> diagnosticsDocument() {
        return diagnostics;
    }

    String releaseText(OutputFormat format) {
        return format == OutputFormat.table && table != null ? table : Json.write(release);
    }

    String diagnosticsText() {
        return Json.write(diagnostics);
    }
}
