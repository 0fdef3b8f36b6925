/** Runs the Spring Boot assistant in scripted mode on a manual clock. */
@NullMarked
package dev.horae.examples.spring;

import org.jspecify.annotations.NullMarked;
