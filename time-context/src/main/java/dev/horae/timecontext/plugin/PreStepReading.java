package dev.horae.timecontext.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.agent.PreStep;
import dev.horae.spi.agent.PreStepListener;
import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.session.Session;
import dev.horae.spi.time.IdSource;
import dev.horae.timecontext.ReadingMessages;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.TimeReadings;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The prepended pre-step listener (spec §4): waits for the downstream decision, then adds one
 * reading to an Enter decision when the refresh gate lets it.
 *
 * <p>Safe to call concurrently for different agents; each session's index is used under its own
 * lock.
 */
final class PreStepReading implements PreStepListener {

  private final TimeContextConfig.Resolved config;
  private final InstantSource clock;
  private final IdSource ids;
  private final SessionIndexes indexes = new SessionIndexes();
  private volatile boolean closed;

  PreStepReading(TimeContextConfig.Resolved config, InstantSource clock, IdSource ids) {
    this.config = config;
    this.clock = clock;
    this.ids = ids;
  }

  @Override
  public CompletionStage<StepDecision> onPreStep(PreStep step) {
    // the outermost listener decides last: only the final downstream decision can be recorded
    return step.next().thenApply(decision -> decide(step, decision));
  }

  private StepDecision decide(PreStep step, StepDecision decision) {
    if (closed || !(decision instanceof StepDecision.Enter enter) || step.signal().aborted()) {
      return decision;
    }
    long now = clock.millis();
    Session session = step.agent().session();
    List<JsonNode> proposal = config.clientZoneGuidance() ? json(enter.messages()) : List.of();
    Optional<String> text =
        indexes.withIndex(
            session,
            index -> TimeReadings.reading(config, index, () -> session.eventsFrom(0), step.turn(), step.step(), now, proposal));
    if (text.isEmpty()) {
      return decision;
    }
    List<UserMessage> messages = new ArrayList<>(enter.messages());
    messages.add(reading(text.get()));
    return new StepDecision.Enter(messages);
  }

  private UserMessage reading(String text) {
    MessageSource source = MessageSource.snapshot(ReadingMessages.PLUGIN, List.of(Map.entry(ReadingMessages.PLUGIN, text)));
    return new UserMessage(ids.next().toString(), List.of(new ContentBlock(text)), source);
  }

  private static List<JsonNode> json(List<UserMessage> messages) {
    List<JsonNode> out = new ArrayList<>(messages.size());
    messages.forEach(m -> out.add(m.toJson()));
    return out;
  }

  void close() {
    closed = true;
    indexes.clear();
  }
}
