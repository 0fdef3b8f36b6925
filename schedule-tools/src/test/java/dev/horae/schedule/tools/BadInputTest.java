package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.testkit.agent.TestAgent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Issue 4 acceptance: every kind of bad input gets its error value and leaves the log unchanged. */
class BadInputTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      no selector           | {"prompt":"x"}                                                             | invalid_selector
      two selectors         | {"prompt":"x","after_seconds":1,"at":"2026-08-06T01:00:00Z"}             | invalid_selector
      unknown member        | {"prompt":"x","after_seconds":1,"title":"t"}                               | invalid_selector
      blank prompt          | {"prompt":" \\u3000 ","after_seconds":1}                                   | invalid_prompt
      zero delay            | {"prompt":"x","after_seconds":0}                                           | invalid_rule
      fractional delay      | {"prompt":"x","after_seconds":2.5}                                         | invalid_rule
      huge delay            | {"prompt":"x","after_seconds":9007199254740991}                            | time_out_of_range
      at without offset     | {"prompt":"x","at":"2026-08-06T01:00:00"}                                 | invalid_rule
      at impossible date    | {"prompt":"x","at":"2026-02-30T01:00:00Z"}                                | invalid_rule
      at bad offset         | {"prompt":"x","at":"2026-08-06T01:00:00-00:00"}                           | invalid_rule
      at in the past        | {"prompt":"x","at":"2020-01-01T00:00:00Z"}                                | not_future
      at out of range       | {"prompt":"x","at":"0001-01-01T00:00:00+00:01"}                           | time_out_of_range
      local bad grammar     | {"prompt":"x","at":{"date":"2026/08/06","time":"09:00:00","time_zone":"UTC"}} | invalid_rule
      local hour 24         | {"prompt":"x","at":{"date":"2026-08-06","time":"24:00:00","time_zone":"UTC"}} | invalid_rule
      local gap             | {"prompt":"x","at":{"date":"2027-03-28","time":"01:30:00","time_zone":"Europe/London"}} | invalid_rule
      local bad zone        | {"prompt":"x","at":{"date":"2026-08-06","time":"09:00:00","time_zone":"CST"}} | invalid_time_zone
      local unknown zone    | {"prompt":"x","at":{"date":"2026-08-06","time":"09:00:00","time_zone":"Not/A_Zone"}} | invalid_time_zone
      local no authority    | {"prompt":"x","at":{"date":"2026-08-06","time":"09:00:00"}}               | timezone_confirmation_required
      """)
  void createRejectsWithoutAppending(String name, String args, String code) {
    Fixture f = new Fixture();
    TestAgent a = f.agent();
    long length = a.session().length();
    assertThat(Fixture.json(f.create(a, args)).path("code").asText()).isEqualTo(code);
    assertThat(a.session().length()).isEqualTo(length);
  }

  @ParameterizedTest(name = "delete id [{0}]")
  @CsvSource(delimiter = '|', textBlock = """
      ''              | invalid_rule
      ' x'            | invalid_rule
      'x\\u00a0'      | invalid_rule
      'schedule-404'  | schedule_not_found
      """)
  void deleteRejectsWithoutAppending(String id, String code) {
    Fixture f = new Fixture();
    TestAgent a = f.agent();
    long length = a.session().length();
    String args = "{\"id\":\"" + id + "\"}";
    assertThat(Fixture.json(f.text(a, "schedule_delete", args)).path("code").asText()).isEqualTo(code);
    assertThat(a.session().length()).isEqualTo(length);
  }
}
