package org.sandboxslo.demo.manifest;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.sandboxslo.collector.MalformedObjectException;
import org.sandboxslo.collector.ObjectViews;
import org.sandboxslo.collector.SandboxCollector;
import org.sandboxslo.engine.model.Kind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * The write edge behind {@code --apply}: reads Kubernetes manifests and creates or updates the
 * objects, like a small {@code kubectl apply} without kustomize or server-side apply.
 *
 * <ul>
 *   <li>Input: one file, or every {@code *.yaml}/{@code *.yml} file of a directory (not recursive),
 *       sorted by name; multi-document YAML.
 *   <li>{@code ${VAR}} placeholders in string values (not in comments or keys) are replaced from
 *       {@code vars}; callers pass the process environment plus {@code --var K=V}. A placeholder
 *       without a value is an error naming file, object, variable and field.
 *   <li>Order: Namespaces, then CustomResourceDefinitions, then other built-in kinds fabric8 knows
 *       (ConfigMap, ServiceAccount, ...), then SandboxTemplates, SandboxWarmPools, Sandboxes,
 *       SandboxClaims; file and document order within a rank.
 *   <li>Create, or on conflict replace ({@code createOr(update)}: the object's spec and metadata as
 *       written replace the server's; status is kept by the status subresource).
 *   <li>Namespaces the objects live in are created when absent (403 ignored: the caller may lack
 *       the right and the namespace may exist anyway).
 *   <li>A {@code Kustomization} document is reported as skipped.
 *   <li>Objects without a namespace go to the client's namespace, else {@code default}.
 * </ul>
 *
 * <p>Errors are one line each and never stop the other documents: {@code file X: YAML parse error
 * at line L: ...} (documents before the broken one are still applied), {@code file X: document N:
 * unknown kind 'Foo' (apiVersion v1)}, {@code file X: SandboxClaim default/c1:
 * spec.warmPoolRef.name: missing} (the rules of {@link ObjectViews#validate}), {@code file X:
 * SandboxWarmPool ns/${POOL}: unresolved variable ${POOL} (metadata.name)}, {@code file X:
 * SandboxTemplate ns/t: rejected by the server (422): ...}.
 */
public final class ManifestApplier {
  private static final Logger LOG = LoggerFactory.getLogger(ManifestApplier.class);
  private static final Pattern VAR = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
  private static final String KUSTOMIZATION = "Kustomization";

  /** Applies manifests; see the class comment. Never throws for bad input or server errors. */
  public ApplyReport apply(KubernetesClient client, Path fileOrDir, Map<String, String> vars) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(fileOrDir, "fileOrDir");
    Objects.requireNonNull(vars, "vars");
    Run run = new Run(client, vars);
    for (Path file : files(fileOrDir, run.errors)) {
      run.read(file);
    }
    run.docs.sort(Comparator.comparingInt(Doc::rank)); // stable: file and document order kept
    for (Doc d : run.docs) {
      run.applyOne(d);
    }
    return new ApplyReport(run.applied, run.skipped, run.errors);
  }

  private static List<Path> files(Path fileOrDir, List<String> errors) {
    if (Files.isDirectory(fileOrDir)) {
      try (Stream<Path> s = Files.list(fileOrDir)) {
        return s.filter(Files::isRegularFile)
            .filter(
                p ->
                    p.getFileName().toString().endsWith(".yaml")
                        || p.getFileName().toString().endsWith(".yml"))
            .sorted(Comparator.comparing(p -> p.getFileName().toString()))
            .toList();
      } catch (IOException e) {
        errors.add("directory " + fileOrDir + ": cannot list: " + e.getMessage());
        return List.of();
      }
    }
    if (!Files.exists(fileOrDir)) {
      errors.add("file " + fileOrDir + ": not found");
      return List.of();
    }
    return List.of(fileOrDir);
  }

  /**
   * One parsed, substituted and checked document.
   *
   * @param kind one of the four agent-sandbox kinds, or null for a built-in kind
   * @param type the fabric8 class of a built-in kind, or null
   */
  private record Doc(
      Path file,
      String label,
      int rank,
      Kind kind,
      Class<? extends KubernetesResource> type,
      String namespace,
      Map<String, Object> tree) {}

  private static final class Run {
    final KubernetesClient client;
    final KubernetesSerialization serialization;
    final Map<String, String> vars;
    final String defaultNamespace;
    final List<Doc> docs = new ArrayList<>();
    final List<String> applied = new ArrayList<>();
    final List<String> skipped = new ArrayList<>();
    final List<String> errors = new ArrayList<>();
    final Set<String> namespacesEnsured = new HashSet<>();

    Run(KubernetesClient client, Map<String, String> vars) {
      this.client = client;
      this.serialization = client.getKubernetesSerialization();
      this.vars = vars;
      String ns = client.getNamespace();
      this.defaultNamespace = ns == null || ns.isEmpty() ? "default" : ns;
    }

    void read(Path file) {
      String text;
      try {
        text = Files.readString(file);
      } catch (IOException e) {
        errors.add("file " + file + ": cannot read: " + e.getMessage());
        return;
      }
      Load load = new Load(LoadSettings.builder().setLabel(file.toString()).build());
      int index = 0;
      try {
        for (Object doc : load.loadAllFromString(text)) {
          index++;
          document(file, index, doc);
        }
      } catch (MarkedYamlEngineException e) {
        String line = e.getProblemMark().map(m -> " at line " + (m.getLine() + 1)).orElse("");
        errors.add("file " + file + ": YAML parse error" + line + ": " + oneLine(e.getProblem()));
      } catch (YamlEngineException e) {
        errors.add("file " + file + ": YAML parse error: " + oneLine(e.getMessage()));
      }
    }

    @SuppressWarnings("unchecked")
    void document(Path file, int index, Object doc) {
      String where = "file " + file + ": document " + index + ": ";
      if (doc == null) {
        return; // empty document (e.g. between two '---')
      }
      if (!(doc instanceof Map<?, ?> raw)) {
        errors.add(where + "not a mapping");
        return;
      }
      Map<String, Object> tree = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : raw.entrySet()) {
        tree.put(String.valueOf(e.getKey()), e.getValue());
      }
      List<String> unresolved = new ArrayList<>();
      tree = (Map<String, Object>) substitute(tree, "", unresolved);

      Object kindValue = tree.get("kind");
      Object apiVersionValue = tree.get("apiVersion");
      if (!(kindValue instanceof String kindName) || kindName.isEmpty()) {
        errors.add(where + "missing kind");
        return;
      }
      if (!(apiVersionValue instanceof String apiVersion) || apiVersion.isEmpty()) {
        errors.add(where + "missing apiVersion (kind " + kindName + ")");
        return;
      }
      if (KUSTOMIZATION.equals(kindName) && apiVersion.startsWith("kustomize.config.k8s.io/")) {
        skipped.add(where + "Kustomization skipped (not expanded)");
        return;
      }
      Kind kind = Kind.ofKindName(kindName);
      if (kind != null && !apiVersion.startsWith(kind.group() + "/")) {
        kind = null; // same name in another API group
      }
      Class<? extends KubernetesResource> type = null;
      if (kind == null) {
        type = serialization.getRegisteredKubernetesResource(apiVersion, kindName);
        if (type == null
            || GenericKubernetesResource.class.equals(type)
            || !HasMetadata.class.isAssignableFrom(type)) {
          errors.add(where + "unknown kind '" + kindName + "' (apiVersion " + apiVersion + ")");
          return;
        }
      }
      boolean namespaced = kind != null || Namespaced.class.isAssignableFrom(type);
      Map<String, Object> md = metadata(tree);
      if (md == null) {
        errors.add(where + kindName + ": metadata: not an object");
        return;
      }
      String namespace = null;
      if (namespaced) {
        Object ns = md.get("namespace");
        if (ns == null || "".equals(ns)) {
          md.put("namespace", defaultNamespace);
        }
        namespace = String.valueOf(md.get("namespace"));
      }
      Object name = md.get("name");
      String nameText = name instanceof String s && !s.isEmpty() ? s : "<unnamed>";
      String label = kindName + " " + (namespaced ? namespace + "/" : "") + nameText;
      if (!unresolved.isEmpty()) {
        errors.add(
            "file "
                + file
                + ": "
                + label
                + ": unresolved variable"
                + (unresolved.size() > 1 ? "s " : " ")
                + String.join(", ", unresolved));
        return;
      }
      if (kind != null) {
        try {
          ObjectViews.validate(tree);
        } catch (MalformedObjectException e) {
          errors.add("file " + file + ": " + e.getMessage());
          return;
        }
      } else if ("<unnamed>".equals(nameText)) {
        errors.add("file " + file + ": " + label + ": metadata.name: missing");
        return;
      }
      docs.add(new Doc(file, label, rank(kind, kindName), kind, type, namespace, tree));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> metadata(Map<String, Object> tree) {
      Object md = tree.get("metadata");
      if (md == null) {
        Map<String, Object> fresh = new LinkedHashMap<>();
        tree.put("metadata", fresh);
        return fresh;
      }
      return md instanceof Map<?, ?> ? (Map<String, Object>) md : null;
    }

    private static int rank(Kind kind, String kindName) {
      if (kind == null) {
        return switch (kindName) {
          case "Namespace" -> 0;
          case "CustomResourceDefinition" -> 1;
          default -> 2;
        };
      }
      return switch (kind) {
        case SANDBOX_TEMPLATE -> 3;
        case SANDBOX_WARM_POOL -> 4;
        case SANDBOX -> 5;
        case SANDBOX_CLAIM -> 6;
      };
    }

    /** Deep copy with {@code ${VAR}} replaced in string values; unresolved ones are collected. */
    private Object substitute(Object node, String path, List<String> unresolved) {
      if (node instanceof Map<?, ?> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
          String key = String.valueOf(e.getKey());
          out.put(
              key, substitute(e.getValue(), path.isEmpty() ? key : path + "." + key, unresolved));
        }
        return out;
      }
      if (node instanceof List<?> l) {
        List<Object> out = new ArrayList<>(l.size());
        for (int i = 0; i < l.size(); i++) {
          out.add(substitute(l.get(i), path + "[" + i + "]", unresolved));
        }
        return out;
      }
      if (node instanceof String s && s.contains("${")) {
        Matcher m = VAR.matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
          String value = vars.get(m.group(1));
          if (value == null) {
            unresolved.add(m.group() + " (" + path + ")");
            value = m.group();
          }
          m.appendReplacement(sb, Matcher.quoteReplacement(value));
        }
        m.appendTail(sb);
        return sb.toString();
      }
      return node;
    }

    void applyOne(Doc d) {
      if (d.namespace() != null) {
        ensureNamespace(d.namespace());
      }
      try {
        if (d.kind() != null) {
          GenericKubernetesResource r =
              serialization.convertValue(d.tree(), GenericKubernetesResource.class);
          client
              .genericKubernetesResources(SandboxCollector.context(d.kind()))
              .inNamespace(d.namespace())
              .resource(r)
              .createOr(NonDeletingOperation::update);
        } else {
          HasMetadata h = (HasMetadata) serialization.convertValue(d.tree(), d.type());
          client.resource(h).createOr(NonDeletingOperation::update);
        }
        applied.add(d.label());
        LOG.info("applied {}", d.label());
      } catch (KubernetesClientException e) {
        String message =
            e.getStatus() != null && e.getStatus().getMessage() != null
                ? e.getStatus().getMessage()
                : e.getMessage();
        errors.add(
            "file "
                + d.file()
                + ": "
                + d.label()
                + ": rejected by the server ("
                + e.getCode()
                + "): "
                + oneLine(message));
      } catch (RuntimeException e) {
        // a value fabric8 cannot map onto the built-in type (e.g. a list where a map belongs)
        errors.add(
            "file " + d.file() + ": " + d.label() + ": cannot be read: " + oneLine(e.getMessage()));
      }
    }

    private void ensureNamespace(String ns) {
      if (!namespacesEnsured.add(ns)) {
        return;
      }
      try {
        if (client.namespaces().withName(ns).get() == null) {
          client
              .namespaces()
              .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
              .create();
          LOG.info("created namespace {}", ns);
        }
      } catch (KubernetesClientException e) {
        if (e.getCode() == 403 || e.getCode() == 409) {
          return; // not allowed to look or create (it may exist anyway), or created meanwhile
        }
        errors.add(
            "namespace "
                + ns
                + ": could not be created ("
                + e.getCode()
                + "): "
                + oneLine(e.getMessage()));
      }
    }
  }

  private static String oneLine(String s) {
    if (s == null) {
      return "";
    }
    return s.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
