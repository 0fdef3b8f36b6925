package dev.horae.spi.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ValueNode;
import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.Set;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * Deeply immutable Jackson trees (host contract §1 "Immutability": every value handed across a
 * seam is deeply immutable once created; host contract §8.2 step 4: a tool's value is made
 * immutable).
 *
 * <p>A frozen object or array is an ordinary {@link ObjectNode} or {@link ArrayNode} to every
 * reader (navigation, {@link EcmaJson}, Jackson's serializers, {@code equals} with unfrozen trees),
 * but every mutator throws {@link UnsupportedOperationException} and {@link JsonNode#deepCopy()}
 * returns the node itself, as Jackson's own immutable value nodes do. That is what makes a freeze
 * free: code that protects itself with a deep copy (the tool registry, a log append) hands a
 * frozen tree on without copying it.
 *
 * <p>An object may be <em>lazy</em> ({@link #object(Members)}): its member values are computed
 * when read and not kept, so a large value (issue 19: a {@code schedule_list} of a million rows)
 * holds its source data once instead of a tree of member maps and nodes per row. Reading a member
 * twice builds it twice; the values must be equal each time.
 *
 * <p>Frozen nodes are the frozen containers built here and Jackson's value nodes, which Jackson
 * itself treats as immutable (their {@code deepCopy()} is the node itself).
 *
 * <p>Pure and thread-safe: a frozen tree may be read from several threads at once.
 */
public final class FrozenJson {

  private FrozenJson() {}

  /**
   * The members of a lazy object, in order. Implementations hold only immutable data, so every
   * read gives an equal answer.
   */
  public interface Members {

    /**
     * The number of members.
     *
     * @return at least 0
     */
    int size();

    /**
     * A member's name; names are distinct.
     *
     * @param index from 0 to {@code size() - 1}
     * @return the name
     */
    String name(int index);

    /**
     * A member's value, built on each call.
     *
     * @param index from 0 to {@code size() - 1}
     * @return a frozen node ({@link #isFrozen}); anything else is refused when read
     */
    JsonNode value(int index);

    /**
     * A member's kind without building its value, for readers that need no more (a schema that
     * asks only for a type). Must equal {@code value(index).getNodeType()}, which is the default.
     *
     * @param index from 0 to {@code size() - 1}
     * @return the kind of {@link #value}
     */
    default JsonNodeType type(int index) {
      return value(index).getNodeType();
    }

    /**
     * Writes the whole object's {@code JSON.stringify} text, for an object of a fixed shape that
     * can write it in fewer steps than {@link EcmaJson} member by member (issue 19: a list of a
     * million rows is rendered as one text). What it appends must equal what {@link EcmaJson}
     * writes from {@link #name} and {@link #value}, braces included; the default appends nothing
     * and answers false, and {@link EcmaJson} then writes the members itself.
     *
     * @param out the buffer
     * @return true when the text was appended
     */
    default boolean appendJson(StringBuilder out) {
      return false;
    }
  }

  /**
   * The members of a lazy object from {@link #object(Members)}, for a reader that can use them
   * without building every value.
   *
   * @param node any node
   * @return its members, or null when it is not a lazy frozen object
   */
  public static @Nullable Members lazyMembers(JsonNode node) {
    // the map itself, so that a member read this way is checked as one read through the map
    return node instanceof FrozenObject f && f.members() instanceof MembersMap lazy ? lazy : null;
  }

  /**
   * Whether the node can never change: a frozen container from this class, or an immutable value
   * node.
   *
   * @param node any node
   * @return true when the node and everything below it is immutable
   */
  public static boolean isFrozen(JsonNode node) {
    return node instanceof FrozenObject
        || node instanceof FrozenArray
        || node instanceof ValueNode;
  }

  /**
   * A lazy frozen object over {@code members}.
   *
   * @param members the members; kept, not copied
   * @return the object
   */
  public static ObjectNode object(Members members) {
    return new FrozenObject(new MembersMap(members));
  }

  /**
   * A frozen array of frozen items.
   *
   * @param items the items, in order; copied
   * @return the array
   * @throws IllegalArgumentException if an item is not {@linkplain #isFrozen frozen}
   */
  public static ArrayNode array(List<? extends JsonNode> items) {
    List<JsonNode> copy = List.copyOf(items);
    for (int i = 0; i < copy.size(); i++) {
      if (!isFrozen(copy.get(i))) {
        throw new IllegalArgumentException(notFrozen("item " + i + " of a frozen array", copy.get(i)));
      }
    }
    return new FrozenArray(copy);
  }

  /**
   * A lazy frozen array: item {@code i} is built by {@code items.apply(i)} each time it is read and
   * not kept, so a list of a million rows holds only what the function captured. The function must
   * read immutable data only, so that every read of an index gives an equal item.
   *
   * @param size the number of items
   * @param items builds an item; it must return a frozen node
   * @return the array
   * @throws IllegalArgumentException if {@code size} is negative
   */
  public static ArrayNode lazyArray(int size, IntFunction<? extends JsonNode> items) {
    if (size < 0) {
      throw new IllegalArgumentException("a frozen array's size must not be negative: " + size);
    }
    return new FrozenArray(new LazyItems(size, items));
  }

  /**
   * A frozen tree equal to {@code value}: the value itself when it is already frozen, otherwise a
   * frozen copy in which every frozen part is shared, not copied.
   *
   * @param value a tree of Jackson's node classes (or of subclasses of its object and array nodes)
   * @return a frozen equal tree
   * @throws IllegalArgumentException for a node of another {@link JsonNode} subclass
   */
  public static JsonNode freeze(JsonNode value) {
    if (isFrozen(value)) {
      return value;
    }
    if (value.isObject()) {
      Map<String, JsonNode> members = new LinkedHashMap<>(Math.max(2, (int) (value.size() / 0.75f) + 1));
      for (Map.Entry<String, JsonNode> member : value.properties()) {
        members.put(member.getKey(), freeze(member.getValue()));
      }
      return new FrozenObject(Collections.unmodifiableMap(members));
    }
    if (value.isArray()) {
      List<JsonNode> items = new ArrayList<>(value.size());
      for (JsonNode item : value) {
        items.add(freeze(item));
      }
      return new FrozenArray(Collections.unmodifiableList(items));
    }
    throw new IllegalArgumentException("a " + value.getClass().getName() + " cannot be frozen");
  }

  /** The refusal of a part that is not frozen, the same words wherever a frozen tree meets one. */
  private static String notFrozen(String part, JsonNode node) {
    return part + " is not frozen: " + node.getNodeType().name().toLowerCase(Locale.ROOT) + " node";
  }

  /** An object whose member map refuses every change. */
  // JsonNode declares the generic <T extends JsonNode> T deepCopy(); Jackson's ObjectNode narrows it
  // the same way, which javac reports as an unchecked override of the class
  @SuppressWarnings("unchecked")
  private static final class FrozenObject extends ObjectNode {
    private static final long serialVersionUID = 1L;

    FrozenObject(Map<String, JsonNode> members) {
      super(JsonNodeFactory.instance, members);
    }

    @Override
    public ObjectNode deepCopy() {
      return this;
    }

    Map<String, JsonNode> members() {
      return _children;
    }

    @Override
    public boolean has(String fieldName) {
      // presence without building the value (a schema's "required" asks for every member)
      return _children.containsKey(fieldName);
    }
  }

  /** An array over an unmodifiable list. */
  // JsonNode declares the generic <T extends JsonNode> T deepCopy(); Jackson's ArrayNode narrows it
  // the same way, which javac reports as an unchecked override of the class
  @SuppressWarnings("unchecked")
  private static final class FrozenArray extends ArrayNode {
    private static final long serialVersionUID = 1L;

    FrozenArray(List<JsonNode> items) {
      super(JsonNodeFactory.instance, items);
    }

    @Override
    public ArrayNode deepCopy() {
      return this;
    }
  }

  /** A read-only list whose items are built when read. */
  private static final class LazyItems extends AbstractList<JsonNode> implements RandomAccess {
    private final int size;
    private final IntFunction<? extends JsonNode> items;

    LazyItems(int size, IntFunction<? extends JsonNode> items) {
      this.size = size;
      this.items = items;
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public JsonNode get(int index) {
      Objects.checkIndex(index, size);
      JsonNode item = items.apply(index);
      if (!isFrozen(item)) {
        throw new IllegalStateException(notFrozen("item " + index + " of a frozen array", item));
      }
      return item;
    }
  }

  /** A read-only map view of lazy members; every write path of {@link AbstractMap} throws. */
  private static final class MembersMap extends AbstractMap<String, JsonNode> implements Members {
    private final Members members;

    MembersMap(Members members) {
      this.members = members;
    }

    @Override
    public int size() {
      return members.size();
    }

    @Override
    public boolean containsKey(Object key) {
      return indexOf(key) >= 0;
    }

    @Override
    public @Nullable JsonNode get(Object key) {
      int i = indexOf(key);
      return i < 0 ? null : value(i);
    }

    private int indexOf(Object key) {
      int n = members.size();
      for (int i = 0; i < n; i++) {
        if (members.name(i).equals(key)) {
          return i;
        }
      }
      return -1;
    }

    @Override
    public String name(int index) {
      return members.name(index);
    }

    @Override
    public JsonNodeType type(int index) {
      return members.type(index);
    }

    @Override
    public boolean appendJson(StringBuilder out) {
      return members.appendJson(out);
    }

    @Override
    public JsonNode value(int index) {
      JsonNode v = members.value(index);
      if (!isFrozen(v)) {
        throw new IllegalStateException(notFrozen("member \"" + members.name(index) + "\" of a frozen object", v));
      }
      return v;
    }

    @Override
    public Set<Map.Entry<String, JsonNode>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public int size() {
          return members.size();
        }

        @Override
        public Iterator<Map.Entry<String, JsonNode>> iterator() {
          return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
              return next < members.size();
            }

            @Override
            public Map.Entry<String, JsonNode> next() {
              if (next >= members.size()) {
                throw new NoSuchElementException();
              }
              int i = next++;
              return Map.entry(members.name(i), value(i));
            }
          };
        }
      };
    }
  }
}
