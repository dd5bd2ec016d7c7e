package io.dpspectra.cli.output;

import io.dpspectra.Diagnostics;
import io.dpspectra.cli.command.BaseCommand;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.ReleaseRefusedException;
import io.dpspectra.release.CovarianceRelease;
import io.dpspectra.release.PcaReference;
import io.dpspectra.release.PcaRelease;
import io.dpspectra.release.RefusedReleaseException;
import io.dpspectra.result.PrivateCovariance;
import io.dpspectra.result.PrivateSubspace;
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
public final class Release {
    /** The key that marks a diagnostics document (and lets a reader refuse one in place of a model). */
    public static final String NOT_PRIVATE_KEY = "notPrivate";
    /** Present (false) only in the record of a refusal. */
    public static final String RELEASED_KEY = "released";
    static final String NOT_PRIVATE = "these facts were computed from the input data WITHOUT differential privacy; "
            + "keep them with the data's curator and do not publish them with the release";

    private final Map<String, Object> release = new LinkedHashMap<>();
    private final Map<String, Object> diagnostics = new LinkedHashMap<>();
    private java.util.function.Supplier<String> table;
    private String arrayKey;
    private io.dpspectra.linalg.Matrix array;

    /** An empty release of {@code command} (e.g. "fit") with algorithm {@code algorithm}. */
  public   Release(String command, String algorithm) {
        release.put("algorithm", algorithm);
        diagnostics.put(NOT_PRIVATE_KEY, NOT_PRIVATE);
        diagnostics.put("command", command);
        diagnostics.put("algorithm", algorithm);
    }

    /**
     * A principal-components release of core's release layer: its components and explained variance, the
     * whole release's guarantee (every private part, composed), the estimator's diagnostics as diagnostics.
     */
    public static Release of(String command, PcaRelease r) {
        Release out = of(command, r.subspace(), r.preprocessing().features());
        return out.put("guarantee", Json.guarantee(r.guarantee()));
    }

    /** A non-private reference result: its components, no guarantee (null), its diagnostics. */
    public static Release of(String command, PcaReference r) {
        return of(command, r.subspace(), r.preprocessing().features());
    }

    /** Components, explained variance and guarantee of a subspace; its library diagnostics as diagnostics. */
    public static Release of(String command, PrivateSubspace s, List<String> columns) {
        Release r = new Release(command, s.algorithm());
        r.put("dimension", s.dimension()).put("k", s.k());
        if (columns != null) {
            r.put("columns", columns);
        }
        r.put("components", Json.columns(s.components()));
        r.array("components", s.components());
        s.explainedVariance().ifPresent(ev -> r.put("explainedVariance", ev)
                .put("explainedVarianceUnits", Json.EIGENVALUE_UNITS));
        r.put("guarantee", Json.guarantee(s.guarantee().orElse(null)));
        return r.diagnostics(s.diagnostics());
    }

    /**
     * A second-moment release of core's release layer: the matrix, its eigenvalues and (unless
     * {@code eigenvectors} is false) eigenvectors, the whole release's guarantee (every private part, composed),
     * the mechanism's diagnostics as diagnostics.
     */
    public static Release of(String command, CovarianceRelease r, boolean eigenvectors) {
        Release out = of(command, r.covariance(), r.preprocessing().features(), eigenvectors);
        return out.put("guarantee", Json.guarantee(r.guarantee()));
    }

    /**
     * The released matrix, its eigenvalues and (unless {@code eigenvectors} is false) eigenvectors, and
     * the guarantee; the library diagnostics as diagnostics.
     */
    public static Release of(String command, PrivateCovariance c, List<String> columns, boolean eigenvectors) {
        Release r = new Release(command, c.algorithm());
        r.put("dimension", c.dimension()).put("columns", columns);
        r.put("matrix", c.matrix().toRowArrays());
        r.array("matrix", c.matrix());
        r.put("eigenvalues", c.eigenvalues());
        r.put("eigenvalueUnits", Json.EIGENVALUE_UNITS);
        r.put("explainedVarianceRatio", Json.cumulativeRatios(c.eigenvalues()));
        if (eigenvectors) {
            r.put("eigenvectors", Json.columns(c.eigenvectors()));
        }
        r.put("guarantee", Json.guarantee(c.guarantee()));
        return r.diagnostics(c.diagnostics());
    }

    /**
     * The record of a mechanism's documented refusal: {@code "released": false}, the reason, and the
     * guarantee of what was spent (the budget counts as spent though nothing else was released): for a
     * refusal of core's release layer, the whole composition.
     */
    public static Release refused(String command, String algorithm, ReleaseRefusedException e) {
        Release r = new Release(command, algorithm);
        r.put(RELEASED_KEY, false).put("refusal", e.getMessage()).put("guarantee", e instanceof RefusedReleaseException
                ? Json.guarantee(((RefusedReleaseException) e).guarantee()) : Json.guarantee(e.spent()));
        r.table(() -> "algorithm: " + algorithm + "\nREFUSED: " + e.getMessage() + "\n" + Tables.guarantee(e.spent()));
        return r.diagnostics(e.diagnostics());
    }

    /**
     * Names the release's main array (the entry {@code key}, e.g. "matrix" or "components"), which
     * {@code --format npy} writes as a .npy file, the rest of the release going to JSON beside it.
     */
    public Release array(String key, io.dpspectra.linalg.Matrix value) {
        this.arrayKey = key;
        this.array = value;
        return this;
    }

