package io.dpspectra.cli.output;

import io.dpspectra.linalg.Matrix;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Writes a matrix in NumPy's {@code .npy} format (version 1.0: little-endian float64, Fortran order, so the
 * column-major data is written as it is), which numpy, R (RcppCNPy/reticulate), Julia (NPZ.jl) and most
 * data tools read: {@code numpy.load("cov.npy")}.
 */
public final class Npy {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};

    private Npy() {
    }

    public static void write(Matrix m, OutputStream raw) throws IOException {
        String dict = String.format(Locale.ROOT, "{'descr': '<f8', 'fortran_order': True, 'shape': (%d, %d), }",
                m.rows(), m.cols());
        // magic (8) + header length (2) + dict + padding + '\n' must be a multiple of 64
        int unpadded = MAGIC.length + 2 + dict.length() + 1;
        int padding = (64 - unpadded % 64) % 64;
        String header = dict + " ".repeat(padding) + "\n";
        OutputStream out = new BufferedOutputStream(raw, 1 << 16);
        out.write(MAGIC);
        out.write(header.length() & 0xff);
        out.write((header.length() >>> 8) & 0xff);
        out.write(header.getBytes(StandardCharsets.US_ASCII));
        ByteBuffer buf = ByteBuffer.allocate(8 * 4096).order(ByteOrder.LITTLE_ENDIAN);
        for (int j = 0; j < m.cols(); j++) {
            for (int i = 0; i < m.rows(); i++) {
                if (!buf.hasRemaining()) {
                    out.write(buf.array(), 0, buf.position());
                    buf.clear();
                }
                buf.putDouble(m.get(i, j));
            }
        }
        out.write(buf.array(), 0, buf.position());
        out.flush();
    }
}
