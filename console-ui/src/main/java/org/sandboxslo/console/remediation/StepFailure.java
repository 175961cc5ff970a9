package org.sandboxslo.console.remediation;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;

/**
 * A step that cannot succeed by being retried (the object exists with another spec, the API server
 * refuses the request as invalid or forbidden, the subject is gone): its plan fails at once with
 * this message as the reason. Carries no stack trace.
 */
final class StepFailure extends RuntimeException {
  StepFailure(String reason) {
    super(reason, null, false, false);
  }

  /**
   * Whether retrying {@code t} is pointless: a {@link StepFailure}, or an API answer 400, 403, 404,
   * 405, 409 (AlreadyExists; a resourceVersion conflict is retried) or 422. Everything else
   * (timeouts, 5xx, 429, connection errors, the database) is retried with backoff.
   */
  static boolean permanent(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof StepFailure) {
        return true;
      }
      if (c instanceof KubernetesClientException k) {
        int code = k.getCode();
        boolean alreadyExists =
            code == HttpURLConnection.HTTP_CONFLICT
                && k.getStatus() != null
                && "AlreadyExists".equals(k.getStatus().getReason());
        return code == HttpURLConnection.HTTP_BAD_REQUEST
            || code == HttpURLConnection.HTTP_FORBIDDEN
            || code == HttpURLConnection.HTTP_NOT_FOUND
            || code == HttpURLConnection.HTTP_BAD_METHOD
            || code == 422
            || alreadyExists;
      }
    }
    return false;
  }
}
