package dev.horae.schedule;

import dev.horae.spi.json.EcmaJson;
import java.util.List;

/**
 * The result of a fold (spec §3.5): the active records and every seen id, both in creation order.
 *
 * @param active records created and not yet deleted or dispatched, in creation order
 * @param seenIds every id created in the owned suffix, in creation order
 */
public record ScheduleState(List<ScheduleRecord> active, List<String> seenIds) {

  /**
   * Freezes both lists.
   *
   * @param active as described on the record
   * @param seenIds as described on the record
   */
  public ScheduleState {
    active = List.copyOf(active);
    seenIds = List.copyOf(seenIds);
  }

  /**
   * The canonical JSON text {@code {"active":[record…],"seenIds":[id…]}}.
   *
   * @return compact JSON text
   */
  public String toJson() {
    StringBuilder out = new StringBuilder("{\"active\":[");
    for (int i = 0; i < active.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(ScheduleJson.record(active.get(i)));
    }
    out.append("],\"seenIds\":[");
    for (int i = 0; i < seenIds.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      EcmaJson.appendString(out, seenIds.get(i));
    }
    return out.append("]}").toString();
  }
}
