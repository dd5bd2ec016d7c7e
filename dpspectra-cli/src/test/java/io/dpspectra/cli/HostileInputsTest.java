package io.dpspectra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dpspectra.cli.output.ExitCodes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A table of hostile inputs of every kind a careful user tried (bad cells, bad files, bad options, exhausted
 * ledgers, outputs onto inputs, broken schemas and models, truncated and mislabelled files), each run through
 * the CLI's main entry ({@link Main#execute}) in a fresh copy of a directory of inputs. Every run must end with
 * its documented exit code (never 1, an internal error), print no stack trace and no Java name (a class, a
 * package, a field), leave every file it was given byte for byte as it was, and leave no output, whole or
 * partial, unless it succeeded (and then no temporary file).
 */
class HostileInputsTest {
    @TempDir
    static Path fixtures;

    @TempDir
    Path work;

    /**
     * A run: what it is, the exit code it must end with, its arguments ("@name" is a file of the inputs), its
     * standard input (null: none), and words its output must hold (null: any).
     */
    record Case(String what, int exit, List<String> args, String stdin, String says) {
        @Override
        public String toString() {
            return what;
        }
    }

    private static final String FIT = "fit --algorithm analyze-gauss -k 1 --epsilon 1 --delta 1e-6 --seed 1";
    private static final String FIT_CLIP = FIT + " --clip-norm 1";
    private static final String COV = "covariance --algorithm laplace --epsilon 1 --clip-norm 1 --seed 1";
    private static final String LDP = "ldp randomize --epsilon 1 --delta 1e-6 --clip-norm 1 --seed 1 -o @reports-new.bin";
    private static final String SPECTRAL = "spectral --matrix @graph.csv --nodes 4 -k 1 --epsilon 1 --delta 1e-6 --seed 1";

    private static final int OK = ExitCodes.OK;
    private static final int USAGE = ExitCodes.USAGE;
    private static final int DATA = ExitCodes.BAD_DATA;
    private static final int BUDGET = ExitCodes.BUDGET_REFUSED;

