package dev.horae.examples.docs;

import dev.horae.gate.AwaitReason;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.runtime.agent.RecordedTurn;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** The snippets of {@code docs/runtime.md}, compiled. */
public final class RuntimeUsage {

  private RuntimeUsage() {}

  /**
   * A model port that shows what a request carries; an adapter maps the same fields onto its
   * framework's chat request.
   *
   * @return the port
   */
  public static ModelPort echoingModel() {
    // snippet:model-port
    ModelPort model = request -> {
      String system = request.systemPrompt();                      // base prompt + prompt sections
      List<ChatMessage> history = request.messages();              // the whole model-visible history
      int tools = request.tools().size();                          // name, description, JSON Schema
      String last = request.latestUserMessages().isEmpty() ? ""
          : request.latestUserMessages().get(request.latestUserMessages().size() - 1).text();
      return CompletableFuture.completedFuture(ModelResponse.text(
          "turn " + request.turn() + ", step " + request.step() + ": " + history.size() + " messages, "
              + tools + " tools, system prompt " + system.length() + " chars; you said " + Json.write(Json.mapper().getNodeFactory().textNode(last))));
    };
    // end-snippet
    return model;
  }

  /**
   * Passes every unprompted reply (a reminder or a job notice woke the agent) to {@code push}.
   *
   * @param horae the runtime
   * @param push where replies go, e.g. a websocket to the user's chat
   */
  public static void pushUnpromptedReplies(HoraeRuntime horae, Consumer<String> push) {
    // snippet:unprompted
    var registration = horae.onUnpromptedReply(outcome ->
        push.accept(outcome.sessionId() + ": " + outcome.finalText()));
    // end-snippet
    horae.closeOnShutdown(registration);
  }

  /**
   * Opens an agent with its own system prompt.
   *
   * @param horae the runtime
   * @return the agent
   */
  public static RuntimeAgent assistant(HoraeRuntime horae) {
    // snippet:system-prompt
    RuntimeAgent agent = horae.openAgent("support-42", "Europe/Amsterdam")
        .systemPrompt("You are a concise assistant. Use schedule_create for reminders.");
    // end-snippet
    return agent;
  }

  /**
   * Answers the parked calls of a runtime: approves every call waiting for a person, then
   * resumes with a full gate command.
   *
   * @param runtime the runtime
   * @param command a resume command the caller built (identity and result)
   * @return the answers' outcomes, each completing when its turn parked again or ended
   */
  public static List<CompletionStage<ResumeOutcome>> answerParkedCalls(HoraeRuntime runtime, ResumeCommand command) {
    // snippet:parked-calls
    List<CompletionStage<ResumeOutcome>> answers = new ArrayList<>();
    for (AwaitingCall call : runtime.awaiting()) {            // runId, session, tool, arguments, reason
      if (call.reason() == AwaitReason.TOOL_PERMISSION) {
        answers.add(runtime.approve(call.runId()));            // or runtime.deny(call.runId(), "not today")
      }
    }
    answers.add(runtime.resume(command));                      // a full gate ResumeCommand, identity checked
    // end-snippet
    return answers;
  }

  /**
   * A framework's own loop recording one call as a turn of the agent: what docs/runtime.md shows.
   *
   * @param agent the agent
   * @param userMessage the user's message of the call
   * @param appSystemPrompt the application's system prompt
   * @param response the model's answer
   * @param call the call of that answer to run
   * @return the system prompt the model is to be sent
   */
  public static String recordedTurn(RuntimeAgent agent, dev.horae.spi.message.UserMessage userMessage,
      String appSystemPrompt, ModelResponse response, dev.horae.spi.gate.ToolCall call) {
    // snippet:recorded-turn
    RecordedTurn t = agent.beginRecordedTurn();                 // busy; turn/start
    t.beginStep(List.of(userMessage));                          // pre-step waterfall, step/start, request/header
    String system = t.systemPrompt(appSystemPrompt);             // + prompt sections
    t.recordResponse(response);                                 // assistant/message with its calls
    t.callTool(call);                                           // tool/call, gates, registry, tool/result
    t.end("completed", "");                                     // unanswered calls, step/end, turn/end; idle
    // end-snippet
    return system;
  }
}
