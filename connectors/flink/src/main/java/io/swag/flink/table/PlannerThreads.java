package io.swag.flink.table;

import io.swag.core.SwagException.Kind;
import io.swag.core.SwagFailure;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;

/**
 * Runs SQL and Table API statements from a thread other than the one that created the {@link
 * TableEnvironment}.
 *
 * <p>Flink's planner reads Calcite's metadata handler from a thread-local ({@code
 * RelMetadataQueryBase.THREAD_PROVIDERS}) that is only set on the thread that created the
 * environment's planner cluster. Planning a query converted from SQL on another thread fails with
 * {@code NullPointerException: metadataHandlerProvider}. PyFlink hits this: its gateway serves
 * Python calls on whichever Java thread owns the py4j connection picked for the call, and the
 * Python worker threads of an earlier job can move the caller onto a new connection. The methods
 * here set the thread-local (to the planner's own provider) on the calling thread when it is
 * missing, then run the statement in the same call.
 *
 * <p>The planner lives in its own class loader ({@code flink-table-planner-loader}), so the
 * classes are reached by reflection through the planner's class loader.
 */
public final class PlannerThreads {
  private PlannerThreads() {}

  /**
   * Sets the planner's metadata provider on the calling thread if it has none; idempotent.
   *
   * @param tEnv the table environment
   */
  public static void ensureMetadataProvider(TableEnvironment tEnv) {
    if (!(tEnv instanceof TableEnvironmentImpl)) {
      return; // not the planner-backed implementation: nothing to repair
    }
    ClassLoader cl = ((TableEnvironmentImpl) tEnv).getPlanner().getClass().getClassLoader();
    try {
      Class<?> base = Class.forName("org.apache.calcite.rel.metadata.RelMetadataQueryBase", true, cl);
      ThreadLocal<Object> providers = threadLocal(base.getField("THREAD_PROVIDERS"));
      if (providers.get() != null) {
        return;
      }
      Object flinkProvider =
          Class.forName("org.apache.flink.table.planner.plan.metadata.FlinkDefaultRelMetadataProvider", true, cl)
              .getMethod("INSTANCE")
              .invoke(null);
      Class<?> providerType = Class.forName("org.apache.calcite.rel.metadata.RelMetadataProvider", true, cl);
      Method of =
          Class.forName("org.apache.calcite.rel.metadata.JaninoRelMetadataProvider", true, cl)
              .getMethod("of", providerType);
      providers.set(of.invoke(null, flinkProvider));
    } catch (ReflectiveOperationException e) {
      throw new SwagFailure(Kind.SETUP, 
          "cannot set the planner's metadata provider on thread '" + Thread.currentThread().getName()
              + "' (Flink planner classes changed?): " + e, e);
    }
  }

  /**
   * {@link TableEnvironment#executeSql} on the calling thread, whatever thread created {@code tEnv}.
   *
   * @param tEnv the table environment
   * @param statement the SQL statement
   * @return the statement's result
   */
  public static TableResult executeSql(TableEnvironment tEnv, String statement) {
    ensureMetadataProvider(tEnv);
    return tEnv.executeSql(statement);
  }

  /**
   * {@link org.apache.flink.table.api.bridge.java.StreamTableEnvironment#toDataStream(Table)} on the
   * calling thread, whatever thread created {@code tEnv} (the conversion runs the planner too).
   *
   * @param tEnv the table environment of {@code table}
   * @param table the table
   * @return the table as a stream of rows
   */
  public static org.apache.flink.streaming.api.datastream.DataStream<org.apache.flink.types.Row> toDataStream(
      org.apache.flink.table.api.bridge.java.StreamTableEnvironment tEnv, Table table) {
    ensureMetadataProvider(tEnv);
    return tEnv.toDataStream(table);
  }

  /**
   * {@link Table#execute} on the calling thread, whatever thread created {@code tEnv}.
   *
   * @param tEnv the table environment of {@code table}
   * @param table the table
   * @return the table's result
   */
  public static TableResult execute(TableEnvironment tEnv, Table table) {
    ensureMetadataProvider(tEnv);
    return table.execute();
  }

  /**
   * {@link org.apache.flink.table.api.StatementSet#execute} on the calling thread, whatever thread
   * created {@code tEnv}.
   *
   * @param tEnv the table environment of {@code set}
   * @param set the statement set
   * @return the set's result
   */
  public static TableResult execute(TableEnvironment tEnv, org.apache.flink.table.api.StatementSet set) {
    ensureMetadataProvider(tEnv);
    return set.execute();
  }

  /**
   * Adds jars to {@code tEnv}'s user class loader and to the jars of the jobs it submits ({@code ADD
   * JAR}, skipping those it has), on the calling thread. Setting {@code pipeline.jars} on the table
   * config after the environment exists does neither reliably: the planner loads functions through
   * the class loader the environment created at start-up.
   *
   * @param tEnv the table environment
   * @param paths the jars' paths
   */
  @SuppressWarnings("try") // CloseableIterator.close() is declared to throw InterruptedException
  public static void addJars(TableEnvironment tEnv, String[] paths) {
    ensureMetadataProvider(tEnv);
    java.util.Set<String> have = new java.util.HashSet<>();
    try (org.apache.flink.util.CloseableIterator<org.apache.flink.types.Row> it =
        tEnv.executeSql("SHOW JARS").collect()) {
      it.forEachRemaining(r -> have.add(String.valueOf(r.getField(0))));
    } catch (Exception e) {
      throw new SwagFailure(Kind.SETUP, "SHOW JARS failed: " + e, e);
    }
    for (String p : paths) {
      if (!have.contains(p)) {
        tEnv.executeSql("ADD JAR '" + p.replace("'", "''") + "'");
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static ThreadLocal<Object> threadLocal(Field f) throws IllegalAccessException {
    return (ThreadLocal<Object>) f.get(null);
  }
}
