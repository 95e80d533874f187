"""The main job on PyFlink: the same swag windows as :mod:`swag_apps.pipeline_spark`, on a local Flink
mini cluster. Runs in ``.venv-flink`` (PyFlink 2.3 cannot share a virtualenv with PySpark 4.3:
pyarrow < 17 against >= 18); ``python -m swag_apps demo --engine flink`` started from ``.venv``
re-runs itself there.

The records (flights or Citi Bike trips, in arrival order) become a bounded DataStream with a
bounded-out-of-orderness watermark of 4 hours on the event time; ``swag.flink.aggregate`` runs the
query (windows and late records); both go to CSV files through Flink's filesystem connector
(committed at checkpoints, the last one at the end of the input).
"""

from __future__ import annotations

import glob
import shutil
import sys
import time as _time
from pathlib import Path
from typing import IO, Any

from .citibike import default_files
from .pipeline import PipelineResult, citibike_frame, citibike_query, flights_frame, flights_query, plot_busiest

WATERMARK_HOURS = 4


def _timestamp_assigner(column: int) -> Any:
    from pyflink.common.watermark_strategy import TimestampAssigner

    class _ByColumn(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):  # noqa: ANN001, ANN201
            return value[column]

    return _ByColumn()


def _read_csv_dir(directory: Path, names: list[str]) -> Any:
    import pandas as pd

    files = [Path(p) for p in glob.glob(str(directory / "**" / "*"), recursive=True)
             if Path(p).is_file() and not Path(p).name.startswith(".")]
    if not files:
        return pd.DataFrame(columns=names)
    return pd.concat([pd.read_csv(f, header=None, names=names) for f in files], ignore_index=True)


def run_flink(data: str = "flights", out: Path = Path("swag-demo-out-flink"), progress: bool | None = None,
              citibike_files: list[Path] | None = None, stream: IO[str] | None = None,
              limit: int | None = None, frame: Any = None) -> PipelineResult:
    """Runs the pipeline on a local Flink mini cluster; writes ``out/windows`` and ``out/late`` (CSV)
    and ``out/plot.png``. ``limit`` keeps the first records (in arrival order) only; ``frame``
    replaces the data set's records (a DataFrame like :func:`swag_apps.pipeline.flights_frame`'s)."""
    from pyflink.common import Duration, Row, Types, WatermarkStrategy
    from pyflink.datastream import StreamExecutionEnvironment
    from pyflink.table import StreamTableEnvironment, TableDescriptor
    from tqdm import tqdm  # type: ignore[import-untyped]

    import swag.flink

    stream = stream or sys.stdout
    out = Path(out)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    if data == "flights":
        df, skipped, ooo = flights_frame() if frame is None else (frame.copy(), 0, 0.0)
        df["sched_dep"] = df["sched_dep"].astype("datetime64[ms]").astype("int64")
        q, time_col = flights_query(), "sched_dep"
        types = [Types.STRING(), Types.STRING(), Types.LONG(), Types.DOUBLE(), Types.STRING()]
        keys, value, wide = ["origin", "carrier"], "p95_delay_1d", "1d/1h"
    elif data == "citibike":
        files = citibike_files or default_files()
        df, skipped, ooo = citibike_frame(files)
        df["start_time"] = df["start_time"].astype("datetime64[ms]").astype("int64")
        q, time_col = citibike_query(), "start_time"
        types = [Types.LONG(), Types.LONG(), Types.DOUBLE(), Types.STRING()]
        keys, value, wide = ["start_station"], "mean_trip", "1d/1h"
    else:
        raise ValueError(f"--data: unknown data set '{data}' (flights, citibike)")
    if limit is not None:
        df = df.iloc[:limit]
    names = list(df.columns)
    print(f"swag demo (flink): {len(df):,} records ({skipped:,} skipped), {ooo:.0%} out of order", file=stream)
    print(q.explain(), file=stream)
    rows = [Row(*r) for r in tqdm(df.itertuples(index=False, name=None), total=len(df), unit="rec",
                                  disable=progress is False, file=sys.stderr, desc="to PyFlink rows")]
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.set_python_executable(sys.executable)
    env.enable_checkpointing(5000)  # the filesystem sink commits its files at checkpoints
    src = env.from_collection(rows, type_info=Types.ROW_NAMED(names, types))
    src = src.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_hours(WATERMARK_HOURS))
        .with_timestamp_assigner(_timestamp_assigner(names.index(time_col))))
    result, late = swag.flink.aggregate(src, q, late=True)
    t_env = StreamTableEnvironment.create(env)
    win_table, late_table = t_env.from_data_stream(result), t_env.from_data_stream(late)
    win_cols = win_table.get_schema().get_field_names()
    ss = t_env.create_statement_set()
    for table, sub in ((win_table, "windows"), (late_table, "late")):
        ss.add_insert(TableDescriptor.for_connector("filesystem").option("path", str(out / sub)).format("csv")
                      .build(), table)
    print(f"swag demo (flink): running the job (windows -> {out / 'windows'}) ...", file=stream)
    t0 = _time.perf_counter()
    swag.flink.execute_statement_set(t_env, ss).wait()
    seconds = _time.perf_counter() - t0
    windows = _read_csv_dir(out / "windows", win_cols)
    late_rows = _read_csv_dir(out / "late", names)
    top = []
    if len(windows):
        w = windows[windows["window"] == wide].sort_values(value, ascending=False).head(5)
        top = [{k: (v.item() if hasattr(v, "item") else v) for k, v in r.items()}
               for r in w[keys + ["window_start", value]].to_dict("records")]
    plot = plot_busiest(windows, keys, value, wide, out / "plot.png", "Flink")
    return PipelineResult(data, len(df), skipped, 1, len(windows), len(late_rows), 0, seconds, out, plot, ooo, top,
                          engine="flink")
