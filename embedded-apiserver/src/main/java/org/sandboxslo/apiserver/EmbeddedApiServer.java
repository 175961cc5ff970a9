package org.sandboxslo.apiserver;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.vertx.core.Vertx;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.sandboxslo.engine.model.Kind;

/**
 * An in-process Kubernetes API server for the demo and the tests: the fabric8 mock server's CRUD
 * store, bound to 127.0.0.1, completed where real clients need it (see {@code DESIGN.md}):
 * discovery and OpenAPI, CRD status, namespaces as objects (a create in a missing namespace is a
 * 404), RFC 7386 merge patch and RFC 6902 JSON patch, the scale subresource, server-side Table
 * output, watches over chunked HTTP as well as WebSocket, 415 for protobuf bodies. {@code kubectl}
 * works against it with the file {@link #writeKubeconfig(Path)} writes.
 *
 * <p>At start the four agent-sandbox CRDs are registered (all {@code v1beta1}, Namespaced, status
 * subresource, upstream's short names and printer columns; {@code SandboxWarmPool} also has the
 * scale subresource {@code .spec.replicas} / {@code .status.replicas} / {@code .status.selector})
 * and the namespaces {@value #NAMESPACES_TEXT} exist. The CRD schemas preserve unknown fields: the
 * server validates nothing.
 *
 * <p>What the store does (measured in {@code EmbeddedApiServerTest}): it sets {@code uid}, {@code
 * resourceVersion} (one global counter), {@code generation} and {@code creationTimestamp}, honours
 * the status subresource and optimistic locking (409), but has no garbage collector, no finalizer
 * phase, no watch bookmarks; 410 Gone only when scripted through {@link #faults()}.
 */
public final class EmbeddedApiServer implements AutoCloseable {
  /** Namespaces that exist from the start. */
  public static final List<String> NAMESPACES =
      List.of("default", "kube-public", "kube-system", "demo");

  static final String NAMESPACES_TEXT = "default, kube-public, kube-system and demo";

  /** Cluster, user and context name in the kubeconfig {@link #writeKubeconfig(Path)} writes. */
  public static final String KUBECONFIG_NAME = "sandbox-slo-demo";

  private final Vertx vertx;
  private final HttpTransport transport;
  private final Faults faults;
  private final int port;
  private final List<KubernetesClient> clients = new ArrayList<>();

  private EmbeddedApiServer(Vertx vertx, HttpTransport transport, Faults faults, int port) {
    this.vertx = vertx;
    this.transport = transport;
    this.faults = faults;
    this.port = port;
  }

  /**
   * Starts the server on 127.0.0.1, creates the namespaces and registers the CRDs.
   *
   * @param port TCP port, 0 for a free one
   * @return the running server
   * @throws IllegalArgumentException when the port is outside 0..65535
   * @throws IllegalStateException when the port cannot be bound
   */
  public static EmbeddedApiServer start(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be in 0..65535, got " + port);
    }
    Vertx vertx = Vertx.vertx();
    Faults faults = new Faults();
    KubernetesCrudDispatcher store = new KubernetesCrudDispatcher();
    int[] bound = new int[1];
    Clock clock = Clock.systemUTC();
    ApiDispatcher dispatcher =
        new ApiDispatcher(store, () -> "127.0.0.1:" + bound[0], faults, clock);
    HttpTransport transport = new HttpTransport(vertx, dispatcher, faults, clock);
    try {
      bound[0] = transport.listen("127.0.0.1", port);
    } catch (RuntimeException e) {
      transport.close();
      vertx.close();
      throw new IllegalStateException(
          "cannot start embedded API server on 127.0.0.1:" + port + ": " + e.getMessage(), e);
    }
    EmbeddedApiServer api = new EmbeddedApiServer(vertx, transport, faults, bound[0]);
    try {
      NAMESPACES.forEach(api::createNamespace);
      try (KubernetesClient c = api.newClient()) {
        for (CustomResourceDefinition crd : crds()) {
          c.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        }
      }
    } catch (RuntimeException e) {
      api.close();
      throw e;
    }
    return api;
  }

  /**
   * The four CRDs as registered: {@code v1beta1} only, preserve-unknown-fields schemas, status
   * subresource, upstream's short names ({@code sandbox}, {@code sandboxtemplate}, {@code swp},
   * {@code sandboxclaim}) and printer columns (Sandbox: Ready, Reason, Age; SandboxClaim: Ready,
   * Sandbox, Reason, Age; SandboxWarmPool: Ready, Desired, Age; SandboxTemplate: none).
   */
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
              .withAdditionalPrinterColumns(printerColumns(k))
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
      String singular = k.kindName().toLowerCase(Locale.ROOT);
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
              .withShortNames(k == Kind.SANDBOX_WARM_POOL ? "swp" : singular)
              .endNames()
              .withVersions(v.build())
              .endSpec()
              .build());
    }
    return out;
  }

  private static List<CustomResourceColumnDefinition> printerColumns(Kind k) {
    String ready = ".status.conditions[?(@.type=='Ready')].status";
    String reason = ".status.conditions[?(@.type=='Ready')].reason";
    return switch (k) {
      case SANDBOX ->
          List.of(column("Ready", "string", ready), column("Reason", "string", reason), age());
      case SANDBOX_CLAIM ->
          List.of(
              column("Ready", "string", ready),
              column("Sandbox", "string", ".status.sandbox.name"),
              column("Reason", "string", reason),
              age());
      case SANDBOX_WARM_POOL ->
          List.of(
              column("Ready", "integer", ".status.readyReplicas"),
              column("Desired", "integer", ".spec.replicas"),
              age());
      case SANDBOX_TEMPLATE -> List.of();
    };
  }

  private static CustomResourceColumnDefinition column(String name, String type, String path) {
    return new CustomResourceColumnDefinitionBuilder()
        .withName(name)
        .withType(type)
        .withJsonPath(path)
        .build();
  }

  private static CustomResourceColumnDefinition age() {
    return column("Age", "date", ".metadata.creationTimestamp");
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

  /**
   * Writes a kubeconfig for this server: cluster, user and context {@value #KUBECONFIG_NAME}, plain
   * HTTP to {@link #url()}, no credentials, namespace {@code demo}; the parent directories are
   * created, the file is readable by its owner only where the file system allows.
   *
   * @return the absolute path written
   * @throws UncheckedIOException when the file cannot be written
   */
  public Path writeKubeconfig(Path file) {
    return Kubeconfig.write(file, KUBECONFIG_NAME, url(), "demo");
  }

  /**
   * Creates a namespace unless it exists (a create in a missing namespace is a 404 here, as on a
   * real cluster).
   */
  public void createNamespace(String name) {
    try (KubernetesClient c = newClient()) {
      if (c.namespaces().withName(name).get() == null) {
        c.namespaces()
            .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
            .create();
      }
    }
  }

  /** Faults tests can script (410 Gone on watches). */
  public Faults faults() {
    return faults;
  }

  /** Base URL, e.g. {@code http://127.0.0.1:41234}. */
  public String url() {
    return "http://127.0.0.1:" + port;
  }

  /** The bound port. */
  public int port() {
    return port;
  }

  @Override
  public void close() {
    synchronized (clients) {
      clients.forEach(KubernetesClient::close);
      clients.clear();
    }
    transport.close();
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      // the event loops are daemon threads: nothing is left to clean up
    }
  }
}
