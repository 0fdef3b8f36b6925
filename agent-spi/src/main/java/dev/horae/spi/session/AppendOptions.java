package dev.horae.spi.session;

import java.util.List;
import java.util.Optional;

/**
 * Optional envelope members of an append (host contract §3.1).
 *
 * @param surfaceOp effect on the model-visible surface; empty for log-only events
 * @param sourceEventSeqs seqs of the events a derived event was built from
 */
public record AppendOptions(Optional<SurfaceOp> surfaceOp, List<Long> sourceEventSeqs) {

  /** No surface op, no sources: a log-only event. */
  public static final AppendOptions LOG_ONLY = new AppendOptions(Optional.empty(), List.of());

  /** An ordinary model-visible message ({@code surfaceOp: append}). */
  public static final AppendOptions VISIBLE = new AppendOptions(Optional.of(SurfaceOp.APPEND), List.of());

  /**
   * Copies the sources list.
   */
  public AppendOptions {
    sourceEventSeqs = List.copyOf(sourceEventSeqs);
  }
}
