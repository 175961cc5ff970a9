package org.sandboxslo.apiserver;

import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.ConfigBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** A kubeconfig file for a plain-HTTP API server, written by fabric8's kubeconfig model. */
final class Kubeconfig {
  private Kubeconfig() {}

  /**
   * Writes the kubeconfig.
   *
   * @param file target file (parents created)
   * @param name cluster, user and context name (the current context)
   * @param server server URL, e.g. {@code http://127.0.0.1:41234}
   * @param namespace the context's namespace
   * @return the absolute path written
   * @throws UncheckedIOException when the file cannot be written
   */
  static Path write(Path file, String name, String server, String namespace) {
    Config config =
        new ConfigBuilder()
            .withApiVersion("v1")
            .withKind("Config")
            .addNewCluster()
            .withName(name)
            .withNewCluster()
            .withServer(server)
            .endCluster()
            .endCluster()
            .addNewUser()
            .withName(name)
            .withNewUser()
            .endUser()
            .endUser()
            .addNewContext()
            .withName(name)
            .withNewContext()
            .withCluster(name)
            .withUser(name)
            .withNamespace(namespace)
            .endContext()
            .endContext()
            .withCurrentContext(name)
            .build();
    Path target = file.toAbsolutePath();
    try {
      if (target.getParent() != null) {
        Files.createDirectories(target.getParent());
      }
      Files.writeString(target, new KubernetesSerialization().asYaml(config));
      try {
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // not a POSIX file system: keep the default permissions
      }
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot write kubeconfig " + target + ": " + e.getMessage(), e);
    }
  }
}
