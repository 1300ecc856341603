"""PEP 517 backend: maturin, plus the top-level data folders (programs, weights, curriculum).

maturin copies extra files to the wheel's root, which would put `programs/` and the
others straight into site-packages. This wrapper builds the wheel with maturin and
then adds the folders inside the package as `ncpu_nb/data/...`, where
`ncpu_nb.resources` looks for them. Editable installs read the checkout directly.

Every learner installs the wheel (or builds it from the sdist), so the assignments in both are
student versions, made here by nbgrader's preprocessors (ncpu_nb/coursework/student.py): no solution
or hidden test is packed. Instructors take the sources from the git checkout.
"""
import base64
import gzip
import hashlib
import importlib.util
import io
import tarfile
import zipfile
from pathlib import Path

from maturin import *  # noqa: F401,F403  (every hook we do not override)
from maturin import build_sdist as _maturin_build_sdist
from maturin import build_wheel as _maturin_build_wheel
from maturin import get_requires_for_build_sdist as _maturin_requires_for_build_sdist
from maturin import get_requires_for_build_wheel as _maturin_requires_for_build_wheel

ROOT = Path(__file__).resolve().parent.parent
DATA_FOLDERS = ("programs", "weights", "notebooks", "tutorials")


def _record_line(arcname: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def _student_module():
    # By its path: importing the ncpu_nb package would need the extension this build makes.
    spec = importlib.util.spec_from_file_location("_ncpu_nb_student", ROOT / "ncpu_nb" / "coursework" / "student.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _packed(name: str, data: bytes, student) -> bytes:
    """A file's bytes in the wheel or sdist: an assignment's student version in place of its source."""
    if name.endswith(".ipynb") and student.is_source(data.decode()):
        return student.student_version(data.decode()).encode()
    return data


NBGRADER = "nbgrader>=0.9.6,<0.10"


def get_requires_for_build_wheel(config_settings=None):
    """A wheel needs nbgrader to make the student versions; an editable install reads the checkout."""
    return _maturin_requires_for_build_wheel(config_settings) + [NBGRADER]


def get_requires_for_build_sdist(config_settings=None):
    return _maturin_requires_for_build_sdist(config_settings) + [NBGRADER]


def build_sdist(sdist_directory, config_settings=None):
    name = _maturin_build_sdist(sdist_directory, config_settings)
    path = Path(sdist_directory) / name
    student = _student_module()
    with tarfile.open(path) as tin:
        members = [(m, tin.extractfile(m).read() if m.isfile() else None) for m in tin.getmembers()]
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tout:
        for member, data in members:
            if data is not None:
                data = _packed(member.name, data, student)
                member.size = len(data)
            tout.addfile(member, io.BytesIO(data) if data is not None else None)
    path.write_bytes(gzip.compress(buffer.getvalue(), mtime=0))
    return name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = _maturin_build_wheel(wheel_directory, config_settings, metadata_directory)
    path = Path(wheel_directory) / name
    with zipfile.ZipFile(path) as zin:
        entries = [(info, zin.read(info)) for info in zin.infolist()]
    record_name = next(info.filename for info, _ in entries if info.filename.endswith(".dist-info/RECORD"))
    student = _student_module()
    added = []
    for folder in DATA_FOLDERS:
        for file in sorted((ROOT / folder).rglob("*")):
            if file.is_file() and "__pycache__" not in file.parts:
                arcname = f"ncpu_nb/data/{file.relative_to(ROOT).as_posix()}"
                added.append((arcname, _packed(file.name, file.read_bytes(), student)))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for info, data in entries:
            if info.filename == record_name:
                lines = data.decode().splitlines()
                lines[-1:-1] = [_record_line(a, d) for a, d in added]  # RECORD's own line stays last
                data = ("\n".join(lines) + "\n").encode()
            zout.writestr(info, data)
        for arcname, data in added:
            zout.writestr(arcname, data)
    return name
