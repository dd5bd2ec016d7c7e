/*
 * The release chain's checks before it spends, with dpspectra-core alone: the share of a private bound planned
 * from the number of rows, and the usefulness check (a warning through the listener, then a refusal with
 * Usefulness.REFUSE, before any noise is drawn), on 300 rows of pure noise (30 columns) at epsilon = 0.2.
 *
 *   java -cp <dpspectra-core and its runtime dependencies> examples/UsefulnessExample.java
 *
 * The rows are test data drawn from a seeded source; nothing is released.
 */

import io.dpspectra.data.InMemoryRows;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.release.BudgetPlan;
import io.dpspectra.release.Centring;
import io.dpspectra.release.PrivatePca;
import io.dpspectra.release.ReleaseListener;
import io.dpspectra.release.RowBound;
import io.dpspectra.release.Usefulness;
import io.dpspectra.release.UselessReleaseException;

public class UsefulnessExample {
    public static void main(String[] args) {
        RandomSource data = RandomSource.seededForReproducibility(1); // test data, not privacy noise
        double[][] x = new double[300][30];
        for (double[] row : x) {
            for (int j = 0; j < 30; j++) {
                row[j] = data.standardNormal();
            }
        }
        ReleaseListener print = new ReleaseListener() {
            @Override
            public void warning(String message) {
                System.out.println("warning: " + message);
            }
        };
        PrivatePca chain = PrivatePca.of(InMemoryRows.of(x)).bound(RowBound.privateQuantile(0.5))
                .centre(Centring.PRIVATE).components(2).listener(print);
        BudgetPlan plan = chain.plan(PrivacyParams.of(0.2, 1e-6));
        System.out.println("planned: " + plan);
        try {
            chain.usefulness(Usefulness.REFUSE).fit(PrivacyParams.of(0.2, 1e-6));
        } catch (UselessReleaseException e) {
            System.out.println("refused: " + e.getMessage());
        }
    }
}
