package org.sandboxslo.console;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Vertx;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/** The web page in headless Chromium (skipped where chromium/chromedriver are not installed). */
class WebPageTest {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  @TempDir static Path profile;
  static final Fixtures.TestSources SOURCES = new Fixtures.TestSources();
  static Vertx vertx;
  static ConsoleServer server;
  static WebDriver driver;

  @BeforeAll
  static void start() throws Exception {
    long t0 = System.nanoTime();
    Assumptions.assumeTrue(
        Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "needs /usr/bin/chromium and /usr/bin/chromedriver");
    SOURCES.snapshot = Fixtures.snapshot();
    SOURCES.ready = true;
    vertx = Vertx.vertx();
    server =
        ConsoleServer.start(
                vertx,
                ConsoleConfig.fromMap(
                    Map.of("sloconsole.http.port", "0", "sloconsole.management.port", "0")),
                SOURCES,
                null,
                new PrometheusRegistry())
            .toCompletionStage()
            .toCompletableFuture()
            .get(20, TimeUnit.SECONDS);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--window-size=1600,1000",
        "--user-data-dir=" + profile.toAbsolutePath());
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
            .usingAnyFreePort()
            .build();
    driver = new ChromeDriver(service, options);
    System.out.printf("WebPageTest setup %d ms%n", (System.nanoTime() - t0) / 1_000_000);
  }

  @AfterAll
  static void stop() throws Exception {
    if (driver != null) {
      driver.quit();
    }
    if (server != null) {
      server.close();
    }
    if (vertx != null) {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  static String cell(String template, String col) {
    return driver
        .findElement(
            By.cssSelector("tr[data-template='" + template + "'] td[data-col='" + col + "']"))
        .getText();
  }

  @Test
  void tableShowsTemplatesNoDataAndThresholdColours() throws Exception {
    long t0 = System.nanoTime();
    driver.get("http://127.0.0.1:" + server.httpPort() + "/");
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .until(() -> driver.findElements(By.cssSelector("tr[data-template]")).size() == 2);
    List<String> names =
        driver.findElements(By.cssSelector("tr[data-template] td[data-col='name']")).stream()
            .map(WebElement::getText)
            .toList();
    assertEquals(List.of("demo/go-runtime", "demo/python-runtime"), names);
    assertEquals("no data", cell("demo/go-runtime", "warm-hit-5m"));
    assertEquals("no data", cell("demo/go-runtime", "c2r-p95"));
    assertEquals("83.3 %", cell("demo/python-runtime", "warm-hit-5m"));
    assertEquals("95.0 %", cell("demo/python-runtime", "warm-hit-1h"));
    assertEquals("150 ms", cell("demo/python-runtime", "c2r-p50"));
    assertEquals("3.10 s", cell("demo/python-runtime", "c2r-p95"));
    assertEquals("3.40 s", cell("demo/python-runtime", "c2r-cold-p95"));
    assertEquals("python-runtime-pool", cell("demo/python-runtime", "pools"));
    String warmHitClass =
        driver
            .findElement(
                By.cssSelector(
                    "tr[data-template='demo/python-runtime'] td[data-col='warm-hit-5m']"))
            .getAttribute("class");
    assertEquals("bad", warmHitClass);
    assertTrue(
        driver.findElement(By.id("sync-banner")).getText().startsWith("Informers not synced yet"),
        driver.findElement(By.id("sync-banner")).getText());

    // the page follows new snapshots (SSE, or the 5 s fetch fallback)
    SOURCES.snapshot = Fixtures.snapshot(Fixtures.AT.plusSeconds(1), 0.5, Fixtures.PYTHON_POOL);
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .until(() -> "50.0 %".equals(cell("demo/python-runtime", "warm-hit-5m")));

    // a row expands into its detail; without a store the history says why it is missing
    driver.findElement(By.cssSelector("tr[data-template='demo/python-runtime']")).click();
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .until(
            () ->
                driver
                    .findElement(
                        By.cssSelector(
                            "tr[data-detail='demo/python-runtime'] section[data-history='warm_hit_ratio']"))
                    .getText()
                    .contains("history unavailable: history needs the SLI store"));
    // kept for people reviewing the page: target/webpage.png
    byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
    Files.write(Path.of("target", "webpage.png"), png);
    System.out.printf("WebPageTest body %d ms%n", (System.nanoTime() - t0) / 1_000_000);
  }
}
