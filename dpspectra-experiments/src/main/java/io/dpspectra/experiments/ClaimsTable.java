package io.dpspectra.experiments;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The table every reproduction report opens with: the paper's complete list of figures, tables and quantitative
 * claims, appendices included, in paper order, each {@code reproduced} (with its verdict), {@code differs because ...}
 * or {@code not run because ...}. Nothing of the paper may be absent from it.
 */
public final class ClaimsTable {
    /** What became of one item of the paper. */
    public enum Status {
        REPRODUCED("reproduced"), DIFFERS("differs because"), NOT_RUN("not run because");

        private final String label;

        Status(String label) {
            this.label = label;
        }

        /** The words the status cell starts with. */
        public String label() {
            return label;
        }
    }

    /**
     * One row: {@code item} is where it is in the paper ("Fig. 3", "Thm 1.3", "App. C.2"), {@code claim} what the
     * paper says, {@code detail} the verdict (reproduced) or the reason (differs / not run), {@code where} the
     * report section or file with the evidence (may be empty).
     */
    public record Row(String item, String claim, Status status, String detail, String where) {
        public Row {
            if (item.isBlank() || claim.isBlank() || detail.isBlank()) {
                throw new IllegalArgumentException("a claims-table row needs an item, a claim and a verdict or reason");
            }
        }
    }

    /**
     * What a reproduction found for each claim, recorded by key while its figures run (possibly in parallel) and read
     * when the table is built; a claim whose figure did not run has no finding.
     */
    public static final class Findings {
        private record Finding(Status status, String detail, String where) {
        }

        private final Map<String, Finding> byKey = new ConcurrentHashMap<>();

        public void put(String key, Status status, String detail, String where) {
            byKey.put(key, new Finding(status, detail, where));
        }

        public boolean has(String key) {
            return byKey.containsKey(key);
        }

        public void clear() {
            byKey.clear();
        }
    }

    private final List<Row> rows = new ArrayList<>();

    /** The row for {@code key} from {@code findings}, or "not run because {@code ifAbsent}" when there is none. */
    public ClaimsTable row(String item, String claim, Findings findings, String key, String ifAbsent) {
        Findings.Finding f = findings.byKey.get(key);
        return f == null ? notRun(item, claim, ifAbsent) : row(item, claim, f.status(), f.detail(), f.where());
    }

    /** A row with an explicit status (see {@link Row}). */
    public ClaimsTable row(String item, String claim, Status status, String detail, String where) {
        rows.add(new Row(item, claim, status, detail, where));
        return this;
    }

    /** A reproduced item with its verdict ("matches: ...", "partly: ...", "contradicted: ..."). */
    public ClaimsTable reproduced(String item, String claim, String verdict, String where) {
        rows.add(new Row(item, claim, Status.REPRODUCED, verdict, where));
        return this;
    }

    /** An item run differently from the paper, with the reason. */
    public ClaimsTable differs(String item, String claim, String because, String where) {
        rows.add(new Row(item, claim, Status.DIFFERS, because, where));
        return this;
    }

    /** An item not run, with the reason. */
    public ClaimsTable notRun(String item, String claim, String because) {
        rows.add(new Row(item, claim, Status.NOT_RUN, because, ""));
        return this;
    }

    public List<Row> rows() {
        return List.copyOf(rows);
    }

    /** The markdown table (with a heading and a one-line legend). */
    public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("## The paper's figures, tables and quantitative claims\n\n");
        sb.append("Every figure, table and quantitative claim of the paper, appendices included, in paper order: "
                + "reproduced (with the verdict), differs (why), or not run (why).\n\n");
        sb.append("| # | Paper | Claim | Status | Evidence |\n|---|---|---|---|---|\n");
        int i = 1;
        for (Row r : rows) {
            sb.append("| ").append(i++).append(" | ").append(cell(r.item())).append(" | ").append(cell(r.claim()))
                    .append(" | **").append(r.status().label()).append("**")
                    .append(r.status() == Status.REPRODUCED ? ": " : " ").append(cell(r.detail())).append(" | ")
                    .append(cell(r.where())).append(" |\n");
        }
        return sb.append('\n').toString();
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}
