"""Finding the swag jar, starting the JVM (once, through JPype) and translating Java exceptions.

The jar is looked up in this order:

1. the environment variable ``SWAG_JAR`` (one jar, or several separated by ``os.pathsep``);
2. ``jars/swag-core.jar`` inside this package, else any other ``jars/*.jar`` there.

Extra JVM options (e.g. ``-Xmx4g``) can be given in ``SWAG_JVM_ARGS``.
"""

from __future__ import annotations

import functools
import os
import shlex
import threading
from pathlib import Path
from typing import Any

import jpype  # type: ignore[import-untyped]

from .errors import InvalidValueError, SwagSetupError, from_java_chain, java_causes

JAR_ENV = "SWAG_JAR"
JVM_ARGS_ENV = "SWAG_JVM_ARGS"
JARS_DIR = Path(__file__).resolve().parent / "jars"
_PROBE_CLASS = "io.swag.core.Swag"
_BUILD_HINT = (
    "run `make build` from the repository root (or `mvn -B -pl jvm package -DskipTests` and copy "
    "the shaded jar jvm/target/swag-core-*-all.jar to python/swag/jars/swag-core.jar), "
    f"or set {JAR_ENV} to the jar's path"
)

_lock = threading.Lock()
_ready = False
_user_jars: list[Path] = []

LONG_MIN = -(2**63)
LONG_MAX = 2**63 - 1


def java_long(value: int, what: str) -> Any:
    """``value`` as a Java ``long``; :class:`~swag.InvalidValueError` (``what`` and the value) when it
    does not fit in 64 bits."""
    if LONG_MIN <= value <= LONG_MAX:
        return jpype.JLong(value)
    raise InvalidValueError(f"{what} {value}, which does not fit in a signed 64-bit integer (Java long)")


def add_jars(*paths: str | os.PathLike[str]) -> None:
    """Puts jars with user-defined functions (``swag.udaf``) on swag's class path: the local JVM's,
    and the jars :func:`swag.spark.session` and :mod:`swag.flink` give the engines. Call it before
    the first query: the local JVM's class path is fixed once it has started (then this raises
    :class:`SwagSetupError`, unless the jars are already on it)."""
    new = []
    for p in paths:
        path = Path(p).expanduser().resolve()
        if not path.is_file():
            raise SwagSetupError(f"add_jars: no jar file at {path}")
        if path not in _user_jars:
            new.append(path)
    if not new:
        return
    with _lock:
        if jpype.isJVMStarted():
            on = set(str(classpath_now()).split(os.pathsep))
            missing = [str(p) for p in new if str(p) not in on]
            if missing:
                raise SwagSetupError(
                    f"add_jars({', '.join(missing)}): the JVM has already started, so its class path is fixed; "
                    "call swag.add_jars(...) before the first query or aggregator of this process"
                )
        _user_jars.extend(new)


def user_jars() -> list[Path]:
    """The jars given to :func:`add_jars`, in order."""
    return list(_user_jars)


def classpath_now() -> str:
    return str(jpype.JClass("java.lang.System").getProperty("java.class.path"))


def find_jars(jars_dir: Path | None = None) -> list[Path]:
    """The jar(s) to put on the classpath; raises :class:`SwagSetupError` when there is none."""
    env = os.environ.get(JAR_ENV, "").strip()
    if env and jars_dir is None:
        paths = [Path(p).expanduser() for p in env.split(os.pathsep) if p.strip()]
        missing = [str(p) for p in paths if not p.is_file()]
        if missing:
            raise SwagSetupError(f"{JAR_ENV} names no jar file: {', '.join(missing)}")
        return paths
    d = JARS_DIR if jars_dir is None else Path(jars_dir)
    preferred = d / "swag-core.jar"
    if preferred.is_file():
        return [preferred]
    jars = sorted(d.glob("*.jar"), key=lambda p: (not p.name.startswith("swag-core"), p.name))
    if jars:
        return [jars[0]]
    raise SwagSetupError(f"the swag jar was not found (no {JAR_ENV} and no jar in {d}); {_BUILD_HINT}")


def _probe(context: str) -> None:
    """Checks that the swag classes load in the running JVM."""
    try:
        jpype.JClass(_PROBE_CLASS)
    except jpype.JException as e:  # e.g. UnsupportedClassVersionError on a Java < 17 runtime
        version = jpype.JClass("java.lang.System").getProperty("java.version")
        raise SwagSetupError(
            f"the swag classes do not load in this JVM (Java {version}; swag needs Java 17+): "
            f"{e.getClass().getName()}: {e.getMessage()}"
        ) from None
    except TypeError:
        raise SwagSetupError(
            f"{context} the class {_PROBE_CLASS} is not on its classpath. The JVM can be started only "
            f"once per process: import and use swag before other JPype users start the JVM, or start it "
            f"yourself with the swag jar on the classpath (jpype.startJVM(classpath=[...])). "
            f"Jar lookup: {JAR_ENV} or python/swag/jars/swag-core.jar"
        ) from None


def ensure_started() -> None:
    """Starts the JVM with the swag jar, once per process (thread-safe)."""
    global _ready
    if _ready:
        return
    with _lock:
        if _ready:
            return
        if jpype.isJVMStarted():
            _probe("the JVM was already started (by JPype elsewhere in this process) but")
        else:
            jars = find_jars() + _user_jars
            args = shlex.split(os.environ.get(JVM_ARGS_ENV, ""))
            try:
                jpype.startJVM(*args, classpath=[str(j) for j in jars], convertStrings=True)
            except jpype.JVMNotFoundException as e:
                raise SwagSetupError(f"no Java runtime found ({e}); install Java 17+ or set JAVA_HOME") from None
            except OSError as e:
                raise SwagSetupError(f"the JVM did not start: {e}") from None
            _probe(f"the JVM started with classpath {[str(j) for j in jars]}, but")
        _ready = True


@functools.cache
def jclass(name: str) -> Any:
    """The Java class ``name`` (starting the JVM first)."""
    ensure_started()
    return jpype.JClass(name)


def java_version() -> str:
    return str(jclass("java.lang.System").getProperty("java.version"))


def classpath() -> str:
    return str(jclass("java.lang.System").getProperty("java.class.path"))


# ---- Java exceptions -> Python exceptions ----


def translate(e: Any) -> Exception:
    """The Python exception for the Java exception ``e`` (:func:`swag.errors.from_java_chain` of it
    and its causes, :func:`swag.errors.java_causes`). The Java message is kept without its kind prefix; the Java stack trace is
    dropped (``err.java_exception`` keeps the object)."""
    err = from_java_chain(java_causes(e))
    err.java_exception = e  # type: ignore[union-attr]
    return err


JException = jpype.JException
