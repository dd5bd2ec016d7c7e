package io.dpspectra.consumer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The README's "Install" section: its fenced code blocks and the coordinates they give. */
final class ReadmeInstall {
    /** A coordinate the README shows, in the build tool's block it appears in. */
    record Coordinates(String tool, String groupId, String artifactId, String version, String scope) {
    }

    private record Block(String language, String text) {
    }

    private static final Pattern FENCE = Pattern.compile("(?m)^```(\\w*)\\n(.*?)^```", Pattern.DOTALL);
    private static final Pattern DEPENDENCY = Pattern.compile("<dependency>.*?</dependency>", Pattern.DOTALL);
    private static final Pattern GRADLE = Pattern.compile("(\\w+)\\(\"([\\w.-]+):([\\w.-]+):([\\w.-]+)\"\\)");

    private final List<Block> blocks;

    private ReadmeInstall(List<Block> blocks) {
        this.blocks = blocks;
    }

    static ReadmeInstall read(Path readme) throws IOException {
        String text = Files.readString(readme);
        int start = text.indexOf("\n## Install\n");
        if (start < 0) {
            throw new AssertionError(readme + " has no \"## Install\" section");
        }
        int end = text.indexOf("\n## ", start + 1);
        String section = text.substring(start, end < 0 ? text.length() : end);
        List<Block> blocks = new ArrayList<>();
        Matcher m = FENCE.matcher(section);
        while (m.find()) {
            blocks.add(new Block(m.group(1), m.group(2)));
        }
        return new ReadmeInstall(blocks);
    }

    /** The {@code <dependency>} elements, in order, of the first XML block that names {@code artifactId}. */
    List<String> mavenBlockWith(String artifactId) {
        for (Block b : blocks) {
            if (b.language().equals("xml") && b.text().contains("<artifactId>" + artifactId + "</artifactId>")) {
                List<String> deps = new ArrayList<>();
                Matcher m = DEPENDENCY.matcher(b.text());
                while (m.find()) {
                    deps.add(m.group());
                }
                return deps;
            }
        }
        throw new AssertionError("the README's Install section has no XML block with " + artifactId);
    }

    /** Every coordinate of the XML and Gradle blocks. */
    List<Coordinates> coordinates() {
        List<Coordinates> all = new ArrayList<>();
        for (Block b : blocks) {
            if (b.language().equals("xml")) {
                Matcher m = DEPENDENCY.matcher(b.text());
                while (m.find()) {
                    String d = m.group();
                    all.add(new Coordinates("maven", tag(d, "groupId"), tag(d, "artifactId"), tag(d, "version"),
                            tag(d, "scope")));
                }
            } else if (b.language().equals("kotlin") || b.language().equals("groovy")) {
                Matcher m = GRADLE.matcher(b.text());
                while (m.find()) {
                    all.add(new Coordinates("gradle", m.group(2), m.group(3), m.group(4), m.group(1)));
                }
            }
        }
        return all;
    }

    private static String tag(String xml, String name) {
        Matcher m = Pattern.compile("<" + name + ">\\s*([^<]*?)\\s*</" + name + ">").matcher(xml);
        return m.find() ? m.group(1) : null;
    }
}
