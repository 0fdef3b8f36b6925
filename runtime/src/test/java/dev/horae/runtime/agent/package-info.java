/** Tests of the runtime's agents and turn engine. */
@NullMarked
package dev.horae.runtime.agent;

import org.jspecify.annotations.NullMarked;
