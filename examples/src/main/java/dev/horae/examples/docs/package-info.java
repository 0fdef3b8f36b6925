/**
 * The compiled examples that the pages under {@code docs/} quote: a tour of each capability on the
 * in-memory reference host ({@link dev.horae.examples.docs.ScheduleTour}, {@link
 * dev.horae.examples.docs.TimeContextTour}, {@link dev.horae.examples.docs.JobsTour}), the
 * configuration calls with their load-time errors ({@link dev.horae.examples.docs.Configs}), the
 * file store and a host-supplied session store ({@link dev.horae.examples.docs.Persistence}, {@link
 * dev.horae.examples.docs.MapSessionStore}). Each tour returns the texts the model saw, so the
 * docs can show them as the code produces them.
 */
@NullMarked
package dev.horae.examples.docs;

import org.jspecify.annotations.NullMarked;
