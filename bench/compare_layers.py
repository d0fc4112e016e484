#!/usr/bin/python3
"""layoutopt against ONNX Runtime node by node: where a network's time goes on each side.

A whole-run ratio says how far ahead one side is, not where. This script alternates, for
ROUNDS rounds, a profiled `layoutopt bench MODEL --profile --json [--plan P]` (each step's
median over its profiled runs) and ONNX Runtime's own profiler (bench/peers/ort_profile.js:
each node's median over its runs), the side that starts moving each round, and matches both
to the model's nodes:

  - layoutopt names each step after the node it computes (a conv with its fused batch norm,
    activation or residual add); a step it added for a node (`NODE.subsample`) counts to it;
    its layout transforms form one row of their own.
  - ONNX Runtime names a node its layout pass rewrote after the node's output tensor plus
    "_nchwc" (a batch norm's "_bn_nchwc"); that tensor's producer is followed back through the activations and adds
    ONNX Runtime fused into it to the conv, pool or product it ends in. Its ReorderInput and
    ReorderOutput nodes are its layout transforms; a fusion of its own (SiLU's
    "NODE/QuickGeluFusion/", "fused NODE" for a Gemm and its activation) counts to the node it
    is named after.

Reported: per operator class (1x1 convs, 3x3 stride 1, strided, grouped, products, pools,
elementwise, concats, other, layout transforms) and per node in graph order, each side's median ms over the rounds
and the ratio of the medians (below 1: layoutopt is faster); the whole profiled runs' ratio
per round, median and range. Profiled runs are slower than plain ones on both sides; the
per-node split, not the totals, is the point.

    bench/compare_layers.py MODEL.onnx [--plan P] [--rounds 3] [--threads 2]
                            [--layoutopt build/apps/layoutopt] --out DIR [--force]

Writes DIR/layers.md (also printed), DIR/layers.svg (the classes' times side by side) and
DIR/rounds.jsonl (every profile); refuses a DIR that holds them unless --force. Needs the
peers (`bash scripts/install-deps.sh --peers`): node with onnxruntime-node, python3-onnx.
"""

import argparse
import collections
import datetime
import html
import json
import os
import statistics
import subprocess
import sys

from compare_peers import COLORS, PEERS_DIR, ROOT, fail, machine_description, paired_text, write_svg_document

OUTPUTS = ("layers.md", "layers.svg", "rounds.jsonl")
SIDES = ("layoutopt", "onnxruntime")
TRANSFORMS = "(layout transforms)"
# Ops ONNX Runtime fuses into the conv, pool or product before them; the walk back from a
# rewritten node's output passes through these.
FUSED_INTO_PRODUCER = {"Relu", "Clip", "Add", "Sum", "BatchNormalization", "Sigmoid", "HardSigmoid",
                       "HardSwish", "LeakyRelu", "Mul", "Tanh", "Identity"}
CLASSES = ("1x1 conv", "3x3 conv, stride 1", "strided conv", "other conv", "grouped conv", "product",
           "pool", "elementwise", "concat", "other", TRANSFORMS)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="ONNX file")
    parser.add_argument("--plan", help="layoutopt plan (default: the untuned default schedule)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--layoutopt", default=os.path.join(ROOT, "build", "apps", "layoutopt"))
    parser.add_argument("--out", required=True, help="directory for layers.md, layers.svg and rounds.jsonl")
    parser.add_argument("--force", action="store_true", help="overwrite what --out holds")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if not os.path.isfile(args.model):
        parser.error(f"model file {args.model} not found")
    return args


