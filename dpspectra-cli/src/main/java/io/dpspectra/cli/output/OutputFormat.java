package io.dpspectra.cli.output;

/**
 * How a release is written: json (indented), compact (JSON on one line, no indentation: about a third of
 * the size), table (for people), npy (the release's array as a NumPy .npy file, the rest of the release as
 * JSON beside it).
 */
public enum OutputFormat {
    json, compact, table, npy
}
