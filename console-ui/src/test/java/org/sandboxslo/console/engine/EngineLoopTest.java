package org.sandboxslo.console.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.sandboxslo.engine.EngineConfig;
import org.sandboxslo.engine.FleetEngine;

/**
 * {@link EngineLoop#call}: the function runs on the engine thread and its result (or failure) is
 * delivered on the caller's Vert.x context, without a thread waiting.
 */
@ExtendWith(VertxExtension.class)
class EngineLoopTest {
  static final Instant AT = Instant.parse("2026-11-29T08:00:00Z");
  EngineLoop loop;

  @BeforeEach
  void start() {
    loop =
        new EngineLoop(
            new FleetEngine(EngineConfig.defaults()),
            Clock.fixed(AT, ZoneOffset.UTC),
            Duration.ofSeconds(60),
            Map::of);
  }

  @AfterEach
  void stop() {
    loop.close();
  }

  @Test
  void theResultArrivesOnTheCallersContext(Vertx vertx, VertxTestContext test) {
    Context caller = vertx.getOrCreateContext();
    AtomicReference<String> ranOn = new AtomicReference<>();
    caller.runOnContext(
        v ->
            loop.call(
                    e -> {
                      ranOn.set(Thread.currentThread().getName());
                      return e.config().windows();
                    })
                .onComplete(
                    test.succeeding(
                        windows ->
                            test.verify(
                                () -> {
                                  assertEquals("slo-engine", ranOn.get());
                                  assertSame(caller, Vertx.currentContext());
                                  assertTrue(Context.isOnEventLoopThread());
                                  // the engine's default windows, as configured
                                  assertEquals(EngineConfig.defaults().windows(), windows);
                                  test.completeNow();
                                }))));
  }

  @Test
  void aFailureOfTheFunctionFailsTheFutureOnTheCallersContext(Vertx vertx, VertxTestContext test) {
    Context caller = vertx.getOrCreateContext();
    caller.runOnContext(
        v ->
            loop.<Integer>call(
                    e -> {
                      throw new IllegalArgumentException("no SLO named 'x'");
                    })
                .onComplete(
                    test.failing(
                        err ->
                            test.verify(
                                () -> {
                                  assertSame(caller, Vertx.currentContext());
                                  assertInstanceOf(IllegalArgumentException.class, err);
                                  assertEquals("no SLO named 'x'", err.getMessage());
                                  test.completeNow();
                                }))));
  }

  @Test
  void callsRunInOrderOnTheOneEngineThread(Vertx vertx, VertxTestContext test) {
    Context caller = vertx.getOrCreateContext();
    List<Integer> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    caller.runOnContext(
        v ->
            io.vertx.core.Future.all(
                    loop.call(e -> seen.add(1)),
                    loop.call(e -> seen.add(2)),
                    loop.call(e -> seen.add(3)))
                .onComplete(
                    test.succeeding(
                        x ->
                            test.verify(
                                () -> {
                                  assertEquals(List.of(1, 2, 3), seen);
                                  test.completeNow();
                                }))));
  }

  @Test
  void outsideVertxTheFutureCompletesWithoutAContext() throws Exception {
    // a test or CLI thread: no context to return to; the value is still delivered
    assertEquals(
        0L,
        (long)
            loop.call(e -> e.duplicatesIgnored())
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS));
  }

  @Test
  void afterCloseACallFailsInsteadOfHanging() throws Exception {
    loop.close();
    var f = loop.call(e -> 1).toCompletionStage().toCompletableFuture();
    var e =
        org.junit.jupiter.api.Assertions.assertThrows(
            java.util.concurrent.ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
    assertEquals("engine loop is closed", e.getCause().getMessage());
  }
}
