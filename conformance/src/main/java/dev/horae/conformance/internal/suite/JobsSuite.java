package dev.horae.conformance.internal.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.conformance.Outcome;
import dev.horae.conformance.SuiteAdapter;
import dev.horae.conformance.UnusableArgsException;
import dev.horae.jobs.JobTexts;
import dev.horae.jobs.JobsControllerConfig;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.jobs.KillOutcome;
import dev.horae.spi.jobs.PublicJobSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The {@code jobs} suite on {@code dev.horae.jobs} (jobs-controller) and the jobs seam values. */
public final class JobsSuite implements SuiteAdapter {

  /** Creates the adapter. */
  public JobsSuite() {}

  @Override
  public String suite() {
    return "jobs";
  }

  @Override
  public Set<String> functions() {
    return Set.of("jobs.statusLine", "jobs.readText", "jobs.killText", "jobs.listText", "jobs.notice",
        "jobs.validateConfig");
  }

  @Override
  public Outcome call(String fn, JsonNode json) {
    Args args = Args.of(json);
    try {
      return switch (fn) {
        case "jobs.statusLine" ->
          Outcome.text(JobTexts.statusLine(status(args.text("status")), detail(args)));
        case "jobs.readText" ->
          Outcome.text(JobTexts.readText(args.text("output"), status(args.text("status")),
              detail(args), args.optInteger("outputLimitBytes"), args.optBoolean("producerTruncated", false)));
        case "jobs.killText" ->
          killText(args);
        case "jobs.listText" ->
          Outcome.text(JobTexts.listText(snapshots(args)));
        case "jobs.notice" ->
          notice(args);
        case "jobs.validateConfig" ->
          Outcome.value(JobsControllerConfig.fromJson(
              args.optNode("config").orElseGet(JsonNodeFactory.instance::objectNode)).toJson());
        default ->
          throw new UnusableArgsException("no jobs function " + fn);
      };
    } catch (JobsException e) {
      ObjectNode error = JsonNodeFactory.instance.objectNode();
      error.put("code", e.code());
      error.put("message", String.valueOf(e.getMessage()));
      return Outcome.error(error);
    }
  }

  private static Outcome killText(Args args) {
    KillOutcome outcome = kill(args.text("outcome"));
    // the status is part of the already-finished text only; the live acknowledgement ignores it
    JobStatus status = outcome == KillOutcome.REQUESTED && args.optNode("status").isEmpty()
        ? JobStatus.STOPPING
        : status(args.text("status"));
    return Outcome.text(JobTexts.killText(id(args.text("id")), outcome, status, detail(args),
        args.optInteger("outputLimitBytes")));
  }

  private static Outcome notice(Args args) {
    JobTexts.Notice n = JobTexts.notice(id(args.text("id")), args.text("kind"), args.text("label"),
        status(args.text("status")), detail(args), args.optInteger("outputLimitBytes"));
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("text", n.text());
    o.put("summary", n.summary());
    return Outcome.value(o);
  }

  private static List<PublicJobSnapshot> snapshots(Args args) {
    List<PublicJobSnapshot> jobs = new ArrayList<>();
    for (JsonNode j : args.list("jobs")) {
      Args job = Args.of(j);
      jobs.add(new PublicJobSnapshot(id(job.text("id")), job.text("kind"), job.text("label"),
          status(job.text("status")), detail(job), job.integer("startedAt"),
          job.optInteger("finishedAt")));
    }
    return jobs;
  }

  private static Optional<String> detail(Args args) {
    return args.optText("detail");
  }

  private static JobId id(String text) {
    try {
      return JobId.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UnusableArgsException("not a job id: " + text, e);
    }
  }

  private static JobStatus status(String wire) {
    try {
      return JobStatus.fromWire(wire);
    } catch (IllegalArgumentException e) {
      throw new UnusableArgsException("not a job status: " + wire, e);
    }
  }

  private static KillOutcome kill(String wire) {
    try {
      return KillOutcome.fromWire(wire);
    } catch (IllegalArgumentException e) {
      throw new UnusableArgsException("not a kill outcome: " + wire, e);
    }
  }
}
