"""Shape-range models (`atc --input_shape_range`, om/dynamic.py ShapeRanges) on the
simulator's side, and the tensor descriptions a dataset carries: aclmdlSetDatasetTensorDesc
gives each execution's input shapes, aclmdlGetDatasetTensorDesc the outputs' after it;
aclmdlGetInputDimsRange and the dims aclmdlGetInputDims / GetOutputDims report. A part of
OfflineModels (sim/models.py).

As hicann/ge api/acl/acl_model/model/model_om2.cpp: the dataset keeps a copy of the
description it is given (NULL clears it) at an index below its buffer count, else
ACL_ERROR_INVALID_PARAM; the get returns the dataset's own copy or NULL; a dims range is
empty for a model with gears, [d, d] per dim of a static one (GetDimsRange). A shape-range
input whose execution has no description, or one outside its ranges, is refused
(ACL_ERROR_GE_PARAM_INVALID) before anything runs; the outputs' shapes are worked out from
the inputs' before the execution, so a buffer too small for them is refused as well.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.om import graph as om_graph
from acl_lab.sim.simerror import SimError

if TYPE_CHECKING:
    from acl_lab.sim.models import Dataset, LoadedModel

MAX_SHAPES = 16          # per model: the facts of this many input shapes are kept


class ModelRanges:
    """The shape-range and dataset tensor-description calls of OfflineModels."""

    # ----- aclmdlSetDatasetTensorDesc / aclmdlGetDatasetTensorDesc ------------------------
    def set_tensor_desc(self, ds: int, desc: int, index: int) -> None:
        """The dataset keeps a copy of tensor description ``desc`` for buffer ``index``."""
        call = "aclmdlSetDatasetTensorDesc"
        d = self.dataset(ds, call)
        self._blob(call, d, index)
        kept = d.tensor_descs.get(index)
        if desc == 0:                        # NULL: the copy is dropped
            if kept is not None:
                self.rt.single_ops.destroy_desc(d.tensor_descs.pop(index))
            return
        given = self.rt.single_ops.desc(desc, call)
        if kept is None:
            d.tensor_descs[index] = self.rt.single_ops.create_desc(given.dtype, given.dims,
                                                                   given.fmt)
        else:
            copy = self.rt.single_ops.descs[kept]
            copy.dtype, copy.dims, copy.fmt = given.dtype, given.dims, given.fmt

    def get_tensor_desc(self, ds: int, index: int) -> int:
        """The dataset's copy for buffer ``index``; 0 (NULL) where it has none."""
        call = "aclmdlGetDatasetTensorDesc"
        d = self.dataset(ds, call)
        self._blob(call, d, index)
        return d.tensor_descs.get(index, 0)

    @staticmethod
    def _blob(call: str, d: Dataset, index: int) -> None:
        if not 0 <= index < len(d.buffers):
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: index {index} must be smaller than the dataset's "
                             "{count} data buffer(s).").format(call=call, index=index,
                                                               count=len(d.buffers)))

    def drop_tensor_descs(self, d: Dataset) -> None:
        """The dataset is destroyed: its copies go with it."""
        for handle in d.tensor_descs.values():
            self.rt.single_ops.descs.pop(handle, None)
        d.tensor_descs.clear()

    # ----- what a description reports --------------------------------------------------------
    def reported_dims(self, handle: int, index: int, outputs: bool, call: str) -> tuple:
        """aclmdlGetInputDims / aclmdlGetOutputDims: -1 where a gear decides or a range
        leaves the dim open."""
        t = self.tensor(handle, index, outputs, call)
        m = self.descs[handle].model
        if m.ranges is not None:
            return m.ranges.reported(t.name, t.dims, outputs)
        if m.dynamic is not None and not outputs:
            return m.dynamic.reported(t.name, t.dims)
        return t.dims

    def dims_range(self, handle: int, index: int) -> tuple:
        """aclmdlGetInputDimsRange: (low, high) per dim (high -1: no bound); none for a model
        with gears, (d, d) for a static input."""
        t = self.tensor(handle, index, False, "aclmdlGetInputDimsRange")
        m = self.descs[handle].model
        if m.dynamic is not None:
            return ()
        if m.ranges is not None and t.name in m.ranges.inputs:
            return m.ranges.inputs[t.name]
        return tuple((d, d) for d in t.dims)

    # ----- executing a shape-range model ---------------------------------------------------
    def range_shapes(self, call: str, lm: LoadedModel, ins: Dataset) -> tuple:
        """(input descs, output descs, host RAM at the peak) of one execution of a
        shape-range model at the shapes the input dataset's tensor descriptions give."""
        m, dims = lm.om, {}
        for i, t in enumerate(m.inputs):
            if t.name not in m.ranges.inputs:
                continue
            handle = ins.tensor_descs.get(i)
            given = self.rt.single_ops.descs[handle].dims if handle else None
            if given is None or not m.ranges.admits(t.name, tuple(given)):
                raise SimError(C.ACL_ERROR_GE_PARAM_INVALID, (
                    _("{call}: input {index} ({name}) has a shape range {ranges}; give this "
                      "execution's shape first with acl.mdl.set_dataset_tensor_desc(dataset, "
                      "tensor_desc, {index}).") if given is None else
                    _("{call}: input {index} ({name}) is given dims {dims}, outside its shape "
                      "range {ranges}.")).format(
                        call=call, index=i, name=t.name, dims=list(given or ()),
                        ranges=[list(p) for p in m.ranges.inputs[t.name]]))
            dims[t.name] = tuple(given)
        facts = self._facts_at(lm, dims)
        shaped_in = tuple(replace(t, dims=dims.get(t.name, t.dims), nbytes=None)
                          for t in m.inputs)
        shaped_out = tuple(replace(t, dims=facts.shapes[t.name][0], nbytes=None)
                           for t in m.outputs)
        return shaped_in, shaped_out, facts.peak_bytes

    def _facts_at(self, lm: LoadedModel, dims: dict):
        """The graph's facts at these input dims (worked out once per shape, a few kept)."""
        key = (lm.id, tuple(sorted(dims.items())))
        cache = self.range_facts
        if key not in cache:
            try:
                facts = om_graph.inspect(lm.graph, dims, fed=[t.name for t in lm.om.inputs])
            except om_graph.GraphError as e:
                raise SimError(C.ACL_ERROR_GE_PARAM_INVALID,
                               _("model {model_id} cannot run at input dims {dims}: "
                                 "{reason}").format(model_id=lm.id, dims=dims,
                                                    reason=e)) from None
            if len(cache) >= MAX_SHAPES:
                cache.pop(next(iter(cache)))
            cache[key] = facts
        return cache[key]

    def set_output_descs(self, outs: Dataset, shaped: tuple) -> None:
        """After a shape-range execution: each output's description in the output dataset
        (aclmdlGetDatasetTensorDesc then gives its dims)."""
        for i, t in enumerate(shaped):
            kept = outs.tensor_descs.get(i)
            if kept is None:
                outs.tensor_descs[i] = self.rt.single_ops.create_desc(t.dtype, t.dims, t.fmt)
            else:
                self.rt.single_ops.descs[kept].dims = t.dims
