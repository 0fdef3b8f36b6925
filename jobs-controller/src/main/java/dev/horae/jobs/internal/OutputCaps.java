package dev.horae.jobs.internal;

import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.tool.ToolInvocation;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The output caps a mount's pre-execute hook captured before any policy ran (jobs spec §5.1),
 * keyed by call, consumed exactly once by the tool's final-content callback.
 */
public final class OutputCaps {

  private final JobService service;
  private final Map<String, Long> captured = new ConcurrentHashMap<>();

  /**
   * Creates an empty store.
   *
   * @param service the job registry the caps are looked up in
   */
  public OutputCaps(JobService service) {
    this.service = service;
  }

  /**
   * Captures the cap of the job named by the call, when the caller sees that job and it has one.
   *
   * @param invocation the call about to run
   */
  public void capture(ToolInvocation invocation) {
    String text = invocation.call().arguments().path("job_id").asText("");
    Optional<JobId> id = parse(text);
    if (id.isEmpty()) {
      return;
    }
    for (JobSnapshot s : service.list(Optional.of(invocation.agent()))) {
      if (s.id().equals(id.get()) && s.outputLimitBytes().isPresent()) {
        captured.put(
            key(invocation.agent(), invocation.call().callId()), s.outputLimitBytes().getAsLong());
        return;
      }
    }
  }

  /**
   * Takes (and forgets) the cap captured for a call.
   *
   * @param invocation the call
   * @return the cap, or empty when none applies
   */
  public OptionalLong take(ToolInvocation invocation) {
    Long cap = captured.remove(key(invocation.agent(), invocation.call().callId()));
    return cap == null ? OptionalLong.empty() : OptionalLong.of(cap);
  }

  private static String key(Agent agent, String callId) {
    return agent.id() + "\u0000" + System.identityHashCode(agent) + "\u0000" + callId;
  }

  private static Optional<JobId> parse(String text) {
    try {
      return text.isEmpty() ? Optional.empty() : Optional.of(JobId.parse(text));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
