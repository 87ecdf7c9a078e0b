package dev.hicachesync.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** The bench's line charts: cost against ranks and against trace length, one series per measured path. */
final class BenchChart {
  static {
    System.setProperty("java.awt.headless", "true"); // render into an image; no display on servers
  }

  private static final Color[] COLOURS = {
      new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd)};

  private BenchChart() {}

  /** Writes a PNG of {@code series} (name → x → y), creating parent folders. */
  static void writePng(Path file, String title, String xLabel, String yLabel,
      Map<String, Map<Double, Double>> series) throws IOException {
    XYSeriesCollection data = new XYSeriesCollection();
    for (Map.Entry<String, Map<Double, Double>> s : series.entrySet()) {
      XYSeries xy = new XYSeries(s.getKey(), true, false);
      s.getValue().forEach(xy::add);
      data.addSeries(xy);
    }
    NumberAxis x = new NumberAxis(xLabel);
    NumberAxis y = new NumberAxis(yLabel);
    y.setAutoRangeIncludesZero(true);
    XYLineAndShapeRenderer lines = new XYLineAndShapeRenderer(true, true);
    for (int i = 0; i < data.getSeriesCount(); i++) {
      lines.setSeriesPaint(i, COLOURS[i % COLOURS.length]);
      lines.setSeriesStroke(i, new BasicStroke(2f));
    }
    XYPlot plot = new XYPlot(data, x, y, lines);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 15), plot, true);
    chart.setBackgroundPaint(Color.WHITE);
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    ChartUtils.saveChartAsPNG(file.toFile(), chart, 800, 500);
  }
}
