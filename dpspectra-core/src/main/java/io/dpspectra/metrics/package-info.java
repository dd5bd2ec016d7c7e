/**
 * Accuracy of a release against the truth, for experiments and tests (never part of a release): captured
 * variance and ζ, principal angles, projector distances, and the normalised covariance error.
 */
package io.dpspectra.metrics;
