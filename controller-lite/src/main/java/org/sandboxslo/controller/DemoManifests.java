package org.sandboxslo.controller;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.engine.model.Kind;

/**
 * The demo fleet in namespace {@code demo} (YAML under {@code src/main/resources/demo/}):
 *
 * <table>
 *   <caption>templates and pools</caption>
 *   <tr><th>template</th><th>pool</th><th>replicas</th><th>notes</th></tr>
 *   <tr><td>python-runtime</td><td>python-runtime-pool</td><td>8</td><td></td></tr>
 *   <tr><td>node-runtime</td><td>node-runtime-pool</td><td>4</td><td></td></tr>
 *   <tr><td>data-notebook</td><td>data-notebook-pool</td><td>3</td>
 *       <td>env and volumeClaimTemplates Allowed</td></tr>
 *   <tr><td>gpu-trainer</td><td>gpu-trainer-pool</td><td>0</td><td>every claim cold</td></tr>
 * </table>
 */
public final class DemoManifests {
  private DemoManifests() {}

  /** The demo namespace. */
  public static final String NAMESPACE = "demo";

  /** Resource files, in apply order. */
  public static final List<String> FILES =
      List.of(
          "python-runtime.yaml",
          "node-runtime.yaml",
          "data-notebook.yaml",
          "gpu-trainer.yaml",
          "legacy-tools.yaml");

  /** Demo pool refs ({@code demo/<pool>}), in file order. */
  public static final List<String> POOLS =
      List.of(
          "demo/python-runtime-pool",
          "demo/node-runtime-pool",
          "demo/data-notebook-pool",
          "demo/gpu-trainer-pool",
          "demo/legacy-tools-pool");

  /**
   * Creates the namespace and the demo templates and pools (create, or update when they exist).
   *
   * @return the applied objects, as returned by the server
   * @throws KubernetesClientException when the API server refuses an object
   * @throws UncheckedIOException when a resource file cannot be read (a packaging bug)
   */
  public static List<HasMetadata> apply(KubernetesClient client) {
    try {
      client
          .namespaces()
          .resource(
              new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
          .createOr(NonDeletingOperation::update);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
    List<HasMetadata> out = new ArrayList<>();
    for (HasMetadata m : load(client)) {
      GenericKubernetesResource g = (GenericKubernetesResource) m;
      Kind kind = Kind.ofKindName(g.getKind());
      out.add(
          Resources.ops(client, kind)
              .inNamespace(NAMESPACE)
              .resource(g)
              .createOr(NonDeletingOperation::update));
    }
    return out;
  }

  /** The demo objects as parsed from the resources (not applied). */
  public static List<HasMetadata> load(KubernetesClient client) {
    List<HasMetadata> out = new ArrayList<>();
    for (String f : FILES) {
      String path = "/demo/" + f;
      try (InputStream in = DemoManifests.class.getResourceAsStream(path)) {
        if (in == null) {
          throw new UncheckedIOException(new IOException("missing resource " + path));
        }
        out.addAll(client.load(in).items());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + path, e);
      }
    }
    return out;
  }
}
