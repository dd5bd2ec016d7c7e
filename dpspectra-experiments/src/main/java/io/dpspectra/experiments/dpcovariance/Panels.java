package io.dpspectra.experiments.dpcovariance;

import io.dpspectra.experiments.io.AtomicWrite;
import io.dpspectra.experiments.plot.BandPlot;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
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
        try {
            for (int i = 0; i < plots.size(); i++) {
                g.drawImage(plots.get(i).render(w, h), (i % cols) * w, (i / cols) * h, null);
            }
        } finally {
            g.dispose();
        }
        AtomicWrite.write(target, o -> ImageIO.write(out, "png", o));
    }
}
