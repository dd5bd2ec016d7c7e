package io.dpspectra.experiments.plot;

import io.dpspectra.experiments.io.AtomicWrite;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Renders a 2-D scatter plot of labelled points as a PNG (XChart, headless), one colour per label.
 * The file is written atomically: to a temporary file in the target's directory, then renamed, so a
 * failed render leaves no file behind.
 */
public final class ScatterPlot {
    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final Map<String, List<double[]>> series = new LinkedHashMap<>();

    private ScatterPlot(String title, String xLabel, String yLabel) {
        this.title = Objects.requireNonNull(title, "title");
        this.xLabel = Objects.requireNonNull(xLabel, "xLabel");
        this.yLabel = Objects.requireNonNull(yLabel, "yLabel");
    }

    public static ScatterPlot titled(String title, String xLabel, String yLabel) {
        return new ScatterPlot(title, xLabel, yLabel);
    }

    /** Adds the point (x, y) to the series named {@code label} (series keep their first-seen order). */
    public ScatterPlot add(String label, double x, double y) {
        series.computeIfAbsent(label, l -> new ArrayList<>()).add(new double[] {x, y});
        return this;
    }

    /** Writes the chart as a {@code width} × {@code height} PNG to {@code target}, atomically. */
    public void writePng(Path target, int width, int height) throws IOException {
        if (series.isEmpty()) {
            throw new IllegalStateException("scatter plot '" + title + "' has no points");
        }
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(width).height(height).title(title)
                .xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        chart.getStyler().setMarkerSize(7);
        chart.getStyler().setChartTitleVisible(true);
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            List<double[]> pts = e.getValue();
            double[] xs = new double[pts.size()];
            double[] ys = new double[pts.size()];
            for (int i = 0; i < xs.length; i++) {
                xs[i] = pts.get(i)[0];
                ys[i] = pts.get(i)[1];
            }
            chart.addSeries(e.getKey(), xs, ys).setMarker(SeriesMarkers.CIRCLE);
        }
        var rendered = chart;
        AtomicWrite.write(target, out -> BitmapEncoder.saveBitmap(rendered, out, BitmapEncoder.BitmapFormat.PNG));
    }
}
