package io.dpspectra.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dpspectra.linalg.CsrMatrix;
import io.dpspectra.linalg.Matrix;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SparseMatrixReadersTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void symmetricRealFileIsMirrored() throws IOException {
        Path p = write("a.mtx", "%%MatrixMarket matrix coordinate real symmetric\n% a comment\n3 3 4\n1 1 2.5\n2 1 -1\n"
                + "3 2 4e0\n3 3 1\n");
        Matrix a = MatrixMarketReader.read(p).toDense();
        assertThat(a).isEqualTo(Matrix.fromRows(new double[][] {{2.5, -1, 0}, {-1, 0, 4}, {0, 4, 1}}));
    }

    @Test
    void generalIntegerAndPatternFilesAreRead() throws IOException {
        Path g = write("g.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 3\n2 1 3\n");
        assertThat(MatrixMarketReader.read(g).get(0, 1)).isEqualTo(3);
        Path pat = write("p.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n");
        CsrMatrix a = MatrixMarketReader.read(pat);
        assertThat(a.get(0, 1)).isEqualTo(1);
        assertThat(a.get(1, 0)).isEqualTo(1);
        assertThat(a.get(2, 2)).isEqualTo(1);
        assertThat(a.nonZeros()).isEqualTo(3);
    }

    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = '|', value = {
        "%%MatrixMarket matrix array real general\\n2 2\\n1\\n0\\n0\\n1|line 1|array format",
        "%%MatrixMarket matrix coordinate complex general\\n1 1 1\\n1 1 1 0|line 1|complex field",
        "%%MatrixMarket matrix coordinate real skew-symmetric\\n2 2 1\\n2 1 1|line 1|skew-symmetric",
        "hello|line 1|bad banner",
        "%%MatrixMarket matrix coordinate real general\\n2 3 1\\n1 1 1|line 2|not square",
        "%%MatrixMarket matrix coordinate real symmetric\\n2 2 1\\n3 1 1|line 3|row index out of range",
        "%%MatrixMarket matrix coordinate real symmetric\\n2 2 1\\n1 2 1|line 3|entry above the diagonal",
        "%%MatrixMarket matrix coordinate real symmetric\\n2 2 1\\n1 1 NaN|line 3|non-finite value",
        "%%MatrixMarket matrix coordinate real symmetric\\n2 2 1\\n1 1 x|line 3|malformed value",
        "%%MatrixMarket matrix coordinate real symmetric\\n2 2 1\\n1 1|line 3|missing value",
        "%%MatrixMarket matrix coordinate real symmetric\\n2 2 1\\n1 1 1\\n2 2 1|line 4|too many entries",
        "%%MatrixMarket matrix coordinate real symmetric\\n2 2 3\\n1 1 1|announces 3|too few entries",
        "%%MatrixMarket matrix coordinate integer general\\n2 2 1\\n1 1 1.5|line 3|non-integer in integer file",
        "%%MatrixMarket matrix coordinate real general\\n2 2 1\\n1 2 1|not symmetric|asymmetric general file",
    })
    void malformedMatrixMarketNamesFileAndLine(String text, String where, String label) throws IOException {
        Path p = write("bad.mtx", text.replace("\\n", "\n") + "\n");
        assertThatThrownBy(() -> MatrixMarketReader.read(p)).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining(p.toString()).hasMessageContaining(where);
    }

    @Test
    void edgeListWithHeaderCommentsAndWeightsIsTheSymmetricAdjacency() throws IOException {
        Path p = write("g.csv", "source,target,weight\n# a comment\n0,1\n1,2,2.5\n\n3,3,1\n0,1\n");
        CsrMatrix a = EdgeListReader.read(p);
        assertThat(a.dimension()).isEqualTo(4);
        assertThat(a.get(0, 1)).isEqualTo(2); // repeated edge summed
        assertThat(a.get(1, 0)).isEqualTo(2);
        assertThat(a.get(2, 1)).isEqualTo(2.5);
        assertThat(a.get(3, 3)).isEqualTo(1);
        assertThat(EdgeListReader.read(p, 10).dimension()).isEqualTo(10);
    }

    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = '|', value = {
        "0,1\\n1,-2|line 2|negative node",
        "0,1\\n1,x|line 2|non-integer node",
        "0,1\\n1,2,3,4|line 2|too many fields",
        "0,1\\n1,2,inf|line 2|non-finite weight",
        "# only a comment|no edges|empty",
    })
    void malformedEdgeListNamesFileAndLine(String text, String where, String label) throws IOException {
        Path p = write("bad.csv", text.replace("\\n", "\n") + "\n");
        assertThatThrownBy(() -> EdgeListReader.read(p)).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining(p.toString()).hasMessageContaining(where);
    }

    @Test
    void nodeIdBeyondDeclaredNodeCountIsRejected() throws IOException {
        Path p = write("g.csv", "0,1\n1,5\n");
        assertThatThrownBy(() -> EdgeListReader.read(p, 5)).isInstanceOf(InvalidDataException.class)
                .hasMessageContaining("line 2").hasMessageContaining("declared with 5 nodes");
    }

    @Test
    void rowGramOperatorEqualsXtXTimesWInOnePass() {
        double[][] x = {{1, 2, 0}, {0, 1, -1}, {3, 0, 1}, {1, 1, 1}, {2, -1, 0}};
        InMemoryRows rows = InMemoryRows.of(x);
        RowGramOperator op = RowGramOperator.of(rows);
        Matrix w = Matrix.fromRows(new double[][] {{1, 0}, {0.5, 1}, {-1, 2}});
        Matrix xm = Matrix.fromRows(x);
        Matrix expected = xm.transposeTimes(xm.times(w));
        assertThat(op.times(w).minus(expected).maxAbs()).isLessThan(1e-12);
        assertThat(op.passes()).isEqualTo(1);
        assertThat(op.lastRowCount()).isEqualTo(5);
    }
}
