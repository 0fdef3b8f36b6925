package dev.horae.jobs.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.Json;

/** The input and output JSON schemas of the three controller tools (jobs spec §3.3–§3.6). */
public final class Schemas {

  private Schemas() {}

  /** The closed schema of a public job snapshot. */
  public static final String PUBLIC_JOB =
      "{\"type\":\"object\",\"properties\":{"
          + "\"id\":{\"type\":\"string\"},"
          + "\"kind\":{\"type\":\"string\"},"
          + "\"label\":{\"type\":\"string\"},"
          + "\"status\":{\"enum\":[\"running\",\"stopping\",\"completed\",\"killed\",\"failed\"]},"
          + "\"detail\":{\"type\":\"string\"},"
          + "\"startedAt\":{\"type\":\"integer\"},"
          + "\"finishedAt\":{\"type\":\"integer\"}},"
          + "\"required\":[\"id\",\"kind\",\"label\",\"status\",\"startedAt\"],"
          + "\"additionalProperties\":false}";

  private static final String JOB_ID =
      "\"job_id\":{\"type\":\"string\",\"description\":"
          + "\"Job id returned by the tool that started the background work.\"}";

  /**
   * Input schema of {@code job_output}.
   *
   * @return the schema
   */
  public static JsonNode outputParameters() {
    return Json.parse(
        "{\"type\":\"object\",\"properties\":{"
            + JOB_ID
            + ",\"wait\":{\"type\":\"boolean\",\"description\":\"Block until the job reaches a"
            + " terminal status or the timeout expires. A timed-out wait returns [status: running]"
            + " and leaves the job alive.\"},"
            + "\"timeout_ms\":{\"type\":\"number\",\"description\":\"Max wait in milliseconds"
            + " (only meaningful with wait: true). Defaults to the configured wait timeout; capped"
            + " by the configured maximum.\"}},"
            + "\"required\":[\"job_id\"]}");
  }

  /**
   * Output schema of {@code job_output}: {@code {text, job}}, closed.
   *
   * @return the schema
   */
  public static JsonNode outputValue() {
    return Json.parse(
        "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"},\"job\":"
            + PUBLIC_JOB
            + "},\"required\":[\"text\",\"job\"],\"additionalProperties\":false}");
  }

  /**
   * Input schema of {@code job_list}: an object with no properties.
   *
   * @return the schema
   */
  public static JsonNode listParameters() {
    return Json.parse("{\"type\":\"object\",\"properties\":{}}");
  }

  /**
   * Output schema of {@code job_list}: an array of public snapshots.
   *
   * @return the schema
   */
  public static JsonNode listValue() {
    return Json.parse("{\"type\":\"array\",\"items\":" + PUBLIC_JOB + "}");
  }

  /**
   * Input schema of {@code job_kill}.
   *
   * @return the schema
   */
  public static JsonNode killParameters() {
    return Json.parse(
        "{\"type\":\"object\",\"properties\":{"
            + JOB_ID
            + ",\"reason\":{\"type\":\"string\",\"description\":\"Optional short reason, recorded"
            + " in the log and forwarded to the job.\"}},"
            + "\"required\":[\"job_id\"]}");
  }

  /**
   * Output schema of {@code job_kill}: {@code {outcome, job}}, closed.
   *
   * @return the schema
   */
  public static JsonNode killValue() {
    return Json.parse(
        "{\"type\":\"object\",\"properties\":{\"outcome\":{\"enum\":[\"cancellation-requested\","
            + "\"already-finished\"]},\"job\":"
            + PUBLIC_JOB
            + "},\"required\":[\"outcome\",\"job\"],\"additionalProperties\":false}");
  }
}
