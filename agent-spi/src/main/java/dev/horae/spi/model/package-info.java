/**
 * The model port: what the runtime's turn engine sends a chat model and what it gets back.
 *
 * <p>A {@link dev.horae.spi.model.ModelRequest} is rebuilt for every step from the durable,
 * model-visible history of the session log (host contract §6.3, {@link
 * dev.horae.spi.model.History}): the system prompt with the registered prompt sections, every
 * earlier user message, assistant message, tool call and tool result as typed {@link
 * dev.horae.spi.model.ChatMessage}s, and the tools visible to the agent with their JSON Schemas. A
 * {@link dev.horae.spi.model.ModelPort} answers asynchronously with a {@link
 * dev.horae.spi.model.ModelResponse}: text and/or tool calls, a finish reason and token usage.
 * Adapters for chat-model frameworks implement the port; nothing here depends on one.
 */
@NullMarked
package dev.horae.spi.model;

import org.jspecify.annotations.NullMarked;
