package dev.horae.spi.jobs;

/**
 * Starts a job's work and hands the service its hooks. Called at most once, after every preflight
 * check of {@code start}, outside the service lock. An exception propagates unchanged to the
 * caller of {@code start}; the producer cleans up its own partial work.
 */
@FunctionalInterface
public interface JobProducer {

  /**
   * Starts the work.
   *
   * @return the hooks of the started work
   */
  JobHooks run();
}
