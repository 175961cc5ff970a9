package org.sandboxslo.server.wiring;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds the client of {@code watch} mode from a kubeconfig file, $KUBECONFIG/~/.kube/config or
 * in-cluster config.
 */
public final class KubeClients {
  private KubeClients() {}

  /**
   * @param kubeconfig a kubeconfig file, or null for fabric8's auto-configuration
   * @param context a context name, or null for the current one
   * @throws IllegalArgumentException "--kubeconfig F: reason" when the file is unreadable or
   *     invalid
   */
  public static KubernetesClient forKubeconfig(Path kubeconfig, String context) {
    Config cfg;
    if (kubeconfig != null) {
      if (!Files.isReadable(kubeconfig)) {
        throw new IllegalArgumentException("--kubeconfig " + kubeconfig + ": not readable");
      }
      try {
        cfg = Config.fromKubeconfig(context, Files.readString(kubeconfig), kubeconfig.toString());
      } catch (IOException | RuntimeException e) {
        throw new IllegalArgumentException(
            "--kubeconfig "
                + kubeconfig
                + ": not a kubeconfig file (expected YAML with"
                + " clusters, users and contexts)");
      }
    } else {
      cfg = Config.autoConfigure(context);
    }
    return new KubernetesClientBuilder().withConfig(cfg).build();
  }
}
