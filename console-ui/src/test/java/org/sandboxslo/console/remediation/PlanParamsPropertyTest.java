package org.sandboxslo.console.remediation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.sandboxslo.console.api.ApiException;
import org.sandboxslo.engine.model.ObjectRef;
import org.sandboxslo.engine.remediation.PoolState;

/**
 * Issue 9: plan bodies. For arbitrary parameter values (wrong types, huge and fractional numbers,
 * strings), the pure dry-run builders answer a plan or a 400 naming {@code params.x}; a plan they
 * do answer never has an out-of-range or wrapped integer ({@code 4294967296} is refused, never read
 * as 0).
 */
class PlanParamsPropertyTest {
  static final PoolState POOL =
      new PoolState(ObjectRef.parse("demo/pool"), "tpl", 4, "OnReplenish", List.of());

  @Property(tries = 1000)
  void scaleAndShardParamsArePlannedInRangeOrRefused(@ForAll("values") Object value) {
    JsonObject params = new JsonObject().put("replicas", value).put("shards", value);
    try {
      JsonObject plan = RemediationPlans.scalePool(POOL, params);
      int after = plan.getJsonObject("predicted").getJsonObject("replicas").getInteger("after");
      assertTrue(after >= 0 && after <= 10_000, plan.encode());
      assertTrue(
          new java.math.BigDecimal(value.toString()).compareTo(java.math.BigDecimal.valueOf(after))
              == 0);
    } catch (ApiException e) {
      assertTrue(e.status() == 400, e.getMessage());
      assertTrue(e.toJson().getString("field").startsWith("params."), e.getMessage());
    }
    try {
      RemediationPlans.shardPool(POOL, params);
    } catch (ApiException e) {
      assertTrue(e.status() == 400 && e.toJson().getString("field").startsWith("params."));
    }
    try {
      RemediationPlans.setUpdateStrategy(POOL, new JsonObject().put("type", value));
    } catch (ApiException e) {
      assertTrue(e.status() == 400);
    }
  }

  @Provide
  Arbitrary<Object> values() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(-5, 10_010).map(i -> (Object) i),
        Arbitraries.longs().map(l -> (Object) l),
        Arbitraries.doubles().map(d -> (Object) d),
        Arbitraries.of(
            (Object) 4294967296L, 4294967297L, -4294967295L, 2.5, 1e300, "3", "Recreate", true));
  }
}
