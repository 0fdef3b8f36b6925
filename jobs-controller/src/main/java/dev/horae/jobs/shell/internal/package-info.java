/** Process handling of the shell job kind: the running process, its reader and signal names. */
@NullMarked
package dev.horae.jobs.shell.internal;

import org.jspecify.annotations.NullMarked;