class ModelNodes:
    """The model's nodes in graph order, their operator classes, and the tensor producers that
    map ONNX Runtime's rewritten nodes back to them."""

    def __init__(self, path):
        try:
            import onnx
        except ImportError:
            fail("python3-onnx is missing; install the peers with `bash scripts/install-deps.sh --peers`")
        try:
            graph = onnx.load(path, load_external_data=False).graph
        except Exception as error:  # protobuf's DecodeError and friends: a file that is not ONNX
            fail(f"cannot read {path} as an ONNX model: {error}")
        shapes = {init.name: list(init.dims) for init in graph.initializer}
        self.order = [node.name for node in graph.node]
        self.nodes = {node.name: node for node in graph.node}
        self.producer = {output: node for node in graph.node for output in node.output}
        self.classes = {node.name: self._class_of(node, shapes) for node in graph.node}

    @staticmethod
    def _class_of(node, shapes):
        attributes = {a.name: a for a in node.attribute}
        if node.op_type == "Conv":
            group = attributes["group"].i if "group" in attributes else 1
            strides = list(attributes["strides"].ints) if "strides" in attributes else [1, 1]
            kernel = list(attributes["kernel_shape"].ints) if "kernel_shape" in attributes else \
                shapes.get(node.input[1], [0, 0, 0, 0])[2:]
            if group > 1:
                return "grouped conv"
            if max(strides, default=1) > 1:
                return "strided conv"
            if all(k == 1 for k in kernel):
                return "1x1 conv"
            return "3x3 conv, stride 1" if list(kernel) == [3, 3] else "other conv"
        if node.op_type in ("Gemm", "MatMul"):
            return "product"
        if "Pool" in node.op_type:
            return "pool"
        if node.op_type in FUSED_INTO_PRODUCER:
            return "elementwise"
        return "concat" if node.op_type == "Concat" else "other"

    def layoutopt_node(self, step):
        """The model node a layoutopt profile step computes, or TRANSFORMS."""
        if step["kind"] == "transform":
            return TRANSFORMS
        name = step["name"]
        while name and name not in self.nodes:
            name = name.rpartition(".")[0]  # NODE.subsample and the like
        return name or step["name"]

    def onnxruntime_node(self, node):
        """The model node an ONNX Runtime profiled node computes, or TRANSFORMS."""
        name, op = node["name"], node["op"]
        if op in ("ReorderInput", "ReorderOutput"):
            return TRANSFORMS
        if name.startswith("fused ") and name[len("fused "):] in self.nodes:  # a Gemm with its activation
            return name[len("fused "):]
        if name in self.nodes:
            return name
        if "/" in name and not name.endswith("_nchwc"):  # a fusion named after its last node: "NODE/QuickGeluFusion/"
            node = name.rstrip("/")
            while node and node not in self.nodes:
                node = node.rpartition("/")[0]
            return node or name
        tensor = name[:-len("_nchwc")] if name.endswith("_nchwc") else name
        if tensor not in self.producer:  # a batch norm ONNX Runtime ran as a node of its own: "X_bn_nchwc"
            producer = self.producer.get(tensor.rpartition("_")[0])
            return producer.name if producer is not None else name
        producer = self.producer.get(tensor)
        # Back to the node of ONNX Runtime's operator through what it fused into it.
        while producer is not None and producer.op_type != op and producer.op_type in FUSED_INTO_PRODUCER:
            inputs = [self.producer[t] for t in producer.input if t in self.producer]
            same_op = [p for p in inputs if p.op_type == op]
            anchors = [p for p in inputs if p.op_type not in FUSED_INTO_PRODUCER]
            producer = (same_op or anchors or inputs or [None])[0]
        return producer.name if producer is not None else name

    def class_of(self, node):
        return TRANSFORMS if node == TRANSFORMS else self.classes.get(node, "other")


def run_json(command):
    process = subprocess.run(command, capture_output=True, text=True)
    if process.returncode != 0:
        fail(f"`{' '.join(command)}` failed with exit code {process.returncode}:\n"
             + "\n".join(process.stderr.strip().splitlines()[-15:]))
    try:
        return json.loads([line for line in process.stdout.splitlines() if line.lstrip().startswith("{")][-1])
    except (IndexError, ValueError) as error:
        fail(f"`{' '.join(command)}` printed no JSON object ({error})")


def profile(side, args):
    """One profile: (whole run ms, {model node: ms}) of one side."""
    if side == "layoutopt":
        command = [args.layoutopt, "bench", args.model, "--threads", str(args.threads), "--profile", "--json"]
        if args.plan:
            command += ["--plan", args.plan]
        result = run_json(command)
        steps = [(args.nodes.layoutopt_node(s), s["measured_ms"]) for s in result["profile"]["steps"]]
        run_ms = result["profile"]["run_ms"]
    else:
        result = run_json(["node", os.path.join(PEERS_DIR, "ort_profile.js"), args.model, "--threads", str(args.threads)])
        steps = [(args.nodes.onnxruntime_node(n), n["ms"]) for n in result["nodes"]]
        run_ms = result["run_ms"]
    times = {}
    for node, ms in steps:
        times[node] = times.get(node, 0.0) + ms
    return run_ms, times


def time_rounds(args, log):
    """Both sides once per round, the starting side alternating: {side: [(run ms, times)]}."""
    profiles = {side: [] for side in SIDES}
    for number in range(args.rounds):
        for side in (SIDES if number % 2 == 0 else SIDES[::-1]):
            run_ms, times = profile(side, args)
            profiles[side].append((run_ms, times))
            log.write(json.dumps({"round": number + 1, "side": side, "run_ms": run_ms, "nodes": times}) + "\n")
            log.flush()
            print(f"[round {number + 1}/{args.rounds}] {side:<12} profiled run {run_ms:8.3f} ms", flush=True)
    return profiles


def medians_by(profiles, key):
    """{side: {key: median over the rounds of the summed ms}}, a missing key counting 0 in a round."""
    result = {}
    for side, rounds in profiles.items():
        sums = []
        for _, times in rounds:
            summed = collections.defaultdict(float)
            for node, ms in times.items():
                summed[key(node)] += ms
            sums.append(summed)
        keys = {k for summed in sums for k in summed}
        result[side] = {k: statistics.median(summed.get(k, 0.0) for summed in sums) for k in keys}
    return result


def ratio_text(mine, theirs):
    return f"{mine / theirs:.2f}" if mine and theirs else "–"


def ms_text(value):
    return f"{value:.3f}" if value else "–"


