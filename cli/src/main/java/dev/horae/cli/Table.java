package dev.horae.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table: a header row and left-aligned columns two spaces apart. */
final class Table {

  /** Longer cells are cut with an ellipsis, so one wide prompt cannot push the table off screen. */
  private static final int MAX_CELL = 60;

  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  Table(String... header) {
    this.header = List.of(header);
  }

  Table row(String... cells) {
    List<String> r = new ArrayList<>();
    for (String c : cells) {
      String oneLine = c.replace('\n', ' ');
      r.add(oneLine.length() > MAX_CELL ? oneLine.substring(0, MAX_CELL - 1) + "…" : oneLine);
    }
    rows.add(r);
    return this;
  }

  void print(PrintStream out) {
    int[] widths = new int[header.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = header.get(i).length();
      for (List<String> r : rows) {
        widths[i] = Math.max(widths[i], r.get(i).length());
      }
    }
    line(out, header, widths);
    for (List<String> r : rows) {
      line(out, r, widths);
    }
  }

  private static void line(PrintStream out, List<String> cells, int[] widths) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        sb.append("  ");
      }
      sb.append(cells.get(i));
      if (i < cells.size() - 1) {
        sb.append(" ".repeat(widths[i] - cells.get(i).length()));
      }
    }
    out.println(sb);
  }
}
