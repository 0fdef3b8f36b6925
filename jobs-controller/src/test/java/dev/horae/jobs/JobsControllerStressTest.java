package dev.horae.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.jobs.fakes.TestJob;
import dev.horae.jobs.registry.JobServiceConfig;
import dev.horae.jobs.registry.LocalJobService;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobDoneListener;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.jobs.KillOutcome;
import dev.horae.spi.message.UserMessage;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** 1,000 jobs settling concurrently with reads and kills, through the controller's notices. */
class JobsControllerStressTest {

  private static final Pattern NOTICE_ID = Pattern.compile("^background job (bash-\\d+) ");

  // "scale": a load test, run by every build but left out of mutation runs (docs/testing.md, "Settings")
  @Tag("scale")
  @Test
  void everyOwnerSeesEachNoticeAtMostOnceAndExactlyOnceUnlessSuppressed() throws Exception {
    TestHost host = TestHost.builder().build();
    LocalJobService jobs =
        LocalJobService.builder(host.wallClock(), host.timers())
            .config(new JobServiceConfig(100))
            .agents(host.agents())
            .warnings(host.warnings())
            .build();
    host.provide(JobService.class, jobs);
    host.install(JobsController.create());
    Set<JobId> due = ConcurrentHashMap.newKeySet();
    Set<JobId> settled = ConcurrentHashMap.newKeySet();
    jobs.onJobDone(
        Optional.empty(),
        JobDoneListener.sync(
            (s, o) -> {
              settled.add(s.id());
              if (!s.reported()) {
                due.add(s.id());
              }
            }));
    List<TestAgent> owners = new ArrayList<>();
    List<JobId> ids = new ArrayList<>();
    List<TestJob> work = new ArrayList<>();
    Map<JobId, TestAgent> ownerOf = new HashMap<>();
    for (int o = 0; o < 10; o++) {
      TestAgent agent = host.createAgent();
      owners.add(agent);
      for (int j = 0; j < 100; j++) {
        TestJob job = new TestJob().write("out");
        JobId id = jobs.start(JobStart.builder("bash", "job", job::stream).owner(agent).build());
        ids.add(id);
        work.add(job);
        ownerOf.put(id, agent);
      }
    }
    Set<JobId> killed = ConcurrentHashMap.newKeySet();
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<?>> tasks = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      JobId id = ids.get(i);
      TestJob job = work.get(i);
      Optional<Agent> owner = Optional.of(owners.get(i / 100));
      int n = i;
      tasks.add(pool.submit(() -> {
        await(go);
        job.done.complete(JobOutcome.completed(Optional.of("exit code: 0")));
      }));
      if (n % 3 == 0) {
        tasks.add(pool.submit(() -> {
          await(go);
          jobs.read(id, owner);
        }));
      }
      if (n % 4 == 0) {
        tasks.add(pool.submit(() -> {
          await(go);
          if (jobs.kill(id, owner, Optional.of("stress")) == KillOutcome.REQUESTED) {
            killed.add(id);
          }
        }));
      }
    }
    go.countDown();
    for (Future<?> t : tasks) {
      t.get(60, TimeUnit.SECONDS);
    }
    Awaitility.await().atMost(60, TimeUnit.SECONDS).until(() -> settled.size() == ids.size());
    jobs.close();
    pool.shutdown();

    Map<JobId, Integer> delivered = new HashMap<>();
    for (TestAgent agent : owners) {
      List<UserMessage> all = new ArrayList<>(agent.followups());
      all.addAll(agent.injections());
      for (UserMessage m : all) {
        Matcher matcher = NOTICE_ID.matcher(m.text());
        assertThat(matcher.find()).isTrue();
        JobId id = JobId.parse(matcher.group(1));
        // routed to the exact owner only
        assertThat(ownerOf.get(id)).isSameAs(agent);
        delivered.merge(id, 1, Integer::sum);
      }
      // idle owners: at most maxConsecutiveWakes follow-ups, the rest injected
      assertThat(agent.followups()).hasSizeLessThanOrEqualTo(3);
    }
    for (JobId id : ids) {
      int count = delivered.getOrDefault(id, 0);
      assertThat(count).as(id.value()).isLessThanOrEqualTo(1);
      assertThat(count).as(id.value()).isEqualTo(due.contains(id) ? 1 : 0);
      if (killed.contains(id)) {
        assertThat(count).as("killed " + id.value()).isZero();
      }
    }
    assertThat(due).isNotEmpty();
    assertThat(killed).isNotEmpty();
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
