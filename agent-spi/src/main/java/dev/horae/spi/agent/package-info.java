/**
 * Agents and the turn contract (host contract §5, §6): the agent registry, agents with their
 * maintenance claim, idle wait and inbox (followup, inject, steer, withdraw), lifecycle events,
 * and the pre-step waterfall with its Enter/Reject decision.
 */
@NullMarked
package dev.horae.spi.agent;

import org.jspecify.annotations.NullMarked;
