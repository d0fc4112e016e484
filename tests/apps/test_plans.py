"""Plan files: every way a plan can be wrong (unreadable, damaged, from a newer layoutopt,
made for another graph, naming nodes or values the graph lacks) is refused by `bench`, `run`
and `dot` with a message that names the problem, before anything is compiled or written."""

import copy
import json
import shutil
import tempfile
import unittest
from pathlib import Path

import cli_runner
from cli_runner import CliTestCase, run_binary
from inputs import OTHER_ONNX, TINY_INPUT_SHAPE, TINY_ONNX, random_bytes, truncated_copy, write_json, write_npy


def node_names(plan):
    return [node["name"] for node in plan["nodes"]]


def set_field(path, value):
    """A change that sets plan[path[0]][path[1]]... to value."""
    def change(plan):
        target = plan
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def add_transform(value, to="NCHW8c"):
    return lambda plan: plan["transforms"].append({"value": value, "from": "NCHW", "to": to, "ms": 0.1})


def swap_first_nodes(plan):
    plan["nodes"][0], plan["nodes"][1] = plan["nodes"][1], plan["nodes"][0]


def repeat_first_node(plan):
    plan["nodes"][1] = copy.deepcopy(plan["nodes"][0])


def add_ghost_node(plan):
    plan["nodes"].append(dict(copy.deepcopy(plan["nodes"][-1]), name="ghost"))


def cases(plan):
    """(name, change to the plan document, words the error must contain)"""
    first, second, last = plan["nodes"][0]["name"], plan["nodes"][1]["name"], plan["nodes"][-1]["name"]
    return [
        ("future version", set_field(["version"], 2), ["plan version 2 was written by a newer layoutopt"]),
        ("version as text", set_field(["version"], "1"), ['"version" is "1", not a whole number']),
        ("another format", set_field(["format"], "layoutopt-graph"), ["not a plan"]),
        ("node time as text", set_field(["nodes", 0, "ms"], "fast"), [f"\"ms\" of node 1 ('{first}') is \"fast\""]),
        ("node name as number", set_field(["nodes", 1, "name"], 7), ['"name" of node 2 is 7, not a string']),
        ("nodes not a list", set_field(["nodes"], {}), ['"nodes" is {}, not a list']),
        ("no solver", lambda p: p.pop("solver"), ['has no "solver"']),
        ("unknown solver", set_field(["solver"], "greedy"), ["unknown solver 'greedy'"]),
        ("damaged payload", set_field(["nodes", 0, "payload"], "{not json"), [f"node '{first}': unreadable payload"]),
        ("op mismatch", set_field(["nodes", 0, "op"], "relu"), [f"node '{first}' is conv2d in this graph but relu"]),
        ("workload mismatch", set_field(["nodes", 0, "workload"], "conv2d x[1,3,8,8]"), [f"node '{first}' changed"]),
        ("node missing", lambda p: p["nodes"].pop(), ["with 7 nodes", "has 8", f"lacks node '{last}'"]),
        ("node extra", add_ghost_node, ["with 9 nodes", "names node 'ghost'"]),
        ("node renamed", set_field(["nodes", 1, "name"], "ghost"), ["names node 'ghost'", "does not have"]),
        ("node twice", repeat_first_node, [f"lists node '{first}' twice", f"lacks node '{second}'"]),
        ("nodes out of order", swap_first_nodes, [f"node 1 of the plan is '{second}'", "graph order"]),
        ("input layouts missing", set_field(["nodes", 0, "inputs"], []), ["lists 0 input layouts", "reads 1"]),
        ("other wiring", set_field(["graph"], "0123456789abcdef"), ["other wiring or shapes"]),
        ("transform of no value", add_transform("ghost_tensor"), ["no value 'ghost_tensor'"]),
        ("transform of a weight", add_transform("conv2.weight"), ["'conv2.weight' is a parameter"]),
        ("transform to no layout", add_transform("input.1", "NCHW17q"), ["transform of 'input.1'", "NCHW17q"]),
        ("node layout unreadable", set_field(["nodes", 1, "output"], "NCHW16"), [f"node '{second}'"]),
    ]


