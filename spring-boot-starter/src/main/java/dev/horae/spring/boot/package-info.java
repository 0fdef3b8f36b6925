/**
 * Spring Boot 4 auto-configuration of Horae: {@link dev.horae.spring.boot.HoraeAutoConfiguration}
 * builds a {@link dev.horae.runtime.HoraeRuntime} from the {@code horae.*} properties ({@link
 * dev.horae.spring.boot.HoraeProperties}) over the application's Spring AI {@code ChatModel},
 * installs the plugin beans, registers the {@code ToolGate} beans, resumes the stored sessions when
 * the context starts and closes the runtime when it stops ({@link
 * dev.horae.spring.boot.HoraeRuntimeLifecycle}), and publishes every unprompted reply as a {@link
 * dev.horae.spring.boot.UnpromptedReplyEvent}. With the optional {@code horae-micrometer} on the
 * class path, {@link dev.horae.spring.boot.HoraeMetricsAutoConfiguration} binds the runtime's meters
 * to the application's {@code MeterRegistry}. In a servlet web application with {@code
 * horae.console.enabled=true}, {@link dev.horae.spring.boot.HoraeConsoleAutoConfiguration} mounts
 * the web console ({@link dev.horae.spring.boot.HoraeConsoleServlet}) under {@code
 * horae.console.path}. Every bean backs off when the application defines its own.
 */
@NullMarked
package dev.horae.spring.boot;

import org.jspecify.annotations.NullMarked;
