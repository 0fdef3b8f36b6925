/** Tests of the Spring AI adapter: the mapping, the model port, the tools, the advisors, and the end-to-end run through Spring AI's real OpenAI client. */
@NullMarked
package dev.horae.springai;

import org.jspecify.annotations.NullMarked;
