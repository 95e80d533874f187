package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Java users get POJOs: {@link SwagWindows#asPojos} carries the same values as the result Rows. */
@SuppressWarnings("try") // Flink's CloseableIterator.close() is declared to throw InterruptedException
class PojoTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  /** Public fields in camelCase and snake_case, one setter; "sd" and "ids"-like columns left out. */
  public static class Result {
    public String k;
    public String window;
    public long windowStart;
    public long window_end;
    public Double mx;
    private Long n;

    public Long getN() {
      return n;
    }

    public void setN(Long n) {
      this.n = n;
    }

    @Override
    public String toString() {
      return k + "," + window + "," + windowStart + "," + window_end + "," + mx + "," + n;
    }
  }

  public static class Misspelt {
    public String k;
    public long windowStrat;
  }

  static QuerySpec query() {
    return QuerySpec.builder().key("k").time("ts").window(WindowSpec.time(400, 100).name("w")
        .aggregate("mx", "max", "v").aggregate("n", "count", null).aggregate("sd", "stddev", "v")).build();
  }

  @Test
  void pojosCarryTheRowValues() throws Exception {
    List<Row> input = TestStreams.generate(3, 1500, 4, 6, 50, 100);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    DataStream<Row> in = env.fromData(input, TestStreams.TYPE).assignTimestampsAndWatermarks(TestStreams.watermarks());
    SingleOutputStreamOperator<Row> rows = SwagWindows.aggregate(in, query());
    SingleOutputStreamOperator<Result> pojos = SwagWindows.asPojos(rows, Result.class);
    assertTrue(pojos.getType() instanceof PojoTypeInfo, "a Flink POJO type: " + pojos.getType());
    DataStream<String> a = rows.map(r -> r.getField(0) + "," + r.getField(1) + "," + r.getField(2) + ","
        + r.getField(3) + "," + r.getField(4) + "," + r.getField(5)).returns(Types.STRING);
    DataStream<String> b = pojos.map(p -> "P " + p).returns(Types.STRING);
    List<String> want = new ArrayList<>();
    List<String> got = new ArrayList<>();
    try (CloseableIterator<String> it = a.union(b).executeAndCollect("pojos")) {
      it.forEachRemaining(s -> (s.startsWith("P ") ? got : want).add(s.startsWith("P ") ? s.substring(2) : s));
    }
    Collections.sort(want);
    Collections.sort(got);
    assertTrue(want.size() > 100, "rows: " + want.size());
    assertEquals(want, got);
  }

  @Test
  void aFieldWithoutAColumnIsAnError() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    DataStream<Row> in = env.fromData(TestStreams.generate(3, 10, 2, 6, 50, 100), TestStreams.TYPE)
        .assignTimestampsAndWatermarks(TestStreams.watermarks());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SwagWindows.asPojos(SwagWindows.aggregate(in, query()), Misspelt.class));
    assertTrue(e.getMessage().contains("'windowStrat'"), e.getMessage());
  }
}
