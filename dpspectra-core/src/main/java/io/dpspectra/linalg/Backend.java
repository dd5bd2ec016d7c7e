package io.dpspectra.linalg;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.blas.JavaBLAS;
import dev.ludovic.netlib.blas.NativeBLAS;
import dev.ludovic.netlib.lapack.JavaLAPACK;
import dev.ludovic.netlib.lapack.LAPACK;
import dev.ludovic.netlib.lapack.NativeLAPACK;

/**
 * The BLAS/LAPACK implementation that the {@code linalg} kernels call.
 *
 * <p>{@link #DEFAULT} uses native OpenBLAS (through dev.ludovic.netlib's JNI bridge) when the machine
 * has it, and the pure-Java fallback otherwise; the system property {@code dpspectra.blas} forces
 * {@code java} or {@code native}. {@link #PURE_JAVA} is always the pure-Java path, so tests can run
 * both. The choice is made once, is immutable, and is logged once at DEBUG level ({@link #describe()}
 * gives it to callers that want to report it, as {@code dpspectra bench} and {@code --verbose} do).
 * Algorithms never call netlib themselves: they go through the kernels of this package.
 *
 * <p>{@code OPENBLAS_CORETYPE}: OpenBLAS then uses the kernels of the named CPU instead of those it detects (on a CPU
 * newer than the library, e.g. {@code SkylakeX} for the AVX-512 kernels on a Zen 5 that OpenBLAS 0.3.21 takes for a
 * Haswell). Some builds compute wrong results with kernels the CPU does not run correctly, so when the variable is
 * set the native dgemm and dsyrk are checked once, at selection, against the pure-Java BLAS on a fixed product whose
 * every partial sum is exact; on any disagreement the pure-Java backend is used, with a WARNING log message naming
 * the variable (with {@code -Ddpspectra.blas=native}, selection fails instead). The default is never changed.
 *
 * <p>The library writes nothing to stderr by default: netlib's notes about the optional implementations it
 * could not load (e.g. VectorBLAS) are silenced unless its logger {@code dev.ludovic.netlib} was configured
 * by the application (a level set), or {@code -Ddpspectra.netlibLogging=true} is given.
 */
public final class Backend {
    private static final System.Logger LOG = System.getLogger("io.dpspectra.linalg");

    /** Held strongly so that the level set below is not lost with a garbage-collected logger. */
    private static final java.util.logging.Logger NETLIB_LOG = quietNetlib();

    /** The pure-Java path (netlib's Java BLAS/LAPACK plus this package's own kernels). */
    public static final Backend PURE_JAVA = new Backend(JavaBLAS.getInstance(), JavaLAPACK.getInstance(), false);

    /** Native when available (or forced by {@code -Ddpspectra.blas=native|java}), pure Java otherwise. */
    public static final Backend DEFAULT = select();

    private final BLAS blas;
    private final LAPACK lapack;
    private final boolean isNative;

    Backend(BLAS blas, LAPACK lapack, boolean isNative) {
        this.blas = blas;
        this.lapack = lapack;
        this.isNative = isNative;
    }

    private static Backend select() {
        String forced = System.getProperty("dpspectra.blas", "auto").trim().toLowerCase(java.util.Locale.ROOT);
        Backend chosen;
        if (forced.equals("java")) {
            chosen = PURE_JAVA;
        } else {
            Backend nat = tryNative();
            if (nat == null && forced.equals("native")) {
                throw new IllegalStateException("-Ddpspectra.blas=native was given but native BLAS/LAPACK"
                        + " could not be loaded; install OpenBLAS (apt-get install libopenblas0) or drop the flag");
            }
            String coreType = System.getenv(CORETYPE_VARIABLE);
            if (nat != null && coreType != null && !coreType.isBlank()) {
                double error = disagreement(nat, PURE_JAVA);
                if (!(error <= CHECK_TOLERANCE)) {
                    String message = "native BLAS with " + CORETYPE_VARIABLE + "=" + coreType + " computed a known matrix "
                            + "product wrongly (largest relative error " + error + "); using the pure-Java backend "
                            + "instead. Unset " + CORETYPE_VARIABLE + " (or set one that this CPU supports) to use native BLAS";
                    if (forced.equals("native")) {
                        throw new IllegalStateException(message);
                    }
                    LOG.log(System.Logger.Level.WARNING, message);
                    nat = null;
                }
            }
            chosen = nat != null ? nat : PURE_JAVA;
        }
        LOG.log(System.Logger.Level.DEBUG, "dpspectra linear algebra backend: " + chosen.describe());
        return chosen;
    }

    /** The environment variable that makes OpenBLAS use the kernels of a named CPU instead of detecting it. */
    static final String CORETYPE_VARIABLE = "OPENBLAS_CORETYPE";

    /** Largest relative entry error of the start-up product check (both sides sum 96 exact terms in any order). */
    static final double CHECK_TOLERANCE = 1e-12;

