package dev.horae.jobs.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.AbortSignal;
import dev.horae.spi.plugin.Installation;
import dev.horae.spi.session.Json;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import org.junit.jupiter.api.Test;

/** {@code bash_background} installed as a plugin: one registration for every agent, removed on close. */
class BackgroundShellToolPluginTest {

  @Test
  void installingGivesEveryAgentTheToolAndClosingRemovesIt() {
    TestHost host = TestHost.builder().build();
    BackgroundShellTool plugin = BackgroundShellTool.create(ShellJobConfig.builder().destroyOnJvmExit(false).build());
    assertThat(plugin.name()).isEqualTo(BackgroundShellTool.NAME);
    Installation installed = host.install(plugin);
    TestAgent agent = host.createAgent();
    assertThat(host.tools().find(agent, BackgroundShellTool.NAME)).isPresent();
    // the job service is looked up per call, so a host without one gets an error result, not a load failure
    assertThat(host.tools().call(new ToolInvocation(agent, new ToolCall("c1", BackgroundShellTool.NAME, Json.parse("{\"command\":\"echo hi\"}"))), AbortSignal.never())
            .toCompletableFuture().join().text())
        .isEqualTo("Error: background jobs unavailable: load the jobs service and the tool-jobs controller");
    installed.close().toCompletableFuture().join();
    assertThat(host.tools().find(agent, BackgroundShellTool.NAME)).isEmpty();
  }

  @Test
  void createWithoutAConfigurationInstallsTheTool() {
    TestHost host = TestHost.builder().build();
    host.install(BackgroundShellTool.create());
    assertThat(host.tools().find(host.createAgent(), BackgroundShellTool.NAME)).isPresent();
  }
}
