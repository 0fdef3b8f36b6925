package dev.horae.spi.jobs;

import dev.horae.spi.agent.Agent;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a producer hands to {@link JobService#start} (jobs spec §2.2). The record does not
 * validate: {@code start} checks every field in the specified order and reports the exact errors.
 *
 * @param kind producer family, also the id prefix; must be non-empty
 * @param label one-line model-facing label; must be non-empty
 * @param outputLimitBytes optional UTF-8 cap, 1 … 9007199254740991
 * @param owner the exact live agent that starts the job; empty for an unowned job
 * @param producer starts the work; called at most once, after every preflight check
 */
public record JobStart(
    String kind,
    String label,
    OptionalLong outputLimitBytes,
    Optional<Agent> owner,
    JobProducer producer) {

  /** Checks presence of every member. */
  public JobStart {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(outputLimitBytes, "outputLimitBytes");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(producer, "producer");
  }

  /**
   * Starts a builder for an unowned, uncapped job.
   *
   * @param kind producer family
   * @param label model-facing label
   * @param producer starts the work
   * @return a builder
   */
  public static Builder builder(String kind, String label, JobProducer producer) {
    return new Builder(kind, label, producer);
  }

  /** Builds a {@link JobStart}. */
  public static final class Builder {
    private final String kind;
    private final String label;
    private final JobProducer producer;
    private OptionalLong outputLimitBytes = OptionalLong.empty();
    private Optional<Agent> owner = Optional.empty();

    private Builder(String kind, String label, JobProducer producer) {
      this.kind = kind;
      this.label = label;
      this.producer = producer;
    }

    /**
     * Sets the output cap.
     *
     * @param bytes the cap in UTF-8 bytes
     * @return this builder
     */
    public Builder outputLimitBytes(long bytes) {
      outputLimitBytes = OptionalLong.of(bytes);
      return this;
    }

    /**
     * Sets or clears the output cap.
     *
     * @param bytes the cap, or empty for none
     * @return this builder
     */
    public Builder outputLimitBytes(OptionalLong bytes) {
      outputLimitBytes = Objects.requireNonNull(bytes, "bytes");
      return this;
    }

    /**
     * Sets the owner.
     *
     * @param agent the exact live agent
     * @return this builder
     */
    public Builder owner(Agent agent) {
      owner = Optional.of(agent);
      return this;
    }

    /**
     * Sets or clears the owner.
     *
     * @param agent the owner, or empty for an unowned job
     * @return this builder
     */
    public Builder owner(Optional<Agent> agent) {
      owner = Objects.requireNonNull(agent, "agent");
      return this;
    }

    /**
     * Builds the start request.
     *
     * @return the request
     */
    public JobStart build() {
      return new JobStart(kind, label, outputLimitBytes, owner, producer);
    }
  }
}
