package io.swag.flink;

import java.io.Serializable;

/**
 * Options of the swag Flink operator ({@link SwagWindows#aggregate}). Immutable; the {@code with*}
 * methods return copies.
 */
public final class SwagFlinkOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String operatorName;
  private final String uid;
  private final int parallelism;

  private SwagFlinkOptions(String operatorName, String uid, int parallelism) {
    this.operatorName = operatorName;
    this.uid = uid;
    this.parallelism = parallelism;
  }

  /** Defaults: operator name {@code swag-windows}, no uid, the environment's parallelism. */
  public static SwagFlinkOptions defaults() {
    return new SwagFlinkOptions("swag-windows", null, -1);
  }

  /** The operator's name in the job graph and in metrics. */
  public SwagFlinkOptions withOperatorName(String name) {
    return new SwagFlinkOptions(name, uid, parallelism);
  }

  /** The operator's uid, so that savepoints map its state back (recommended for production jobs). */
  public SwagFlinkOptions withUid(String uid) {
    return new SwagFlinkOptions(operatorName, uid, parallelism);
  }

  /** The operator's parallelism ({@code -1}: the environment's). */
  public SwagFlinkOptions withParallelism(int parallelism) {
    if (parallelism == 0 || parallelism < -1) {
      throw new IllegalArgumentException("parallelism: " + parallelism + " (must be >= 1, or -1 for the default)");
    }
    return new SwagFlinkOptions(operatorName, uid, parallelism);
  }

  public String operatorName() {
    return operatorName;
  }

  public String uid() {
    return uid;
  }

  public int parallelism() {
    return parallelism;
  }
}
