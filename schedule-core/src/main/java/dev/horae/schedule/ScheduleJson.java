package dev.horae.schedule;

import dev.horae.spi.json.EcmaJson;
import java.util.List;

/**
 * Canonical JSON text of Schedule values (spec §4.3, §16.3): members in spec order, no
 * insignificant whitespace, integers as plain digits, strings as {@code JSON.stringify} writes
 * them. Rendering is deterministic, so equal values give equal bytes.
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
    appendRecordMembers(out.append('{'), record);
    return out.append('}').toString();
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
      out.append(",\"schedule\":{");
      appendRecordMembers(out, create.record());
      out.append('}');
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
    out.append('{');
    appendRecordMembers(out, view.record());
    out.append(",\"state\":\"").append(view.state().wire()).append('"');
    out.append(",\"deliveryMode\":\"").append(ScheduleView.DELIVERY_MODE).append("\"}");
  }

  private static void appendRecordMembers(StringBuilder out, ScheduleRecord record) {
    out.append("\"id\":");
    EcmaJson.appendString(out, record.id());
    out.append(",\"kind\":\"").append(record.kind()).append('"');
    out.append(",\"prompt\":");
    EcmaJson.appendString(out, record.prompt());
    if (record instanceof ScheduleRecord.After after) {
      out.append(",\"afterSeconds\":").append(after.afterSeconds());
    }
    out.append(",\"scheduledAt\":\"").append(record.scheduledAt()).append('"');
  }
}