    /** The main array, or null if the release has none. */
    public io.dpspectra.linalg.Matrix array() {
        return array;
    }

    /** The release JSON without its main array, which names the .npy file holding it instead. */
    public String releaseTextBeside(java.nio.file.Path npyFile) {
        Map<String, Object> copy = new LinkedHashMap<>(release);
        if (arrayKey != null) {
            Map<String, Object> ref = new LinkedHashMap<>();
            ref.put("file", npyFile.getFileName().toString());
            ref.put("shape", List.of(array.rows(), array.cols()));
            ref.put("layout", arrayKey.equals("components") ? "column j is component j+1 (d x k)" : "d x d");
            copy.put(arrayKey, ref);
        }
        return Json.write(copy);
    }

    /** The JSON file that accompanies {@code FILE.npy}: {@code FILE.json}. */
    public static java.nio.file.Path besideNpy(java.nio.file.Path npyFile) {
        String name = npyFile.getFileName().toString();
        String base = name.toLowerCase(java.util.Locale.ROOT).endsWith(".npy") ? name.substring(0, name.length() - 4)
                : name;
        return npyFile.resolveSibling(base + ".json");
    }

    /** Adds a private output or a public fact to the release. */
    public Release put(String key, Object value) {
        release.put(key, value);
        return this;
    }

    /** The public preprocessing that produced the release (bound, policy; schema, centring, ...). */
    public Release preprocessing(Map<String, Object> preprocessing) {
        return put("preprocessing", preprocessing);
    }

    /** Records in the release whether the noise was seeded (a seeded release is not private). */
    public Release noise(RandomSource random) {
        if (random != null) {
            put("seededNoise", random.isSeeded());
        }
        return this;
    }

    /** Adds a fact learned from the data without privacy (or any curator-only fact) to the diagnostics. */
    public Release diagnostic(String key, Object value) {
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

    /** The text for {@code --format table}, already built (small releases). */
    public Release table(String text) {
        return table(() -> text);
    }

    /** The text for {@code --format table} (the release only), built only if asked; JSON when none is set. */
    public Release table(java.util.function.Supplier<String> text) {
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

    /** ε above which a release is not meaningfully private (e^20 ≈ 5·10⁸: the odds ratio is unbounded in practice). */
    static final double MEANINGLESS_EPSILON = 20;

    /**
     * Plain-words warnings for a release that is useless or not meaningfully private, from the release and
     * its diagnostics: ε above {@link #MEANINGLESS_EPSILON}, more than half the rows clipped, a random
     * basis released in place of the estimate, k-dp-pca's PrivRange failing in every step.
     */
    public List<String> uselessReleaseWarnings() {
        List<String> w = new java.util.ArrayList<>();
        if (release.get("guarantee") instanceof Map<?, ?> g && g.get("epsilon") instanceof Number eps
                && eps.doubleValue() > MEANINGLESS_EPSILON) {
            w.add("epsilon = " + eps + " is so large that the release is not meaningfully private (an outcome may be "
                    + "e^" + Math.round(eps.doubleValue()) + " times likelier with one person's row than without it); "
                    + "use an epsilon of at most a few units");
        }
        // a private Q-quantile bound clips about 1 - Q of the rows by design (half at the default median)
        boolean privateBound = release.get("preprocessing") instanceof Map<?, ?> p
                && p.get("normBoundOrigin") instanceof String origin && origin.startsWith("private");
        // with a person as the unit, each kept row is clipped to a share of the bound (B/sqrt(M), or B/M^(1/4) and
        // then scaled with the person's other rows) by design: that most are clipped says nothing of B
        boolean perPerson = release.get("preprocessing") instanceof Map<?, ?> p && p.get("privacyUnit") != null;
        if (!privateBound && !perPerson && diagnostics.get("clippedRows") instanceof Number clipped
                && diagnostics.get("rows") instanceof Number rows && clipped.longValue() * 2 > rows.longValue()) {
            w.add(clipped + " of the " + rows + " rows were clipped to the norm bound: the release describes the "
                    + "clipped data, which may be far from yours; choose a larger --clip-norm from what you know about "
                    + "the data (never from the data itself)");
        }
        if (Boolean.TRUE.equals(diagnostics.get("randomBasisFallback"))) {
            w.add("the private gap test failed, so the release is a uniformly random basis: private, but it says "
                    + "nothing about the data; use more rows, a larger --epsilon, or another --algorithm");
        }
        if (diagnostics.get("privRangeCalls") instanceof Number calls && calls.longValue() > 0
                && diagnostics.get("privRangeBottom") instanceof Number bottom
                && bottom.longValue() == calls.longValue()) {
            w.add("the private range estimate (PrivRange) failed in all " + calls + " steps, so no update was taken and "
                    + "the release is the random starting basis: private, but it says nothing about the data; use more "
                    + "rows, a larger --epsilon, a public bound with --public-range, or --algorithm k-dp-ojas");
        }
        return w;
    }

    public String releaseText(OutputFormat format) {
        if (format == OutputFormat.table && table != null) {
            return table.get();
        }
        return format == OutputFormat.compact ? Json.writeCompact(release) : Json.write(release);
    }

    public String diagnosticsText() {
        return Json.write(diagnostics);
    }
}
