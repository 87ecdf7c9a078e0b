package dev.hicachesync.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.DefaultDrawingSupplier;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws a capacity sweep: hit ratio by tier against host capacity, one line per write policy, as PNG.
 *
 * <p>Four stacked panels share the x axis (host capacity as a multiple of device capacity): L1 hits,
 * L2 hits loaded back, L3 hits prefetched, total. Each panel has its own y range, because the small
 * tiers would be flat lines on the total's scale. The trace's own prefix reuse (the unbounded-cache
 * ceiling from {@code PrefixReuseOracle}) is drawn on the total panel as a dashed marker when given.
 */
public final class HitRatioChart {

  static {
    // No display on CI or servers: JFreeChart renders into a BufferedImage, which needs no window.
    System.setProperty("java.awt.headless", "true");
  }

  /** Default picture size in pixels. */
  public static final int WIDTH = 900;

  /** Default picture size in pixels: four panels need height. */
  public static final int HEIGHT = 1000;

  private static final Color[] COLOURS = {
      new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd)};

  /** One shape per policy, the same in every panel, so the single legend speaks for all four. */
  private static final Shape[] SHAPES = DefaultDrawingSupplier.createStandardSeriesShapes();

  private HitRatioChart() {}

  /** Builds the chart; {@code ceiling} is the oracle's total hit ratio, if known. */
  public static JFreeChart chart(String title, List<SweepPoint> points, OptionalDouble ceiling) {
    NumberAxis x = new NumberAxis("host capacity (L2 pages / L1 pages)");
    CombinedDomainXYPlot plot = new CombinedDomainXYPlot(x);
    plot.setGap(12);
    for (SweepPoint.Tier tier : SweepPoint.Tier.values()) {
      XYPlot panel = panel(tier, points);
      if (tier == SweepPoint.Tier.TOTAL && ceiling.isPresent()) {
        panel.addRangeMarker(ceilingMarker(ceiling.getAsDouble()));
        NumberAxis y = (NumberAxis) panel.getRangeAxis();
        y.setUpperBound(Math.max(y.getUpperBound(), ceiling.getAsDouble() * 1.05));
      }
      plot.add(panel, tier == SweepPoint.Tier.TOTAL ? 2 : 1);
    }
    JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
    chart.setBackgroundPaint(Color.WHITE);
    return chart;
  }

  /** Writes the chart as a PNG of {@code width} × {@code height} pixels, creating parent folders. */
  public static void writePng(Path file, String title, List<SweepPoint> points, OptionalDouble ceiling,
      int width, int height) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    ChartUtils.saveChartAsPNG(file.toFile(), chart(title, points, ceiling), width, height);
  }

  private static XYPlot panel(SweepPoint.Tier tier, List<SweepPoint> points) {
    // One series per write policy, in order of first appearance, so colours are stable across traces.
    Map<String, XYSeries> byPolicy = new LinkedHashMap<>();
    for (SweepPoint p : points) {
      byPolicy.computeIfAbsent(p.writePolicy(), k -> new XYSeries(k, true, false))
          .add(p.hostRatio(), p.tier(tier));
    }
    XYSeriesCollection data = new XYSeriesCollection();
    byPolicy.values().forEach(data::addSeries);
    NumberAxis y = new NumberAxis(tier.label());
    y.setAutoRangeIncludesZero(true);
    y.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    XYLineAndShapeRenderer lines = new XYLineAndShapeRenderer(true, true);
    for (int i = 0; i < data.getSeriesCount(); i++) {
      lines.setSeriesPaint(i, COLOURS[i % COLOURS.length]);
      lines.setSeriesShape(i, SHAPES[i % SHAPES.length]);
      lines.setSeriesStroke(i, new BasicStroke(2f));
      // Policies often coincide (e.g. no host tier): the legend says which line hides which.
      lines.setSeriesVisibleInLegend(i, tier == SweepPoint.Tier.L1);
    }
    XYPlot panel = new XYPlot(data, null, y, lines);
    panel.setBackgroundPaint(Color.WHITE);
    panel.setRangeGridlinePaint(Color.LIGHT_GRAY);
    panel.setDomainGridlinePaint(Color.LIGHT_GRAY);
    return panel;
  }

  private static ValueMarker ceilingMarker(double ceiling) {
    ValueMarker m = new ValueMarker(ceiling, Color.DARK_GRAY, new BasicStroke(1.5f,
        BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
    m.setLabel(String.format("trace prefix reuse (unbounded) %.3f", ceiling));
    m.setLabelBackgroundColor(new Color(255, 255, 255, 0));
    m.setLabelAnchor(RectangleAnchor.BOTTOM_RIGHT);
    m.setLabelTextAnchor(TextAnchor.TOP_RIGHT);
    return m;
  }
}
