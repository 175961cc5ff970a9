package org.sandboxslo.controller;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.sandboxslo.collector.kube.Resources;
import org.sandboxslo.engine.model.Kind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Shared state of one controller: the client, the informer caches, the set of members being
 * adopted, and the "warn once" memory for malformed objects.
 */
final class Fleet {
  private static final Logger LOG = LoggerFactory.getLogger(Fleet.class);
  static final JsonMapper JSON = JsonMapper.builder().build();

  final KubernetesClient client;
  final Map<Kind, SharedIndexInformer<GenericKubernetesResource>> informers =
      new ConcurrentHashMap<>();

  /** Sandbox uids a claim is adopting; the pool never deletes them. */
  final Set<String> reserved = ConcurrentHashMap.newKeySet();

  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  Fleet(KubernetesClient client) {
    this.client = client;
  }

  /** The cached object, or null. */
  GenericKubernetesResource get(Kind kind, String namespace, String name) {
    SharedIndexInformer<GenericKubernetesResource> inf = informers.get(kind);
    return inf == null ? null : inf.getStore().getByKey(namespace + "/" + name);
  }

  /** All cached objects of {@code kind} in {@code namespace}. */
  List<GenericKubernetesResource> list(Kind kind, String namespace) {
    List<GenericKubernetesResource> out = new ArrayList<>();
    SharedIndexInformer<GenericKubernetesResource> inf = informers.get(kind);
    if (inf == null) {
      return out;
    }
    for (GenericKubernetesResource r : inf.getStore().list()) {
      if (r.getMetadata() != null && namespace.equals(r.getMetadata().getNamespace())) {
        out.add(r);
      }
    }
    return out;
  }

  /** Sandboxes in {@code namespace} whose controller owner is {@code ownerKind}/{@code name}. */
  List<GenericKubernetesResource> ownedSandboxes(String namespace, Kind ownerKind, String owner) {
    List<GenericKubernetesResource> out = new ArrayList<>();
    for (GenericKubernetesResource s : list(Kind.SANDBOX, namespace)) {
      OwnerReference o = Resources.controllerOwner(s);
      if (o != null && ownerKind.kindName().equals(o.getKind()) && owner.equals(o.getName())) {
        out.add(s);
      }
    }
    return out;
  }

  /** A deep copy of an object (fabric8 serialization round trip). */
  GenericKubernetesResource copy(GenericKubernetesResource r) {
    return client.getKubernetesSerialization().clone(r);
  }

  /** JSON merge patch of the main resource; returns the updated object. */
  GenericKubernetesResource mergePatch(Kind kind, String ns, String name, Map<String, ?> patch) {
    return Resources.ops(client, kind)
        .inNamespace(ns)
        .withName(name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), JSON.writeValueAsString(patch));
  }

  /**
   * Replaces the whole status through the status subresource with a JSON Patch ({@code add
   * /status}): the current status of {@code obj} with {@code changes} applied (a null value removes
   * the field). JSON Patch rather than merge patch because the mock server appends lists on merge
   * patch instead of replacing them (RFC 7386 says replace).
   */
  GenericKubernetesResource patchStatus(
      Kind kind, GenericKubernetesResource obj, Map<String, Object> changes) {
    Map<String, Object> status =
        new java.util.LinkedHashMap<>(Resources.deepCopy(Resources.status(obj)));
    changes.forEach(
        (k, v) -> {
          if (v == null) {
            status.remove(k);
          } else {
            status.put(k, v);
          }
        });
    return Resources.ops(client, kind)
        .inNamespace(obj.getMetadata().getNamespace())
        .withName(obj.getMetadata().getName())
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON),
            JSON.writeValueAsString(
                List.of(Map.of("op", "add", "path", "/status", "value", status))));
  }

  /**
   * Removes one annotation with a JSON Patch; a missing annotation is a 422 the caller may ignore.
   */
  GenericKubernetesResource removeAnnotation(Kind kind, String ns, String name, String key) {
    String path = "/metadata/annotations/" + key.replace("~", "~0").replace("/", "~1");
    return Resources.ops(client, kind)
        .inNamespace(ns)
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON),
            JSON.writeValueAsString(List.of(Map.of("op", "remove", "path", path))));
  }

  /** Deletes; a 404 counts as success. */
  void delete(Kind kind, String ns, String name) {
    try {
      Resources.ops(client, kind).inNamespace(ns).withName(name).delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  /** Logs a malformed object once per uid + generation (status writes do not repeat it). */
  void warnOnce(GenericKubernetesResource r, String what) {
    String id =
        r.getMetadata() == null
            ? String.valueOf(System.identityHashCode(r))
            : r.getMetadata().getUid() + "@" + r.getMetadata().getGeneration();
    if (warned.add(id + what)) {
      String ref =
          r.getMetadata() == null
              ? "(no metadata)"
              : r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
      LOG.warn("{} {}: {}", r.getKind(), ref, what);
    }
  }
}
