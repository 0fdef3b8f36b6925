/**
 * The web console {@code horae console} serves ({@link dev.horae.cli.console.WebConsole}): the
 * console module's request routine ({@code dev.horae.console.Console}) behind a JDK {@code
 * HttpServer} on its own port. Pages, endpoints and the security model: {@code
 * docs/operations.md}, "Web console".
 */
@NullMarked
package dev.horae.cli.console;

import org.jspecify.annotations.NullMarked;
