/**
 * Empirical privacy auditing: {@link io.dpspectra.audit.PrivacyAuditor} runs a mechanism many times on two
 * neighbouring datasets and reports a lower bound on ε that holds with a stated confidence; a bound above the
 * claimed ε is a violation. Not a proof of privacy: a test that can catch a broken mechanism.
 */
package io.dpspectra.audit;
