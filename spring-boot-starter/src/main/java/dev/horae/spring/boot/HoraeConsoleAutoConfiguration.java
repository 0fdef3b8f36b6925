package dev.horae.spring.boot;

import dev.horae.console.Console;
import dev.horae.console.ConsoleAccess;
import dev.horae.console.LogBackend;
import dev.horae.runtime.HoraeRuntime;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;

/**
 * Mounts the web console in a servlet web application under {@code horae.console.path} (default
 * {@code /horae}), only when {@code horae.console.enabled=true}: an approval UI must be opted into.
 * The console reads the application's own runtime and answers through its resume path ({@link
 * LogBackend#over}), so the gate's ticket rules apply as they do to {@code horae approve}.
 * Requests from loopback come in without a token; anything else needs {@code horae.console.token}
 * ({@link ConsoleAccess}). docs/operations.md, "The console in a Spring Boot application".
 */
@AutoConfiguration(after = HoraeAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = {"jakarta.servlet.http.HttpServlet", "dev.horae.console.Console"})
@ConditionalOnProperty(prefix = "horae.console", name = "enabled", havingValue = "true")
public class HoraeConsoleAutoConfiguration {

  /** Creates the configuration. */
  public HoraeConsoleAutoConfiguration() {}

  /**
   * The console's servlet, mapped at the configured path and below it.
   *
   * @param runtime the application's runtime
   * @param properties the properties
   * @return the registration
   * @throws IllegalArgumentException for a path that is not {@code /} followed by segments, a
   *     blank token, or a watch interval or answer timeout that is not positive
   */
  @Bean
  @ConditionalOnBean(HoraeRuntime.class)
  @ConditionalOnMissingBean(name = "horaeConsoleServlet")
  public ServletRegistrationBean<HoraeConsoleServlet> horaeConsoleServlet(HoraeRuntime runtime,
      HoraeProperties properties) {
    HoraeProperties.Console c = properties.getConsole();
    String path = mountPath(c.getPath());
    if (c.getAnswerTimeout().isNegative() || c.getAnswerTimeout().isZero()) {
      throw new IllegalArgumentException("horae.console.answer-timeout must be positive, got " + c.getAnswerTimeout());
    }
    String token = c.getToken();
    ConsoleAccess access;
    try {
      access = ConsoleAccess.of(Optional.ofNullable(token), true);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("horae.console.token: " + e.getMessage(), e);
    }
    ExecutorService checks = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "horae-console");
      t.setDaemon(true);
      return t;
    });
    Console console;
    try {
      console = Console.create(LogBackend.over(runtime, Math.max(1, c.getAnswerTimeout().toSeconds())), access,
          runtime.timers(), c.getWatch(), checks);
    } catch (IllegalArgumentException e) {
      checks.shutdownNow();
      throw new IllegalArgumentException("horae.console.watch: " + e.getMessage(), e);
    }
    ServletRegistrationBean<HoraeConsoleServlet> registration =
        new ServletRegistrationBean<>(new HoraeConsoleServlet(console, checks), path, path + "/*");
    registration.setName("horaeConsole");
    // an event stream is an asynchronous request that stays open
    registration.setAsyncSupported(true);
    return registration;
  }

  /**
   * Ends the console's event streams first when the application stops: an open page is a request
   * that never finishes, and the web server's graceful shutdown (a later phase) would wait for it
   * until its timeout.
   *
   * @param horaeConsoleServlet the console's registration
   * @return the lifecycle
   */
  @Bean
  @ConditionalOnBean(name = "horaeConsoleServlet")
  public SmartLifecycle horaeConsoleStreams(ServletRegistrationBean<HoraeConsoleServlet> horaeConsoleServlet) {
    return new SmartLifecycle() {
      private volatile boolean running;

      @Override
      public void start() {
        running = true;
      }

      @Override
      public void stop() {
        running = false;
        HoraeConsoleServlet servlet = horaeConsoleServlet.getServlet();
        if (servlet != null) {
          servlet.endStreams();
        }
      }

      @Override
      public boolean isRunning() {
        return running;
      }

      @Override
      public int getPhase() {
        // stopped before the web server's graceful shutdown, whose phase is lower
        return SmartLifecycle.DEFAULT_PHASE;
      }
    };
  }

  /** The mount path without its trailing slash; {@code /} alone would shadow the application. */
  static String mountPath(String configured) {
    String p = configured.strip();
    while (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    if (!p.matches("(/[A-Za-z0-9._~-]+)+")) {
      throw new IllegalArgumentException("horae.console.path must be / followed by path segments of letters, digits "
          + "and . _ ~ - (like /horae or /ops/horae), got \"" + configured + "\"");
    }
    return p;
  }
}
