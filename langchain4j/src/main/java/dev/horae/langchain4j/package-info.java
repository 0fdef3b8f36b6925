/**
 * Horae inside LangChain4j (docs/langchain4j.md).
 *
 * <p>Runtime-driven mode, the primary one: {@link dev.horae.langchain4j.LangChain4jModel} is the
 * runtime's {@link dev.horae.spi.model.ModelPort} over any LangChain4j {@code ChatModel} or
 * {@code StreamingChatModel}, and {@link dev.horae.langchain4j.LangChain4jTools} registers
 * {@code @Tool} objects and {@code ToolSpecification} + {@code ToolExecutor} pairs as Horae tools,
 * so the gate chain, the tool pipeline and durable parking apply to them. {@link
 * dev.horae.langchain4j.JsonSchemas} and {@link dev.horae.langchain4j.LangChain4jMapping} are the
 * mappings both ways.
 *
 * <p>Borrowed-loop mode, for applications that keep {@code AiServices}: {@link
 * dev.horae.langchain4j.BorrowedLoop} configures an existing builder with the Horae tools, the time
 * reading before every model call, the gate chain and {@link
 * dev.horae.langchain4j.HoraeChatMemoryStore}, a read projection of the session log. A gate verdict
 * that must park fails the call with {@link dev.horae.langchain4j.BorrowedLoopException}.
 */
@NullMarked
package dev.horae.langchain4j;

import org.jspecify.annotations.NullMarked;
