"""The MODEL argument: every subcommand that takes one refuses a missing, damaged or unknown
model with a message naming it, and writes nothing."""

from cli_runner import CliTestCase
from inputs import TINY_INPUT_SHAPE, TINY_ONNX, random_bytes, truncated_copy, write_npy

# Each model-taking subcommand with the flags it needs to get as far as loading the model
# (a budget, an output path, an input tensor), and the file it would write.
COMMANDS = {
    "info": ([], None),
    "export": (["-o", "out.json"], "out.json"),
    "dot": (["-o", "out.dot"], "out.dot"),
    "tune": (["--records", "records.jsonl", "--trials", "1", "--threads", "1"], "records.jsonl"),
    "bench-transforms": (["-o", "table.json", "--threads", "1"], "table.json"),
    "plan": (["--model-costs", "-o", "plan.json"], "plan.json"),
    "run": (["--input", "input.npy", "-o", "output.npy", "--threads", "1"], "output.npy"),
    "bench": (["--threads", "1", "--min-seconds", "0.01"], None),
    "optimize": (["--threads", "1", "-o", "plan.json"], "plan.json"),
    "compare": (["-o", "report"], "report"),
}


class BadModels(CliTestCase):
    def bad_models(self):
        """(MODEL argument, words the error must contain)"""
        self.path("graph.json").write_text('{"format": "layoutopt-graph", "nodes": [\n')
        self.path("list.json").write_text("[1, 2, 3]\n")
        self.path("folder.onnx").mkdir()
        self.path("folder.json").mkdir()
        return [
            ("missing.onnx", ["missing.onnx"]),
            ("resnet-51", ["unknown model 'resnet-51'"]),
            (truncated_copy(TINY_ONNX, self.path("truncated.onnx")).name, ["'truncated.onnx' is not an ONNX model"]),
            (random_bytes(self.path("random.onnx")).name, ["'random.onnx' is not an ONNX model"]),
            ("graph.json", ["'graph.json' is not valid JSON"]),
            ("list.json", ["'list.json'", "not a layoutopt graph"]),
            ("notes.txt", ["unknown model 'notes.txt'"]),
            ("folder.onnx", ["'folder.onnx' is a folder"]),
            ("folder.json", ["'folder.json' is a folder"]),
        ]

    def test_every_model_command_refuses_bad_models_and_writes_nothing(self):
        write_npy(self.path("input.npy"), TINY_INPUT_SHAPE)
        self.path("notes.txt").write_text("not a model\n")
        models = self.bad_models()
        cases = [(command, model, needles) for command in COMMANDS for model, needles in models]
        outcomes = self.run_all([[command, model, *COMMANDS[command][0]] for command, model, _ in cases])
        for (command, model, needles), outcome in zip(cases, outcomes):
            with self.subTest(command=command, model=model):
                # compare reads a .json that is not a graph as a solver instance, with its own words.
                if command == "compare" and model.endswith(".json"):
                    needles = [model]
                self.assert_failed(outcome, "layoutopt: error:", *needles)
                written = COMMANDS[command][1]
                if written:
                    self.assertFalse(self.path(written).exists(), f"{command} wrote {written} for a bad model")
        self.assertFalse(self.path("out").exists(), "optimize made its out/ folder for a bad model")

    def test_a_batch_of_zero_is_refused(self):
        self.expect_failure("info", TINY_ONNX, "--batch", "0", needles=["--batch", "0 is not a positive number"])


class GoodModels(CliTestCase):
    def test_zoo_lists_the_built_in_networks(self):
        self.expect_success("zoo", stdout=["resnet-18", "mobilenet-v2", "inception-v3"])

    def test_info_describes_a_zoo_network(self):
        outcome = self.expect_success("info", "resnet-18", "--threads", "1",
                                      stdout=["model       resnet-18", "input", "[1, 3, 224, 224]", "conv2d"])
        self.assertIn("tuning tasks", outcome.stdout)

    def test_export_round_trips_through_info(self):
        self.expect_success("export", TINY_ONNX, "-o", "tiny.json", stdout=["wrote tiny.json"])
        self.expect_success("info", "tiny.json", "--threads", "1", stdout=["layoutopt JSON", "[1, 3, 16, 16]"])

    def test_every_subcommand_has_help(self):
        commands = ["zoo", "cpu", "solve", "gen-instance", *COMMANDS]
        for command, outcome in zip(commands, self.run_all([[command, "--help"] for command in commands])):
            with self.subTest(command=command):
                self.assert_no_crash(outcome)
                self.assertEqual(outcome.returncode, 0, outcome.describe())
                self.assertIn("Usage", outcome.stdout)
