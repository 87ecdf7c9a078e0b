package dev.hicachesync.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep chart: four tier panels, one series per write policy, a real PNG written headless. */
class HitRatioChartTest {

  private static List<SweepPoint> sweep() {
    List<SweepPoint> points = new ArrayList<>();
    for (String policy : List.of("write_through", "write_back")) {
      for (double r : new double[] {0, 1, 2, 4}) {
        double l2 = 0.05 * r / (1 + r);
        points.add(new SweepPoint(policy, r, 0.2, l2, 0.01, 0.21 + l2));
      }
    }
    return points;
  }

  @Test
  void hasOnePanelPerTierAndOneSeriesPerPolicy() {
    JFreeChart chart = HitRatioChart.chart("t", sweep(), OptionalDouble.of(0.37));
    List<XYPlot> panels = ((CombinedDomainXYPlot) chart.getPlot()).getSubplots();
    assertEquals(4, panels.size());
    for (XYPlot p : panels) {
      assertEquals(2, p.getDataset().getSeriesCount());
      assertEquals(4, p.getDataset().getItemCount(0));
    }
    assertEquals(1, panels.get(3).getRangeMarkers(org.jfree.chart.ui.Layer.FOREGROUND).size());
  }

  @Test
  void writesAReadablePng(@TempDir Path dir) throws Exception {
    Path png = dir.resolve("sub/sweep.png");
    HitRatioChart.writePng(png, "sweep", sweep(), OptionalDouble.empty(), 400, 500);
    BufferedImage img = ImageIO.read(png.toFile());
    assertEquals(400, img.getWidth());
    assertEquals(500, img.getHeight());
    boolean coloured = false;
    for (int x = 0; x < img.getWidth() && !coloured; x++) {
      for (int y = 0; y < img.getHeight() && !coloured; y++) {
        int rgb = img.getRGB(x, y) & 0xffffff;
        coloured = rgb == 0x1f77b4; // the first policy's line colour was drawn somewhere
      }
    }
    assertTrue(coloured, "no series drawn");
  }

  @Test
  void tablePrintsOneRowPerPoint() {
    String[] lines = SweepTable.format(sweep()).split("\n");
    assertEquals(9, lines.length);
    assertTrue(lines[2].startsWith("write_through") && lines[2].contains(" 1 "), lines[2]);
  }
}
