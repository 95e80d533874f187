package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one row contract: every time form parses to the epoch ms written here by hand, the rest to
 * null; the checks run key, time, NaN in that order with the reasons every engine reports.
 */
class RowContractTest {
  // 2024-01-31T12:00:00Z: 19,753 days after the epoch (2024-01-31 is day 30 of 2024; 1970..2023
  // hold 54 years and 13 leap days) plus 12 hours
  static final long NOON = (19_753L * 86_400 + 12 * 3_600) * 1_000;

  @Test
  void everyTimeFormParsesToTheSameInstant() {
    Object[] forms = {
        NOON, 1_000, (short) 1_000, (byte) 100, (double) NOON, (float) 1_000,
        Instant.ofEpochMilli(NOON), new java.util.Date(NOON), new java.sql.Timestamp(NOON),
        OffsetDateTime.of(2024, 1, 31, 14, 0, 0, 0, ZoneOffset.ofHours(2)),
        ZonedDateTime.of(2024, 1, 31, 7, 0, 0, 0, ZoneId.of("America/New_York")),
        LocalDateTime.of(2024, 1, 31, 12, 0),
        Long.toString(NOON), " " + NOON + " ", "2024-01-31T12:00:00Z", "2024-01-31T13:00:00+01:00",
        "2024-01-31T12:00:00", "2024-01-31 12:00:00", "2024-01-31T12:00:00.000Z", "+1000", "-1000"};
    long[] want = {
        NOON, 1_000, 1_000, 100, NOON, 1_000,
        NOON, NOON, NOON,
        NOON,
        NOON,
        NOON,
        NOON, NOON, NOON, NOON,
        NOON, NOON, NOON, 1_000, -1_000};
    for (int i = 0; i < forms.length; i++) {
      assertEquals(want[i], RowContract.parseTime(forms[i]), "form " + i + ": " + forms[i]);
    }
  }

  @Test
  void whatIsNotATimeParsesToNull() {
    for (Object v : Arrays.asList(null, 1000.5, Double.NaN, 1e19, "soon", "", "2024-13-01", "12:xx", List.of(1L),
        true)) {
      assertNull(RowContract.parseTime(v), String.valueOf(v));
    }
  }

  @Test
  void checksKeyThenTimeThenNaNWithOneSetOfReasons() {
    List<String> cols = List.of("k", "t", "v", "w");
    int[] keys = {0};
    int[] values = {2, 3};
    long[] time = new long[1];
    assertNull(RowContract.check(new Object[] {"a", "2024-01-31T12:00:00Z", 1.0, 2.0}, keys, List.of("k"), 1, "t",
        values, cols, time));
    assertEquals(NOON, time[0]);
    assertEquals("key column 'k' is null",
        RowContract.check(new Object[] {null, null, Double.NaN, 1.0}, keys, List.of("k"), 1, "t", values, cols, time));
    assertEquals("time column 't' is null",
        RowContract.check(new Object[] {"a", null, Double.NaN, 1.0}, keys, List.of("k"), 1, "t", values, cols, time));
    assertEquals("time column 't': unparsable time \"soon\" (epoch ms, a timestamp or an ISO-8601 string)",
        RowContract.check(new Object[] {"a", "soon", Double.NaN, 1.0}, keys, List.of("k"), 1, "t", values, cols,
            time));
    assertEquals("column 'w' is NaN",
        RowContract.check(new Object[] {"a", 5L, 1.0, Float.NaN}, keys, List.of("k"), 1, "t", values, cols, time));
    // no time column: the time is not read
    assertNull(RowContract.check(new Object[] {"a", "soon", 1.0, 2.0}, keys, List.of("k"), -1, null, values, cols,
        time));
  }
}