def report(args, model, profiles):
    nodes = args.nodes
    by_class = medians_by(profiles, nodes.class_of)
    by_node = medians_by(profiles, lambda node: node)
    run_ratios = [a[0] / b[0] for a, b in zip(profiles["layoutopt"], profiles["onnxruntime"])]
    lines = [f"# {model} node by node: layoutopt against ONNX Runtime, batch 1, {args.threads} threads", "",
             f"{machine_description()}; {datetime.datetime.now().isoformat(timespec='seconds')}; {args.rounds} "
             f"rounds, the sides alternated; layoutopt {'plan ' + os.path.basename(args.plan) if args.plan else 'untuned default'}. "
             f"Profiled runs, layoutopt / ONNX Runtime per round: {paired_text(run_ratios)}.", "",
             "| operator class | layoutopt ms | ONNX Runtime ms | ratio |", "|---|---:|---:|---:|"]
    for name in CLASSES:
        mine, theirs = by_class["layoutopt"].get(name, 0.0), by_class["onnxruntime"].get(name, 0.0)
        if mine or theirs:
            lines.append(f"| {name} | {ms_text(mine)} | {ms_text(theirs)} | {ratio_text(mine, theirs)} |")
    lines += ["", "| node | class | layoutopt ms | ONNX Runtime ms | ratio |", "|---|---|---:|---:|---:|"]
    seen = set(by_node["layoutopt"]) | set(by_node["onnxruntime"])
    ordered = [n for n in nodes.order if n in seen] + sorted(seen - set(nodes.order))
    for node in ordered:
        mine, theirs = by_node["layoutopt"].get(node, 0.0), by_node["onnxruntime"].get(node, 0.0)
        lines.append(f"| {node} | {nodes.class_of(node)} | {ms_text(mine)} | {ms_text(theirs)} | {ratio_text(mine, theirs)} |")
    lines += ["", "Each side's time is its median over the rounds (a node either side leaves out of a round "
              "counts 0 there); a ratio below 1 means layoutopt is faster. A node ONNX Runtime fused into "
              "another (an activation, a residual add) has no row of its own; neither do the ones layoutopt "
              "fused or computes in place."]
    return "\n".join(lines) + "\n", by_class


def write_svg(path, by_class, title):
    """Per operator class, the two sides' medians as bars side by side."""
    labels = {"layoutopt": "layoutopt", "onnxruntime": "ONNX Runtime"}
    classes = [c for c in CLASSES if by_class["layoutopt"].get(c) or by_class["onnxruntime"].get(c)]
    bar, left, width, top = 12, 150, 420, 50
    largest = max(max(by_class[s].get(c, 0.0) for s in SIDES) for c in classes)
    height = top + len(classes) * (2 * bar + 10) + 30
    out = []
    for i, side in enumerate(SIDES):
        out.append(f'<rect x="{left + i * 140}" y="30" width="10" height="10" fill="{COLORS[side]}"/>'
                   f'<text x="{left + i * 140 + 14}" y="39">{labels[side]}</text>')
    for row, name in enumerate(classes):
        y = top + row * (2 * bar + 10)
        out.append(f'<text x="{left - 8}" y="{y + bar + 4}" text-anchor="end">{html.escape(name)}</text>')
        for i, side in enumerate(SIDES):
            value = by_class[side].get(name, 0.0)
            length = width * value / largest
            out.append(f'<rect x="{left}" y="{y + i * bar}" width="{length:.1f}" height="{bar - 2}" fill="{COLORS[side]}"/>'
                       f'<text x="{left + length + 4:.1f}" y="{y + i * bar + bar - 3}" font-size="10">{value:.2f}</text>')
    out.append(f'<text x="{left}" y="{height - 8}">ms per inference in profiled runs, median over the rounds</text>')
    write_svg_document(path, left + width + 90, height, title, out)


def main():
    args = parse_args()
    os.makedirs(args.out, exist_ok=True)
    kept = [name for name in OUTPUTS if os.path.exists(os.path.join(args.out, name))]
    if kept and not args.force:
        fail(f"{args.out} holds {', '.join(kept)} already; pass --force to overwrite, or another --out")
    if not os.path.isfile(args.layoutopt):
        fail(f"no layoutopt binary at {args.layoutopt}; build it (bash scripts/build.sh) or pass --layoutopt")
    args.nodes = ModelNodes(args.model)
    with open(os.path.join(args.out, "rounds.jsonl"), "w") as log:
        profiles = time_rounds(args, log)
    model = os.path.splitext(os.path.basename(args.model))[0]
    table, by_class = report(args, model, profiles)
    with open(os.path.join(args.out, "layers.md"), "w") as f:
        f.write(table)
    write_svg(os.path.join(args.out, "layers.svg"), by_class,
              f"{model}: time per operator class, layoutopt and ONNX Runtime, {args.threads} threads")
    print()
    print(table, end="")
    print(f"\nwrote {', '.join(os.path.join(args.out, name) for name in OUTPUTS)}")


if __name__ == "__main__":
    main()
