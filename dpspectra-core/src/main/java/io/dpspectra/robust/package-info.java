/**
 * Outlier-robust private PCA (Maunu, Yu &amp; Lerman): descents on the Grassmannian for the GLAD objective
 * ({@link io.dpspectra.robust.GrassmannDescent}: GGD, SGGD and their private versions) and first-order methods
 * for its convex REAPER relaxation ({@link io.dpspectra.robust.Reaper}), on rows mapped to the unit sphere.
 */
package io.dpspectra.robust;
