package dev.horae.examples.spring;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spring.boot.UnpromptedReplyEvent;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;

/**
 * The Spring Boot assistant: the Horae starter over one {@code ChatModel} bean, a conversation on
 * standard input, replies and reminders on standard output. Its first line says which model
 * answers.
 *
 * <pre>
 * java -jar examples-spring-boot/target/horae-spring-boot-assistant.jar
 * </pre>
 */
@SpringBootApplication
public class AssistantApplication {

  /** The session the console talks in. */
  public static final String SESSION = "console";

  private final PrintStream out;
  private final Map<String, String> env;

  /**
   * Creates the application.
   *
   * @param console where replies are printed
   * @param environment the process environment (OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL)
   */
  public AssistantApplication(PrintStream console, Map<String, String> environment) {
    this.out = console;
    this.env = environment;
  }

  /**
   * Starts the assistant on the process's standard streams.
   *
   * @param args Spring Boot arguments, e.g. {@code --horae.data-dir=horae-data}
   * @throws Exception when the conversation fails
   */
  public static void main(String[] args) throws Exception {
    ConfigurableApplicationContext context = start(System.out, System.getenv(), args);
    try {
      converse(context, new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), System.out);
    } finally {
      context.close();
    }
  }

  /**
   * Starts the application context.
   *
   * @param console where replies are printed
   * @param environment the process environment
   * @param args Spring Boot arguments
   * @param extra further configuration classes (a test's clock)
   * @return the running context
   */
  public static ConfigurableApplicationContext start(PrintStream console, Map<String, String> environment, String[] args,
      Class<?>... extra) {
    SpringApplication app = new SpringApplication(AssistantApplication.class);
    for (Class<?> c : extra) {
      app.addPrimarySources(java.util.List.of(c));
    }
    app.addInitializers(ctx -> {
      ctx.getBeanFactory().registerSingleton("console", console);
      ctx.getBeanFactory().registerSingleton("processEnvironment", environment);
    });
    return app.run(args);
  }

  /**
   * Reads prompts until the input ends, printing each reply.
   *
   * @param context the running context
   * @param in the prompts, one a line
   * @param out where replies are printed
   * @throws IOException when the input fails
   * @throws InterruptedException when interrupted while a turn runs
   * @throws ExecutionException when a turn's idle wait fails
   * @throws TimeoutException when a turn does not end within two minutes
   */
  public static void converse(ConfigurableApplicationContext context, BufferedReader in, PrintStream out)
      throws IOException, InterruptedException, ExecutionException, TimeoutException {
    HoraeRuntime horae = context.getBean(HoraeRuntime.class);
    RuntimeAgent agent = horae.openAgent(SESSION)
        .systemPrompt("You are a concise assistant. Use schedule_create for reminders.");
    out.println("Type a message (\"remind me in 10 seconds to stretch\"); end the input to quit.");
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isBlank()) {
        continue;
      }
      horae.prompt(agent, line);
      agent.whenIdle().toCompletableFuture().get(2, TimeUnit.MINUTES);
      out.println("assistant> " + lastReply(agent));
    }
  }

  private static String lastReply(RuntimeAgent agent) {
    var events = agent.session().events();
    for (int i = events.size() - 1; i >= 0; i--) {
      if (events.get(i).type().equals("turn/end")) {
        for (int j = i - 1; j >= 0; j--) {
          if (events.get(j).type().equals("assistant/message")) {
            return dev.horae.spi.model.History.messageOf(events.get(j))
                .map(m -> ((dev.horae.spi.model.ChatMessage.Assistant) m).text()).orElse("");
          }
        }
      }
    }
    return "";
  }

  /**
   * The model: Spring AI's OpenAI client when {@code OPENAI_API_KEY} is set, else the scripted
   * one. Prints the first line, which says which.
   *
   * @return the chat model
   */
  @Bean
  public ChatModel chatModel() {
    String key = env.get("OPENAI_API_KEY");
    if (key == null || key.isBlank()) {
      out.println("Horae Spring Boot assistant: no OPENAI_API_KEY, so a scripted model answers (set OPENAI_API_KEY, optionally OPENAI_BASE_URL and OPENAI_MODEL, for a real one).");
      return new ScriptedChatModel();
    }
    String baseUrl = env.getOrDefault("OPENAI_BASE_URL", "https://api.openai.com/v1");
    String model = env.getOrDefault("OPENAI_MODEL", "gpt-4o-mini");
    out.println("Horae Spring Boot assistant: model " + model + " at " + baseUrl + ".");
    return OpenAiChatModel.builder()
        .options(OpenAiChatOptions.builder().baseUrl(baseUrl).apiKey(key).model(model).build())
        .build();
  }

  /**
   * Prints a reply nobody asked for: a reminder came due, a job finished.
   *
   * @param event the reply
   */
  @EventListener
  public void unprompted(UnpromptedReplyEvent event) {
    out.println("assistant (unprompted)> " + event.outcome().finalText());
  }
}
