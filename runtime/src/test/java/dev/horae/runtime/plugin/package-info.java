/** Tests of the runtime's plugin scopes and prompt-section registry. */
@NullMarked
package dev.horae.runtime.plugin;

import org.jspecify.annotations.NullMarked;
