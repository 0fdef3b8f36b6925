package dev.horae.spi.jobs;

import java.util.Objects;

/**
 * A system-prompt section (jobs spec §6): included in every request of the agents in the scope it
 * is registered in, ordered by {@code order}, ties by registration order.
 *
 * @param name section name, e.g. {@code tool:jobs}
 * @param order sort key, e.g. {@code 106}
 * @param text exact section text
 */
public record PromptSection(String name, int order, String text) {

  /** Checks presence of every member. */
  public PromptSection {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(text, "text");
  }
}
