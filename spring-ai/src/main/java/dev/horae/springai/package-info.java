/**
 * Horae inside Spring AI 2.0.
 *
 * <ul>
 *   <li>{@link dev.horae.springai.SpringAiModelPort}: the runtime's model port over any Spring AI
 *       {@code ChatModel}, streaming each step when the model streams (runtime-driven mode: the
 *       Horae turn engine owns the loop, runs the tools and parks gated calls durably);
 *   <li>{@link dev.horae.springai.SpringAiMessages}: the mapping between Horae's model-port records
 *       and Spring AI's messages, tool definitions, finish reasons and usage, both ways;
 *   <li>{@link dev.horae.springai.SpringAiTools}: Spring AI {@code ToolCallback}s registered as
 *       Horae tools, so gates, bounds and the tool pipeline apply to them;
 *   <li>{@link dev.horae.springai.HoraeAdvisors}: advisors for applications that keep their
 *       {@code ChatClient} (borrowed-loop mode), with the limits docs/spring-ai.md states.
 * </ul>
 */
@NullMarked
package dev.horae.springai;

import org.jspecify.annotations.NullMarked;
