/**
 * The compiled examples that the pages under {@code docs/} quote from the main tree: the
 * configuration calls with their load-time errors ({@link dev.horae.examples.docs.Configs}), the
 * file store and a host-supplied session store ({@link dev.horae.examples.docs.Persistence}, {@link
 * dev.horae.examples.docs.MapSessionStore}). The capability tours ({@code ScheduleTour}, {@code
 * TimeContextTour}, {@code JobsTour}) share this package in the test tree: they run the production
 * runtime on the testkit's manual clock and scripted model, which no main class may use, and
 * return the texts the model saw, so the docs can show them as the code produces them.
 */
@NullMarked
package dev.horae.examples.docs;

import org.jspecify.annotations.NullMarked;