    static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        // bad cells and bad files, through fit
        add(c, "NaN cell", DATA, FIT_CLIP + " @nan.csv");
        add(c, "Infinity cell", DATA, FIT_CLIP + " @inf.csv");
        add(c, "-inf cell", DATA, FIT_CLIP + " @neginf.csv");
        add(c, "1e400 cell (overflows)", DATA, FIT_CLIP + " @overflow.csv");
        add(c, "a row of 1e300 (finite, huge) is clipped", OK, FIT_CLIP + " @hugerow.csv");
        add(c, "subnormal cells", OK, FIT_CLIP + " @subnormal.csv");
        add(c, "empty file", DATA, FIT_CLIP + " @empty.csv");
        add(c, "header only", DATA, FIT_CLIP + " @header-only.csv");
        add(c, "ragged row", DATA, FIT_CLIP + " @ragged.csv");
        add(c, "text cell", DATA, FIT_CLIP + " @text-cell.csv");
        add(c, "blank line inside the data", DATA, FIT_CLIP + " @blank-middle.csv");
        add(c, "byte-order mark and CRLF", OK, FIT_CLIP + " @bom-crlf.csv");
        add(c, "NUL bytes", DATA, FIT_CLIP + " @nul.csv");
        add(c, "terminal escape in a cell", DATA, FIT_CLIP + " @escape.csv");
        says(c, "duplicate header names", DATA, "columns 1 and 3 are both named \"a\"", FIT_CLIP + " @dup-header.csv");
        add(c, "random bytes named .csv", DATA, FIT_CLIP + " @garbage.csv");
        add(c, "a 1 MB line", DATA, FIT_CLIP + " @long-line.csv");
        says(c, "truncated .csv.gz", DATA, "the .gz file is truncated", FIT_CLIP + " @truncated.csv.gz");
        says(c, "plain text named .csv.gz", DATA, "it is not gzip data", FIT_CLIP + " @not-gzip.csv.gz");
        says(c, "empty .csv.gz", DATA, "empty or truncated .gz file", FIT_CLIP + " @empty.csv.gz");
        add(c, "gzip of nothing", DATA, FIT_CLIP + " @gzip-of-nothing.csv.gz");
        add(c, "truncated .dpsr", DATA, FIT_CLIP + " @truncated.dpsr");
        add(c, "DPSR magic then junk", DATA, FIT_CLIP + " @garbage.dpsr");
        add(c, "a directory as input", DATA, FIT_CLIP + " @adir");
        add(c, "a missing input", DATA, FIT_CLIP + " @missing.csv");
        add(c, "empty standard input", DATA, FIT_CLIP + " -", "");
        add(c, "NaN on standard input", DATA, FIT_CLIP + " -", "a,b\n0.1,0.2\nNaN,0.1\n");
        add(c, "row over --norm-bound", DATA, FIT + " --norm-bound 0.1 @good.csv");
        add(c, "--skip-lines past the end", DATA, FIT_CLIP + " --skip-lines 1000 @good.csv");
        // bad parameters
        add(c, "k > d", USAGE, "fit --algorithm analyze-gauss -k 4 --epsilon 1 --delta 1e-6 --clip-norm 1 @good.csv");
        add(c, "k = 0", USAGE, "fit --algorithm analyze-gauss -k 0 --epsilon 1 --delta 1e-6 --clip-norm 1 @good.csv");
        add(c, "k < 0", USAGE, "fit --algorithm analyze-gauss -k -1 --epsilon 1 --delta 1e-6 --clip-norm 1 @good.csv");
        add(c, "k not a number", USAGE, "fit --algorithm analyze-gauss -k 99999999999 --epsilon 1 --delta 1e-6 "
                + "--clip-norm 1 @good.csv");
        for (String eps : List.of("0", "-1", "NaN", "Infinity", "1e-300", "abc", "-0")) {
            add(c, "epsilon " + eps, USAGE, "fit --algorithm analyze-gauss -k 1 --epsilon " + eps
                    + " --delta 1e-6 --clip-norm 1 @good.csv");
        }
        for (String delta : List.of("1", "-0.1", "NaN", "2", "Infinity")) {
            add(c, "delta " + delta, USAGE, "fit --algorithm analyze-gauss -k 1 --epsilon 1 --delta " + delta
                    + " --clip-norm 1 @good.csv");
        }
        add(c, "delta 0 for a Gaussian mechanism", USAGE, "fit --algorithm analyze-gauss -k 1 --epsilon 1 --clip-norm 1 "
                + "@good.csv");
        add(c, "no epsilon", USAGE, "fit --algorithm analyze-gauss -k 1 --delta 1e-6 --clip-norm 1 @good.csv");
        for (String b : List.of("0", "-1", "NaN", "Infinity", "1e200", "1e160", "x")) {
            add(c, "--clip-norm " + b, USAGE, FIT + " --clip-norm " + b + " @good.csv");
        }
        says(c, "--clip-norm given twice", USAGE, "--clip-norm was given twice",
                FIT + " --clip-norm 1 --clip-norm 2 @good.csv");
        add(c, "--clip-norm and --norm-bound", USAGE, FIT + " --clip-norm 1 --norm-bound 1 @good.csv");
        says(c, "--epsilon given twice", USAGE, "--epsilon E was given twice", FIT_CLIP + " --epsilon 2 @good.csv");
        add(c, "--clip-norm private:1.5", USAGE, FIT + " --clip-norm private:1.5 @good.csv");
        add(c, "--center private:2", USAGE, FIT_CLIP + " --center private:2 @good.csv");
        add(c, "--center public without a schema", USAGE, FIT_CLIP + " --center public @good.csv");
        add(c, "--components auto:2", USAGE, "fit --algorithm analyze-gauss -k auto:2 --epsilon 1 --delta 1e-6 "
                + "--clip-norm 1 @good.csv");
        add(c, "unknown option", USAGE, FIT_CLIP + " --epsilom 1 @good.csv");
        add(c, "unknown algorithm", USAGE, "fit --algorithm pca -k 1 --epsilon 1 --clip-norm 1 @good.csv");
        add(c, "no input", USAGE, FIT_CLIP);
        add(c, "two inputs", USAGE, FIT_CLIP + " @good.csv @good.csv");
        add(c, "--format xml", USAGE, FIT_CLIP + " --format xml @good.csv");
        add(c, "--format npy to stdout", USAGE, FIT_CLIP + " --format npy @good.csv");
        add(c, "--columns unknown name", USAGE, FIT_CLIP + " --columns nosuch @good.csv");
        add(c, "--columns repeated", USAGE, FIT_CLIP + " --columns 1,1 @good.csv");
        add(c, "--separator x", USAGE, FIT_CLIP + " --separator x @good.csv");
        add(c, "--skip-lines -1", USAGE, FIT_CLIP + " --skip-lines -1 @good.csv");
        add(c, "--header-names of the wrong length", USAGE, FIT_CLIP + " --header-names a,b @good.csv");
        says(c, "--header-names with a name twice", USAGE, "both named \"a\" in --header-names",
                FIT_CLIP + " --header-names a,b,a --header present @good.csv");
        says(c, "--columns naming a duplicated column", USAGE, "ambiguous", FIT_CLIP + " --columns a,b @dup-header.csv");
        addArgs(c, "blank --comment-prefix", USAGE, FIT_CLIP, "--comment-prefix", " ", "@good.csv");
        // the exact calibration holds for every epsilon (Fig. 3's sigma was refused above 2.34 ln(1/delta)); it warns
        add(c, "private-power with a huge epsilon", OK, "fit --algorithm private-power -k 1 --iterations 2 "
                + "--epsilon 1000 --delta 1e-6 --clip-norm 1 @good.csv");
        add(c, "k-dp-ojas on NaN", DATA, "fit --algorithm k-dp-ojas -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 @nan.csv");
        add(c, "--batch-size 0", USAGE, "fit --algorithm k-dp-ojas -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 "
                + "--batch-size 0 @good.csv");
        add(c, "--learning-rate unknown", USAGE, "fit --algorithm k-dp-ojas -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 "
                + "--learning-rate fast @good.csv");
        add(c, "--gradient-clip 0", USAGE, "fit --algorithm k-dp-ojas -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 "
                + "--gradient-clip 0 @good.csv");
        add(c, "--tau -1", USAGE, "fit --algorithm k-dp-pca -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 --tau -1 "
                + "@good.csv");
        add(c, "--radius-factor 0", USAGE, "fit --algorithm k-dp-pca-adaptive -k 1 --epsilon 1 --delta 1e-6 "
                + "--clip-norm 1 --radius-factor 0 @good.csv");
        add(c, "--public-eigenvalues with text", USAGE, "fit --algorithm k-dp-pca-adaptive -k 1 --epsilon 1 --delta 1e-6 "
                + "--clip-norm 1 --public-eigenvalues 1,x @good.csv");
        add(c, "--dp-power-iterations 0", USAGE, "fit --algorithm dp-power-method -k 1 --epsilon 1 --delta 1e-6 "
                + "--clip-norm 1 --dp-power-iterations 0 @good.csv");
        add(c, "--l1-bound -1", USAGE, "fit --algorithm dp-power-method -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 "
                + "--l1-bound -1 @good.csv");
        add(c, "--iterations 0", USAGE, "fit --algorithm private-power -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 "
                + "--iterations 0 @good.csv");
        add(c, "--block-size 0", USAGE, "fit --algorithm private-power -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 "
                + "--block-size 0 @good.csv");
        add(c, "--perturbation-sigma -1", USAGE, "fit --algorithm noisy-power -k 1 --clip-norm 1 --perturbation-sigma -1 "
                + "@good.csv");
        add(c, "--ies-failure-probability 2", USAGE, "fit --algorithm it-u -k 1 --epsilon 1 --clip-norm 1 "
                + "--ies-failure-probability 2 @good.csv");
        add(c, "--step-size NaN", USAGE, "fit --algorithm dp-ggd -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 "
                + "--step-size NaN @good.csv");
        add(c, "--restarts 0", USAGE, "fit --algorithm dp-ggd -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 --restarts 0 "
                + "@good.csv");
        add(c, "--row-norm unknown", USAGE, "fit --algorithm dp-ggd -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 "
                + "--row-norm cube @good.csv");
        add(c, "--init-share 2", USAGE, "fit --algorithm dp-ggd -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 "
                + "--init-share 2 @good.csv");
        add(c, "--paper-constant -1", USAGE, "fit --algorithm dp-ggd -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 "
                + "--paper-literal --paper-constant -1 @good.csv");
        add(c, "--paper-constant without --paper-literal", USAGE, "fit --algorithm dp-ggd -k 1 --epsilon 1 --delta 1e-6 "
                + "--clip-norm 1 --paper-constant 1 @good.csv");
        add(c, "--on-small-gap unknown", USAGE, "fit --algorithm dp-gauss-2 -k 1 --epsilon 1 --delta 1e-6 --clip-norm 1 "
                + "--on-small-gap retry @good.csv");
        add(c, "an option of another algorithm", USAGE, FIT_CLIP + " --batch-size 8 @good.csv");
        says(c, "a .dpsr shorter than its header", DATA, "'dpspectra convert'", FIT_CLIP + " @short.dpsr");
        add(c, "a bound from the schema too large", USAGE, FIT + " --schema @schema-huge.json @good.csv");
        add(c, "ldp randomize --clip-norm 1e200", USAGE, "ldp randomize --epsilon 1 --delta 1e-6 --clip-norm 1e200 "
                + "-o @new.bin @good.csv");
        add(c, "exact with a ledger (nothing charged)", OK, "fit --algorithm exact -k 1 --clip-norm 1 --ledger @ledger "
                + "@good.csv");
        // outputs
        add(c, "--output is the input", USAGE, FIT_CLIP + " -o @good.csv @good.csv");
        add(c, "--output is the input through ./", USAGE, FIT_CLIP + " -o @./good.csv @good.csv");
        add(c, "--output in a missing directory", USAGE, FIT_CLIP + " -o @nodir/out.json @good.csv");
        add(c, "--output is a directory", USAGE, FIT_CLIP + " -o @adir @good.csv");
        add(c, "--output under a file", USAGE, FIT_CLIP + " -o @good.csv/out.json @good.csv");
        add(c, "--diagnostics is --output", USAGE, FIT_CLIP + " -o @out.json --diagnostics @out.json @good.csv");
        add(c, "--diagnostics is the input", USAGE, FIT_CLIP + " --diagnostics @good.csv @good.csv");
        says(c, "--output is the ledger", USAGE, "is the --ledger file",
                FIT_CLIP + " --ledger @ledger -o @ledger @good.csv");
        add(c, "--output is the schema", USAGE, FIT + " --schema @schema.json -o @schema.json @good.csv");
        says(c, "--format npy beside the schema", USAGE, "--output's JSON", FIT + " --schema @schema.json --format npy "
                + "-o @schema.npy @good.csv");
        add(c, "--output is the model", USAGE, "transform --model @model.json -o @model.json @good.csv");
        add(c, "--output is the covariance", USAGE, "ridge --covariance @cov.json --target 1 --alpha 1 -o @cov.json");
        add(c, "--output is the matrix", USAGE, SPECTRAL + " -o @graph.csv");
        add(c, "convert onto its input", USAGE, "convert @good.dpsr @good.dpsr");
        says(c, "ldp randomize onto its input", USAGE, "writing it would destroy it",
                "ldp randomize --epsilon 1 --delta 1e-6 --clip-norm 1 "
                + "-o @good.csv @good.csv");
        says(c, "ldp aggregate onto its reports", USAGE, "writing it would destroy it",
                "ldp aggregate -k 1 -o @reports.bin @reports.bin");
        add(c, "schema draft onto its input", USAGE, "schema draft -o @good.csv @good.csv");
        add(c, "audit onto its pair", USAGE, "audit --mechanism private-mean --epsilon 1 --trials 100 --pair "
                + "@good.csv,@other.csv -o @other.csv");
        // ledgers
        add(c, "exhausted ledger", BUDGET, FIT_CLIP + " --ledger @spent.ledger @good.csv");
        add(c, "exhausted ledger, missing input", BUDGET, FIT_CLIP + " --ledger @spent.ledger @missing.csv");
        add(c, "overspend of a fresh ledger", BUDGET, "fit --algorithm analyze-gauss -k 1 --epsilon 5 --delta 1e-6 "
                + "--clip-norm 1 --ledger @ledger @good.csv");
        add(c, "missing ledger", USAGE, FIT_CLIP + " --ledger @missing.ledger @good.csv");
        add(c, "a CSV as ledger", USAGE, FIT_CLIP + " --ledger @good.csv @good.csv");
        add(c, "a directory as ledger", USAGE, FIT_CLIP + " --ledger @adir @good.csv");
        add(c, "covariance on an exhausted ledger", BUDGET, COV + " --ledger @spent.ledger @good.csv");
        says(c, "spectral on an exhausted ledger", BUDGET, "refuses", SPECTRAL + " --ledger @spent.ledger");
        add(c, "ldp randomize on an exhausted ledger", BUDGET, LDP + " --ledger @spent.ledger @good.csv");
        add(c, "schema draft on an exhausted ledger", BUDGET, "schema draft --private-epsilon 1 --ledger @spent.ledger "
                + "@good.csv");
        add(c, "ledger init over an existing file", USAGE, "ledger init --epsilon 1 @ledger");
        add(c, "ledger init with epsilon 0", USAGE, "ledger init --epsilon 0 @new.ledger");
        add(c, "ledger init zcdp without delta", USAGE, "ledger init --accounting zcdp --epsilon 1 @new.ledger");
        add(c, "ledger init in a directory's place", USAGE, "ledger init --epsilon 1 @adir");
        add(c, "ledger show of a CSV", USAGE, "ledger show @good.csv");
        add(c, "ledger show of a missing file", DATA, "ledger show @missing.ledger");
        // schemas
        says(c, "broken schema JSON", USAGE, "it stops being JSON at line 1",
                FIT + " --schema @schema-broken.json @good.csv");
        add(c, "empty schema file", USAGE, FIT + " --schema @empty.csv @good.csv");
        add(c, "schema is an array", USAGE, FIT + " --schema @schema-array.json @good.csv");
        add(c, "schema with duplicate names", USAGE, FIT + " --schema @schema-dup.json @good.csv");
        add(c, "schema with min > max", USAGE, FIT + " --schema @schema-reversed.json @good.csv");
        add(c, "schema with an unknown type", USAGE, FIT + " --schema @schema-type.json @good.csv");
        add(c, "schema with a bad separator", USAGE, FIT + " --schema @schema-sep.json @good.csv");
        add(c, "schema with too few columns", DATA, FIT + " --schema @schema-short.json @good.csv");
        add(c, "missing schema", DATA, FIT + " --schema @missing.json @good.csv");
        add(c, "schema with --columns", USAGE, FIT + " --schema @schema.json --columns 1 @good.csv");
        // models: transform and evaluate
        add(c, "broken model JSON", DATA, "transform --model @model-broken.json @good.csv");
        add(c, "model with NaN", DATA, "transform --model @model-nan.json @good.csv");
        says(c, "non-orthonormal model", DATA, "not orthonormal (max |UᵀU - I| = 0.800",
                "transform --model @model-skewed.json @good.csv");
        says(c, "non-orthonormal model, evaluate", DATA, "not orthonormal",
                "evaluate --model @model-skewed.json @good.csv");
        add(c, "covariance release as a model", DATA, "transform --model @cov.json @good.csv");
        add(c, "diagnostics as a model", DATA, "transform --model @diagnostics.json @good.csv");
        add(c, "a CSV as model", DATA, "transform --model @good.csv @good.csv");
        add(c, "missing model", DATA, "transform --model @missing.json @good.csv");
        add(c, "a directory as model", DATA, "transform --model @adir @good.csv");
        add(c, "transform NaN rows", DATA, "transform --model @model.json @nan.csv");
        add(c, "transform ragged rows", DATA, "transform --model @model.json -o @out.csv @ragged.csv");
        add(c, "transform other columns", DATA, "transform --model @model.json @two-columns.csv");
        add(c, "transform truncated gz", DATA, "transform --model @model.json -o @out.csv @truncated.csv.gz");
        says(c, "transform --keep-columns unknown", USAGE, "nosuch",
                "transform --model @model.json --keep-columns nosuch @good.csv");
        says(c, "transform with the local-DP release", OK, "pc1,pc2\n",
                "transform --model @ldp-release.json @good.csv");
        add(c, "transform standard input", OK, "transform --model @model.json -", Cli.smallCsv(5, 3));
        add(c, "transform --keep-columns of standard input", USAGE, "transform --model @model.json --keep-columns f1 -",
                Cli.smallCsv(5, 3));
        add(c, "transform --keep-columns of a .dpsr", USAGE, "transform --model @ldp-release.json --keep-columns 1 "
                + "@good.dpsr");
        add(c, "transform --columns with a model", USAGE, "transform --model @model.json --columns 1,2 @good.csv");
        add(c, "transform --header with a schema model", USAGE, "transform --model @model-schema.json --header absent "
                + "@good.csv");
        add(c, "transform a title line without --skip-lines", DATA, "transform --model @model-schema.json @titled.csv");
        says(c, "transform a title line with --skip-lines", OK, "f1,pc1,pc2", "transform --model @model-schema.json "
                + "--skip-lines 1 --keep-columns f1 @titled.csv");
        add(c, "evaluate an empty file", DATA, "evaluate --model @model.json @empty.csv");
        add(c, "evaluate a truncated gz", DATA, "evaluate --model @model.json @truncated.csv.gz");
        // covariance, ridge, spectral
        add(c, "gaussian covariance with delta 0", USAGE, "covariance --algorithm gaussian --epsilon 1 --clip-norm 1 "
                + "@good.csv");
        add(c, "covariance of NaN", DATA, COV + " @nan.csv");
        add(c, "covariance unknown algorithm", USAGE, "covariance --algorithm pca --epsilon 1 --clip-norm 1 @good.csv");
        add(c, "covariance --clip-norm 1e200", USAGE, "covariance --algorithm gaussian --epsilon 1 --delta 1e-6 "
                + "--clip-norm 1e200 @good.csv");
        add(c, "ridge of a broken file", DATA, "ridge --covariance @model-broken.json --target 1 --alpha 1");
        add(c, "ridge of a model", DATA, "ridge --covariance @model.json --target 1 --alpha 1");
        add(c, "ridge with alpha < 0", USAGE, "ridge --covariance @cov.json --target 1 --alpha -1");
        add(c, "ridge with an unknown target", USAGE, "ridge --covariance @cov.json --target nosuch --alpha 1");
        add(c, "spectral of a broken .mtx", DATA, "spectral --matrix @bad.mtx -k 1 --epsilon 1 --delta 1e-6");
        add(c, "spectral of negative node ids", DATA, "spectral --matrix @negative.csv --nodes 4 -k 1 --epsilon 1 "
                + "--delta 1e-6");
        add(c, "spectral of a missing file", DATA, "spectral --matrix @missing.csv --nodes 4 -k 1 --epsilon 1 "
                + "--delta 1e-6");
        add(c, "spectral k > d", USAGE, "spectral --matrix @graph.csv --nodes 4 -k 5 --epsilon 1 --delta 1e-6");
        add(c, "spectral epsilon 0", USAGE, "spectral --matrix @graph.csv --nodes 4 -k 1 --epsilon 0 --delta 1e-6");
        add(c, "spectral --symmetric-pairs with spectral noise", USAGE, SPECTRAL + " --noise spectral --symmetric-pairs");
        // convert, generate, schema draft
        add(c, "convert NaN", DATA, "convert @nan.csv @new.dpsr");
        add(c, "convert to .csv", USAGE, "convert @good.csv @new.csv");
        add(c, "convert a truncated gz", DATA, "convert @truncated.csv.gz @new.dpsr");
        add(c, "generate 0 rows", USAGE, "generate --model spiked --rows 0 --dim 3 -o @new.csv");
        add(c, "generate dimension 0", USAGE, "generate --model spiked --rows 10 --dim 0 -o @new.csv");
        add(c, "generate ascending eigenvalues", USAGE, "generate --model spiked --rows 10 --dim 3 --eigenvalues 1,5 "
                + "-o @new.csv");
        add(c, "generate to .txt", USAGE, "generate --model spiked --rows 10 --dim 3 -o @new.txt");
        add(c, "generate negative noise", USAGE, "generate --model spiked --rows 10 --dim 3 --noise-sd -1 -o @new.csv");
        add(c, "schema draft of an empty file", DATA, "schema draft @empty.csv");
        says(c, "schema draft of a truncated gz", DATA, "the .gz file is truncated", "schema draft @truncated.csv.gz");
        add(c, "schema draft of plain text named .gz", DATA, "schema draft @not-gzip.csv.gz");
        add(c, "schema draft epsilon 0", USAGE, "schema draft --private-epsilon 0 @good.csv");
        add(c, "schema draft --separator x", USAGE, "schema draft --separator x @good.csv");
        add(c, "schema draft --skip-lines -1", USAGE, "schema draft --skip-lines -1 @good.csv");
        add(c, "schema draft --ledger without --private-epsilon", USAGE, "schema draft --ledger @ledger @good.csv");
        // audit, local DP
        add(c, "audit unknown mechanism", USAGE, "audit --mechanism nope --epsilon 1");
        add(c, "audit 0 trials", USAGE, "audit --mechanism private-mean --epsilon 1 --trials 0");
        add(c, "audit --pair of one file", USAGE, "audit --mechanism private-mean --epsilon 1 --trials 100 --pair @good.csv");
        add(c, "audit confidence 2", USAGE, "audit --mechanism private-mean --epsilon 1 --trials 100 --confidence 2");
        add(c, "ldp randomize delta 0", USAGE, "ldp randomize --epsilon 1 --delta 0 --clip-norm 1 -o @new.bin @good.csv");
        add(c, "ldp randomize clip-norm 0", USAGE, "ldp randomize --epsilon 1 --delta 1e-6 --clip-norm 0 -o @new.bin "
                + "@good.csv");
        add(c, "ldp randomize epsilon -1", USAGE, "ldp randomize --epsilon -1 --delta 1e-6 --clip-norm 1 -o @new.bin "
                + "@good.csv");
        add(c, "ldp randomize NaN records", DATA, LDP + " @nan.csv");
        add(c, "ldp randomize --report-format xml", USAGE, LDP + " --report-format xml @good.csv");
        add(c, "ldp aggregate truncated reports", DATA, "ldp aggregate -k 1 @reports-cut.bin");
        add(c, "ldp aggregate random bytes", DATA, "ldp aggregate -k 1 @garbage.csv");
        add(c, "ldp aggregate an empty file", DATA, "ldp aggregate -k 1 @empty.csv");
        add(c, "ldp aggregate a CSV", DATA, "ldp aggregate -k 1 @good.csv");
        add(c, "ldp aggregate k > p", USAGE, "ldp aggregate -k 99 @reports.bin");
        add(c, "ldp aggregate --lambda without --sparse", USAGE, "ldp aggregate -k 1 --lambda 1 @reports.bin");
        // commands and the rest
        add(c, "no arguments", USAGE, "");
        add(c, "unknown command", USAGE, "fitt");
        add(c, "demo into a missing directory", USAGE, "demo --output-dir @nodir");
        add(c, "demo epsilon 0", USAGE, "demo --epsilon 0 --output-dir @adir");
        add(c, "reproduce an unknown paper", USAGE, "reproduce nope");
        return c;
    }

    private static void add(List<Case> c, String what, int exit, String args) {
        add(c, what, exit, args, null);
    }

    private static void add(List<Case> c, String what, int exit, String args, String stdin) {
        c.add(new Case(what, exit, args.isEmpty() ? List.of() : List.of(args.split(" ")), stdin, null));
    }

    /** A run whose output (stderr, or stdout for a success) must say {@code says}. */
    private static void says(List<Case> c, String what, int exit, String says, String args) {
        c.add(new Case(what, exit, List.of(args.split(" ")), null, says));
    }

    private static void addArgs(List<Case> c, String what, int exit, String head, String... tail) {
        List<String> args = new ArrayList<>(List.of(head.split(" ")));
        args.addAll(List.of(tail));
        c.add(new Case(what, exit, args, null, null));
    }

    @Test
    void theTableHasAtLeast111HostileInputs() {
        assertThat(cases()).hasSizeGreaterThanOrEqualTo(111);
        assertThat(cases().stream().map(Case::what).distinct().count()).isEqualTo(cases().size());
    }

    /** Java names: a package-qualified class, an exception or error class, a stack frame. */
    private static final Pattern JAVA_NAME = Pattern.compile("\\b(?:java|javax|jdk|sun|picocli|com|io)\\.[a-z]\\w*\\."
            + "|\\b[a-z]\\w*\\.[a-z]\\w*\\.[A-Z]\\w+|\\w*(?:Exception|Error)\\b|\\bat [\\w$.]+\\(|\\tat |\\b[A-Z][a-z]+[A-Z]"
            + "\\w*\\.[a-z]\\w*");
    /**
     * In a message (outside quotes, which hold what the user wrote): a camelCase identifier (a field or a
     * parameter) or a PascalCase one (a class), except the JSON keys a user writes in a schema and the names
     * of formats.
     */
    private static final Pattern IDENTIFIER = Pattern.compile("\\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\\b"
            + "|\\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\\b");
    private static final List<String> USER_WORDS = List.of("NaN", "skipLines", "commentPrefix", "MatrixMarket",
            "NumPy", "SecureRandom");

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void endsCleanlyAndLeavesEveryFileAsItWas(Case c) throws Exception {
        copy(fixtures, work);
        Map<String, byte[]> before = snapshot(work);
        String[] args = c.args().stream().map(a -> a.replace("@", work.toString() + "/")).toArray(String[]::new);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        InputStream stdin = System.in;
        int code;
        try {
            if (c.stdin() != null) {
                System.setIn(new ByteArrayInputStream(c.stdin().getBytes(StandardCharsets.UTF_8)));
            }
            code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        } finally {
            System.setIn(stdin);
        }
        String what = c.what() + ": dpspectra " + String.join(" ", args) + "\nexit " + code + "\n--- stdout\n"
                + abbreviate(out.toString()) + "\n--- stderr\n" + err;
        assertThat(code).as(what).isNotEqualTo(ExitCodes.INTERNAL).isEqualTo(c.exit());
        assertThat(err.toString()).as(what).doesNotContain("this is a bug");
        if (c.says() != null) {
            assertThat(code == 0 ? out.toString() : err.toString()).as(what).contains(c.says());
        }
        for (String text : List.of(out.toString(), err.toString())) {
            Matcher m = JAVA_NAME.matcher(text);
            assertThat(m.find() ? m.group() : null).as(what).isNull();
        }
        Matcher ident = IDENTIFIER.matcher(err.toString().replaceAll("\"[^\"\\n]*\"", "\"\""));
        while (ident.find()) {
            assertThat(USER_WORDS).as(what + "\n(a Java name: " + ident.group() + ")").contains(ident.group());
        }

        Map<String, byte[]> after = snapshot(work);
        for (Map.Entry<String, byte[]> e : before.entrySet()) {
            assertThat(after).as(what + "\n(" + e.getKey() + " was removed)").containsKey(e.getKey());
            assertThat(after.get(e.getKey())).as(what + "\n(" + e.getKey() + " changed)").isEqualTo(e.getValue());
        }
        for (String name : after.keySet()) {
            if (before.containsKey(name) || name.endsWith(".lock")) {
                continue;
            }
            assertThat(code).as(what + "\n(a failed run left " + name + ")").isZero();
            assertThat(name).as(what + "\n(a temporary file was left)").doesNotEndWith(".tmp").doesNotContain("/.");
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 2000 ? s : s.substring(0, 2000) + "...";
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    /** Every file under {@code dir} (relative name, with a leading '/') and its bytes. */
    private static Map<String, byte[]> snapshot(Path dir) throws IOException {
        Map<String, byte[]> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                if (Files.isRegularFile(p)) {
                    m.put("/" + dir.relativize(p), Files.readAllBytes(p));
                }
            }
        }
        return m;
    }

    @BeforeAll
    static void inputs() throws Exception {
        Path d = fixtures;
        String good = Cli.smallCsv(60, 3);
        write(d, "good.csv", good);
        write(d, "other.csv", Cli.smallCsv(59, 3));
        gzip(d.resolve("good.csv.gz"), good.getBytes(StandardCharsets.UTF_8));
        run("convert", d.resolve("good.csv"), d.resolve("good.dpsr"));
        run("fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1",
                "--seed", "1", "-o", d.resolve("model.json"), "--diagnostics", d.resolve("diagnostics.json"),
                d.resolve("good.csv"));
        run("covariance", "--algorithm", "laplace", "--epsilon", "1", "--clip-norm", "1", "--seed", "1", "-o",
                d.resolve("cov.json"), d.resolve("good.csv"));
        write(d, "titled.csv", "|1x3 a title line\n" + good);
        run("ldp", "randomize", "--epsilon", "1", "--delta", "1e-6", "--clip-norm", "1", "--seed", "1", "-o",
                d.resolve("reports.bin"), d.resolve("good.csv"));
        run("ldp", "aggregate", "-k", "2", "-o", d.resolve("ldp-release.json"), d.resolve("reports.bin"));
        byte[] reports = Files.readAllBytes(d.resolve("reports.bin"));
        Files.write(d.resolve("reports-cut.bin"), Arrays.copyOf(reports, reports.length / 2 + 3));
        run("ledger", "init", "--epsilon", "1", "--delta", "1e-5", d.resolve("ledger"));
        run("ledger", "init", "--epsilon", "1", "--delta", "1e-5", d.resolve("spent.ledger"));
        run("covariance", "--algorithm", "laplace", "--epsilon", "1", "--clip-norm", "1", "--ledger",
                d.resolve("spent.ledger"), "-o", d.resolve("scratch.json"), d.resolve("good.csv"));
        Files.delete(d.resolve("scratch.json"));
        Files.createDirectories(d.resolve("adir"));

        write(d, "nan.csv", "a,b,c\n0.1,0.2,0.3\n0.1,NaN,0.2\n");
        write(d, "inf.csv", "a,b,c\n0.1,0.2,0.3\n0.1,Infinity,0.2\n");
        write(d, "neginf.csv", "a,b,c\n0.1,0.2,0.3\n-inf,0.1,0.2\n");
        write(d, "overflow.csv", "a,b,c\n0.1,0.2,0.3\n1e400,0.1,0.2\n");
        write(d, "hugerow.csv", "a,b,c\n0.1,0.2,0.3\n1e300,-1e300,1e300\n0.2,0.1,0.1\n");
        write(d, "subnormal.csv", "a,b,c\n4.9e-324,0.2,0.3\n1e-310,1e-320,0.2\n0.2,0.1,0.1\n");
        write(d, "empty.csv", "");
        write(d, "header-only.csv", "a,b,c\n");
        write(d, "ragged.csv", "a,b,c\n0.1,0.2,0.3\n0.1,0.2\n0.1,0.2,0.3\n");
        write(d, "text-cell.csv", "a,b,c\n0.1,0.2,0.3\n0.1,abc,0.3\n");
        write(d, "blank-middle.csv", "a,b,c\n0.1,0.2,0.3\n\n0.1,0.2,0.3\n");
        write(d, "bom-crlf.csv", "\ufeffa,b,c\r\n0.1,0.2,0.3\r\n0.3,0.2,0.1\r\n");
        write(d, "nul.csv", "a,b,c\n0.1,0.2,0.3\n0.1,\u0000,0.3\n");
        write(d, "escape.csv", "a,b,c\n0.1,0.2,0.3\n0.1,\u001b[2J,0.3\n");
        write(d, "dup-header.csv", "a,b,a\n0.1,0.2,0.3\n0.3,0.2,0.1\n");
        write(d, "two-columns.csv", "f1,f2\n0.1,0.2\n0.3,0.2\n");
        write(d, "long-line.csv", "a,b,c\n0.1,0.2,0.3\n" + "1,".repeat(500_000) + "1\n");
        byte[] garbage = new byte[4096];
        new java.util.SplittableRandom(3).nextBytes(garbage); // test file content, not privacy noise
        Files.write(d.resolve("garbage.csv"), garbage);
        byte[] gz = Files.readAllBytes(d.resolve("good.csv.gz"));
        Files.write(d.resolve("truncated.csv.gz"), Arrays.copyOf(gz, gz.length / 2));
        write(d, "not-gzip.csv.gz", good);
        write(d, "empty.csv.gz", "");
        gzip(d.resolve("gzip-of-nothing.csv.gz"), new byte[0]);
        byte[] dpsr = Files.readAllBytes(d.resolve("good.dpsr"));
        Files.write(d.resolve("truncated.dpsr"), Arrays.copyOf(dpsr, dpsr.length - 5));
        byte[] junk = Arrays.copyOf("DPSR".getBytes(StandardCharsets.US_ASCII), 200);
        System.arraycopy(garbage, 0, junk, 4, 196);
        Files.write(d.resolve("garbage.dpsr"), junk);

        String columns = "{\"name\": \"f1\", \"min\": -1, \"max\": 1}, {\"name\": \"f2\", \"min\": -1, \"max\": 1}, "
                + "{\"name\": \"f3\", \"min\": -1, \"max\": 1}";
        write(d, "schema.json", "{\"columns\": [" + columns + "]}");
        write(d, "schema-broken.json", "{\"columns\": [" + columns);
        write(d, "schema-array.json", "[" + columns + "]");
        write(d, "schema-dup.json", "{\"columns\": [" + columns.replace("f3", "f1") + "]}");
        write(d, "schema-reversed.json", "{\"columns\": [" + columns.replace("\"name\": \"f3\", \"min\": -1, \"max\": 1",
                "\"name\": \"f3\", \"min\": 1, \"max\": -1") + "]}");
        write(d, "schema-type.json", "{\"columns\": [" + columns.replace("\"name\": \"f3\"",
                "\"name\": \"f3\", \"type\": \"number\"") + "]}");
        write(d, "schema-sep.json", "{\"format\": {\"separator\": \"::\"}, \"columns\": [" + columns + "]}");
        write(d, "schema-huge.json", "{\"columns\": [" + columns.replace("\"max\": 1}", "\"max\": 1e200}") + "]}");
        write(d, "short.dpsr", "DPSR");
        write(d, "schema-short.json", "{\"columns\": [" + columns.substring(0, columns.lastIndexOf(", {")) + "]}");

        run("fit", "--algorithm", "analyze-gauss", "-k", "2", "--epsilon", "1", "--delta", "1e-6", "--seed", "1",
                "--schema", d.resolve("schema.json"), "-o", d.resolve("model-schema.json"), d.resolve("good.csv"));
        String model = Files.readString(d.resolve("model.json"));
        write(d, "model-broken.json", model.substring(0, model.length() / 2));
        write(d, "model-nan.json", "{\"algorithm\": \"exact\", \"components\": [[0.6, \"NaN\", 0]]}");
        write(d, "model-skewed.json", "{\"algorithm\": \"exact\", \"components\": [[1, 0, 0], [0.8, 0.6, 0]]}");

        write(d, "graph.csv", "u,v\n0,1\n1,2\n2,3\n3,0\n");
        write(d, "negative.csv", "u,v\n0,1\n-1,2\n");
        write(d, "bad.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n");
    }

    private static void write(Path dir, String name, String text) throws IOException {
        Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    private static void gzip(Path target, byte[] content) throws IOException {
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(target))) {
            o.write(content);
        }
    }

    private static void run(Object... args) {
        String[] a = Arrays.stream(args).map(String::valueOf).toArray(String[]::new);
        Cli.Result r = Cli.run(a);
        assertThat(r.exitCode()).as(r.toString()).isZero();
    }
}
