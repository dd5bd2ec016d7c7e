package io.dpspectra.data.csv;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The first lines of the input, decoded; line i of the list is line i + 1 of the file. */
final class CsvSample {
    /** Lines looked at to detect the separator. */
    static final int SAMPLE_LINES = 20;

    final byte[] head;
    final List<String> lines = new ArrayList<>();
    final int skipLines;
    final String commentPrefix;
    final boolean complete;

    private CsvSample(byte[] head, int skipLines, String commentPrefix, boolean complete) {
        this.head = head;
        this.skipLines = skipLines;
        this.commentPrefix = commentPrefix;
        this.complete = complete;
    }

    /** Reads whole lines until skipLines + SAMPLE_LINES + 1 lines past the comments, or the end. */
    static CsvSample read(InputStream in, int skipLines, String commentPrefix) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        byte[] buf = new byte[1 << 16];
        long wanted = (long) skipLines + SAMPLE_LINES + 1;
        long breaks = 0;
        boolean eof = false;
        while (breaks < wanted) {
            int n = in.read(buf);
            if (n < 0) {
                eof = true;
                break;
            }
            head.write(buf, 0, n);
            for (int i = 0; i < n; i++) {
                if (buf[i] == '\n') {
                    breaks++;
                }
            }
            if (breaks >= wanted && commentPrefix != null) {
                // comment lines do not count towards the sample
                wanted += countComments(head.toByteArray(), commentPrefix);
                if (wanted > 100_000) {
                    break;
                }
            }
        }
        byte[] bytes = head.toByteArray();
        CsvSample s = new CsvSample(bytes, skipLines, commentPrefix, eof);
        int start = bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB
                && (bytes[2] & 0xff) == 0xBF ? 3 : 0;
        int lineStart = start;
        for (int i = start; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                if (i == bytes.length && (lineStart == i || !eof)) {
                    break; // no partial last line unless the input ended there
                }
                int end = i > lineStart && bytes[i - 1] == '\r' ? i - 1 : i;
                s.lines.add(new String(bytes, lineStart, end - lineStart, StandardCharsets.UTF_8));
                lineStart = i + 1;
            }
        }
        return s;
    }

    private static int countComments(byte[] bytes, String prefix) {
        int n = 0;
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
            if (line.strip().startsWith(prefix)) {
                n++;
            }
        }
        return n;
    }

    private boolean isComment(String line) {
        return commentPrefix != null && line.strip().startsWith(commentPrefix);
    }

    String firstContent() {
        int i = firstContentIndex();
        return i < 0 ? null : lines.get(i);
    }

    long firstContentLine() {
        return firstContentIndex() + 1L;
    }

    int firstContentIndex() {
        for (int i = skipLines; i < lines.size(); i++) {
            if (!isComment(lines.get(i))) {
                return i;
            }
        }
        return -1;
    }

    List<String> contentLines() {
        List<String> out = new ArrayList<>();
        int i = firstContentIndex();
        for (; i >= 0 && i < lines.size() && out.size() < SAMPLE_LINES; i++) {
            if (!isComment(lines.get(i))) {
                out.add(lines.get(i));
            }
        }
        return out;
    }

    boolean hasContentAfterFirst() {
        if (!complete) {
            return true;
        }
        for (int i = firstContentIndex() + 1; i < lines.size(); i++) {
            if (!lines.get(i).isBlank() && !isComment(lines.get(i))) {
                return true;
            }
        }
        return false;
    }
}
