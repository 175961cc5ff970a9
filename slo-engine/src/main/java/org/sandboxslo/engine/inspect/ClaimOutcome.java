package org.sandboxslo.engine.inspect;

/** How a SandboxClaim ended up, as far as the console has seen it. */
public enum ClaimOutcome {
  /** Became Ready (claim-first-ready-at, or a Ready=True condition). */
  READY("ready"),
  /** Not Ready yet and no terminal reason. */
  PENDING("pending"),
  /**
   * Refused by the controller: Ready=False with {@code EnvVarsInjectionRejected}, {@code
   * InvalidMetadata}, {@code VolumeClaimTemplatesError}, {@code TemplateNotFound} or {@code
   * WarmPoolNotFound}.
   */
  REJECTED("rejected"),
  /** Expired ({@code ClaimExpired}/{@code SandboxExpired}) without ever being Ready. */
  EXPIRED_UNSERVED("expired-unserved"),
  /** Deleted before it was ever Ready (needs the engine to keep deleted claims). */
  DELETED_BEFORE_READY("deleted-before-ready");

  private final String wireName;

  ClaimOutcome(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }
}
