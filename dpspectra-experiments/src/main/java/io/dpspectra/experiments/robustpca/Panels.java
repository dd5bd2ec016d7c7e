package io.dpspectra.experiments.robustpca;

import io.dpspectra.experiments.io.AtomicWrite;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** Multi-panel PNGs for the robust-PCA reproduction: heat maps of a grid, and 2-D point maps. */
final class Panels {
    /** Panel titles: 12-point bold, shrunk (down to {@link #SMALLEST_TITLE} points) when a title is wider than its panel. */
    private static final java.awt.Font TITLE_FONT = new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.BOLD, 12);

    /** The smallest title size: below it a title is unreadable, so a longer one is clipped instead. */
    private static final float SMALLEST_TITLE = 8f;

    /** Room a panel leaves around its title (XChart's chart padding on both sides). */
    private static final int TITLE_MARGIN = 24;

    private Panels() {
    }

    /**
     * The title font for a panel {@code width} pixels wide: 12-point bold, or the largest half-point size down to
     * {@link #SMALLEST_TITLE} at which {@code title} fits (a method's long name and its number, e.g. "dp-PCA (private
     * power method, full budget) (Procrustes error 0.97)", overflow a 520-pixel panel at 12 points).
     */
    static java.awt.Font titleFont(String title, int width) {
        java.awt.font.FontRenderContext frc = new java.awt.font.FontRenderContext(null, true, true);
        java.awt.Font f = TITLE_FONT;
        while (f.getSize2D() > SMALLEST_TITLE && f.getStringBounds(title, frc).getWidth() > width - TITLE_MARGIN) {
            f = f.deriveFont(f.getSize2D() - 0.5f);
        }
        return f;
    }

    /** Tiles panels in rows of {@code perRow} and writes one PNG atomically. */
    static void write(Path target, List<BufferedImage> panels, int perRow) throws IOException {
        int w = panels.get(0).getWidth();
        int h = panels.get(0).getHeight();
        int rows = (panels.size() + perRow - 1) / perRow;
        BufferedImage out = new BufferedImage(w * Math.min(perRow, panels.size()), h * rows, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, out.getWidth(), out.getHeight());
        for (int i = 0; i < panels.size(); i++) {
            g.drawImage(panels.get(i), (i % perRow) * w, (i / perRow) * h, null);
        }
        g.dispose();
        System.setProperty("java.awt.headless", "true");
        AtomicWrite.write(target, os -> ImageIO.write(out, "png", os));
    }

    /**
     * A heat map of values[yi][xi] (NaN cells shown as the imputed {@code missing}) with the value printed in each
     * cell; colours run from {@code min} to {@code max}.
     */
    static BufferedImage heatMap(String title, String xLabel, String[] xs, String yLabel, String[] ys, double[][] values,
                                 double min, double max, String pattern) {
        System.setProperty("java.awt.headless", "true");
        HeatMapChart chart = new HeatMapChartBuilder().width(520).height(400).title(title).xAxisTitle(xLabel)
                .yAxisTitle(yLabel).build();
        chart.getStyler().setChartTitleFont(titleFont(title, 520));
        // label every row and column (the default spacing hint of 74 px skips every other label of a 4 x 4 grid)
        chart.getStyler().setXAxisTickMarkSpacingHint(8);
        chart.getStyler().setYAxisTickMarkSpacingHint(8);
        chart.getStyler().setShowValue(true);
        chart.getStyler().setMin(min);
        chart.getStyler().setMax(max);
        chart.getStyler().setHeatMapValueDecimalPattern(pattern);
        chart.getStyler().setRangeColors(new Color[] {new Color(68, 1, 84), new Color(59, 82, 139),
            new Color(33, 145, 140), new Color(94, 201, 98), new Color(253, 231, 37)});
        List<Number[]> cells = new ArrayList<>();
        for (int yi = 0; yi < ys.length; yi++) {
            for (int xi = 0; xi < xs.length; xi++) {
                double v = values[yi][xi];
                cells.add(new Number[] {xi, yi, Double.isNaN(v) ? max : Math.max(min, Math.min(max, v))});
            }
        }
        chart.addSeries(title, List.of(xs), List.of(ys), cells);
        return BitmapEncoder.getBufferedImage(chart);
    }

    /** A scatter panel of labelled 2-D points, each point coloured by its own colour; no legend. */
    static BufferedImage map(String title, double[][] xy, Color[] colours) {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(520).height(460).title(title).xAxisTitle("coordinate 1")
                .yAxisTitle("coordinate 2").build();
        chart.getStyler().setChartTitleFont(titleFont(title, 520));
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setMarkerSize(5);
        // one series per distinct colour
        java.util.Map<Color, List<double[]>> byColour = new java.util.LinkedHashMap<>();
        for (int i = 0; i < xy.length; i++) {
            byColour.computeIfAbsent(colours[i], c -> new ArrayList<>()).add(xy[i]);
        }
        int s = 0;
        for (var e : byColour.entrySet()) {
            double[] x = e.getValue().stream().mapToDouble(p -> p[0]).toArray();
            double[] y = e.getValue().stream().mapToDouble(p -> p[1]).toArray();
            XYSeries series = chart.addSeries(String.format(Locale.ROOT, "s%d", s++), x, y);
            series.setMarker(SeriesMarkers.CIRCLE);
            series.setMarkerColor(e.getKey());
        }
        return BitmapEncoder.getBufferedImage(chart);
    }

    /** A blank panel carrying a message (for a method that was refused or not run). */
    static BufferedImage message(String title, String... lines) {
        BufferedImage img = new BufferedImage(520, 460, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, 520, 460);
        g.setColor(Color.BLACK);
        g.setFont(titleFont(title, 520));
        g.drawString(title, 20, 30);
        g.setFont(TITLE_FONT.deriveFont(java.awt.Font.PLAIN));
        int y = 70;
        for (String l : lines) {
            g.drawString(l, 20, y);
            y += 20;
        }
        g.dispose();
        return img;
    }
}
