package dev.horae.gate;

import dev.horae.spi.HoraeException;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Why the resolved environment could not be merged (gate specification §10.3). A domain error
 * with a stable {@link #code()} and the code's extra fields.
 */
public final class EnvMergeException extends HoraeException {

  private static final long serialVersionUID = 1L;

  private final String code;
  private final transient Map<String, Object> fields;

  private EnvMergeException(String code, String message, Map<String, Object> fields) {
    super(message);
    this.code = code;
    this.fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }

  /**
   * The stable code: {@code duplicatePlugin}, {@code boundViolation}, {@code missingDependency},
   * {@code dependencyCycle}, {@code duplicateTool} or {@code duplicateActionKind}.
   *
   * @return the code
   */
  public String code() {
    return code;
  }

  /**
   * The code's extra fields ({@code id}; {@code axis}, {@code plugin}, {@code id}; {@code plugin},
   * {@code missing}; {@code plugins} as a list; {@code id}, {@code first}, {@code second}), in
   * that order. Values are strings or lists of strings.
   *
   * @return the fields
   */
  public Map<String, Object> fields() {
    return fields == null ? Map.of() : fields;
  }

  static EnvMergeException duplicatePlugin(String id) {
    return new EnvMergeException("duplicatePlugin",
        "plugin \"" + id + "\" is listed more than once", Map.of("id", id));
  }

  static EnvMergeException boundViolation(String plugin, BoundAxis axis, String id) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("axis", axis.code());
    f.put("plugin", plugin);
    f.put("id", id);
    return new EnvMergeException("boundViolation",
        "plugin \"" + plugin + "\" contributes " + axis.words() + " \"" + id
            + "\" outside its declared capability bound", f);
  }

  static EnvMergeException missingDependency(String plugin, String missing) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("plugin", plugin);
    f.put("missing", missing);
    return new EnvMergeException("missingDependency",
        "plugin \"" + plugin + "\" requires \"" + missing + "\", which is not active", f);
  }

  static EnvMergeException dependencyCycle(List<String> plugins) {
    StringBuilder quoted = new StringBuilder();
    for (String p : plugins) {
      if (quoted.length() > 0) {
        quoted.append(", ");
      }
      quoted.append('"').append(p).append('"');
    }
    return new EnvMergeException("dependencyCycle",
        "plugin dependencies form a cycle among " + quoted, Map.of("plugins", List.copyOf(plugins)));
  }

  static EnvMergeException duplicate(BoundAxis axis, String id, String first, String second) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("id", id);
    f.put("first", first);
    f.put("second", second);
    String code = axis == BoundAxis.TOOL ? "duplicateTool" : "duplicateActionKind";
    return new EnvMergeException(code,
        axis.words() + " \"" + id + "\" is contributed by both \"" + first + "\" and \"" + second
            + "\"", f);
  }
}
