package dev.horae.jobs.internal;

import dev.horae.jobs.CompletionDelivery;
import dev.horae.jobs.JobTexts;
import dev.horae.jobs.JobsControllerConfig;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.jobs.JobReporter;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.message.MessageFactory;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.message.UserMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * Completion notices and their lanes (jobs spec §4): the routed reporter of one mount. A busy
 * owner gets the notice injected into its next step; an idle owner is woken by a follow-up while
 * its consecutive-wake budget lasts; {@code quiet} keeps everyone on injection. The budget is
 * refilled only when the owner claims a user-authored message. A notice injected because the
 * budget was spent says so in its source ({@link MessageSource#withWakeBudgetExhausted()}). An
 * injection that lands after the busy owner's turn closed is taken back and delivered again.
 * Thread-safe.
 */
public final class NoticeDelivery implements JobReporter {

  /** The plugin name in notice sources. */
  public static final String PLUGIN = "tool-jobs";

  /** Where a notice goes (§4.3). */
  private enum Lane {
    /** Next-turn inbox; wakes the idle owner and spends one wake. */
    FOLLOWUP,
    /** Next-step inbox: a busy owner, or {@code quiet}. */
    INJECT,
    /** Next-step inbox because the idle owner's wake budget is spent. */
    HELD_BACK
  }

  private static final class Budget {
    long spent;
    boolean subscribed;
  }

  private final JobService service;
  private final JobsControllerConfig config;
  private final MessageFactory messages;
  // weak by agent so a disposed owner's budget goes with it
  private final Map<Agent, Budget> budgets = new WeakHashMap<>();
  private final List<Registration> refills = new ArrayList<>();
  private boolean closed;

  /**
   * Creates the reporter of one mount.
   *
   * @param service the job registry (for notice withdrawal)
   * @param config the controller configuration
   * @param messages creates notice messages with host ids
   */
  public NoticeDelivery(JobService service, JobsControllerConfig config, MessageFactory messages) {
    this.service = service;
    this.config = config;
    this.messages = messages;
  }

  @Override
  public void report(JobSnapshot snapshot, Optional<Agent> owner) {
    if (snapshot.reported() || owner.isEmpty()) {
      return;
    }
    Agent agent = owner.get();
    JobTexts.Notice notice =
        JobTexts.notice(
            snapshot.id(),
            snapshot.kind(),
            snapshot.label(),
            snapshot.status(),
            snapshot.detail(),
            snapshot.outputLimitBytes());
    Lane lane = lane(agent);
    UserMessage message = deliver(agent, notice, lane);
    // The owner read as busy may have closed its turn before the injection landed (the retirement
    // window, docs/jobs.md "Known limitations"): an idle owner does not claim an injection until
    // something else wakes it. Such a notice is still unclaimed, so it is taken back and its lane
    // chosen again, as for a notice settling a moment later; one a turn already claimed cannot be
    // withdrawn and stays where it is.
    while (lane == Lane.INJECT
        && config.completionDelivery() == CompletionDelivery.WAKEUP
        && agent.status() == AgentStatus.IDLE
        && agent.withdraw(message.id())) {
      lane = lane(agent);
      message = deliver(agent, notice, lane);
    }
    service.attachNotice(snapshot.id(), agent, message.id());
  }

  private UserMessage deliver(Agent agent, JobTexts.Notice notice, Lane lane) {
    UserMessage message = messages.text(notice.text(), source(notice.summary(), lane));
    if (lane == Lane.FOLLOWUP) {
      agent.followup(message);
    } else {
      agent.inject(message);
    }
    return message;
  }

  /**
   * The notice's source: the §4.2 shape, plus {@code wakeBudget: "exhausted"} on a notice that
   * would have woken its idle owner but was injected because the budget was spent (docs/jobs.md,
   * "The completion notice"). The log then tells a spent budget from {@code quiet}, which the
   * operations meters read; a host source may carry such form-specific members (host spec §7.2).
   */
  private static MessageSource source(String summary, Lane lane) {
    MessageSource plain = MessageSource.notice(PLUGIN, summary);
    if (lane != Lane.HELD_BACK) {
      return plain;
    }
    return plain.withWakeBudgetExhausted();
  }

  /**
   * Spent wakes of an agent (0 when it never was woken).
   *
   * @param agent the exact agent object
   * @return the spent count
   */
  public synchronized long spent(Agent agent) {
    Budget b = budgets.get(agent);
    return b == null ? 0 : b.spent;
  }

  /** Stops refill listening; later reports still deliver. */
  public void close() {
    List<Registration> toClose;
    synchronized (this) {
      closed = true;
      toClose = List.copyOf(refills);
      refills.clear();
    }
    toClose.forEach(Registration::close);
  }

  /** Picks the lane of §4.3, spending a wake on a follow-up. */
  private Lane lane(Agent agent) {
    if (config.completionDelivery() == CompletionDelivery.QUIET
        || agent.status() != AgentStatus.IDLE) {
      return Lane.INJECT;
    }
    boolean subscribe;
    synchronized (this) {
      Budget budget = budgets.computeIfAbsent(agent, a -> new Budget());
      if (budget.spent >= config.maxConsecutiveWakes()) {
        return Lane.HELD_BACK;
      }
      budget.spent++;
      subscribe = !closed && !budget.subscribed;
      budget.subscribed = true;
    }
    if (subscribe) {
      // a budget matters only once spent, so refill listening starts with the first wake
      Registration r = agent.onInboxClaimed((a, message, turn) -> onClaimed(a, message));
      synchronized (this) {
        refills.add(r);
      }
    }
    return Lane.FOLLOWUP;
  }

  private void onClaimed(Agent agent, UserMessage message) {
    // only user-authored input refills; this plugin's own notices never do
    if (!message.source().isUser()) {
      return;
    }
    synchronized (this) {
      Budget b = budgets.get(agent);
      if (b != null) {
        b.spent = 0;
      }
    }
  }
}
