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

    private Backend(BLAS blas, LAPACK lapack, boolean isNative) {
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
            chosen = nat != null ? nat : PURE_JAVA;
        }
        LOG.log(System.Logger.Level.DEBUG, "dpspectra linear algebra backend: " + chosen.describe());
        return chosen;
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
     * A one-line description, e.g. "native (JNIBLAS, JNILAPACK)" or "pure Java (...)".
     *
     * @return the description
     */
    public String describe() {
        return (isNative ? "native" : "pure Java") + " (" + blas.getClass().getSimpleName() + ", "
                + lapack.getClass().getSimpleName() + ")";
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