    /**
     * The largest error, relative to the largest entry, between two backends' dgemm C = AB and dsyrk C = AAᵀ
     * (upper triangle) on fixed 61 × 96 and 96 × 67 matrices (sizes that are no multiple of any kernel's block, so
     * edge kernels run too); NaN counts as a disagreement. Entries are small integers over 64, so every product and
     * partial sum is exact in double and two correct BLAS agree to the last bit.
     */
    static double disagreement(Backend a, Backend b) {
        int m = 61;
        int k = 96;
        int n = 67;
        double[] x = new double[m * k];
        double[] y = new double[k * n];
        for (int i = 0; i < x.length; i++) {
            x[i] = ((i * 37 + 11) % 19 - 9) / 64.0;
        }
        for (int i = 0; i < y.length; i++) {
            y[i] = ((i * 53 + 5) % 23 - 11) / 64.0;
        }
        double[] c1 = new double[m * n];
        double[] c2 = new double[m * n];
        a.blas.dgemm("N", "N", m, n, k, 1.0, x, m, y, k, 0.0, c1, m);
        b.blas.dgemm("N", "N", m, n, k, 1.0, x, m, y, k, 0.0, c2, m);
        double[] s1 = new double[m * m];
        double[] s2 = new double[m * m];
        a.blas.dsyrk("U", "N", m, k, 1.0, x, m, 0.0, s1, m);
        b.blas.dsyrk("U", "N", m, k, 1.0, x, m, 0.0, s2, m);
        double scale = 0;
        double worst = 0;
        for (int i = 0; i < c2.length; i++) {
            scale = Math.max(scale, Math.abs(c2[i]));
        }
        for (int i = 0; i < c1.length; i++) {
            double e = Math.abs(c1[i] - c2[i]);
            worst = Double.isNaN(e) || Double.isNaN(worst) ? Double.NaN : Math.max(worst, e);
        }
        for (int j = 0; j < m; j++) {
            for (int i = 0; i <= j; i++) {
                double e = Math.abs(s1[i + j * m] - s2[i + j * m]);
                worst = Double.isNaN(e) || Double.isNaN(worst) ? Double.NaN : Math.max(worst, e);
            }
        }
        return worst / Math.max(scale, Double.MIN_NORMAL);
    }

    private static java.util.logging.Logger quietNetlib() {
        java.util.logging.Logger netlib = java.util.logging.Logger.getLogger("dev.ludovic.netlib");
        if (netlib.getLevel() == null && !Boolean.getBoolean("dpspectra.netlibLogging")) {
            netlib.setLevel(java.util.logging.Level.SEVERE);
        }
        return netlib;
    }

    private static Backend tryNative() {
        try {
            return new Backend(NativeBLAS.getInstance(), NativeLAPACK.getInstance(), true);
        } catch (Throwable t) { // NOPMD: any failure to load native code means "not available"
            return null;
        }
    }

    /**
     * Whether BLAS and LAPACK are the native (OpenBLAS through JNI) implementations.
     *
     * @return true for the native path, false for the pure-Java fallback
     */
    public boolean isNative() {
        return isNative;
    }

    /**
     * The threads one BLAS call of this backend may use: for the native backend the first positive integer of the
     * environment variables {@code OPENBLAS_NUM_THREADS}, {@code GOTO_NUM_THREADS} and {@code OMP_NUM_THREADS} (the
     * order in which OpenBLAS reads them), else the processors; for the pure-Java backend the processors (its Gram
     * kernel runs on the common fork-join pool).
     *
     * @return at least 1
     */
    public int threads() {
        int processors = Runtime.getRuntime().availableProcessors();
        if (isNative) {
            for (String variable : new String[] {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"}) {
                String value = System.getenv(variable);
                try {
                    int n = value == null ? 0 : Integer.parseInt(value.trim());
                    if (n > 0) {
                        return n;
                    }
                } catch (NumberFormatException e) {
                    // not a number: OpenBLAS reads it as 0 and goes on to the next variable
                }
            }
        }
        return Math.max(1, processors);
    }

    /**
     * A one-line description, e.g. "native (JNIBLAS, JNILAPACK, OpenBLAS kernels Haswell (detected))" or "pure Java
     * (...)". The OpenBLAS kernel set is named when the launcher found it (system property
     * {@code dpspectra.openblasCore}, from OpenBLAS's own {@code openblas_get_corename}); an
     * {@code OPENBLAS_CORETYPE} set in the environment is named too.
     *
     * @return the description
     */
    public String describe() {
        String kernel = "";
        if (isNative) {
            String core = System.getProperty("dpspectra.openblasCore", "").trim();
            String coreType = System.getenv(CORETYPE_VARIABLE);
            if (!core.isEmpty()) {
                kernel = ", OpenBLAS kernels " + core;
            }
            if (coreType != null && !coreType.isBlank()) {
                kernel += ", " + CORETYPE_VARIABLE + "=" + coreType.trim() + " (checked at start-up)";
            } else if (!core.isEmpty()) {
                kernel += " (detected)";
            }
        }
        return (isNative ? "native" : "pure Java") + " (" + blas.getClass().getSimpleName() + ", "
                + lapack.getClass().getSimpleName() + kernel + ")";
    }

    BLAS blas() {
        return blas;
    }

    LAPACK lapack() {
        return lapack;
    }

    @Override
    public String toString() {
        return describe();
    }
}
