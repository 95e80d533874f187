package io.swag.flink;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** The local mini cluster of the tests: one task manager with 4 slots (jobs run at parallelism <= 4). */
public final class Clusters {
  private Clusters() {}

  public static MiniClusterExtension miniCluster() {
    return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
        .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(4).build());
  }
}
