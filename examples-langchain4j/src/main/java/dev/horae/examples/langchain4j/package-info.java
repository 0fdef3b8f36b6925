/**
 * A LangChain4j assistant on the Horae runtime ({@link dev.horae.examples.langchain4j.Assistant}):
 * a real OpenAI-compatible model with {@code OPENAI_API_KEY}, else {@link
 * dev.horae.examples.langchain4j.ScriptedChatModel}, a LangChain4j chat model that answers by
 * rules.
 */
@NullMarked
package dev.horae.examples.langchain4j;

import org.jspecify.annotations.NullMarked;
