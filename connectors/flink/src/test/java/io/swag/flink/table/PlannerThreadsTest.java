package io.swag.flink.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.table.api.Schema;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A table environment created on one thread and used from another (what PyFlink's gateway does):
 * Flink's planner fails there, {@link PlannerThreads} makes it work.
 */
@SuppressWarnings("try") // Flink's CloseableIterator.close() is declared to throw InterruptedException
class PlannerThreadsTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static final String SQL =
      "SELECT k, MAX(v) OVER w, swag_max(v) OVER w FROM t "
          + "WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)";

  static StreamTableEnvironment tEnv() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
    tEnv.getConfig().set("table.exec.resource.default-parallelism", "1");
    SwagFunctions.register(tEnv);
    tEnv.createTemporaryView("t", tEnv.fromDataStream(
        env.fromData(OverFunctionsTest.rows(3, 50),
            new RowTypeInfo(new TypeInformation<?>[] {Types.STRING, Types.INSTANT, Types.DOUBLE, Types.LONG},
                new String[] {"k", "ts", "v", "c"})),
        Schema.newBuilder().column("k", "STRING").column("ts", "TIMESTAMP_LTZ(3)").column("v", "DOUBLE")
            .column("c", "BIGINT").watermark("ts", "ts - INTERVAL '0.001' SECOND").build()));
    return tEnv;
  }

  static <T> Object onNewThread(Callable<T> body) throws InterruptedException {
    AtomicReference<Object> out = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        out.set(body.call());
      } catch (Throwable e) {
        out.set(e);
      }
    }, "not-the-creator");
    t.start();
    t.join();
    return out.get();
  }

  static int drain(org.apache.flink.table.api.TableResult r) throws Exception {
    int n = 0;
    int compared = 0;
    try (CloseableIterator<Row> it = r.collect()) {
      while (it.hasNext()) {
        Row row = it.next();
        assertEquals(row.getField(1), row.getField(2), "MAX vs swag_max in " + row);
        compared += row.getField(1) == null ? 0 : 1;
        n++;
      }
    }
    assertTrue(compared > n / 2, compared + " of " + n + " rows compare a non-null MAX");
    return n;
  }

  /** The planner's metadata provider on the calling thread (null when the thread has none). */
  static Object provider(StreamTableEnvironment tEnv) throws ReflectiveOperationException {
    ClassLoader cl = ((org.apache.flink.table.api.internal.TableEnvironmentImpl) tEnv).getPlanner().getClass()
        .getClassLoader();
    Class<?> base = Class.forName("org.apache.calcite.rel.metadata.RelMetadataQueryBase", true, cl);
    return ((ThreadLocal<?>) base.getField("THREAD_PROVIDERS").get(null)).get();
  }

  @Test
  void plainExecuteSqlFailsOnAnotherThread() throws Exception {
    // documents the Flink 2.3 behaviour the helper exists for; if this starts passing after an
    // upgrade, PlannerThreads can go
    StreamTableEnvironment tEnv = tEnv();
    Object r = onNewThread(() -> drain(tEnv.executeSql(SQL)));
    assertTrue(r instanceof NullPointerException, "expected the planner's NPE, got " + r);
    assertTrue(String.valueOf(((Throwable) r).getMessage()).contains("metadataHandlerProvider"), r.toString());
  }

  @Test
  void executeSqlWorksOnAnotherThread() throws Exception {
    StreamTableEnvironment tEnv = tEnv();
    Object r = onNewThread(() -> drain(PlannerThreads.executeSql(tEnv, SQL)));
    assertEquals(50, r, "result " + r);
  }

  @Test
  void executeTableFromSqlQueryWorksOnAnotherThread() throws Exception {
    StreamTableEnvironment tEnv = tEnv();
    org.apache.flink.table.api.Table t = tEnv.sqlQuery(SQL);
    Object r = onNewThread(() -> drain(PlannerThreads.execute(tEnv, t)));
    assertEquals(50, r, "result " + r);
  }

  @Test
  void ensureMetadataProviderSetsItOnceAndKeepsTheCreatorsOwn() throws Exception {
    StreamTableEnvironment tEnv = tEnv();
    // the creating thread has the planner's provider: ensureMetadataProvider keeps it
    Object own = provider(tEnv);
    assertNotNull(own, "the creating thread has a provider");
    PlannerThreads.ensureMetadataProvider(tEnv);
    assertSame(own, provider(tEnv), "the creator's provider is not replaced");
    assertEquals(50, drain(tEnv.executeSql(SQL)), "and the creating thread still plans and runs the query");
    // a fresh thread has none; the first call sets one, the second keeps it
    Object r = onNewThread(() -> {
      Object before = provider(tEnv);
      PlannerThreads.ensureMetadataProvider(tEnv);
      Object first = provider(tEnv);
      PlannerThreads.ensureMetadataProvider(tEnv);
      Object second = provider(tEnv);
      return before == null && first != null && first == second ? "set once" : before + " / " + first + " / " + second;
    });
    assertEquals("set once", r);
  }
}
