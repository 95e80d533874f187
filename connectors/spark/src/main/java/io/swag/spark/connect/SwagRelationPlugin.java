package io.swag.spark.connect;

import io.swag.spark.SwagSpark;
import java.util.Optional;
import org.apache.spark.connect.proto.Relation;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.classic.Dataset;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.connect.planner.SparkConnectPlanner;
import org.apache.spark.sql.connect.plugin.RelationPlugin;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;

/**
 * swag on a Spark Connect server: the relations a swag client sends in {@code Relation.extension}
 * ({@link SwagPayload}) turned into logical plans. Register it when starting the server:
 * {@code --conf spark.connect.extensions.relation.classes=io.swag.spark.connect.SwagRelationPlugin}
 * (with the swag-core and swag-spark jars in {@code --jars}).
 *
 * <ul>
 *   <li>{@code swag.Aggregate}: the plan of {@link SwagSpark#aggregate(org.apache.spark.sql.Dataset,
 *       String, String)} over the child relation, exactly as a classic session builds it (the
 *       query and options are validated there; errors are the same {@link IllegalArgumentException}
 *       and {@link IllegalStateException});
 *   <li>{@code swag.ExecutedPlan}: one row, column {@code plan}: the JSON of
 *       {@link SwagSpark#executedPlan(String)} (null before any task ran).
 * </ul>
 * Another extension type is not ours: {@link Optional#empty()}, so other plugins get their turn.
 * The server transforms a relation each time a client analyses or runs it, so each transform builds
 * a fresh plan, as each call of {@code aggregate} does in a classic session.
 */
public final class SwagRelationPlugin implements RelationPlugin {
  @Override
  public Optional<LogicalPlan> transform(byte[] relation, SparkConnectPlanner planner) {
    SwagPayload.AnyMessage any = SwagPayload.parseAny(relation);
    switch (any.typeUrl()) {
      case SwagPayload.AGGREGATE_TYPE -> {
        SwagPayload.Aggregate a = SwagPayload.parseAggregate(any.value());
        LogicalPlan child = planner.transformRelation(parseRelation(a.input()));
        Dataset<Row> input = Dataset.ofRows(planner.session(), child);
        org.apache.spark.sql.Dataset<Row> out = SwagSpark.aggregate(input, a.queryJson(), a.optionsJson());
        return Optional.of(((Dataset<Row>) out).logicalPlan());
      }
      case SwagPayload.EXECUTED_PLAN_TYPE -> {
        String text = SwagSpark.executedPlan(SwagPayload.parseExecutedPlan(any.value()));
        Column plan = functions.lit(text).cast(DataTypes.StringType).alias("plan");
        SparkSession session = planner.session();
        return Optional.of(session.range(1).select(plan).logicalPlan());
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  private static Relation parseRelation(byte[] bytes) {
    try {
      return Relation.parseFrom(bytes);
    } catch (Exception e) { // the shaded InvalidProtocolBufferException
      throw new IllegalArgumentException("swag.Aggregate: its input is not a spark.connect.Relation: "
          + e.getMessage(), e);
    }
  }
}
