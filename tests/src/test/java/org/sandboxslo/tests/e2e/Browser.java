package org.sandboxslo.tests.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium (Debian's chromium and chromedriver) at 1366×900 for the web console tests:
 * waits, screenshots under {@code target/web-console/} and axe-core runs in the page.
 */
final class Browser implements AutoCloseable {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final Path SHOTS = Path.of("target", "web-console");

  final WebDriver driver;
  final String base;

  static boolean available() {
    return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
  }

  Browser(String base, Path profile) {
    this.base = base;
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
        "--window-size=1366,900",
        "--user-data-dir=" + profile.toAbsolutePath());
    driver =
        new ChromeDriver(
            new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build(),
            options);
  }

  void open(String path) {
    driver.get(base + path);
  }

  WebElement find(String css) {
    return driver.findElement(By.cssSelector(css));
  }

  List<WebElement> all(String css) {
    return driver.findElements(By.cssSelector(css));
  }

  boolean present(String css) {
    return !all(css).isEmpty();
  }

  String text(String css) {
    return find(css).getText();
  }

  /** Waits (up to {@code seconds}) until an element matching {@code css} exists and is shown. */
  WebElement await(String css, int seconds) {
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(seconds))
        .ignoreExceptions()
        .until(() -> find(css).isDisplayed());
    return find(css);
  }

  Object js(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  /** Full-window screenshot to {@code target/web-console/<name>.png}. */
  Path screenshot(String name) {
    try {
      Files.createDirectories(SHOTS);
      Path p = SHOTS.resolve(name + ".png");
      Files.write(p, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether the page scrolls horizontally (content wider than the window). */
  boolean scrollsHorizontally() {
    return (Boolean)
        js("return document.documentElement.scrollWidth > document.documentElement.clientWidth;");
  }

  /**
   * Runs axe-core (WCAG 2 A/AA rules) on the current page.
   *
   * @return violations of impact serious or critical as "id (impact): n nodes: first target"
   */
  @SuppressWarnings("unchecked")
  List<String> axe() {
    js(AXE);
    Object r =
        ((JavascriptExecutor) driver)
            .executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                    + "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a','wcag2aa','wcag21a','wcag21aa']}})"
                    + ".then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
                    + " nodes: v.nodes.length, target: String(v.nodes[0] && v.nodes[0].target)}))))"
                    + ".catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: 0, target: ''}]));");
    List<String> out = new ArrayList<>();
    for (Object o : (List<Object>) r) {
      Map<String, Object> v = (Map<String, Object>) o;
      if ("serious".equals(v.get("impact")) || "critical".equals(v.get("impact"))) {
        out.add(
            v.get("id")
                + " ("
                + v.get("impact")
                + "): "
                + v.get("nodes")
                + " nodes, e.g. "
                + v.get("target")
                + " — "
                + v.get("help"));
      }
    }
    return out;
  }

  private static final String AXE = axeScript();

  private static String axeScript() {
    try (InputStream in = Browser.class.getClassLoader().getResourceAsStream("axe.min.js")) {
      if (in == null) {
        throw new IllegalStateException("axe.min.js (com.deque.html.axe-core:selenium) missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    driver.quit();
  }
}
