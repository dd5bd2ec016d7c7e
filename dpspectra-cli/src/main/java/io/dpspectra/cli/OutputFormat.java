package io.dpspectra.cli;

/** How a result is printed. */
enum OutputFormat {
    json, table
}
