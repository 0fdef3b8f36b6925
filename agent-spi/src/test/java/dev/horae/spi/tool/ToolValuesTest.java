package dev.horae.spi.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.session.Json;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ToolValuesTest {

  @Test
  void resultsCarryTheirCodes() {
    assertThat(ToolResult.aborted().code()).contains("ABORTED");
    assertThat(ToolResult.aborted().info().orElseThrow().path("name").asText()).isEqualTo("AbortError");
    ToolResult invalid = ToolResult.error("Error: invalid arguments: x", Optional.of(ToolResult.INVALID_ARGS));
    assertThat(invalid.isError()).isTrue();
    assertThat(invalid.code()).contains("INVALID_ARGS");
    ToolResult ok = ToolResult.success(Json.parse("{\"a\":1}"), List.of(new ContentBlock("a"), new ContentBlock("b")));
    assertThat(ok.text()).isEqualTo("ab");
    assertThat(ok.code()).isEmpty();
    assertThat(ok.withContent(List.of(new ContentBlock("c"))).text()).isEqualTo("c");
  }

  @Test
  void cardsHaveTheGenericShapeAndAClosedKind() {
    assertThat(Json.write(new PresentationCard("List reminders", "read", Optional.empty()).toJson()))
        .isEqualTo("{\"card\":\"generic\",\"title\":\"List reminders\",\"kind\":\"read\"}");
    assertThatThrownBy(() -> new PresentationCard("t", "write", Optional.empty())).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void builderDefaultsRenderJsonAndOpenSchemas() {
    ToolDefinition d = ToolDefinition.builder("t").description("d").build();
    assertThat(d.parameters().path("type").asText()).isEqualTo("object");
    assertThat(d.renderer().apply(Json.parse("{\"x\":1}"))).containsExactly(new ContentBlock("{\"x\":1}"));
    assertThat(d.presentCall().apply(Json.parse("{}"))).isEmpty();
    assertThat(d.finalContent()).isEmpty();
  }
}
