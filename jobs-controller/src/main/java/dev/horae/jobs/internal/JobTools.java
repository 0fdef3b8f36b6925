package dev.horae.jobs.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.jobs.JobTexts;
import dev.horae.jobs.JobsControllerConfig;
import dev.horae.jobs.errors.internal.Errors;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobRead;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.jobs.KillOutcome;
import dev.horae.spi.jobs.PublicJobSnapshot;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.tool.PresentationCard;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The three model-facing tools of the controller (jobs spec §3.4–§3.8) and their last-mile output
 * bounding (§5.1). One instance per mount.
 */
public final class JobTools {

  /** Tool name of the reader. */
  public static final String OUTPUT = "job_output";
  /** Tool name of the lister. */
  public static final String LIST = "job_list";
  /** Tool name of the killer. */
  public static final String KILL = "job_kill";

  private static final Logger LOG = LoggerFactory.getLogger(JobTools.class);

  private static final String OUTPUT_DESCRIPTION =
      "Read a background job. Stream jobs return only output since the previous read;"
          + " final-output jobs return their result after settlement. Every response ends with"
          + " `[status: ...]`. Reads are non-blocking unless `wait: true`, which waits up to the"
          + " configured cap.";
  private static final String LIST_DESCRIPTION =
      "List your background jobs (running and finished) with their ids, kinds, and statuses.";
  private static final String KILL_DESCRIPTION =
      "Request cancellation of a running background job by job id. Returns immediately; the job"
          + " settles as killed once its work actually stops.";

  private final JobService service;
  private final JobsControllerConfig config;
  private final OutputCaps caps;

  /**
   * Creates the tools of one mount.
   *
   * @param service the job registry
   * @param config the controller configuration
   * @param caps the caps captured by this mount's pre-execute hook
   */
  public JobTools(JobService service, JobsControllerConfig config, OutputCaps caps) {
    this.service = service;
    this.config = config;
    this.caps = caps;
  }

  /**
   * The three definitions, in registration order.
   *
   * @return {@code job_output}, {@code job_list}, {@code job_kill}
   */
  public List<ToolDefinition> definitions() {
    return List.of(outputTool(), listTool(), killTool());
  }

  private ToolDefinition outputTool() {
    return ToolDefinition.builder(OUTPUT)
        .description(OUTPUT_DESCRIPTION)
        .parameters(Schemas.outputParameters())
        .output(Schemas.outputValue())
        .renderer(v -> List.of(new ContentBlock(renderRead(v, OptionalLong.empty()))))
        .presentCall(a -> card(a, "Read output from background job ", "read"))
        .body((args, exec) -> readBody(args, Optional.of(exec.agent()), exec.signal()))
        .finalContent(this::boundOutput)
        .build();
  }

  private ToolDefinition listTool() {
    return ToolDefinition.builder(LIST)
        .description(LIST_DESCRIPTION)
        .parameters(Schemas.listParameters())
        .output(Schemas.listValue())
        .renderer(v -> List.of(new ContentBlock(JobTexts.listText(publicJobs(v)))))
        .presentCall(a -> Optional.of(new PresentationCard("List background jobs", "read", Optional.empty())))
        .body(
            (args, exec) -> {
              ArrayNode out = JsonNodeFactory.instance.arrayNode();
              service.list(Optional.of(exec.agent())).forEach(s -> out.add(s.toPublic().toJson()));
              return CompletableFuture.completedFuture(out);
            })
        .build();
  }

  private ToolDefinition killTool() {
    return ToolDefinition.builder(KILL)
        .description(KILL_DESCRIPTION)
        .parameters(Schemas.killParameters())
        .output(Schemas.killValue())
        .renderer(v -> List.of(new ContentBlock(renderKill(v, OptionalLong.empty()))))
        .presentCall(a -> card(a, "Kill background job ", "execute"))
        .body((args, exec) -> killBody(args, Optional.of(exec.agent())))
        .finalContent(this::boundKill)
        .build();
  }

  private CompletionStage<JsonNode> readBody(
      JsonNode args, Optional<Agent> caller, dev.horae.spi.AbortSignal signal) {
    JobId id = jobId(args);
    CompletionStage<?> waited = CompletableFuture.completedFuture(Boolean.TRUE);
    JsonNode wait = args.path("wait");
    if (wait.isBoolean() && wait.booleanValue()) {
      JsonNode requested = args.path("timeout_ms");
      double timeout =
          Math.min(
              requested.isNumber() ? requested.doubleValue() : (double) config.waitTimeoutMs(),
              (double) config.maxWaitTimeoutMs());
      // positive fractions round up; zero and negatives pass on to fail validation (D-12)
      waited = service.await(id, timeout > 0 ? Math.ceil(timeout) : timeout, caller, signal);
    }
    return waited.thenApply(
        ignored -> {
          JobRead read = service.read(id, caller);
          ObjectNode value = JsonNodeFactory.instance.objectNode();
          value.put("text", read.text());
          value.set("job", read.snapshot().toPublic().toJson());
          return value;
        });
  }

