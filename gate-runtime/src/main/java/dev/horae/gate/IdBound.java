package dev.horae.gate;

import java.util.List;
import java.util.Objects;

/**
 * A ceiling on the ids a plugin may contribute on one axis (gate specification §10.1). A bound
 * is never a grant. The default is {@link #denyAll()}, the empty exact bound.
 */
public sealed interface IdBound
    permits IdBound.Any, IdBound.Exact, IdBound.Namespace, IdBound.NamespacedExact {

  /**
   * Whether the bound allows {@code id}.
   *
   * @param id the contributed id
   * @return true when allowed
   */
  boolean allows(String id);

  /**
   * Whether this is the deny-all bound (true only for the empty exact bound).
   *
   * @return true for {@code exact([])}
   */
  default boolean isDenyAll() {
    return this instanceof Exact e && e.ids().isEmpty();
  }

  /**
   * Allows every id.
   *
   * @return the bound
   */
  static IdBound any() {
    return new Any();
  }

  /**
   * Allows exactly the listed ids.
   *
   * @param ids the ids
   * @return the bound
   */
  static IdBound exact(List<String> ids) {
    return new Exact(ids);
  }

  /**
   * Allows ids starting with the prefix.
   *
   * @param prefix the prefix
   * @return the bound
   */
  static IdBound namespace(String prefix) {
    return new Namespace(prefix);
  }

  /**
   * Allows listed ids that also start with the prefix.
   *
   * @param prefix the prefix
   * @param ids the ids
   * @return the bound
   */
  static IdBound namespacedExact(String prefix, List<String> ids) {
    return new NamespacedExact(prefix, ids);
  }

  /**
   * The default, deny-all bound.
   *
   * @return {@code exact([])}
   */
  static IdBound denyAll() {
    return new Exact(List.of());
  }

  /** Allows every id. */
  record Any() implements IdBound {
    @Override
    public boolean allows(String id) {
      return true;
    }
  }

  /**
   * Allows exactly the listed ids.
   *
   * @param ids the ids
   */
  record Exact(List<String> ids) implements IdBound {
    /** Copies the list. */
    public Exact {
      ids = List.copyOf(ids);
    }

    @Override
    public boolean allows(String id) {
      return ids.contains(id);
    }
  }

  /**
   * Allows ids starting with the prefix.
   *
   * @param prefix the prefix
   */
  record Namespace(String prefix) implements IdBound {
    /** Rejects a missing prefix. */
    public Namespace {
      Objects.requireNonNull(prefix, "prefix");
    }

    @Override
    public boolean allows(String id) {
      return id.startsWith(prefix);
    }
  }

  /**
   * Allows listed ids that also start with the prefix.
   *
   * @param prefix the prefix
   * @param ids the ids
   */
  record NamespacedExact(String prefix, List<String> ids) implements IdBound {
    /** Copies the list. */
    public NamespacedExact {
      Objects.requireNonNull(prefix, "prefix");
      ids = List.copyOf(ids);
    }

    @Override
    public boolean allows(String id) {
      return id.startsWith(prefix) && ids.contains(id);
    }
  }
}
