package dev.horae.schedule;

import dev.horae.schedule.internal.RecordMembers;
import dev.horae.spi.json.EcmaJson;
import java.util.List;

/**
 * Canonical JSON text of Schedule values (spec §4.3, §16.3): members in spec order, no
 * insignificant whitespace, integers as plain digits, strings as {@code JSON.stringify} writes
 * them. Rendering is deterministic, so equal values give equal bytes. A record's and a view's
 * members are written by {@link RecordMembers}, which also orders them as a tree.
 */
public final class ScheduleJson {

  private ScheduleJson() {}

  /**
   * A record: {@code id, kind, prompt, [afterSeconds,] scheduledAt}.
   *
   * @param record the record
   * @return compact JSON text
   */
  public static String record(ScheduleRecord record) {
    StringBuilder out = new StringBuilder(96);
    RecordMembers.appendText(out, record, null);
    return out.toString();
  }

  /**
   * A change in the member order the library writes (spec §3.2).
   *
   * @param change the change
   * @return compact JSON text
   */
  public static String change(ScheduleChange change) {
    StringBuilder out = new StringBuilder(128);
    out.append("{\"version\":1,\"operation\":\"").append(change.operation()).append('"');
    if (change instanceof ScheduleChange.Create create) {
      out.append(",\"schedule\":");
      RecordMembers.appendText(out, create.record(), null);
    } else {
      out.append(",\"id\":");
      EcmaJson.appendString(out, change.id());
    }
    return out.append('}').toString();
  }

  /**
   * A view.
   *
   * @param view the view
   * @return compact JSON text
   */
  public static String view(ScheduleView view) {
    StringBuilder out = new StringBuilder(140);
    appendView(out, view);
    return out.toString();
  }

  /**
   * The {@code schedule_list} value: an array of views in the given order.
   *
   * @param views views in creation order
   * @return compact JSON text
   */
  public static String views(List<ScheduleView> views) {
    StringBuilder out = new StringBuilder(2 + 140 * views.size()).append('[');
    for (int i = 0; i < views.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      appendView(out, views.get(i));
    }
    return out.append(']').toString();
  }

  /**
   * An error value in its shape's member order.
   *
   * @param error the error
   * @return compact JSON text
   */
  public static String error(ScheduleError error) {
    StringBuilder out = new StringBuilder(160).append("{\"code\":");
    EcmaJson.appendString(out, error.code().wire());
    out.append(",\"message\":");
    EcmaJson.appendString(out, error.message());
    if (error instanceof ScheduleError.PersistenceUncertain p) {
      out.append(",\"operation\":");
      EcmaJson.appendString(out, p.operation().wire());
      p.id().ifPresent(
          id -> {
            out.append(",\"id\":");
            EcmaJson.appendString(out, id);
          });
    } else if (error instanceof ScheduleError.ZoneConfirmation z) {
      out.append(",\"sessionTimeZone\":");
      EcmaJson.appendString(out, z.sessionTimeZone());
      out.append(",\"clientTimeZones\":[");
      for (int i = 0; i < z.clientTimeZones().size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        EcmaJson.appendString(out, z.clientTimeZones().get(i));
      }
      out.append(']');
    }
    return out.append('}').toString();
  }

  private static void appendView(StringBuilder out, ScheduleView view) {
    RecordMembers.appendText(out, view.record(), view.state());
  }
}
