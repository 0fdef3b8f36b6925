package dev.horae.timecontext;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Comparator;

/** JSON equality where numbers compare by value ({@code 30} equals {@code 30.0}). */
final class JsonNumbers {

  static final Comparator<JsonNode> BY_VALUE =
      (a, b) -> {
        if (a.equals(b)) {
          return 0;
        }
        if (a.isNumber() && b.isNumber()) {
          return a.decimalValue().compareTo(b.decimalValue());
        }
        return 1;
      };

  private JsonNumbers() {}
}