class PlanFiles(CliTestCase):
    @classmethod
    def setUpClass(cls):
        """One plan of the tiny model (modelled costs: made in well under a second)."""
        cls._plans = tempfile.TemporaryDirectory(prefix="layoutopt-cli-plans-")
        cls.plan_path = Path(cls._plans.name) / "plan.json"
        if cli_runner.BINARY:
            run_binary(["plan", TINY_ONNX, "--model-costs", "-o", cls.plan_path], cwd=Path(cls._plans.name))

    @classmethod
    def tearDownClass(cls):
        cls._plans.cleanup()

    def setUp(self):
        super().setUp()
        self.assertTrue(self.plan_path.exists(), "`plan --model-costs` wrote no plan")
        self.plan = json.loads(self.plan_path.read_text())

    def bench(self, plan_file):
        return ["bench", TINY_ONNX, "--plan", plan_file, "--threads", "1", "--min-seconds", "0.01"]

    def test_the_tiny_plan_is_as_the_cases_expect(self):
        # The cases' messages count 8 nodes and a first conv reading one input, 'input.1'.
        self.assertEqual(len(self.plan["nodes"]), 8)
        self.assertEqual(self.plan["nodes"][0]["op"], "conv2d")
        self.assertEqual(len(self.plan["nodes"][0]["inputs"]), 1)
        self.assertTrue(self.plan["graph"])

    def test_every_wrong_plan_is_refused_naming_the_problem(self):
        wrong = cases(self.plan)
        for number, (_, change, _) in enumerate(wrong):
            document = copy.deepcopy(self.plan)
            change(document)
            write_json(self.path(f"plan{number}.json"), document)
        outcomes = self.run_all([self.bench(f"plan{number}.json") for number in range(len(wrong))])
        for (name, _, needles), outcome in zip(wrong, outcomes):
            with self.subTest(case=name):
                self.assert_failed(outcome, "layoutopt: error:", *needles)

    def test_unreadable_plan_files_are_refused_naming_the_file(self):
        files = [
            ("missing.json", ["plan 'missing.json' does not exist"]),
            (truncated_copy(self.plan_path, self.path("truncated.json")).name,
             ["plan 'truncated.json' is not valid JSON", "truncated"]),
            (random_bytes(self.path("random.json")).name, ["plan 'random.json' is not valid JSON"]),
            ("empty.json", ["plan 'empty.json' is not valid JSON"]),
            ("folder", ["plan 'folder' is a folder"]),
        ]
        self.path("empty.json").write_text("")
        self.path("folder").mkdir()
        for (name, needles), outcome in zip(files, self.run_all([self.bench(name) for name, _ in files])):
            with self.subTest(file=name):
                self.assert_failed(outcome, "layoutopt: error:", *needles)

    def test_run_and_dot_refuse_a_plan_for_another_model(self):
        write_npy(self.path("input.npy"), TINY_INPUT_SHAPE)
        shutil.copy(self.plan_path, self.path("plan.json"))
        needles = ["the plan was made for 'tiny-convnet'", "make a new plan"]
        self.expect_failure("run", OTHER_ONNX, "--plan", "plan.json", "--input", "input.npy", "-o", "out.npy",
                            needles=needles)
        self.expect_failure("dot", OTHER_ONNX, "--plan", "plan.json", "-o", "plan.dot", needles=needles)
        self.expect_failure("bench", "resnet-18", "--plan", "plan.json", needles=needles)
        self.assertFalse(self.path("out.npy").exists())
        self.assertFalse(self.path("plan.dot").exists())

    def test_a_modelled_plan_is_drawn_but_not_compiled(self):
        shutil.copy(self.plan_path, self.path("plan.json"))
        self.expect_success("dot", TINY_ONNX, "--plan", "plan.json", "-o", "plan.dot", stdout=["wrote plan.dot"])
        self.assertIn("digraph", self.path("plan.dot").read_text())
        self.expect_failure(*self.bench("plan.json"), needles=["names no tuned kernel config", "--model-costs"])


class ProfiledPlan(CliTestCase):
    def test_a_measured_plan_profile_checks_its_step_types_against_their_prices(self):
        # A measured plan of the tiny model: two trials per task, its transforms, no confirmation.
        for task in range(1, 6):
            self.expect_success("tune", TINY_ONNX, "--records", "r.jsonl", "--task", str(task), "--trials", "2",
                                "--threads", "1", "--quiet")
        self.expect_success("bench-transforms", TINY_ONNX, "--records", "r.jsonl", "-o", "t.json", "--threads", "1",
                            "--quiet", "--min-repeat-ms", "1")
        self.expect_success("plan", TINY_ONNX, "--records", "r.jsonl", "--transforms", "t.json", "--threads", "1",
                            "--confirm", "0", "--calibrate-rounds", "0", "-o", "p.json")
        bench = ["bench", TINY_ONNX, "--threads", "1", "--min-seconds", "0.01", "--profile", "--json"]
        check = json.loads(self.expect_success(*bench, "--plan", "p.json").stdout)["profile"]["prediction_check"]
        self.assertEqual(set(check), {"run_ratio", "prices_hold", "host_moved", "misses", "verdict"})
        self.assertGreater(check["run_ratio"], 0)
        # Exactly one reading: the prices hold, the whole run moved, or some step types miss.
        self.assertTrue(check["prices_hold"] or check["host_moved"] or check["misses"], check)
        self.assertTrue(check["verdict"].startswith(("every step type", "step types off their price")), check)
        # The text form prints the check too; a second run is timed afresh, so its verdict may
        # read otherwise than the first's (the sanitized build is slow and noisy).
        text = self.expect_success(*bench[:-1], "--plan", "p.json").stdout
        self.assertRegex(text, r"\n  prices: (every step type|step types off their price)")
        self.assertIn("measured ms  of floor", text)
        # The default schedule has no prices to check, but its operators stand beside their floors.
        default = json.loads(self.expect_success(*bench).stdout)
        self.assertNotIn("prediction_check", default["profile"])
        types = default["roofline"]["types"]
        self.assertTrue(types)
        for row in types:
            self.assertGreater(row["measured_ms"], 0, row)
            self.assertAlmostEqual(row["fraction"], row["floor_ms"] / row["measured_ms"], places=6)
        # Eight steps that lose most to their floors unless asked for another count.
        floored = sum(row["steps"] for row in types)
        self.assertEqual(len(default["roofline"]["largest_losses"]), min(8, floored))
        one = json.loads(self.expect_success(*bench, "--losses", "1").stdout)["roofline"]["largest_losses"]
        self.assertEqual(len(one), 1)
        self.expect_failure(*bench, "--losses", "0", needles=["--losses"])
        without_profile = [arg for arg in bench if arg != "--profile"]
        self.expect_failure(*without_profile, "--losses", "3", needles=["--losses", "--profile"])


if __name__ == "__main__":
    unittest.main()
