package io.dpspectra.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code dpspectra bench ...}: throughput benchmarks of the active linear-algebra backend.
 *
 * <p>TODO(skeleton): filled in by the linalg work package (subcommand {@code gram}). The top-level
 * command registers this class as a subcommand; keep the class name.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks of the linear-algebra backend (skeleton).")
public final class BenchCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("dpspectra bench: not yet implemented");
        return 1;
    }
}
