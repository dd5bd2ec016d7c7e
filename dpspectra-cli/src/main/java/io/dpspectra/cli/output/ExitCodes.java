package io.dpspectra.cli.output;

/** The exit codes of the dpspectra command (documented in docs/guide/exit-codes.md and in {@code dpspectra --help}). */
public final class ExitCodes {
    /** Success. */
    public static final int OK = 0;
    /** Internal error (a bug, or a feature not implemented yet). */
    public static final int INTERNAL = 1;
    /** Bad usage or parameters: unknown option, ε ≤ 0, δ ∉ [0, 1), k &gt; d, missing norm bound. */
    public static final int USAGE = 2;
    /**
     * Bad input data: malformed/non-finite cell, ragged row, row over --norm-bound, missing file, a file that
     * cannot be read or written (a truncated .gz, a full disk).
     */
    public static final int BAD_DATA = 3;
    /** A privacy budget refused the request. */
    public static final int BUDGET_REFUSED = 4;
    /**
     * A mechanism refused to release, as documented (e.g. DP-Gauss-2's failed eigengap test): not a bug.
     * The budget counts as spent; the result file records the refusal and what was spent.
     */
    public static final int MECHANISM_REFUSED = 5;

    private ExitCodes() {
    }
}
