/**
 * Core's one JSON parser ({@link io.dpspectra.json.JsonReader}): a small, strict RFC 8259 pull parser, so
 * that core reads its own JSON (local-DP reports as JSON lines, schema files) without a JSON library. A large
 * array of numbers streams into a {@code double[]} without a tree; errors name the line and column.
 */
package io.dpspectra.json;
