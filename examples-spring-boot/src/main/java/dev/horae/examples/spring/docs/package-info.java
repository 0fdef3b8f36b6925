/** The snippets of {@code docs/spring-ai.md}, compiled; examples' SnippetsTest checks the doc text against them. */
@NullMarked
package dev.horae.examples.spring.docs;

import org.jspecify.annotations.NullMarked;
