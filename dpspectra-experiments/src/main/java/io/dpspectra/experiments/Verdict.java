package io.dpspectra.experiments;

/**
 * What the data say about one claim of a paper: the first, bold word of every status cell of a reproduction's
 * claims table. A verdict is computed by the reproduction from its numbers (never typed into a report), and the
 * rules that turn counts into a verdict live here, once, for every paper.
 *
 * <p>Whether we ran the experiment at all, and whether as the paper did, is a separate fact ({@link ClaimsTable.Run}):
 * "reproduced" means only "we ran it", never that the paper was right.
 */
public enum Verdict {
    /** The claim holds in our data as stated (every cell where it is claimed, within the stated tolerance). */
    MATCHES("matches", "the claim holds in our data as stated"),
    /** The claimed effect is there, with a different size or extent (stated in the cell). */
    MATCHES_IN_KIND("matches in kind", "the claimed effect is there, but its size or extent differs (the cell says how)"),
    /** The claim holds in at least a third of the cells where it is claimed, not in all. */
    PARTLY("partly", "the claim holds in at least a third of the cells where it is claimed, not in all"),
    /** The claim holds in some cells, fewer than a third. */
    MOSTLY_CONTRADICTED("mostly contradicted", "the claim holds in some cells where it is claimed, fewer than a third"),
    /**
     * Our data cannot show the claimed effect although the experiment ran (e.g. every method at the level of a random
     * subspace, where "falls with n" or "beats" has nothing to compare).
     */
    NOT_SUPPORTED("not supported", "the experiment ran, but our data cannot show the claimed effect (e.g. every "
            + "estimate at the random-subspace level); nothing in them supports it"),
    /** The data show the opposite of the claim, or the claim in none of the cells. */
    CONTRADICTED("contradicted", "our data show the opposite, or the claim in none of the cells"),
    /** Too few runs to decide (the cell says how many ran and how many would). */
    NOT_ESTABLISHED("not established", "too few runs to decide either way (the cell gives the runs)"),
    /** The paper shows the item without a claim that numbers could confirm or refute. */
    NO_CLAIM("no claim", "the paper shows the item without a claim that numbers could confirm or refute"),
    /** Not run (the cell says why). */
    NOT_RUN("not run", "we did not run it (the cell says why)");

    /** A claim about a fraction of cells needs at least this many cells holding, out of three, to be "partly". */
    private static final int PARTLY_THIRDS = 1;

    /**
     * The fewest runs per cell from which a verdict on per-cell fractions or medians is taken as established: with
     * fewer, a success fraction moves in steps larger than 0.1 and one unlucky run decides a cell.
     */
    public static final int MIN_RUNS_PER_CELL = 10;

    private final String word;
    private final String meaning;

    Verdict(String word, String meaning) {
        this.word = word;
        this.meaning = meaning;
    }

    /** The words of the verdict as printed in bold at the start of a status cell. */
    public String word() {
        return word;
    }

    /** One line for the report's legend. */
    public String meaning() {
        return meaning;
    }

    /**
     * The verdict on a claim that should hold in each of {@code of} cells (grid points, data sets, comparisons) and
     * holds in {@code holds} of them: all → {@link #MATCHES}; at least a third → {@link #PARTLY}; some → {@link
     * #MOSTLY_CONTRADICTED}; none → {@link #CONTRADICTED}.
     */
    public static Verdict fromShare(int holds, int of) {
        if (of < 1 || holds < 0 || holds > of) {
            throw new IllegalArgumentException("a share needs 0 <= holds <= of and of >= 1, got " + holds + " of " + of);
        }
        if (holds == of) {
            return MATCHES;
        }
        if (3L * holds >= (long) PARTLY_THIRDS * of) {
            return PARTLY;
        }
        return holds > 0 ? MOSTLY_CONTRADICTED : CONTRADICTED;
    }

    /**
     * {@code verdict}, or {@link #NOT_ESTABLISHED} when a verdict that rests on comparing cells or fractions was
     * reached with fewer than {@code needed} runs per cell ({@code runs} the smallest count of any cell).
     * {@link #NOT_RUN} and {@link #NO_CLAIM} pass through unchanged.
     */
    public static Verdict established(Verdict verdict, int runs, int needed) {
        if (verdict == NOT_RUN || verdict == NO_CLAIM) {
            return verdict;
        }
        return runs < needed ? NOT_ESTABLISHED : verdict;
    }

    /** {@link #established(Verdict, int, int)} with {@link #MIN_RUNS_PER_CELL}. */
    public static Verdict established(Verdict verdict, int runs) {
        return established(verdict, runs, MIN_RUNS_PER_CELL);
    }

    /** The verdict with this word (as printed), for reading a verdict back from a CSV. */
    public static Verdict ofWord(String word) {
        for (Verdict v : values()) {
            if (v.word.equals(word)) {
                return v;
            }
        }
        throw new IllegalArgumentException("no verdict is called '" + word + "'");
    }
}
