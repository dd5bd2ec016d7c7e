package io.dpspectra.linalg;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.blas.JavaBLAS;
import dev.ludovic.netlib.lapack.JavaLAPACK;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

/**
 * The start-up check that guards a user's OPENBLAS_CORETYPE: correct BLAS agree exactly on its product, and a BLAS
 * whose dgemm or dsyrk is slightly wrong (the failure of kernels a CPU does not run correctly) is caught.
 */
class BackendCheckTest {
    @Test
    void correctBackendsAgreeExactly() {
        assertThat(Backend.disagreement(Backend.PURE_JAVA, Backend.PURE_JAVA)).isZero();
        assertThat(Backend.disagreement(Backend.DEFAULT, Backend.PURE_JAVA)).isZero(); // native when installed
    }

    @Test
    void aWrongDgemmOrDsyrkIsCaught() {
        for (String method : new String[] {"dgemm", "dsyrk"}) {
            Backend broken = new Backend(perturbed(method, 1e-9), JavaLAPACK.getInstance(), true);
            assertThat(Backend.disagreement(broken, Backend.PURE_JAVA)).as(method)
                    .isGreaterThan(Backend.CHECK_TOLERANCE);
        }
        Backend nan = new Backend(perturbed("dgemm", Double.NaN), JavaLAPACK.getInstance(), true);
        assertThat(Backend.disagreement(nan, Backend.PURE_JAVA) <= Backend.CHECK_TOLERANCE).isFalse();
    }

    /** The pure-Java BLAS with one entry of the named method's output moved by 0.01·delta. */
    private static BLAS perturbed(String method, double delta) {
        BLAS java = JavaBLAS.getInstance();
        return (BLAS) Proxy.newProxyInstance(BLAS.class.getClassLoader(), new Class<?>[] {BLAS.class}, (p, m, args) -> {
            Object out;
            try {
                out = m.invoke(java, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (m.getName().equals(method) && args.length == 13 && method.equals("dgemm")) {
                double[] c = (double[]) args[11];
                c[5] += 0.01 * delta; // entries are of order 0.01-0.1
            } else if (m.getName().equals(method) && args.length == 10 && method.equals("dsyrk")) {
                double[] c = (double[]) args[8];
                int n = (int) args[2];
                c[3 + 7 * n] += 0.01 * delta; // upper triangle: row 3, column 7
            }
            return out;
        });
    }
}
