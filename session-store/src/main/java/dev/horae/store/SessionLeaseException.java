package dev.horae.store;

/**
 * A session lease refused an operation: acquiring a session another owner holds, or persisting
 * with a lease that is no longer current or without one. Nothing was written. The {@link #code()}
 * is stable; callers decide on it, not on the message.
 */
public final class SessionLeaseException extends SessionStoreException {

  private static final long serialVersionUID = 1L;

  /** Why a lease operation was refused. */
  public enum Code {
    /**
     * {@code lease-held}: another owner holds a live lease on the session, so it cannot be acquired
     * here.
     */
    LEASE_HELD("lease-held"),
    /**
     * {@code stale-epoch}: the persist carried a lease whose owner and epoch are no longer the
     * recorded ones: the session was acquired elsewhere (or released) since.
     */
    STALE_EPOCH("stale-epoch"),
    /**
     * {@code not-leased}: the persist carried no lease although the session is leased, or the
     * caller holds no lease on it.
     */
    NOT_LEASED("not-leased");

    private final String text;

    Code(String text) {
      this.text = text;
    }

    /**
     * The stable code text.
     *
     * @return e.g. {@code stale-epoch}
     */
    public String text() {
      return text;
    }
  }

  private final Code code;
  private final String sessionId;

  /**
   * Creates the refusal.
   *
   * @param code why
   * @param sessionId the session concerned
   * @param message the error text, naming the session, the owners and epochs involved
   */
  public SessionLeaseException(Code code, String sessionId, String message) {
    super(message);
    this.code = code;
    this.sessionId = sessionId;
  }

  /**
   * Creates the refusal with a cause.
   *
   * @param code why
   * @param sessionId the session concerned
   * @param message the error text
   * @param cause the underlying failure (the file store's lock refusal)
   */
  public SessionLeaseException(Code code, String sessionId, String message, Throwable cause) {
    super(message, cause);
    this.code = code;
    this.sessionId = sessionId;
  }

  /**
   * Why the operation was refused.
   *
   * @return the code
   */
  public Code code() {
    return code;
  }

  /**
   * The session concerned.
   *
   * @return its id
   */
  public String sessionId() {
    return sessionId;
  }
}
