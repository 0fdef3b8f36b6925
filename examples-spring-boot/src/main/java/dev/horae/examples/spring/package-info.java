/**
 * A Spring Boot assistant on the Horae starter: {@link dev.horae.examples.spring.AssistantApplication}
 * talks to an OpenAI-compatible model when {@code OPENAI_API_KEY} is set and to {@link
 * dev.horae.examples.spring.ScriptedChatModel} otherwise, reads prompts from standard input and
 * prints the replies, reminders included.
 */
@NullMarked
package dev.horae.examples.spring;

import org.jspecify.annotations.NullMarked;
