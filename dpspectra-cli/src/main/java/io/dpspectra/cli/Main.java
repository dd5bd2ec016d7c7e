package io.dpspectra.cli;

/** Entry point of the dpspectra command (skeleton; the CLI work package fills it in). */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.err.println("dpspectra: not yet implemented");
        System.exit(1);
    }
}
