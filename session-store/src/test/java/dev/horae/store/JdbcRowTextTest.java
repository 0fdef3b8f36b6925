package dev.horae.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A row's text becomes the UTF-8 bytes the event decoder reads; text UTF-8 cannot hold (an
 * unpaired surrogate, which a database with UTF-16 strings could return) is refused instead of
 * read as {@code '?'}, also beside a real question mark.
 */
@Timeout(10)
class JdbcRowTextTest {

  @Test
  void wellFormedTextIsItsUtf8WithOrWithoutQuestionMarks() {
    for (String text : new String[] {"{\"a\":1}", "what?", "v\u00e4?", "\uD83D\uDE00 ok?", ""}) {
      assertThat(JdbcSessionStore.utf8(text)).as(text).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void anUnpairedSurrogateIsRefused() {
    for (String text : new String[] {"a\uD800b", "\uDC00", "x?\uD83D", "\uDE00\uD83D"}) {
      assertThatThrownBy(() -> JdbcSessionStore.utf8(text))
          .as(text)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("not JSON: the row's text is not well-formed Unicode");
    }
  }
}
