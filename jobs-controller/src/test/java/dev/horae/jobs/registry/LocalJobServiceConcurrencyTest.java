package dev.horae.jobs.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.jobs.fakes.FakeAgent;
import dev.horae.jobs.fakes.FakeRegistry;
import dev.horae.jobs.fakes.ManualTime;
import dev.horae.jobs.fakes.TestJob;
import dev.horae.spi.AbortController;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.jobs.KillOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LocalJobServiceConcurrencyTest {

  @Test
  void concurrentSettleReadKillAndWaitKeepEveryInvariant() throws Exception {
    int owners = 10;
    int perOwner = 100;
    ManualTime time = new ManualTime(0);
    FakeRegistry registry = new FakeRegistry();
    LocalJobService service =
        LocalJobService.builder(time, time)
            .config(new JobServiceConfig(perOwner))
            .agents(registry)
            .build();
    Map<JobId, AtomicInteger> reports = new ConcurrentHashMap<>();
    Set<JobId> unreportedAtSettlement = ConcurrentHashMap.newKeySet();
    service.attachController(
        Optional.empty(),
        "c",
        (s, o) -> {
          reports.computeIfAbsent(s.id(), k -> new AtomicInteger()).incrementAndGet();
          if (!s.reported()) {
            unreportedAtSettlement.add(s.id());
          }
        });
    List<FakeAgent> agents = new ArrayList<>();
    List<JobId> ids = new ArrayList<>();
    List<TestJob> jobs = new ArrayList<>();
    List<Agent> ownerOf = new ArrayList<>();
    for (int o = 0; o < owners; o++) {
      FakeAgent agent = registry.add(new FakeAgent("sess-" + o));
      agents.add(agent);
      for (int j = 0; j < perOwner; j++) {
        TestJob job = new TestJob();
        job.write("out-" + j);
        JobId id =
            service.start(JobStart.builder("bash", "job " + j, job::stream).owner(agent).build());
        ids.add(id);
        jobs.add(job);
        ownerOf.add(agent);
      }
    }
    Set<JobId> killed = ConcurrentHashMap.newKeySet();
    Map<JobId, StringBuilder> readText = new ConcurrentHashMap<>();
    List<CompletableFuture<JobSnapshot>> waits = new ArrayList<>();
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<java.util.concurrent.Future<?>> tasks = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      JobId id = ids.get(i);
      TestJob job = jobs.get(i);
      Optional<Agent> owner = Optional.of(ownerOf.get(i));
      AbortController abort = new AbortController();
      waits.add(service.await(id, 1e9, owner, abort).toCompletableFuture());
      int n = i;
      tasks.add(pool.submit(() -> {
        await(go);
        job.done.complete(JobOutcome.completed(Optional.of("exit code: 0")));
      }));
      tasks.add(pool.submit(() -> {
        await(go);
        String text = service.read(id, owner).text();
        readText.computeIfAbsent(id, k -> new StringBuilder()).append(text);
        if (n % 3 == 0) {
          abort.abort();
        }
      }));
      if (n % 2 == 0) {
        tasks.add(pool.submit(() -> {
          await(go);
          try {
            if (service.kill(id, owner, Optional.of("stress")) == KillOutcome.REQUESTED) {
              killed.add(id);
            }
          } catch (JobsException e) {
            throw new AssertionError(e);
          }
        }));
      }
    }
    go.countDown();
    for (var t : tasks) {
      t.get(60, TimeUnit.SECONDS);
    }
    for (CompletableFuture<JobSnapshot> w : waits) {
      w.handle((v, e) -> null).get(60, TimeUnit.SECONDS);
    }
    org.awaitility.Awaitility.await()
        .atMost(60, TimeUnit.SECONDS)
        .until(() -> reports.size() == ids.size());
    for (int i = 0; i < ids.size(); i++) {
      JobId id = ids.get(i);
      assertThat(reports.get(id)).hasValue(1);
      JobSnapshot s = service.get(id, Optional.of(ownerOf.get(i)));
      assertThat(s.status().isTerminal()).isTrue();
      // a successful kill or a waiter present at settlement suppresses the notice
      boolean waitSucceeded = !waits.get(i).isCompletedExceptionally();
      if (killed.contains(id) || waitSucceeded) {
        assertThat(unreportedAtSettlement).as(id.value()).doesNotContain(id);
      } else {
        // neither a kill nor a live waiter: the notice is due
        assertThat(unreportedAtSettlement).as(id.value()).contains(id);
      }
      String rest = service.read(id, Optional.of(ownerOf.get(i))).text();
      assertThat(readText.get(id) + rest).isEqualTo("out-" + (i % perOwner));
    }
    for (FakeAgent agent : agents) {
      assertThat(service.list(Optional.of(agent))).hasSize(perOwner);
    }
    pool.shutdown();
    service.close();
    assertThat(service.list(Optional.empty())).isEmpty();
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
