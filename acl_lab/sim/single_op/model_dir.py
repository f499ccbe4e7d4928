"""The folder aclopSetModelDir reads: which files are operator models, read as ACL reads them.

hicann/ge, api/acl/acl_op_executor/single_op/op_model_manager.cpp ``ReadModelDefs`` lists
the folder with ``file_utils::ListFiles(dir, OmFileFilterFn, paths, OM_DIR_MAX_DEPTH)``
(utils/file_utils.cpp): ``scandir`` keeps only entries whose type is a regular file (or
unknown) or a folder — a symlink, a FIFO or a device is never listed, let alone followed —
recurses into folders until the depth of 3 runs out (files at most two folders down), and
keeps the names ending in ``.om``. A folder it cannot scan fails the whole call with
ACL_ERROR_READ_MODEL_FAILURE, and so does a listed file ``ReadOpModelFromFile`` cannot read
(ge::ReadBytesFromBinaryFile: unreadable, empty, or longer than an int32 counts). A file it
reads but ``OpModelParser::ParseOpModel`` cannot parse is skipped with a warning ("parse
model failed ... skip it"); here the warning lives on in the call's explanations.

The simulator reads a file's first bytes to see whether it is an acl_lab operator model at
all, and reads a whole one only up to ``MAX_OP_MODEL`` bytes, within the host-RAM budget:
an operator model is a page of JSON, so anything larger is skipped as unparsable.
"""
from __future__ import annotations

import os
import stat

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.om.op_model import MAGIC, parse_model
from acl_lab.sim.simerror import SimError
from acl_lab.support import files

OM_DIR_MAX_DEPTH = 3
INT32_MAX = (1 << 31) - 1     # ReadBytesFromBinaryFile keeps the length in an int32_t
MAX_OP_MODEL = 64 << 20


def _failure(call: str, path: str, reason) -> SimError:
    return SimError(C.ACL_ERROR_READ_MODEL_FAILURE,
                    _("{call}: cannot read {path} ({reason}); aclopSetModelDir reads every "
                      ".om file of the folder and the folders in it, and fails when one "
                      "cannot be read. Remove it, or point at the folder acl-lab atc "
                      "--singleop wrote.").format(call=call, path=repr(path), reason=reason))


def list_models(folder: str, call: str, depth: int = OM_DIR_MAX_DEPTH) -> list[str]:
    """The .om files ListFiles finds under ``folder``: regular files only, in name order."""
    if depth <= 0:
        return []
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as e:
        raise _failure(call, folder, e.strerror or e) from None
    found = []
    for entry in entries:
        try:
            mode = entry.stat(follow_symlinks=False).st_mode
        except OSError:
            continue                  # gone meanwhile: scandir would not have listed it
        path = os.path.join(folder, entry.name)
        if stat.S_ISDIR(mode):
            found += list_models(path, call, depth - 1)
        elif stat.S_ISREG(mode) and entry.name.endswith(".om"):
            found.append(path)
    return found


def read_models(folder: str, call: str, need) -> tuple[list, list[tuple[str, str]]]:
    """(the operator models of ``folder``, [(file, why it was skipped)]). ``need(n, what)``
    asks the host-RAM budget for bytes about to be read."""
    models, skipped = [], []
    for path in list_models(folder, call):
        try:
            fd, size = files.open_regular(path, INT32_MAX)
            os.close(fd)
            if size == 0:
                raise files.Refused(_("it is empty"))
            head = files.read_head(path, len(MAGIC))
        except files.Refused as why:
            raise _failure(call, path, why) from None
        if head != MAGIC:
            skipped.append((path, _("not an acl_lab operator model")))
            continue
        if size > MAX_OP_MODEL:
            skipped.append((path, _("{size} B, more than an operator model holds").format(
                size=size)))
            continue
        need(2 * size, _("reading operator model {path}").format(path=os.path.basename(path)))
        try:
            model = parse_model(files.read(path, MAX_OP_MODEL))
        except files.Refused as why:
            raise _failure(call, path, why) from None
        if model is None:
            skipped.append((path, _("its description cannot be parsed")))
        else:
            models.append(model)
    return models, skipped
