package dev.horae.spi.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BaseJsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Frozen trees (host spec §1 "Immutability", §8.2 step 4): they read as ordinary Jackson trees,
 * refuse every change, and are their own deep copy; lazy ones build what is read.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FrozenJsonTest {

  private static final String TEXT = "{\"id\":\"a\",\"n\":3,\"tags\":[\"x\",\"y\"],\"inner\":{\"ok\":true}}";

  /** Members id, n, tags, inner as in {@link #TEXT}; counts how often each value is built. */
  private static class Sample implements FrozenJson.Members {
    final AtomicInteger built = new AtomicInteger();
    private static final String[] NAMES = {"id", "n", "tags", "inner"};

    @Override
    public int size() {
      return NAMES.length;
    }

    @Override
    public String name(int index) {
      return NAMES[index];
    }

    @Override
    public JsonNode value(int index) {
      built.incrementAndGet();
      return switch (index) {
        case 0 -> TextNode.valueOf("a");
        case 1 -> IntNode.valueOf(3);
        case 2 -> FrozenJson.array(List.of(TextNode.valueOf("x"), TextNode.valueOf("y")));
        default -> FrozenJson.freeze(Json.parse("{\"ok\":true}"));
      };
    }
  }

  @Test
  void aLazyObjectReadsLikeTheTreeItStandsFor() {
    Sample members = new Sample();
    ObjectNode lazy = FrozenJson.object(members);
    JsonNode parsed = Json.parse(TEXT);

    assertThat(lazy.size()).isEqualTo(4);
    assertThat(lazy.get("id").asText()).isEqualTo("a");
    assertThat(lazy.path("n").asInt()).isEqualTo(3);
    assertThat(lazy.get("absent")).isNull();
    assertThat(lazy.path("absent").isMissingNode()).isTrue();
    assertThat(lazy.has("tags")).isTrue();
    assertThat(lazy.has("absent")).isFalse();
    List<String> names = new ArrayList<>();
    lazy.properties().forEach(e -> names.add(e.getKey()));
    assertThat(names).containsExactly("id", "n", "tags", "inner");
    // equal both ways to the parsed tree, with the same hash, and written the same by both writers
    assertThat(lazy).isEqualTo(parsed);
    assertThat(parsed).isEqualTo(lazy);
    assertThat(lazy.hashCode()).isEqualTo(parsed.hashCode());
    assertThat(Json.write(lazy)).isEqualTo(TEXT);
    assertThat(EcmaJson.write(lazy)).isEqualTo(TEXT);
    assertThat(lazy.toString()).isEqualTo(TEXT);
  }

  @Test
  void aLazyObjectBuildsAValueOnlyWhenItIsReadAndKeepsNone() {
    Sample members = new Sample();
    ObjectNode lazy = FrozenJson.object(members);
    assertThat(lazy.has("id")).isTrue();
    assertThat(lazy.size()).isEqualTo(4);
    FrozenJson.Members read = Objects.requireNonNull(FrozenJson.lazyMembers(lazy));
    assertThat(read.size()).isEqualTo(4);
    assertThat(read.name(3)).isEqualTo("inner");
    assertThat(read.type(0)).isEqualTo(JsonNodeType.STRING);
    assertThat(members.built).hasValue(1);
    assertThat(read.value(1).asInt()).isEqualTo(3);
    assertThat(members.built).hasValue(2);
    lazy.get("id");
    lazy.get("id");
    assertThat(members.built).hasValue(4);
    // the default kind of a member builds it; a Members that knows its kinds overrides type()
    assertThat(members.type(2)).isEqualTo(JsonNodeType.ARRAY);
    assertThat(members.built).hasValue(5);
  }

  @Test
  void aLazyObjectThatWritesItsOwnTextIsWrittenByItAndOnlyByEcmaJson() {
    // a deliberately different text shows whose writing EcmaJson used
    Sample own = new Sample() {
      @Override
      public boolean appendJson(StringBuilder out) {
        out.append("{\"own\":1}");
        return true;
      }
    };
    ObjectNode lazy = FrozenJson.object(own);
    assertThat(EcmaJson.write(FrozenJson.array(List.of(lazy, lazy)))).isEqualTo("[{\"own\":1},{\"own\":1}]");
    assertThat(own.built).hasValue(0);
    // the members seen through lazyMembers write the same way; Jackson's writer reads the members
    assertThat(Objects.requireNonNull(FrozenJson.lazyMembers(lazy)).appendJson(new StringBuilder())).isTrue();
    assertThat(Json.write(lazy)).isEqualTo(TEXT);
    // by default a lazy object writes nothing itself and EcmaJson writes its members
    StringBuilder untouched = new StringBuilder("x");
    assertThat(new Sample().appendJson(untouched)).isFalse();
    assertThat(untouched).hasToString("x");
  }

  @Test
  void onlyALazyObjectHasLazyMembers() {
    assertThat(FrozenJson.lazyMembers(Json.parse(TEXT))).isNull();
    assertThat(FrozenJson.lazyMembers(FrozenJson.freeze(Json.parse(TEXT)))).isNull();
    assertThat(FrozenJson.lazyMembers(TextNode.valueOf("a"))).isNull();
  }

  @Test
  void aMemberThatIsNotFrozenIsRefusedWhenRead() {
    ObjectNode mutable = Json.mapper().createObjectNode();
    ObjectNode lazy = FrozenJson.object(new FrozenJson.Members() {
      @Override
      public int size() {
        return 1;
      }

      @Override
      public String name(int index) {
        return "inner";
      }

      @Override
      public JsonNode value(int index) {
        return mutable;
      }
    });
    assertThatThrownBy(() -> lazy.get("inner"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("member \"inner\" of a frozen object is not frozen: object node");
    // every way of reading it checks it: the writer and the validators read lazyMembers
    assertThatThrownBy(() -> EcmaJson.write(lazy)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> Objects.requireNonNull(FrozenJson.lazyMembers(lazy)).value(0)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> Json.write(lazy)).hasStackTraceContaining("of a frozen object is not frozen");
  }

  @Test
  void everyFrozenContainerRefusesEveryChangeAndStaysAsItWas() {
    ObjectNode lazy = FrozenJson.object(new Sample());
    ObjectNode eager = (ObjectNode) FrozenJson.freeze(Json.parse(TEXT));
    for (ObjectNode o : List.of(lazy, eager)) {
      List<Consumer<ObjectNode>> changes = List.of(
          n -> n.put("id", "b"),
          n -> n.set("new", TextNode.valueOf("v")),
          n -> n.remove("id"),
          n -> n.removeAll(),
          n -> n.retain("id"),
          n -> n.putObject("x"),
          n -> n.putArray("y"),
          n -> n.replace("n", IntNode.valueOf(4)),
          n -> n.setAll(Map.of("z", TextNode.valueOf("z"))),
          n -> n.without("n"));
      for (Consumer<ObjectNode> change : changes) {
        assertThatThrownBy(() -> change.accept(o)).isInstanceOf(UnsupportedOperationException.class);
      }
      assertThatThrownBy(() -> ((ArrayNode) o.get("tags")).add("z")).isInstanceOf(UnsupportedOperationException.class);
      assertThatThrownBy(() -> ((ObjectNode) o.get("inner")).put("ok", false))
          .isInstanceOf(UnsupportedOperationException.class);
      assertThat(Json.write(o)).isEqualTo(TEXT);
    }
    ArrayNode array = FrozenJson.array(List.of(TextNode.valueOf("x")));
    List<Consumer<ArrayNode>> changes = List.of(
        a -> a.add(1), a -> a.set(0, IntNode.valueOf(1)), a -> a.remove(0), a -> a.removeAll(),
        a -> a.insert(0, 1), a -> a.addObject());
    for (Consumer<ArrayNode> change : changes) {
      assertThatThrownBy(() -> change.accept(array)).isInstanceOf(UnsupportedOperationException.class);
    }
    assertThat(Json.write(array)).isEqualTo("[\"x\"]");
  }

  @Test
  void aFrozenTreeIsItsOwnDeepCopyAndFreezingItAgainCopiesNothing() {
    ObjectNode lazy = FrozenJson.object(new Sample());
    ArrayNode array = FrozenJson.array(List.of(lazy));
    ArrayNode lazyArray = FrozenJson.lazyArray(2, i -> lazy);
    for (JsonNode frozen : List.of(lazy, array, lazyArray, FrozenJson.freeze(Json.parse(TEXT)))) {
      assertThat(frozen.<JsonNode>deepCopy()).isSameAs(frozen);
      assertThat(FrozenJson.freeze(frozen)).isSameAs(frozen);
      assertThat(FrozenJson.isFrozen(frozen)).isTrue();
    }
    // a mutable parent's deep copy shares its frozen children
    ObjectNode parent = Json.mapper().createObjectNode();
    parent.set("rows", array);
    assertThat(parent.deepCopy().get("rows")).isSameAs(array);
  }

  @Test
  void freezingAMutableTreeCopiesItOnceAndSharesItsFrozenParts() {
    ArrayNode shared = FrozenJson.array(List.of(TextNode.valueOf("x")));
    ObjectNode source = (ObjectNode) Json.parse("{\"a\":{\"b\":[1,{\"c\":null}]},\"n\":1.50}");
    source.set("shared", shared);
    JsonNode frozen = FrozenJson.freeze(source);

    assertThat(frozen).isEqualTo(source);
    assertThat(FrozenJson.isFrozen(frozen)).isTrue();
    assertThat(FrozenJson.isFrozen(frozen.get("a"))).isTrue();
    assertThat(FrozenJson.isFrozen(frozen.get("a").get("b"))).isTrue();
    assertThat(FrozenJson.isFrozen(frozen.get("a").get("b").get(1))).isTrue();
    assertThat(frozen.get("shared")).isSameAs(shared);
    // numbers keep their exact text, and later changes to the source do not reach the copy
    ((ObjectNode) source.get("a")).put("b", "changed");
    source.put("n", 2);
    assertThat(Json.write(frozen)).isEqualTo("{\"a\":{\"b\":[1,{\"c\":null}]},\"n\":1.50,\"shared\":[\"x\"]}");
    assertThat(FrozenJson.isFrozen(source)).isFalse();
    assertThat(FrozenJson.isFrozen(TextNode.valueOf("v"))).isTrue();
  }

  /** A node of none of Jackson's kinds: nothing tells how to copy it. */
  @SuppressWarnings("unchecked") // its deepCopy() narrows JsonNode's generic one, as Jackson's nodes do
  private static final class Foreign extends BaseJsonNode {
    private static final long serialVersionUID = 1L;

    @Override
    public int hashCode() {
      return 1;
    }

    @Override
    public boolean equals(Object o) {
      return o == this;
    }

    @Override
    public String toString() {
      return "foreign";
    }

    @Override
    public JsonToken asToken() {
      return JsonToken.VALUE_EMBEDDED_OBJECT;
    }

    @Override
    public void serialize(JsonGenerator g, SerializerProvider p) {}

    @Override
    public void serializeWithType(JsonGenerator g, SerializerProvider p, TypeSerializer t) {}

    @Override
    public Foreign deepCopy() {
      return this;
    }

    @Override
    public JsonNode get(int index) {
      return MissingNode.getInstance();
    }

    @Override
    public JsonNode path(String name) {
      return MissingNode.getInstance();
    }

    @Override
    public JsonNode path(int index) {
      return MissingNode.getInstance();
    }

    @Override
    protected JsonNode _at(JsonPointer ptr) {
      return MissingNode.getInstance();
    }

    @Override
    public JsonNodeType getNodeType() {
      return JsonNodeType.POJO;
    }

    @Override
    public String asText() {
      return "";
    }

    @Override
    public JsonNode findValue(String name) {
      return MissingNode.getInstance();
    }

    @Override
    public JsonNode findParent(String name) {
      return MissingNode.getInstance();
    }

    @Override
    public List<JsonNode> findValues(String name, List<JsonNode> found) {
      return found;
    }

    @Override
    public List<String> findValuesAsText(String name, List<String> found) {
      return found;
    }

    @Override
    public List<JsonNode> findParents(String name, List<JsonNode> found) {
      return found;
    }
  }

  @Test
  void aNodeOfAnotherKindCannotBeFrozen() {
    ObjectNode holder = Json.mapper().createObjectNode();
    holder.set("x", new Foreign());
    assertThatThrownBy(() -> FrozenJson.freeze(holder))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a " + Foreign.class.getName() + " cannot be frozen");
    assertThat(FrozenJson.isFrozen(new Foreign())).isFalse();
  }

  @Test
  void anArrayOfItemsCopiesTheListAndRefusesAnItemThatIsNotFrozen() {
    List<JsonNode> items = new ArrayList<>(List.of(TextNode.valueOf("x")));
    ArrayNode array = FrozenJson.array(items);
    items.add(TextNode.valueOf("y"));
    assertThat(array.size()).isEqualTo(1);
    assertThatThrownBy(() -> FrozenJson.array(List.of(TextNode.valueOf("x"), JsonNodeFactory.instance.arrayNode())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("item 1 of a frozen array is not frozen: array node");
  }

  @Test
  void aLazyArrayBuildsEachItemWhenItIsRead() {
    AtomicInteger built = new AtomicInteger();
    ArrayNode lazy = FrozenJson.lazyArray(3, i -> {
      built.incrementAndGet();
      return IntNode.valueOf(i * 10);
    });
    assertThat(lazy.size()).isEqualTo(3);
    assertThat(built).hasValue(0);
    assertThat(lazy.get(2).asInt()).isEqualTo(20);
    assertThat(lazy).isEqualTo(Json.parse("[0,10,20]"));
    assertThat(EcmaJson.write(lazy)).isEqualTo("[0,10,20]");
    assertThat(built.get()).isGreaterThanOrEqualTo(4);
    assertThat(lazy.get(3)).isNull();
    assertThat(FrozenJson.lazyArray(0, i -> IntNode.valueOf(i))).isEqualTo(Json.parse("[]"));
    assertThatThrownBy(() -> FrozenJson.lazyArray(-1, i -> IntNode.valueOf(i)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a frozen array's size must not be negative: -1");
    ArrayNode bad = FrozenJson.lazyArray(1, i -> Json.mapper().createObjectNode());
    assertThatThrownBy(() -> bad.get(0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("item 0 of a frozen array is not frozen: object node");
  }
}