  private CompletionStage<JsonNode> killBody(JsonNode args, Optional<Agent> caller) {
    JobId id = jobId(args);
    Optional<String> reason =
        args.path("reason").isTextual() ? Optional.of(args.get("reason").asText()) : Optional.empty();
    KillOutcome outcome = service.kill(id, caller, reason);
    LOG.info("job_kill {}: {} (reason: {})", id, outcome.wire(), reason.orElse("none given"));
    JobSnapshot snapshot = service.get(id, caller);
    ObjectNode value = JsonNodeFactory.instance.objectNode();
    value.put("outcome", outcome.wire());
    value.set("job", snapshot.toPublic().toJson());
    return CompletableFuture.completedFuture(value);
  }

  private static JobId jobId(JsonNode args) {
    String text = args.path("job_id").asText("");
    if (text.isEmpty()) {
      throw new JobsException(
          JobsException.INVALID_ARGUMENT, "invalid job_id: expected a non-empty string, got \"\"");
    }
    try {
      return JobId.parse(text);
    } catch (IllegalArgumentException e) {
      throw new JobsException(JobsException.UNKNOWN_JOB, "unknown job " + Errors.echoedId(text), e);
    }
  }

  private List<ContentBlock> boundOutput(ToolInvocation invocation, ToolResult result) {
    OptionalLong cap = caps.take(invocation);
    if (cap.isEmpty()) {
      return result.content();
    }
    Optional<JsonNode> value = result.value();
    if (!result.isError() && value.isPresent()) {
      Optional<String> plain = defaultRendering(() -> renderRead(value.get(), OptionalLong.empty()));
      if (plain.isPresent()
          && (result.content().isEmpty()
              || result.content().equals(List.of(new ContentBlock(plain.get()))))) {
        return List.of(new ContentBlock(renderRead(value.get(), cap)));
      }
    }
    return boundSingle(result.content(), cap);
  }

  private List<ContentBlock> boundKill(ToolInvocation invocation, ToolResult result) {
    OptionalLong cap = caps.take(invocation);
    if (cap.isEmpty()) {
      return result.content();
    }
    Optional<JsonNode> value = result.value();
    if (!result.isError()
        && value.isPresent()
        && value.get().path("outcome").asText().equals(KillOutcome.REQUESTED.wire())
        && defaultRendering(() -> renderKill(value.get(), OptionalLong.empty()))
            .map(plain -> result.content().equals(List.of(new ContentBlock(plain))))
            .orElse(false)) {
      // the live-job acknowledgement is never shortened (D-03)
      return result.content();
    }
    return boundSingle(result.content(), cap);
  }

  /**
   * The default rendering of a result value, or empty when the value is not of the tool's own
   * shape: a policy replacement may carry any value, and it is then bounded as a single text.
   */
  private static Optional<String> defaultRendering(Supplier<String> render) {
    try {
      return Optional.of(render.get());
    } catch (IllegalArgumentException notOurs) {
      return Optional.empty();
    }
  }

  private static List<ContentBlock> boundSingle(List<ContentBlock> content, OptionalLong cap) {
    if (content.size() != 1) {
      return content;
    }
    return List.of(new ContentBlock(JobTexts.boundSingleText(content.get(0).text(), cap)));
  }

  private static String renderRead(JsonNode value, OptionalLong cap) {
    JsonNode job = value.path("job");
    return JobTexts.readText(
        value.path("text").asText(""),
        JobStatus.fromWire(job.path("status").asText()),
        optionalText(job, "detail"),
        cap,
        false);
  }

  private static String renderKill(JsonNode value, OptionalLong cap) {
    JsonNode job = value.path("job");
    return JobTexts.killText(
        JobId.parse(job.path("id").asText()),
        KillOutcome.fromWire(value.path("outcome").asText()),
        JobStatus.fromWire(job.path("status").asText()),
        optionalText(job, "detail"),
        cap);
  }

  private static List<PublicJobSnapshot> publicJobs(JsonNode array) {
    List<PublicJobSnapshot> out = new ArrayList<>();
    array.forEach(j -> out.add(PublicJobSnapshot.fromJson(j)));
    return out;
  }

  private static Optional<String> optionalText(JsonNode node, String key) {
    JsonNode v = node.get(key);
    return v != null && v.isTextual() ? Optional.of(v.asText()) : Optional.empty();
  }

  private static Optional<PresentationCard> card(JsonNode args, String title, String kind) {
    JsonNode id = args.path("job_id");
    if (!id.isTextual()) {
      return Optional.empty();
    }
    return Optional.of(
        new PresentationCard(title + id.asText(), kind, Optional.of(TextNode.valueOf(id.asText()))));
  }
}
