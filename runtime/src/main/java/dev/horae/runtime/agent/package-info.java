/**
 * Agents and the turn engine (host contract §5, §6): {@link dev.horae.runtime.agent.RuntimeAgents}
 * is the registry (roots and children, created and status events, the pre-step waterfall, the
 * turn-stopping hook, disposal), {@link dev.horae.runtime.agent.RuntimeAgent} an agent with the
 * phase rules (turn, maintenance, external turn, idle), latched wake-ups and the follow-up /
 * inject / steer inboxes, and {@link dev.horae.runtime.agent.TurnEngine} the turn algorithm over a
 * {@link dev.horae.spi.model.ModelPort}, each request rebuilt from the durable model-visible
 * history.
 */
@NullMarked
package dev.horae.runtime.agent;

import org.jspecify.annotations.NullMarked;
