package dev.horae.timecontext;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.zone.ClientZones;
import dev.horae.spi.zone.ZoneResolver;
import dev.horae.timecontext.internal.Events;
import dev.horae.timecontext.internal.ReadingText;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The pure reading builder of spec §4–§7: refresh gate, elapsed baseline, client zones (three-line
 * form only) and the text.
 *
 * <p>Pure and thread-safe: {@code now} is an argument, the log is a list or an index.
 */
public final class TimeReadings {

  private TimeReadings() {}

  /**
   * The reading for one proposed step, computed from the whole raw log.
   *
   * <p>Conformance function {@code timecontext.reading}.
   *
   * @param config the normalized configuration
   * @param events the session's raw log at sampling time (including shadowed and inherited events)
   * @param turn the turn being prepared
   * @param step the step being prepared
   * @param nowMs the sampled wall-clock time in epoch milliseconds
   * @param messages the step's messages (the downstream decision's final messages); read only in
   *     the three-line form
   * @return the reading text, or empty when the refresh gate skips this step
   * @throws dev.horae.spi.zone.ClientZoneException in the three-line form, when a recorded client
   *     zone is invalid
   */
  public static Optional<String> reading(
      TimeContextConfig.Resolved config,
      List<SessionEvent> events,
      long turn,
      long step,
      long nowMs,
      List<? extends JsonNode> messages) {
    return reading(config, ReadingIndex.of(events), () -> events, turn, step, nowMs, messages);
  }

  /**
   * The reading for one proposed step, computed from an up-to-date index of the log.
   *
   * @param config the normalized configuration
   * @param index the index of the raw log at sampling time
   * @param log the whole raw log; read only in the rare cases the index cannot answer alone (the
   *     latest {@code turn/start} is not this turn's)
   * @param turn the turn being prepared
   * @param step the step being prepared
   * @param nowMs the sampled wall-clock time in epoch milliseconds
   * @param messages the step's messages; read only in the three-line form
   * @return the reading text, or empty when the refresh gate skips this step
   * @throws dev.horae.spi.zone.ClientZoneException in the three-line form, when a recorded client
   *     zone is invalid
   */
  public static Optional<String> reading(
      TimeContextConfig.Resolved config,
      ReadingIndex index,
      Supplier<List<SessionEvent>> log,
      long turn,
      long step,
      long nowMs,
      List<? extends JsonNode> messages) {
    if (!index.due(nowMs, config.refreshIntervalMs())) {
      return Optional.empty();
    }
    OptionalLong baseline = index.baseline(turn, step, log);
    OptionalLong elapsed =
        baseline.isPresent() ? OptionalLong.of(Events.elapsed(nowMs, baseline.getAsLong())) : OptionalLong.empty();
    String zone = config.timeZone();
    Optional<String> zoneLine = Optional.empty();
    if (config.clientZoneGuidance()) {
      List<String> values = new ArrayList<>(index.clientZoneValues(turn, log));
      for (JsonNode message : messages) {
        ClientZones.contributedZone(message).ifPresent(values::add);
      }
      ClientZoneContext context = ClientZoneContext.of(ClientZones.classify(values));
      if (context instanceof ClientZoneContext.Resolved resolved) {
        zone = resolved.zone();
      }
      zoneLine = Optional.of(context.line());
    }
    String label = zone;
    String timestamp =
        TimeFormats.timestamp(
            Instant.ofEpochMilli(nowMs),
            ZoneResolver.standard()
                .rules(label)
                .orElseThrow(() -> new IllegalStateException("zone " + label + " has no usable rules")),
            label);
    return Optional.of(ReadingText.compose(turn, step, timestamp, zoneLine, elapsed, TimeFormats::duration));
  }
}
