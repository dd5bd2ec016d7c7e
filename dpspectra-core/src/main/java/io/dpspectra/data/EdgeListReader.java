package io.dpspectra.data;

import io.dpspectra.linalg.CsrMatrix;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads an undirected graph from an edge-list CSV into its symmetric adjacency matrix, a
 * {@link CsrMatrix}.
 *
 * <p>Format: one edge per line, {@code u,v} (weight 1) or {@code u,v,w}; node ids are integers ≥ 0
 * (0-based; the dimension is the largest id + 1 unless given); an edge adds w at (u, v) and (v, u), a
 * self-loop {@code u,u,w} adds w once at (u, u). A first line whose first field is not an integer is a
 * header; lines starting with {@code #} and blank lines are skipped. Repeated edges are summed (a
 * multigraph). Parsing is strict: errors name the file and line and say what to fix.
 *
 * <p>Cost: one pass; memory about 32 bytes per edge while building.
 */
public final class EdgeListReader {
    private EdgeListReader() {
    }

    /**
     * Reads {@code path}; d = largest node id + 1.
     *
     * @param path the edge-list file
     * @return the symmetric adjacency matrix
     * @throws InvalidDataException on malformed content (the message names the line)
     */
    public static CsrMatrix read(Path path) {
        return read(path, -1);
    }

    /**
     * Reads {@code path} as a graph on {@code nodes} nodes (ids in [0, nodes)); −1 means "largest id + 1".
     *
     * @param path  the edge-list file
     * @param nodes the number of nodes, or −1
     * @return the symmetric d × d adjacency matrix
     * @throws InvalidDataException on malformed content or an id outside [0, nodes)
     */
    public static CsrMatrix read(Path path, int nodes) {
        try (BufferedReader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            return read(r, path.toString(), nodes);
        } catch (IOException e) {
            throw new InvalidDataException("cannot read " + path + ": " + IoErrors.inWords(e)
                    + "; check that the file exists and is readable", e);
        }
    }

    /**
     * Reads edge-list text from {@code reader}; {@code name} appears in error messages.
     *
     * @param reader the text
     * @param name   the input's name for messages
     * @param nodes  the number of nodes, or −1 for the largest id + 1
     * @return the symmetric adjacency matrix
     * @throws IOException when the reader fails
     */
    public static CsrMatrix read(BufferedReader reader, String name, int nodes) throws IOException {
        if (nodes == 0 || nodes < -1) {
            throw new IllegalArgumentException("nodes must be >= 1 (or -1 for largest id + 1), got " + nodes);
        }
        int cap = 1024;
        int[] us = new int[cap];
        int[] vs = new int[cap];
        double[] ws = new double[cap];
        int m = 0;
        int maxId = -1;
        long line = 0;
        String text;
        while ((text = reader.readLine()) != null) {
            line++;
            if (line == 1 && !text.isEmpty() && text.charAt(0) == '\uFEFF') {
                text = text.substring(1);
            }
            String t = text.trim();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] f = t.split(",", -1);
            if (line == 1 && !looksLikeInteger(f[0].trim())) {
                continue; // header
            }
            if (f.length != 2 && f.length != 3) {
                throw new InvalidDataException(name + " line " + line + ": expected 'u,v' or 'u,v,weight', got "
                        + f.length + " fields: '" + MatrixMarketReader.abbreviate(text) + "'");
            }
            int u = parseNode(f[0].trim(), nodes, name, line);
            int v = parseNode(f[1].trim(), nodes, name, line);
            double w = f.length == 3 ? MatrixMarketReader.parseValue(f[2].trim(), name, line, false) : 1.0;
            if (m == cap) {
                cap = Math.multiplyExact(cap, 2);
                us = java.util.Arrays.copyOf(us, cap);
                vs = java.util.Arrays.copyOf(vs, cap);
                ws = java.util.Arrays.copyOf(ws, cap);
            }
            us[m] = u;
            vs[m] = v;
            ws[m] = w;
            m++;
            maxId = Math.max(maxId, Math.max(u, v));
        }
        if (m == 0) {
            throw new InvalidDataException(name + " has no edges; expected lines 'u,v' or 'u,v,weight'");
        }
        int d = nodes > 0 ? nodes : Math.addExact(maxId, 1);
        CsrMatrix.Builder b = CsrMatrix.builder(d);
        for (int e = 0; e < m; e++) {
            b.addSymmetric(us[e], vs[e], ws[e]);
        }
        return b.build();
    }

    private static boolean looksLikeInteger(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9') && !(i == 0 && (c == '-' || c == '+'))) {
                return false;
            }
        }
        return true;
    }

    private static int parseNode(String s, int nodes, String name, long line) {
        long v;
        try {
            v = Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new InvalidDataException(name + " line " + line + ": node id '" + MatrixMarketReader.abbreviate(s)
                    + "' is not an integer");
        }
        long limit = nodes > 0 ? nodes : Integer.MAX_VALUE - 9L;
        if (v < 0 || v >= limit) {
            throw new InvalidDataException(name + " line " + line + ": node id " + v + " is outside [0, " + limit
                    + ")" + (nodes > 0 ? " (the graph was declared with " + nodes + " nodes)" : "")
                    + "; node ids are 0-based integers");
        }
        return (int) v;
    }
}
