package io.dpspectra.experiments.plot;

import io.dpspectra.experiments.Summary;
import io.dpspectra.experiments.io.AtomicWrite;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A line plot of one or more methods against a swept parameter, each drawn as its mean with its
 * 95% band (dashed) (the style of the papers' figures), rendered headless to PNG and written atomically.
 *
 * <pre>{@code
 * BandPlot.titled("Fig. 1(a)", "n", "captured variance").logX()
 *         .series("k-DP-Ojas", ns, summaries)
 *         .writePng(dir.resolve("fig1a.png"));
 * }</pre>
 */
public final class BandPlot {
    private record Series(String name, double[] x, double[] mean, double[] lower, double[] upper) {
    }

    private static final Color[] PALETTE = {new Color(31, 119, 180), new Color(255, 127, 14),
        new Color(44, 160, 44), new Color(214, 39, 40), new Color(148, 103, 189), new Color(140, 86, 75),
        new Color(227, 119, 194), new Color(127, 127, 127), new Color(188, 189, 34), new Color(23, 190, 207)};

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private boolean logX;
    private boolean logY;
    private boolean errorBars;
    private final List<Series> series = new ArrayList<>();
    private final List<double[]> references = new ArrayList<>();
    private final List<String> referenceNames = new ArrayList<>();

    private static final org.knowm.xchart.style.markers.Marker[] MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE,
        SeriesMarkers.DIAMOND, SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS,
        SeriesMarkers.PLUS, SeriesMarkers.OVAL, SeriesMarkers.RECTANGLE};

    private BandPlot(String title, String xLabel, String yLabel) {
        this.title = Objects.requireNonNull(title, "title");
        this.xLabel = Objects.requireNonNull(xLabel, "xLabel");
        this.yLabel = Objects.requireNonNull(yLabel, "yLabel");
    }

    public static BandPlot titled(String title, String xLabel, String yLabel) {
        return new BandPlot(title, xLabel, yLabel);
    }

    /** Logarithmic x axis (all x must be &gt; 0). */
    public BandPlot logX() {
        this.logX = true;
        return this;
    }

    /** Logarithmic y axis (all plotted values must be &gt; 0). */
    public BandPlot logY() {
        this.logY = true;
        return this;
    }

    /** Draws each series' lower/upper as vertical bars at its points (e.g. mean ± SD) instead of band lines. */
    public BandPlot errorBars() {
        this.errorBars = true;
        return this;
    }

    /**
     * A reference curve (e.g. the random-subspace level at each x), named in the legend: the first is dashed
     * black, the second dotted grey, alternating after that.
     */
    public BandPlot reference(String name, double[] x, double[] y) {
        if (x.length != y.length || x.length == 0) {
            throw new IllegalArgumentException("reference '" + name + "': x and y must have the same non-zero length");
        }
        references.add(x.clone());
        references.add(y.clone());
        referenceNames.add(Objects.requireNonNull(name, "name"));
        return this;
    }

    /** Adds a method: at each x its summary over trials (mean line, 95% band). */
    public BandPlot series(String name, double[] x, Summary[] summaries) {
        if (x.length != summaries.length || x.length == 0) {
            throw new IllegalArgumentException("series '" + name + "': " + x.length + " x values but "
                    + summaries.length + " summaries");
        }
        double[] m = new double[x.length];
        double[] lo = new double[x.length];
        double[] hi = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            m[i] = summaries[i].mean();
            lo[i] = summaries[i].lower();
            hi[i] = summaries[i].upper();
        }
        return series(name, x, m, lo, hi);
    }

    /** Adds a method from explicit mean and band arrays (band may equal the mean for a reference line). */
    public BandPlot series(String name, double[] x, double[] mean, double[] lower, double[] upper) {
        int n = x.length;
        if (mean.length != n || lower.length != n || upper.length != n || n == 0) {
            throw new IllegalArgumentException("series '" + name + "': arrays must have the same non-zero length");
        }
        series.add(new Series(name, x.clone(), mean.clone(), lower.clone(), upper.clone()));
        return this;
    }

    /** Writes a {@code width} × {@code height} PNG to {@code target}, atomically. */
    public void writePng(Path target, int width, int height) throws IOException {
        var rendered = chart(width, height);
        AtomicWrite.write(target, out -> BitmapEncoder.saveBitmap(rendered, out, BitmapEncoder.BitmapFormat.PNG));
    }

    /** The chart rendered in memory as a {@code width} × {@code height} image (e.g. to tile panels). */
    public java.awt.image.BufferedImage render(int width, int height) {
        return BitmapEncoder.getBufferedImage(chart(width, height));
    }

    /** Writes an 800 × 560 PNG. */
    public void writePng(Path target) throws IOException {
        writePng(target, 800, 560);
    }

    /**
     * The label of a tick on a log axis whose intermediate ticks are shown: the decades and 2, 3 and 5 times them
     * ("0.2", "3e+04"), nothing for the other intermediate ticks, so the labels do not collide.
     */
    static String logTickLabel(Double v) {
        double e = Math.floor(Math.log10(v) + 1e-9);
        double mantissa = v / Math.pow(10, e);
        long m = Math.round(mantissa);
        if (Math.abs(mantissa - m) > 1e-6 || !(m == 1 || m == 2 || m == 3 || m == 5)) {
            return " ";
        }
        if (e >= -3 && e <= 5) {
            return new java.math.BigDecimal(m).scaleByPowerOfTen((int) e).stripTrailingZeros().toPlainString();
        }
        return m + "e" + (e >= 0 ? "+" : "") + (long) e;
    }

    XYChart chart(int width, int height) {
        if (series.isEmpty()) {
            throw new IllegalStateException("plot '" + title + "' has no series");
        }
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(width).height(height).title(title)
                .xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        double xLo0 = series.stream().flatMapToDouble(s -> java.util.Arrays.stream(s.x)).min().orElse(1);
        double xHi0 = series.stream().flatMapToDouble(s -> java.util.Arrays.stream(s.x)).max().orElse(1);
        // a log x axis labels only powers of ten: under one decade of data (e.g. d = 50..400) it would show one
        // label or none, so such a plot keeps a linear x axis
        boolean useLogX = logX && xHi0 / xLo0 >= 10;
        chart.getStyler().setXAxisLogarithmic(useLogX);
        chart.getStyler().setYAxisLogarithmic(logY);
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
        chart.getStyler().setMarkerSize(6);
        double yMin = Double.POSITIVE_INFINITY;
        double yMax = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            Color c = PALETTE[i % PALETTE.length];
            boolean hasBand = false;
            for (int j = 0; j < s.x.length; j++) {
                hasBand |= s.lower[j] != s.upper[j];
                for (double y : new double[] {s.mean[j], s.lower[j], s.upper[j]}) {
                    if (!logY || y > 0) {
                        yMin = Math.min(yMin, y);
                        yMax = Math.max(yMax, y);
                    }
                }
            }
            Color light = new Color(c.getRed(), c.getGreen(), c.getBlue(), errorBars ? 200 : 110);
            if (hasBand && errorBars) {
                for (int j = 0; j < s.x.length; j++) { // one vertical segment per point
                    double lo = logY && !(s.lower[j] > 0) ? s.mean[j] / 10 : s.lower[j];
                    XYSeries e = chart.addSeries(s.name + " bar " + j, new double[] {s.x[j], s.x[j]},
                            new double[] {lo, s.upper[j]});
                    e.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
                    e.setMarker(SeriesMarkers.NONE);
                    e.setLineColor(light);
                    e.setLineWidth(1.5f);
                    e.setShowInLegend(false);
                }
            } else if (hasBand) {
                // the 95% band as two thin translucent lines (XChart has no fill-between)
                for (double[] edge : new double[][] {s.lower, s.upper}) {
                    XYSeries e = chart.addSeries(s.name + (edge == s.lower ? " lower" : " upper"), s.x, edge);
                    e.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
                    e.setMarker(SeriesMarkers.NONE);
                    e.setLineColor(light);
                    e.setLineWidth(1f);
                    e.setLineStyle(org.knowm.xchart.style.lines.SeriesLines.DASH_DASH);
                    e.setShowInLegend(false);
                }
            }
            XYSeries line = chart.addSeries(s.name, s.x, s.mean);
            line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            line.setMarker(MARKERS[i % MARKERS.length]);
            line.setMarkerColor(c);
            line.setLineColor(c);
        }
        for (int r = 0; r < referenceNames.size(); r++) {
            double[] rx = references.get(2 * r);
            double[] ry = references.get(2 * r + 1);
            for (double y : ry) {
                yMin = Math.min(yMin, y);
                yMax = Math.max(yMax, y);
            }
            XYSeries ref = chart.addSeries(referenceNames.get(r), rx, ry);
            ref.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            ref.setMarker(SeriesMarkers.NONE);
            // successive references stay distinguishable: black dashes, then grey dots, ...
            ref.setLineColor(r % 2 == 0 ? Color.BLACK : Color.GRAY);
            ref.setLineStyle(r % 2 == 0 ? org.knowm.xchart.style.lines.SeriesLines.DASH_DASH
                    : org.knowm.xchart.style.lines.SeriesLines.DOT_DOT);
        }
        double xLo = Double.POSITIVE_INFINITY;
        double xHi = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (double x : s.x) {
                xLo = Math.min(xLo, x);
                xHi = Math.max(xHi, x);
            }
        }
        if (useLogX && xLo > 0 && Math.floor(Math.log10(xLo)) == Math.floor(Math.log10(xHi))) {
            chart.getStyler().setXAxisMin(Math.pow(10, Math.floor(Math.log10(xLo))));
            chart.getStyler().setXAxisMax(Math.pow(10, Math.ceil(Math.log10(xHi * 1.0001))));
        }
        if (useLogX && xHi / xLo < 1e3) {
            // two or three decades carry only two or three decade labels: label 2, 3, 5 times each decade too
            chart.getStyler().setXAxisLogarithmicDecadeOnly(false);
            chart.getStyler().setXAxisTickLabelsFormattingFunction(BandPlot::logTickLabel);
        }
        if (logY && yMin > 0 && yMax > 0) {
            // whole decades, so a log axis always carries labelled ticks (a range inside one decade shows none)
            double lo = Math.pow(10, Math.floor(Math.log10(yMin)));
            double hi = Math.pow(10, Math.ceil(Math.log10(yMax * 1.0001)));
            chart.getStyler().setYAxisMin(lo);
            chart.getStyler().setYAxisMax(hi);
            if (hi / lo < 1e3) {
                chart.getStyler().setYAxisLogarithmicDecadeOnly(false);
                chart.getStyler().setYAxisTickLabelsFormattingFunction(BandPlot::logTickLabel);
            }
        }
        return chart;
    }
}
