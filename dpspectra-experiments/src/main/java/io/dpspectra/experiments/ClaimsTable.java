package io.dpspectra.experiments;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The table every reproduction report opens with: the paper's complete list of figures, tables and quantitative
 * claims, appendices included, in paper order. Each status cell starts with the {@link Verdict} in bold, computed by
 * the reproduction from its numbers, followed by how the item was run ({@link Run}): "reproduced" (we ran it as the
 * paper describes), "run differently" (with what differs and why) or nothing more for "not run" (with why). Nothing of
 * the paper may be absent from it.
 */
public final class ClaimsTable {
    /** Whether and how an item was run; says nothing about whether the paper was right (that is the verdict). */
    public enum Run {
        /** We ran the paper's experiment as it describes it (reductions of trials or grids are in the detail). */
        REPRODUCED("reproduced"),
        /** We ran it with a stated difference from the paper (a calibration, a data set, a model). */
        DIFFERENTLY("run differently"),
        /** We did not run it. */
        NOT_RUN("not run");

        private final String label;

        Run(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * What became of one claim: the verdict, how it was run, what differs from the paper (only for {@link
     * Run#DIFFERENTLY}; the reason for {@link Run#NOT_RUN}), the numbers behind the verdict, and where the evidence is.
     */
    public record Finding(Verdict verdict, Run run, String difference, String detail, String where) {
        public Finding {
            Objects.requireNonNull(verdict, "verdict");
            Objects.requireNonNull(run, "run");
            difference = difference == null ? "" : difference.strip();
            detail = detail == null ? "" : detail.strip();
            where = where == null ? "" : where;
            if ((verdict == Verdict.NOT_RUN) != (run == Run.NOT_RUN)) {
                throw new IllegalArgumentException("a claim is 'not run' in both its verdict and its run, or in neither; got "
                        + verdict.word() + " / " + run.label());
            }
            if (run == Run.NOT_RUN ? difference.isEmpty() : detail.isEmpty()) {
                throw new IllegalArgumentException(run == Run.NOT_RUN ? "a claim that was not run needs the reason"
                        : "a verdict needs the numbers behind it");
            }
            if (run == Run.DIFFERENTLY && difference.isEmpty()) {
                throw new IllegalArgumentException("a claim run differently needs what differs from the paper");
            }
        }

        /** Ran as the paper describes. */
        public static Finding ran(Verdict verdict, String detail, String where) {
            return new Finding(verdict, Run.REPRODUCED, "", detail, where);
        }

        /** Ran with {@code difference} from the paper. */
        public static Finding ranDifferently(Verdict verdict, String difference, String detail, String where) {
            return new Finding(verdict, Run.DIFFERENTLY, difference, detail, where);
        }

        /** Not run, because {@code reason}. */
        public static Finding notRun(String reason) {
            return new Finding(Verdict.NOT_RUN, Run.NOT_RUN, reason, "", "");
        }
    }

    /**
     * One row: {@code item} is where it is in the paper ("Fig. 3", "Thm 1.3", "App. C.2"), {@code claim} what the
     * paper says, {@code finding} what became of it.
     */
    public record Row(String item, String claim, Finding finding) {
        public Row {
            if (item.isBlank() || claim.isBlank()) {
                throw new IllegalArgumentException("a claims-table row needs an item and a claim");
            }
            Objects.requireNonNull(finding, "finding");
        }

        /** The status cell: the verdict in bold, then how it was run, then the numbers (or the reason). */
        public String status() {
            Finding f = finding;
            StringBuilder sb = new StringBuilder("**").append(f.verdict().word()).append("**");
            switch (f.run()) {
                case NOT_RUN -> sb.append(": ").append(f.difference());
                case REPRODUCED -> sb.append(" (reproduced): ").append(f.detail());
                default -> sb.append(" (run differently: ").append(f.difference()).append("): ").append(f.detail());
            }
            return sb.toString();
        }
    }

    /**
     * What a reproduction found for each claim, recorded by key while its figures run (possibly in parallel) and read
     * when the table is built; a claim whose figure did not run has no finding.
     */
    public static final class Findings {
        private final Map<String, Finding> byKey = new ConcurrentHashMap<>();

        public void put(String key, Finding finding) {
            byKey.put(key, Objects.requireNonNull(finding, "finding"));
        }

        public boolean has(String key) {
            return byKey.containsKey(key);
        }

        /** The finding of {@code key}, or null. */
        public Finding get(String key) {
            return byKey.get(key);
        }

        public void clear() {
            byKey.clear();
        }
    }

    private final List<Row> rows = new ArrayList<>();


    /** The row for {@code key} from {@code findings}, or "not run: {@code ifAbsent}" when there is none. */
    public ClaimsTable row(String item, String claim, Findings findings, String key, String ifAbsent) {
        Finding f = findings.get(key);
        return row(item, claim, f == null ? Finding.notRun(ifAbsent) : f);
    }

    /** A row with its finding. */
    public ClaimsTable row(String item, String claim, Finding finding) {
        rows.add(new Row(item, claim, finding));
        return this;
    }

    /** An item run as the paper describes, with its computed verdict and the numbers behind it. */
    public ClaimsTable ran(String item, String claim, Verdict verdict, String detail, String where) {
        return row(item, claim, Finding.ran(verdict, detail, where));
    }

    /** An item run with {@code difference} from the paper, with its computed verdict and the numbers behind it. */
    public ClaimsTable ranDifferently(String item, String claim, Verdict verdict, String difference, String detail,
                                      String where) {
        return row(item, claim, Finding.ranDifferently(verdict, difference, detail, where));
    }

    /** An item not run, with the reason. */
    public ClaimsTable notRun(String item, String claim, String because) {
        return row(item, claim, Finding.notRun(because));
    }

    public List<Row> rows() {
        return List.copyOf(rows);
    }

    /** The markdown table (with a heading and a legend of the verdict words). */
    public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("## The paper's figures, tables and quantitative claims\n\n");
        sb.append("Every figure, table and quantitative claim of the paper, appendices included, in paper order. Each "
                + "status cell starts with the verdict in bold, computed from the numbers by the reproduction, then says "
                + "how the item was run: *reproduced* (we ran the paper's experiment; it says nothing about whether the "
                + "claim held), *run differently* (with what differs) or *not run* (with why). Verdicts: ");
        List<String> legend = new ArrayList<>();
        for (Verdict v : Verdict.values()) {
            legend.add("**" + v.word() + "**: " + v.meaning());
        }
        sb.append(String.join("; ", legend)).append(".\n\n");
        sb.append("| # | Paper | Claim | Status | Evidence |\n|---|---|---|---|---|\n");
        int i = 1;
        for (Row r : rows) {
            sb.append("| ").append(i++).append(" | ").append(cell(r.item())).append(" | ").append(cell(r.claim()))
                    .append(" | ").append(cell(r.status())).append(" | ").append(cell(r.finding().where())).append(" |\n");
        }
        return sb.append('\n').toString();
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}
