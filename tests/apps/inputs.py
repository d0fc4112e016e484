"""Files the CLI tests feed the binary: real models from data/, and damaged or wrong ones
made on the spot (deterministic: seeded bytes, fixed cuts)."""

import json
import math
import random
import struct
from pathlib import Path

from cli_runner import SOURCE_DIR

# x[1,3,16,16] -> conv, relu, pool, conv, ... -> [1,10]; imports and compiles in well under a second.
TINY_ONNX = SOURCE_DIR / "data" / "onnx" / "tiny-convnet.onnx"
TINY_INPUT_SHAPE = (1, 3, 16, 16)
TINY_OUTPUT_SHAPE = (1, 10)
# Another small model, for plans made for a different graph.
OTHER_ONNX = SOURCE_DIR / "data" / "onnx" / "ops" / "prelu-opset14.onnx"


def truncated_copy(source: Path, target: Path, keep: float = 0.5) -> Path:
    data = source.read_bytes()
    target.write_bytes(data[: int(len(data) * keep)])
    return target


def random_bytes(target: Path, size: int = 4096, seed: int = 30) -> Path:
    target.write_bytes(random.Random(seed).randbytes(size))
    return target


def write_npy(target: Path, shape, descr: str = "<f4") -> Path:
    """A NumPy v1.0 file of zeros (written by hand: the tests need no NumPy)."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join(f"{extent}," for extent in shape))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"  # the header ends on a 64-byte boundary
    size = math.prod(shape) * int(descr[-1])
    target.write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + bytes(size))
    return target


def read_npy_shape(path: Path) -> tuple:
    data = path.read_bytes()
    header_length = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + header_length].decode()
    inside = header[header.index("'shape': (") + len("'shape': ("):]
    return tuple(int(extent) for extent in inside[: inside.index(")")].split(",") if extent.strip())


def write_json(target: Path, document) -> Path:
    target.write_text(json.dumps(document, indent=1) + "\n")
    return target
