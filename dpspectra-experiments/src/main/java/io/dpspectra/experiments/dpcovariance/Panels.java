package io.dpspectra.experiments.dpcovariance;

import io.dpspectra.experiments.io.AtomicWrite;
import io.dpspectra.experiments.plot.BandPlot;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;

/** Tiles several {@link BandPlot} panels into the one PNG of a figure. */
final class Panels {
    private final List<BandPlot> plots = new ArrayList<>();

    Panels add(BandPlot p) {
        plots.add(p);
        return this;
    }

    boolean isEmpty() {
        return plots.isEmpty();
    }

    /** Writes the panels in a grid of {@code cols} columns, each 760 × 480. */
    void write(Path target, int cols) throws IOException {
        if (plots.isEmpty()) {
            throw new IllegalStateException("no panel to write to " + target);
        }
        int w = 760;
        int h = 480;
        int rows = (plots.size() + cols - 1) / cols;
        int c = Math.min(cols, plots.size());
        BufferedImage out = new BufferedImage(c * w, rows * h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, out.getWidth(), out.getHeight());
        Path tmp = Files.createTempFile("dpspectra-panel", ".png");
        try {
            for (int i = 0; i < plots.size(); i++) {
                plots.get(i).writePng(tmp, w, h);
                BufferedImage img = ImageIO.read(tmp.toFile());
                g.drawImage(img, (i % cols) * w, (i / cols) * h, null);
            }
        } finally {
            Files.deleteIfExists(tmp);
            g.dispose();
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ImageIO.write(out, "png", bytes);
        AtomicWrite.write(target, o -> o.write(bytes.toByteArray()));
    }
}
