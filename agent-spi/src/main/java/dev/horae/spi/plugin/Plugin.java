package dev.horae.spi.plugin;

/** A Horae capability that installs itself on a host. */
public interface Plugin {

  /**
   * The plugin name, as used in message sources and logs.
   *
   * @return the name
   */
  String name();

  /**
   * Installs the plugin. On failure everything already registered is rolled back.
   *
   * @param host the host
   * @return the installation
   * @throws CompositionException when a required service is missing or the config is invalid
   */
  Installation install(Host host);
}
