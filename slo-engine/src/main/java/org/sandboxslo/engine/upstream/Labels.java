package org.sandboxslo.engine.upstream;

/**
 * Upstream label and annotation keys (kubernetes-sigs/agent-sandbox, reference §c). (L) label, (A)
 * annotation.
 */
public final class Labels {
  private Labels() {}

  public static final String RESERVED_PREFIX = "agents.x-k8s.io/";
  public static final String RESERVED_EXTENSIONS_PREFIX = "extensions.agents.x-k8s.io/";

  /** (L) Pod, Service, PVC: NameHash(sandbox name). */
  public static final String SANDBOX_NAME_HASH = "agents.x-k8s.io/sandbox-name-hash";

  /** (L) pool Sandbox + its Pod: NameHash(pool name); removed on adoption. */
  public static final String WARM_POOL_SANDBOX = "agents.x-k8s.io/warm-pool-sandbox";

  /** (L) Template, Sandbox, Pod: NameHash(template name). */
  public static final String SANDBOX_TEMPLATE_REF_HASH =
      "agents.x-k8s.io/sandbox-template-ref-hash";

  /** (L) pool Sandbox: hash of the template blueprint; staleness marker; removed on adoption. */
  public static final String SANDBOX_TEMPLATE_HASH = "agents.x-k8s.io/sandbox-template-hash";

  /** (L) Sandbox: {@code warm} or {@code cold}. */
  public static final String LAUNCH_TYPE = "agents.x-k8s.io/launch-type";

  /** (L) Claim, Sandbox, Pod: {@code go-client|python-client|controller|...}. */
  public static final String CREATED_BY = "agents.x-k8s.io/created-by";

  /** (L) Sandbox: owning claim UID. */
  public static final String CLAIM_UID = "agents.x-k8s.io/claim-uid";

  /** (A) Claim: name of the assigned sandbox. */
  public static final String SANDBOX_NAME = "agents.x-k8s.io/sandbox-name";

  /** (A) Sandbox: template name. */
  public static final String SANDBOX_TEMPLATE_REF = "agents.x-k8s.io/sandbox-template-ref";

  /** (A) Sandbox: backing pod name. */
  public static final String POD_NAME = "agents.x-k8s.io/pod-name";

  /** (A) Claim: RFC3339Nano, stamped by the controller when it first sees the claim. */
  public static final String CONTROLLER_FIRST_OBSERVED_AT =
      "agents.x-k8s.io/controller-first-observed-at";

  /** (A) Claim: RFC3339Nano, stamped by the SDKs. */
  public static final String CLIENT_FIRST_REQUESTED_AT =
      "agents.x-k8s.io/client-first-requested-at";

  /** (A) Claim: RFC3339Nano at first Ready (value may be {@code unknown}). */
  public static final String CLAIM_FIRST_READY_AT = "agents.x-k8s.io/claim-first-ready-at";

  public static final String LAUNCH_WARM = "warm";
  public static final String LAUNCH_COLD = "cold";
  public static final String CREATED_BY_CONTROLLER = "controller";
}
