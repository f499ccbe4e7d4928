"""Single operators (acl.op): tensor descriptions, operator attributes, single-op models.

``acl-lab atc --singleop=op.json --output=DIR --soc_version=...`` compiles each operator
of an ATC single-op description into DIR/<n>_<OpType>_<tensors>.om (acl_lab.om.op_model);
``acl.op.set_model_dir(DIR)`` loads them, and ``acl.op.execute_v2`` runs the operator whose
model matches the call exactly (type, every tensor's type, format and shape, attributes,
constant inputs), as a task on the stream (acl_lab.sim.single_op.runtime). The arithmetic is numpy's
(acl_lab.om.op_kernels). A tensor description's storage format and shape, ranges and
placement: acl_lab.sim.single_op.desc_extras.
"""
