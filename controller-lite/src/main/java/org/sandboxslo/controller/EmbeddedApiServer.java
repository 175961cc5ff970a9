package org.sandboxslo.controller;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.sandboxslo.engine.model.Kind;

/**
 * An in-process Kubernetes API server: the fabric8 mock server in CRUD mode, bound to 127.0.0.1,
 * with the four agent-sandbox CRDs registered (all {@code v1beta1}, Namespaced, status subresource;
 * {@code SandboxWarmPool} also has the scale subresource {@code .spec.replicas} / {@code
 * .status.replicas} / {@code .status.selector}). The CRDs are built in code with a {@code
 * x-kubernetes-preserve-unknown-fields} schema: the mock validates nothing.
 *
 * <p>What the mock does and does not do (measured, see {@code controller-lite/DESIGN.md}): it sets
 * {@code uid}, {@code resourceVersion} (one global counter), {@code generation} and {@code
 * creationTimestamp}, honours the status subresource and optimistic locking (409), but has no
 * garbage collector, no finalizers and no watch bookmarks / 410 Gone.
 *
 * <p>The mock records every request in an unbounded queue; a daemon thread drains it so a long demo
 * does not grow the heap.
 */
public final class EmbeddedApiServer implements AutoCloseable {
  private final KubernetesMockServer server;
  private final MockWebServer web;
  private final Thread drainer;
  private final List<KubernetesClient> clients = new ArrayList<>();

  private EmbeddedApiServer(KubernetesMockServer server, MockWebServer web) {
    this.server = server;
    this.web = web;
    this.drainer =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                try {
                  web.takeRequest(1, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  return;
                } catch (RuntimeException e) {
                  return;
                }
              }
            },
            "embedded-apiserver-request-drainer");
    drainer.setDaemon(true);
  }

  /**
   * Starts the server on 127.0.0.1 and registers the CRDs.
   *
   * @param port TCP port, 0 for a free one
   * @return the running server
   * @throws UncheckedIOException when the port cannot be bound
   */
  public static EmbeddedApiServer start(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be in 0..65535, got " + port);
    }
    MockWebServer web = new MockWebServer();
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(), web, new HashMap<>(), new KubernetesCrudDispatcher(), false);
    try {
      server.init(InetAddress.getByName("127.0.0.1"), port);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start embedded API server on 127.0.0.1:" + port, e);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "cannot start embedded API server on 127.0.0.1:" + port + ": " + e.getMessage(), e);
    }
    EmbeddedApiServer api = new EmbeddedApiServer(server, web);
    api.drainer.start();
    try (KubernetesClient c = api.newClient()) {
      for (CustomResourceDefinition crd : crds()) {
        c.apiextensions().v1().customResourceDefinitions().resource(crd).create();
      }
    } catch (RuntimeException e) {
      api.close();
      throw e;
    }
    return api;
  }

  /** The four CRDs as registered (preserve-unknown-fields schemas, v1beta1 only). */
  public static List<CustomResourceDefinition> crds() {
    List<CustomResourceDefinition> out = new ArrayList<>();
    for (Kind k : Kind.values()) {
      CustomResourceDefinitionVersionBuilder v =
          new CustomResourceDefinitionVersionBuilder()
              .withName(Kind.VERSION)
              .withServed(true)
              .withStorage(true)
              .withNewSchema()
              .withOpenAPIV3Schema(
                  new JSONSchemaPropsBuilder()
                      .withType("object")
                      .withXKubernetesPreserveUnknownFields(true)
                      .build())
              .endSchema()
              .withNewSubresources()
              .withNewStatus()
              .endStatus()
              .endSubresources();
      if (k == Kind.SANDBOX_WARM_POOL) {
        v.editSubresources()
            .withNewScale()
            .withSpecReplicasPath(".spec.replicas")
            .withStatusReplicasPath(".status.replicas")
            .withLabelSelectorPath(".status.selector")
            .endScale()
            .endSubresources();
      }
      String singular = k.kindName().toLowerCase(java.util.Locale.ROOT);
      out.add(
          new CustomResourceDefinitionBuilder()
              .withNewMetadata()
              .withName(k.crdName())
              .endMetadata()
              .withNewSpec()
              .withGroup(k.group())
              .withScope("Namespaced")
              .withNewNames()
              .withKind(k.kindName())
              .withListKind(k.kindName() + "List")
              .withPlural(k.plural())
              .withSingular(singular)
              .endNames()
              .withVersions(v.build())
              .endSpec()
              .build());
    }
    return out;
  }

  /** A fresh client for this server; closed with the server if the caller does not close it. */
  public KubernetesClient client() {
    KubernetesClient c = newClient();
    synchronized (clients) {
      clients.add(c);
    }
    return c;
  }

  private KubernetesClient newClient() {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(url())
            .withTrustCerts(true)
            .withNamespace("default")
            .withRequestTimeout(30_000)
            .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /** Base URL, e.g. {@code http://127.0.0.1:41234}. */
  public String url() {
    return "http://127.0.0.1:" + web.getPort();
  }

  /** The bound port. */
  public int port() {
    return web.getPort();
  }

  @Override
  public void close() {
    synchronized (clients) {
      clients.forEach(KubernetesClient::close);
      clients.clear();
    }
    drainer.interrupt();
    server.destroy();
  }
}
