"""`solve`, `gen-instance` and `compare` on instance files: missing, damaged or wrong files
are refused naming them; a generated instance solves."""

import json

from cli_runner import CliTestCase
from inputs import TINY_ONNX, random_bytes, write_json


class InstanceFiles(CliTestCase):
    def test_bad_instance_files_are_refused_naming_the_file(self):
        self.path("truncated.json").write_text('{"nodes": [\n')
        write_json(self.path("list.json"), [1, 2, 3])
        write_json(self.path("no_costs.json"), {"nodes": [{"name": "a"}], "edges": []})
        random_bytes(self.path("random.json"))
        files = {
            "missing.json": ["missing.json"],
            "truncated.json": ["truncated.json", "malformed JSON"],
            "list.json": ["list.json"],
            "no_costs.json": ["no_costs.json", "costs"],
            "random.json": ["random.json"],
        }
        outcomes = self.run_all([["solve", name, "--solver", "dp"] for name in files])
        for (name, needles), outcome in zip(files.items(), outcomes):
            with self.subTest(instance=name):
                self.assert_failed(outcome, *needles)

    def test_a_model_file_is_not_an_instance(self):
        self.expect_success("export", TINY_ONNX, "-o", "graph.json")
        self.expect_failure("solve", "graph.json", needles=["graph.json"])

    def test_a_generated_instance_solves_optimally(self):
        self.expect_success("gen-instance", "--structure", "residual", "--nodes", "20", "--seed", "3",
                            "-o", "instance.json", stdout=["wrote instance.json: 20 nodes"])
        outcome = self.expect_success("solve", "instance.json", "--solver", "dp", "--json")
        answer = json.loads(outcome.stdout)
        self.assertTrue(answer["optimal"])
        self.assertEqual(len(answer["assignment"]), 20)

    def test_compare_names_a_bad_instance(self):
        self.path("broken.json").write_text('{"nodes": [\n')
        self.expect_failure("compare", "broken.json", "--solvers", "dp", "-o", "report",
                            needles=["broken.json"])
        self.assertFalse((self.path("report") / "report.html").exists())
