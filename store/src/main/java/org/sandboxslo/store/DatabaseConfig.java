package org.sandboxslo.store;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where the console's PostgreSQL is.
 *
 * @param url {@code jdbc:postgresql://host:port/database}, or empty for the embedded server (only
 *     in the laptop distribution, which carries the embedded PostgreSQL binaries)
 * @param user database user
 * @param password database password (secret: never logged)
 * @param dataDir embedded data directory
 * @param workDir where the embedded binaries are unpacked
 */
public record DatabaseConfig(String url, String user, String password, Path dataDir, Path workDir) {
  public DatabaseConfig {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(workDir, "workDir");
  }

  /** True when no URL is set: the embedded server is started. */
  public boolean embedded() {
    return url.isEmpty();
  }

  @Override
  public String toString() {
    return "DatabaseConfig[url=" + url + ", user=" + user + ", password=***]";
  }
}
