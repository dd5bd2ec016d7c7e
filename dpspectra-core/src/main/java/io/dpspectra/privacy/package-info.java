/**
 * Budgets and guarantees: {@link io.dpspectra.privacy.PrivacyParams} (ε, δ), the neighbouring relations, the
 * guarantee every release states ({@link io.dpspectra.privacy.PrivacyGuarantee}), and accounting:
 * {@link io.dpspectra.privacy.PrivacyAccountant} (basic, advanced and parallel composition, zCDP), which refuses
 * an overspend before any data is read, and the persistent {@link io.dpspectra.privacy.BudgetLedger}.
 */
package io.dpspectra.privacy;
