package io.dpspectra.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * Command-line parsing errors in the user's words: picocli's messages ("Unmatched argument at index 14",
 * "Missing required options and parameters: '--algorithm=NAME'", "'x' is not an int") become what a user
 * would say ("unexpected second input file", "missing --algorithm NAME", "not a whole number"); unknown
 * commands and options suggest the nearest one; control bytes are escaped before printing.
 */
final class UsageMessages {
    /** A message and a hint (the hint may be null). */
    record Message(String text, String hint) {
    }

    private static final Pattern NOT_A_NUMBER = Pattern.compile(
            "Invalid value for (?:option|positional parameter) '([^']+)'(?: \\(\\w+\\))?: '(.*)' is not an? (int|long|double|float)");
    private static final Pattern NOT_ONE_OF = Pattern.compile(
            "Invalid value for (?:option|positional parameter) '([^']+)'(?: \\(\\w+\\))?: expected one of \\[(.*)\\] "
                    + "\\(case-sensitive\\) but was '(.*)'");
    private static final Pattern INVALID_VALUE = Pattern.compile(
            "Invalid value for (?:option|positional parameter) '([^']+)'(?: \\(\\w+\\))?: (.*)");

    /** The options matched by one use of a group, in picocli's "expected only one match" message. */
    private static final Pattern GROUP_MATCH = Pattern.compile("=\\{([^}]*)\\}");
    private static final Pattern OPTION_IN_MATCH = Pattern.compile("(--?[A-Za-z0-9][A-Za-z0-9-]*)=");

    private UsageMessages() {
    }

    static Message of(ParameterException ex) {
        CommandLine cmd = ex.getCommandLine();
        String help = "run '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options";
        if (ex instanceof CommandLine.MissingParameterException missing) {
            // picocli checks required options before unmatched ones: "--algorthm X" must read as the typo it is,
            // not as a missing --algorithm
            for (String arg : cmd.getUnmatchedArguments()) {
                if (arg.startsWith("-")) {
                    return unmatched(cmd, arg, help);
                }
            }
            List<String> names = new ArrayList<>();
            for (ArgSpec a : missing.getMissing()) {
                names.add(label(a));
            }
            return new Message("missing " + joinAnd(names), help);
        }
        if (ex instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
            return unmatched(cmd, unmatched.getUnmatched().get(0), help);
        }
        if (ex instanceof CommandLine.OverwrittenOptionException overwritten) {
            return new Message(label(overwritten.getOverwritten()) + " was given twice", "give it once");
        }
        if (ex instanceof CommandLine.MutuallyExclusiveArgsException) {
            return new Message(plain(ex.getMessage()).replace("(specify only one)", "").replaceAll("=[^ ,]+", "")
                    .trim() + ": give only one of them", help);
        }
        String m = ex.getMessage() == null ? "bad arguments" : ex.getMessage();
        if (plain(m).startsWith("expected only one match")) {
            // an option of a group given twice: "[--a=X | --b=Y]={--a=1} and [--a=X | --b=Y]={--a=2}"
            java.util.Set<String> given = new java.util.LinkedHashSet<>();
            Matcher g = GROUP_MATCH.matcher(m);
            while (g.find()) {
                Matcher o = OPTION_IN_MATCH.matcher(g.group(1));
                while (o.find()) {
                    given.add(o.group(1));
                }
            }
            return given.size() == 1 ? new Message(given.iterator().next() + " was given twice", "give it once")
                    : new Message(joinAnd(new ArrayList<>(given)) + " were given together: give only one of them", help);
        }
        Matcher n = NOT_A_NUMBER.matcher(m);
        if (n.find()) {
            String kind = n.group(3).equals("int") || n.group(3).equals("long") ? "a whole number" : "a number";
            return new Message(n.group(1) + ": '" + n.group(2) + "' is not " + kind, help);
        }
        Matcher e = NOT_ONE_OF.matcher(m);
        if (e.find()) {
            return new Message(e.group(1) + " must be one of " + e.group(2) + ", got '" + e.group(3) + "'", help);
        }
        Matcher v = INVALID_VALUE.matcher(m);
        if (v.find()) {
            return new Message(v.group(1) + ": " + plain(v.group(2)), help);
        }
        return new Message(plain(m), help);
    }

    private static Message unmatched(CommandLine cmd, String arg, String help) {
        if (arg.startsWith("-")) {
            List<String> names = new ArrayList<>();
            for (OptionSpec o : cmd.getCommandSpec().options()) {
                names.addAll(List.of(o.names()));
            }
            String option = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            String near = nearest(option, names);
            return new Message("unknown option " + option, near != null ? "did you mean " + near + "? " + help : help);
        }
        if (!cmd.getSubcommands().isEmpty() && cmd.getCommandSpec().positionalParameters().isEmpty()) {
            String near = nearest(arg, cmd.getSubcommands().keySet());
            return new Message("unknown command '" + arg + "'", (near != null ? "did you mean '" + near + "'? " : "")
                    + "the commands are: " + String.join(", ", cmd.getSubcommands().keySet()));
        }
        if (!cmd.getCommandSpec().positionalParameters().isEmpty()) {
            String input = cmd.getCommandSpec().positionalParameters().get(0).paramLabel();
            int count = cmd.getCommandSpec().positionalParameters().size();
            return new Message("unexpected " + (count == 1 ? "second " + describe(input) + " '" + arg + "'"
                    : "extra argument '" + arg + "'"), "give one " + input + " (a file name with spaces needs quotes); "
                    + help);
        }
        return new Message("unexpected argument '" + arg + "'", help);
    }

    private static String describe(String paramLabel) {
        return paramLabel.equals("INPUT") ? "input file" : paramLabel;
    }

    /** An option as the user types it ("--algorithm NAME"), or a positional's label ("INPUT"). */
    static String label(ArgSpec a) {
        if (a instanceof OptionSpec o) {
            return o.arity().max == 0 ? o.longestName() : o.longestName() + " " + o.paramLabel();
        }
        return a.paramLabel();
    }

    static String joinAnd(List<String> items) {
        if (items.size() <= 1) {
            return String.join("", items);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.get(items.size() - 1);
    }

    /** The candidate closest to {@code typed} by edit distance, if close enough to be a typo; else null. */
    static String nearest(String typed, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String t = typed.toLowerCase(Locale.ROOT);
        for (String c : candidates) {
            int dist = editDistance(t, c.toLowerCase(Locale.ROOT));
            if (dist < bestDistance) {
                bestDistance = dist;
                best = c;
            }
        }
        return best != null && bestDistance <= Math.max(2, typed.length() / 3) ? best : null;
    }

    static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** Drops a leading "Error:"/"error:" (the CLI prints its own prefix) and picocli's '=' labels. */
    static String plain(String message) {
        String m = message.strip();
        while (m.regionMatches(true, 0, "error:", 0, 6)) {
            m = m.substring(6).strip();
        }
        return m;
    }

    /**
     * {@code text} with control characters (from file names or cells of an input) escaped as \\n, \\t,
     * \\r or \\u001b, so that printing a message cannot move the cursor, recolour or clear the terminal.
     */
    static String printable(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
