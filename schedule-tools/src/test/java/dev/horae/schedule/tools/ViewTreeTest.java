package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.schedule.ScheduleRecord;
import dev.horae.schedule.ScheduleView;
import dev.horae.spi.json.EcmaJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The tools build their values as trees (issue 19: no text → tree → text round trip); rendered by
 * the tools' renderer, a view tree must give exactly the canonical text of spec §4.3, escapes and
 * member order included (the list's rows: schedule-core's {@code ActiveViewsTest}).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ViewTreeTest {

  private static final String CHARS = "ab-1\"\\ é\u2028\u0001\u00a0\ud800/\n\t";

  @Test
  void treesRenderToTheCanonicalText() {
    Random rnd = new Random(19);
    List<ScheduleRecord> records = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      StringBuilder text = new StringBuilder("p");
      for (int k = rnd.nextInt(8); k > 0; k--) {
        text.append(CHARS.charAt(rnd.nextInt(CHARS.length())));
      }
      String prompt = text.append('q').toString();
      String id = rnd.nextBoolean() ? "schedule-" + i : "id" + prompt;
      long at = 1_785_000_000_000L + rnd.nextInt(1_000_000);
      records.add(rnd.nextBoolean()
          ? new ScheduleRecord.At(id, prompt, at)
          : new ScheduleRecord.After(id, prompt, 1 + rnd.nextInt(Integer.MAX_VALUE) * 4_000L, at));
    }
    long now = 1_785_000_500_000L;
    for (ScheduleRecord r : records) {
      ScheduleView view = ScheduleView.of(r, now);
      assertThat(EcmaJson.write(view.toTree())).isEqualTo(view.toJson());
    }
  }
}
