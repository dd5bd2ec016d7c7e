package io.dpspectra.robust;

/** How each iteration of a first-order robust-PCA method chooses its rows. */
public enum Batch {
    /** All rows (GGD, NGGD, dp-GGD, dp-GD-REAP, dp-MD-REAP). */
    FULL,
    /** B indices drawn uniformly with replacement (the paper's SGGD and Algorithms 1–2 as printed). */
    WITH_REPLACEMENT,
    /** Every row independently with probability B/N (the private minibatch methods, Rényi accountant). */
    POISSON
}
