"""Sweeps: map one function over many items, here or as Ray tasks, with the same answers.

`sweep(fn, items)` runs `fn(item)` for every item in this process; `sweep(fn, items, ray=True)`
submits each call as a Ray remote task (a local Ray starts on this machine when none is running);
`ray="ADDRESS"` (e.g. "auto" or "ray://head:10001") joins an existing cluster. Either way the
results come back in the order of `items`, one per item, and a tqdm bar (a widget in a notebook)
counts finished items. The code path is the same: `fn` is a module-level function whose answer
depends only on its item (seeds travel inside the item), so a task's result does not depend on
which process ran it.

Ray is an optional extra (`pip install "ncpu_nb[ray]"`); nothing imports it until a sweep asks for it.
A local Ray's workers find this package through PYTHONPATH (set from where the driver imported it),
so a checkout works as well as an installed copy; a remote cluster's workers need ncpu_nb installed,
or `runtime_env={"py_modules": [ncpu_nb]}`.
"""
from __future__ import annotations

import os
from pathlib import Path

from ncpu_nb.errors import NcpuError

LOCAL = "local"  # `--ray` without an address: start a local Ray on this machine
_started_here = False


def _import_ray():
    try:
        import ray
    except ImportError:
        raise NcpuError('Ray is not installed: pip install "ncpu_nb[ray]" (or pip install ray) to use --ray') from None
    return ray


def _package_root() -> str:
    return str(Path(__file__).resolve().parent.parent)


def connect(address: str | bool | None = LOCAL, num_cpus: int | None = None, runtime_env: dict | None = None):
    """Make sure Ray is running and return the `ray` module. An address of None, True or "local"
    starts a local Ray (`num_cpus` of this machine's cores, no dashboard); any other string joins
    that cluster. Does nothing when Ray is already initialized in this process."""
    global _started_here
    ray = _import_ray()
    if ray.is_initialized():
        return ray
    env = dict(runtime_env or {})
    if "py_modules" not in env:  # workers import ncpu_nb from where this process did
        paths = [_package_root()] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        env["env_vars"] = {"PYTHONPATH": os.pathsep.join(dict.fromkeys(paths)), **env.get("env_vars", {})}
    local = address in (None, True, LOCAL)
    kwargs = dict(runtime_env=env, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    if local:
        kwargs["num_cpus"] = num_cpus or os.cpu_count()
    try:
        ray.init(address=None if local else address, **kwargs)
    except Exception:
        if not local:
            raise
        # A local node's start can time out on a loaded machine; a second start usually succeeds.
        ray.shutdown()
        ray.init(address=None, **kwargs)
    _started_here = True
    return ray


def running() -> bool:
    """Whether Ray is initialized in this process (without importing it when it is not loaded)."""
    import sys

    return "ray" in sys.modules and sys.modules["ray"].is_initialized()


def shutdown() -> None:
    """Stop the Ray that `connect` started in this process (a joined cluster keeps running)."""
    global _started_here
    if _started_here:
        import ray

        ray.shutdown()
        _started_here = False


def _bar(total: int, desc: str, progress: bool):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="task", disable=not progress)


def sweep(fn, items, *, ray=None, desc: str = "sweep", progress: bool = True, num_cpus: float = 1,
          num_gpus: float = 0, on_result=None) -> list:
    """[fn(item) for item in items], in the order of `items`.

    ray        None or False: in this process. True or "local": as Ray tasks on a local Ray (started
               if none runs). Another string: a cluster address for `ray.init` ("auto", "ray://...").
    num_cpus, num_gpus   what each Ray task reserves (Ray sets a task's OMP threads to its num_cpus)
    on_result  called as on_result(index, result) as each item finishes (completion order under Ray)
    progress   a tqdm bar of finished items (a widget in a notebook)
    """
    items = list(items)
    local = ray is None or ray is False
    r = None if local else connect(ray)  # before the bar: a missing Ray fails with nothing drawn
    bar = _bar(len(items), desc, progress)
    try:
        if local:
            results = []
            for index, item in enumerate(items):
                results.append(fn(item))
                if on_result is not None:
                    on_result(index, results[-1])
                bar.update(1)
            return results
        remote = r.remote(num_cpus=num_cpus, num_gpus=num_gpus)(fn)
        refs = [remote.remote(item) for item in items]
        index_of = {ref: i for i, ref in enumerate(refs)}
        results: list = [None] * len(items)
        pending = list(refs)
        while pending:
            done, pending = r.wait(pending, num_returns=1)
            for ref in done:
                i = index_of[ref]
                results[i] = r.get(ref)  # a task's exception is raised here, as it would be locally
                if on_result is not None:
                    on_result(i, results[i])
                bar.update(1)
        return results
    finally:
        bar.close()
