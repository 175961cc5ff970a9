package org.sandboxslo.engine.sli;

/** What an SLI aggregate is about. */
public enum Scope {
  /** One SandboxTemplate (claims attributed through their pool or sandbox annotation). */
  TEMPLATE,
  /** One SandboxWarmPool. */
  POOL,
  /** All templates of one namespace. */
  NAMESPACE
}
