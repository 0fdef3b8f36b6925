package dev.horae.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.fuzz.Mutator.Op;
import dev.horae.spi.session.Json;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fuzzer's own rules: reproducible from its seed, and each mutation does what it says. */
class MutatorTest {

  private static final List<byte[]> CORPUS = FuzzRun.corpus(List.of(
      "{\"id\":\"schedule-1\",\"n\":30,\"list\":[1,true,null,\"x\"],\"o\":{\"k\":-2.5}}",
      "[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":{}}]"));

  private static byte[] seed() {
    return CORPUS.get(0).clone();
  }

  @Test
  void theSameSeedGivesTheSameInputsAndAnotherSeedOthers() {
    Mutator a = new Mutator(7, CORPUS);
    Mutator b = new Mutator(7, CORPUS);
    Mutator c = new Mutator(8, CORPUS);
    List<byte[]> fromA = new ArrayList<>();
    boolean differs = false;
    for (int i = 0; i < 500; i++) {
      byte[] x = a.next();
      fromA.add(x);
      assertThat(b.next()).isEqualTo(x);
      differs |= !Arrays.equals(c.next(), x);
      assertThat(x.length).isLessThanOrEqualTo(Mutator.MAX_INPUT);
    }
    assertThat(differs).isTrue();
    assertThat(fromA.stream().map(Arrays::hashCode).distinct().count()).isGreaterThan(300);
  }

  @Test
  void tokenMutationsPutTheirValuesWhereAValueStood() {
    Mutator m = new Mutator(1, CORPUS);
    for (int i = 0; i < 50; i++) {
      String numbers = new String(m.apply(Op.BOUNDARY_NUMBER, seed()), StandardCharsets.UTF_8);
      assertThat(Mutator.BOUNDARY_NUMBERS).anyMatch(numbers::contains);
      byte[] huge = m.apply(Op.HUGE_STRING, seed());
      assertThat(huge.length).isGreaterThan(65_536);
      String deep = new String(m.apply(Op.DEEP_NESTING, seed()), StandardCharsets.UTF_8);
      assertThat(deep).satisfiesAnyOf(d -> assertThat(d).contains("[".repeat(999)),
          d -> assertThat(d).contains("{\"a\":".repeat(999)));
      assertThat(m.apply(Op.HUGE_CONTAINER, seed()).length).isGreaterThan(1_000);
    }
  }

  @Test
  void invalidUtf8IsInvalidAndTreeMutationsStayJson() {
    Mutator m = new Mutator(2, CORPUS);
    for (int i = 0; i < 50; i++) {
      assertThat(strictUtf8(m.apply(Op.INVALID_UTF8, seed()))).isFalse();
      for (Op op : List.of(Op.TREE_REPLACE, Op.TREE_DROP, Op.TREE_ADD)) {
        byte[] out = m.apply(op, seed());
        assertThat(Json.parse(new String(out, StandardCharsets.UTF_8)).isObject()).as(op.name()).isTrue();
      }
    }
  }

  @Test
  void byteMutationsChangeTheInput() {
    Mutator m = new Mutator(3, CORPUS);
    for (Op op : List.of(Op.FLIP_BIT, Op.INSERT_BYTES, Op.DELETE_RANGE, Op.DUPLICATE_RANGE, Op.TRUNCATE,
        Op.LINE_BREAK)) {
      assertThat(m.apply(op, seed())).as(op.name()).isNotEqualTo(seed());
    }
  }

  private static boolean strictUtf8(byte[] bytes) {
    try {
      StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}
