package org.sandboxslo.server.wiring;

/**
 * A warm-pool controller running in this process (controller-lite in the demo). Its presence marks
 * the laptop demo: the console scrapes its metrics for the controller-reported view, hands out the
 * demo tokens, and may change its refill pacing directly.
 */
public interface LocalController {
  /**
   * Serves the controller's Prometheus metrics.
   *
   * @param host bind address
   * @param port TCP port, 0 for a free one
   * @return the scrape URL
   */
  String serveMetrics(String host, int port);

  /**
   * Sets the controller's refill pacing.
   *
   * @param perSecond creates per second per pool, 0 for unpaced
   */
  void setMaxRefillRate(double perSecond);
}
