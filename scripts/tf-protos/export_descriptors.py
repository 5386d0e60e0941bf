"""Writes TensorFlow 2.21's protobuf schemas as a FileDescriptorSet (packages/saving/proto/tf_protos.pb).

The schemas come from the TF wheel itself (each *_pb2 module's DESCRIPTOR), so they are TF's own
.proto definitions, not a copy typed by hand. scripts/tf-protos/to_json.js turns the set into the
protobufjs JSON (packages/saving/src/proto/tf_protos.json) that the readers and writers load.

Run: .venv-tf/bin/python scripts/tf-protos/export_descriptors.py && node scripts/tf-protos/to_json.js
"""
import os

from google.protobuf import descriptor_pb2

from tensorflow.core.example import example_pb2, feature_pb2  # noqa: F401
from tensorflow.core.framework import (attr_value_pb2, function_pb2, graph_pb2, node_def_pb2,  # noqa: F401
                                       op_def_pb2, resource_handle_pb2, summary_pb2, tensor_pb2,
                                       tensor_shape_pb2, types_pb2, variable_pb2, versions_pb2)
from tensorflow.core.protobuf import (meta_graph_pb2, saved_model_pb2, saved_object_graph_pb2,  # noqa: F401
                                      saver_pb2, struct_pb2, trackable_object_graph_pb2)
from tensorflow.core.util import event_pb2  # noqa: F401
from tensorflow.python.checkpoint import checkpoint  # noqa: F401
from tensorflow.core.protobuf import tensor_bundle_pb2  # noqa: F401

ROOTS = [example_pb2, feature_pb2, graph_pb2, summary_pb2, tensor_pb2, saved_model_pb2, meta_graph_pb2,
         saved_object_graph_pb2, trackable_object_graph_pb2, saver_pb2, struct_pb2, event_pb2,
         tensor_bundle_pb2, function_pb2, variable_pb2]

out = descriptor_pb2.FileDescriptorSet()
seen = set()


def add(fd):
    if fd.name in seen:
        return
    for dep in fd.dependencies:
        add(dep)
    seen.add(fd.name)
    proto = descriptor_pb2.FileDescriptorProto()
    fd.CopyToProto(proto)
    out.file.append(proto)


for mod in ROOTS:
    add(mod.DESCRIPTOR)

here = os.path.dirname(os.path.abspath(__file__))
dest = os.path.join(here, '..', '..', 'packages', 'saving', 'proto', 'tf_protos.pb')
os.makedirs(os.path.dirname(dest), exist_ok=True)
with open(dest, 'wb') as f:
    f.write(out.SerializeToString())
print('wrote', len(out.file), 'files:', ', '.join(sorted(seen)))
