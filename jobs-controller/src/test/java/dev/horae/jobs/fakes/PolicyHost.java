package dev.horae.jobs.fakes;

import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.tool.PreExecuteListener;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolRegistry;
import dev.horae.spi.tool.ToolResult;
import dev.horae.testkit.TestHost;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * A host whose tool pipeline has policy hooks, as a production host's does (jobs spec §5.1): a
 * policy hook runs among the ordinary pre-execute hooks, in registration order, and may end the
 * call with its own result (a denial, a block, a replacement). A short-circuited call skips the
 * later hooks and the body, but its result still goes through the tool's final-content callback
 * exactly once. Prepended pre-execute listeners run before every ordinary hook.
 *
 * <p>Everything else is the testkit host's; the body path is the testkit registry's own call.
 */
public final class PolicyHost {

  private final PolicyTools tools;
  private final Host host;

  /**
   * Wraps a test host.
   *
   * @param testHost the host whose tools, sessions and agents are used
   */
  public PolicyHost(TestHost testHost) {
    this.tools = new PolicyTools(testHost);
    // every seam but the tool registry is the test host's own
    this.host =
        (Host)
            Proxy.newProxyInstance(
                Host.class.getClassLoader(),
                new Class<?>[] {Host.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("tools")) {
                    return tools;
                  }
                  try {
                    return method.invoke(testHost, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
  }

  /**
   * The host to install plugins on.
   *
   * @return the host
   */
  public Host host() {
    return host;
  }

  /**
   * Registers a policy hook after the hooks already registered.
   *
   * @param policy the hook: a result to end the call with, or empty to let it go on
   * @return a handle that removes it
   */
  public Registration policy(Function<ToolInvocation, Optional<ToolResult>> policy) {
    return tools.addOrdinary(policy);
  }

  /**
   * The tool registry with the policy hooks.
   *
   * @return the registry
   */
  public ToolRegistry tools() {
    return tools;
  }

  /** The tool registry with policy hooks; definitions live in the testkit registry. */
  private static final class PolicyTools implements ToolRegistry {

    private final TestHost host;
    private final List<Function<ToolInvocation, Optional<ToolResult>>> prepended = new ArrayList<>();
    private final List<Function<ToolInvocation, Optional<ToolResult>>> ordinary = new ArrayList<>();

    PolicyTools(TestHost host) {
      this.host = host;
    }

    synchronized Registration addOrdinary(Function<ToolInvocation, Optional<ToolResult>> hook) {
      return add(ordinary, hook);
    }

    private synchronized Registration add(
        List<Function<ToolInvocation, Optional<ToolResult>>> target,
        Function<ToolInvocation, Optional<ToolResult>> hook) {
      target.add(hook);
      return () -> {
        synchronized (this) {
          target.remove(hook);
        }
      };
    }

    @Override
    public Registration register(ToolDefinition tool) {
      return host.tools().register(tool);
    }

    @Override
    public List<ToolDefinition> visibleTo(Agent agent) {
      return host.tools().visibleTo(agent);
    }

    @Override
    public Optional<ToolDefinition> find(Agent agent, String name) {
      return host.tools().find(agent, name);
    }

    @Override
    public Registration onPreExecute(PreExecuteListener listener, boolean prepend) {
      Function<ToolInvocation, Optional<ToolResult>> hook =
          call -> {
            listener.beforeExecute(call);
            return Optional.empty();
          };
      return add(prepend ? prepended : ordinary, hook);
    }

    @Override
    public CompletionStage<ToolResult> call(ToolInvocation call, AbortSignal signal) {
      List<Function<ToolInvocation, Optional<ToolResult>>> chain;
      synchronized (this) {
        chain = new ArrayList<>(prepended);
        chain.addAll(ordinary);
      }
      for (Function<ToolInvocation, Optional<ToolResult>> hook : chain) {
        Optional<ToolResult> decided = hook.apply(call);
        if (decided.isPresent()) {
          ToolResult result = decided.get();
          ToolResult last =
              find(call.agent(), call.call().toolId())
                  .flatMap(ToolDefinition::finalContent)
                  .map(f -> result.withContent(f.apply(call, result)))
                  .orElse(result);
          return CompletableFuture.completedFuture(last);
        }
      }
      return host.tools().call(call, signal);
    }
  }
}
