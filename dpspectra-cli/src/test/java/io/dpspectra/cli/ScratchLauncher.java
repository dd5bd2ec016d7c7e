package io.dpspectra.cli;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The launcher script in a scratch root, beside a jar whose manifest points at the test's class path, so
 * that the script runs this build's classes without a Maven build.
 */
final class ScratchLauncher {
    private ScratchLauncher() {
    }

    /** The repository's launcher, found from the working directory upwards; null when not run from the repository. */
    static Path findLauncher() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path p = d.resolve("dpspectra");
            if (Files.isRegularFile(p) && Files.isRegularFile(d.resolve("pom.xml"))) {
                return p;
            }
        }
        return null;
    }

    /** True when the launcher and bash are at hand. */
    static boolean available() {
        return findLauncher() != null && new File("/bin/bash").canExecute();
    }

    /** Copies the launcher into {@code root} and writes the jar it runs; returns the jar. */
    static Path install(Path root) throws IOException {
        Path script = root.resolve("dpspectra");
        Files.copy(findLauncher(), script);
        if (!script.toFile().setExecutable(true)) {
            throw new IOException("cannot make " + script + " executable");
        }
        Path jar = Files.createDirectories(root.resolve("dpspectra-cli/target")).resolve("dpspectra.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Main.class.getName());
        List<String> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(Path.of(entry).toAbsolutePath().toUri().toString());
        }
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", urls));
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m)) {
            j.flush();
        }
        return jar;
    }
}
