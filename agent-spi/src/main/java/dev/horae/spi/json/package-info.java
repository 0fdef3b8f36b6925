/**
 * JSON values the way ECMAScript sees them, for every text that reaches a model or a message,
 * and immutable JSON trees.
 *
 * <p>The contract was first written against a JavaScript engine, so the texts the model reads
 * (tool results, reminder framing, quoted values inside error and warning messages) are defined
 * by ECMAScript: {@code JSON.stringify} for values and {@code Number.prototype.toString} for
 * numbers. Java writers differ in small ways ({@code 1.0E21}, {@code 30.0}, upper-case hex
 * escapes), and every plugin needs the same answer, so the one implementation lives here, below
 * all of them:
 *
 * <ul>
 *   <li>{@link dev.horae.spi.json.EcmaJson} — {@code JSON.stringify} over a Jackson tree, and the
 *       JSON string literal on its own;
 *   <li>{@link dev.horae.spi.json.EcmaNumbers} — {@code Number.prototype.toString} and the
 *       safe-integer reading of JSON numbers (every number is a double first).
 * </ul>
 *
 * <p>{@link dev.horae.spi.json.FrozenJson} makes the Jackson trees handed across seams immutable
 * (host spec §1, "Immutability"): frozen objects and arrays refuse every change and are their own
 * deep copy, and lazy ones build a member or an item only when it is read, so that a tool's very
 * large value (a {@code schedule_list} of a million rows) is neither copied nor held as a tree.
 *
 * <p>{@link dev.horae.spi.session.Json#write} is a different tool on purpose: it is the storage
 * codec of the session log and keeps every number exactly as written ({@code 30.0} stays
 * {@code 30.0}), which a durable log needs and a model-facing text must not show.
 *
 * <p>Pure: no clock, no I/O, no state.
 */
@NullMarked
package dev.horae.spi.json;

import org.jspecify.annotations.NullMarked;
