/**
 * The release layer: everything between rows on disk and an estimator with a budget, usable from Java, the
 * command line and Spark alike. It holds the one table of algorithm names ({@link io.dpspectra.release.Algorithms}),
 * the typed options and budget split ({@link io.dpspectra.release.PcaOptions},
 * {@link io.dpspectra.release.BudgetPlan}), and the private preprocessing (row bound, centring, clipping) over a
 * seam of exact statistics ({@link io.dpspectra.release.Preprocessor}, {@link io.dpspectra.release.StatisticSource})
 * that local files and a cluster each implement.
 *
 * <p><b>No data-dependent exception after the first private computation.</b> An error is an output: if a run on
 * D releases and the same run on D′ = D plus one row fails, whether a release appeared tells D from D′ with
 * certainty (ε = ∞), whatever the release claims. So every check that looks at the data (a non-finite cell, a
 * row over a refused bound, no rows) runs before any noise is drawn and behaves the same on neighbouring inputs
 * (or is itself accounted for); after the first noise, an extreme or non-finite value is mapped to a fixed point
 * (clipped onto the bound, or a per-sample contribution set to a point inside the clip ball), never thrown. A
 * documented refusal decided from noisy values (a private eigengap test) is part of the mechanism's output, not
 * an exception of this kind. Every private algorithm of the table is run on D and on D plus one extreme finite
 * row, and must have the same outcome on both. Running time is not covered by this rule: the samplers whose time
 * depends on the data say so in their javadoc.
 */
package io.dpspectra.release;
