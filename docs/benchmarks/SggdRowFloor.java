import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The floor under dp-SGGD's cost on this machine: the time to bring its randomly chosen rows in from memory, with
 * no arithmetic beyond one addition per value. Each of T steps draws a Poisson batch at rate B/N by geometric skips
 * (as {@code NoisySteps.poisson} does) and adds its rows into a D-vector; the rows are held as dp-SGGD holds them, one
 * {@code double[]} per row. Reports nanoseconds per row read, with the work split over 1 and 2 threads.
 *
 * <p>Run from the repository root (Java 11+ runs a single source file):
 *
 * <pre>
 *   java -Xmx4g docs/benchmarks/SggdRowFloor.java 1000000 100 500 4000
 * </pre>
 *
 * <p>Arguments: N rows, D values per row, B the expected batch size, and the number of steps timed (a sample of
 * dp-SGGD's T = N). The batch indices come from a seeded {@link SplittableRandom}: this program draws no privacy
 * noise, it only times memory.
 */
public class SggdRowFloor {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int d = Integer.parseInt(args[1]);
        int b = Integer.parseInt(args[2]);
        int steps = Integer.parseInt(args[3]);
        SplittableRandom random = new SplittableRandom(1);
        double[][] rows = new double[n][d];
        for (double[] row : rows) {
            for (int j = 0; j < d; j++) {
                row[j] = random.nextDouble();
            }
        }
        double lnKeep = Math.log1p(-(double) b / n);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int threads : new int[] {1, 2, 1, 2}) {
                long start = System.nanoTime();
                long read = 0;
                double[][] acc = new double[threads][d];
                int[] idx = new int[4 * b + 64];
                for (int s = 0; s < steps; s++) {
                    int m = 0;
                    long i = -1;
                    while (m < idx.length) {
                        i += 1 + (long) Math.floor(Math.log(1 - random.nextDouble()) / lnKeep);
                        if (i >= n) {
                            break;
                        }
                        idx[m++] = (int) i;
                    }
                    read += m;
                    int count = m;
                    if (threads == 1) {
                        sum(rows, idx, 0, count, acc[0]);
                    } else {
                        int half = count / 2;
                        Future<?> other = pool.submit(() -> sum(rows, idx, half, count, acc[1]));
                        sum(rows, idx, 0, half, acc[0]);
                        other.get();
                    }
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                double check = 0;
                for (double[] a : acc) {
                    for (double v : a) {
                        check += v;
                    }
                }
                System.out.printf("N=%d D=%d B=%d steps=%d threads=%d: %d rows in %.2f s, %.0f ns per row (check %.6g)%n",
                        n, d, b, steps, threads, read, seconds, seconds * 1e9 / read, check);
            }
        } finally {
            pool.shutdown();
        }
    }

    private static void sum(double[][] rows, int[] idx, int from, int to, double[] acc) {
        for (int k = from; k < to; k++) {
            double[] x = rows[idx[k]];
            for (int j = 0; j < acc.length; j++) {
                acc[j] += x[j];
            }
        }
    }
}
