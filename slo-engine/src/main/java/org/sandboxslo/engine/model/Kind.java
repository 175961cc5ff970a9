package org.sandboxslo.engine.model;

/**
 * The four agent-sandbox kinds the console tracks, with their API group and plural (all v1beta1).
 */
public enum Kind {
  SANDBOX("agents.x-k8s.io", "Sandbox", "sandboxes"),
  SANDBOX_TEMPLATE("extensions.agents.x-k8s.io", "SandboxTemplate", "sandboxtemplates"),
  SANDBOX_WARM_POOL("extensions.agents.x-k8s.io", "SandboxWarmPool", "sandboxwarmpools"),
  SANDBOX_CLAIM("extensions.agents.x-k8s.io", "SandboxClaim", "sandboxclaims");

  public static final String VERSION = "v1beta1";

  private final String group;
  private final String kindName;
  private final String plural;

  Kind(String group, String kindName, String plural) {
    this.group = group;
    this.kindName = kindName;
    this.plural = plural;
  }

  public String group() {
    return group;
  }

  /** The upstream kind name, e.g. {@code SandboxWarmPool}. */
  public String kindName() {
    return kindName;
  }

  public String plural() {
    return plural;
  }

  public String apiVersion() {
    return group + "/" + VERSION;
  }

  /** {@code plural.group}, the CRD name. */
  public String crdName() {
    return plural + "." + group;
  }

  /** Finds a kind by its upstream kind name; {@code null} when it is not one of the four. */
  public static Kind ofKindName(String kindName) {
    for (Kind k : values()) {
      if (k.kindName.equals(kindName)) {
        return k;
      }
    }
    return null;
  }
}
