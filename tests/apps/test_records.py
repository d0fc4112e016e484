"""Measurement files the user built up: tuning record logs and transform tables. Damaged
lines are skipped with a warning naming them and kept in the file; a file that is not a log
or a table (a plan, a model, a damaged table) is refused and left exactly as it was."""

import shutil

from cli_runner import CliTestCase, digest
from inputs import TINY_ONNX, random_bytes, write_json

MODEL = str(TINY_ONNX)
# The smallest tuning run: one trial of the first task.
ONE_TRIAL = ["--trials", "1", "--task", "1", "--threads", "1", "--quiet", "--min-repeat-ms", "1"]


class RecordLogs(CliTestCase):
    def test_tune_skips_a_damaged_line_with_a_warning_and_keeps_it(self):
        damaged = '{"input": ["llvm", "conv2d_NCHWc.x86", [["TENSOR", [1, 3'  # a line torn mid-record
        self.path("records.jsonl").write_text("# my notes\n" + damaged + "\n")
        outcome = self.expect_success("tune", MODEL, "--records", "records.jsonl", *ONE_TRIAL)
        self.assertIn("skipped 1 unreadable line in records.jsonl", outcome.stderr)
        self.assertIn("line 2: not valid JSON", outcome.stderr)
        lines = self.path("records.jsonl").read_text().splitlines()
        self.assertEqual(lines[:2], ["# my notes", damaged], "the user's lines were rewritten")
        self.assertEqual(len(lines), 3, "one trial appends one record")
        self.assertTrue(lines[2].startswith('{"input"'))

    def test_tune_appends_after_a_torn_last_line_without_gluing_onto_it(self):
        self.path("records.jsonl").write_text('{"input": ["llvm", "conv2d')  # killed mid-write: no newline
        self.expect_success("tune", MODEL, "--records", "records.jsonl", *ONE_TRIAL)
        lines = self.path("records.jsonl").read_text().splitlines()
        self.assertEqual(lines[0], '{"input": ["llvm", "conv2d')
        self.assertEqual(len(lines), 2)
        self.assertTrue(lines[1].startswith('{"input"'))

    def test_tune_refuses_to_append_to_a_file_that_is_not_a_record_log(self):
        self.expect_success("plan", MODEL, "--model-costs", "-o", "plan.json")
        shutil.copy(TINY_ONNX, self.path("model.onnx"))
        random_bytes(self.path("random.jsonl"))
        for name in ("plan.json", "model.onnx", "random.jsonl"):
            with self.subTest(records=name):
                before = digest(self.path(name))
                self.expect_failure("tune", MODEL, "--records", name, *ONE_TRIAL,
                                    needles=[f"'{name}' is not a tuning record log", "not appended"])
                self.assert_unchanged(self.path(name), before)

    def test_tune_names_a_records_path_it_cannot_write(self):
        self.path("folder.jsonl").mkdir()
        self.expect_failure("tune", MODEL, "--records", "folder.jsonl", *ONE_TRIAL,
                            needles=["'folder.jsonl'"])
        self.expect_failure("tune", MODEL, "--records", "no/such/folder/r.jsonl", *ONE_TRIAL,
                            needles=["no/such/folder/r.jsonl"])

    def test_plan_warns_about_damaged_records_and_leaves_them_as_they_are(self):
        self.path("records.jsonl").write_text("{not a record\n")
        before = digest(self.path("records.jsonl"))
        self.expect_failure("plan", MODEL, "--records", "records.jsonl", "--transforms", "missing.json",
                            "--threads", "1", "-o", "plan.json",
                            needles=["skipped 1 unreadable line in records.jsonl", "line 1",
                                     "transforms file 'missing.json' does not exist"])
        self.assert_unchanged(self.path("records.jsonl"), before)
        self.assertFalse(self.path("plan.json").exists())

    def test_plan_names_a_missing_records_file(self):
        self.expect_failure("plan", MODEL, "--records", "missing.jsonl", "--transforms", "t.json", "-o", "p.json",
                            needles=["records file 'missing.jsonl' does not exist", "layoutopt tune"])


class TransformTables(CliTestCase):
    def test_bench_transforms_refuses_a_file_that_is_not_a_table_and_leaves_it(self):
        self.path("records.jsonl").write_text('{"input": ["llvm"]}\n')
        write_json(self.path("entries.json"), {"format": "layoutopt-transform-table", "entries": 5})
        self.path("truncated.json").write_text('{"format": "layoutopt-transform-table", "entries": [\n')
        files = {"records.jsonl": [], "entries.json": ["not a transform table"],
                 "truncated.json": ["line 2"]}
        before = {name: digest(self.path(name)) for name in files}
        outcomes = self.run_all([["bench-transforms", MODEL, "-o", name, "--threads", "1"] for name in files])
        for (name, needles), outcome in zip(files.items(), outcomes):
            with self.subTest(table=name):
                self.assert_failed(outcome, f"transform table '{name}'", "left untouched", *needles)
                self.assert_unchanged(self.path(name), before[name])

    def test_plan_refuses_a_damaged_table(self):
        self.path("records.jsonl").write_text("")
        write_json(self.path("table.json"), {"format": "layoutopt-transform-table", "entries": 5})
        self.expect_failure("plan", MODEL, "--records", "records.jsonl", "--transforms", "table.json",
                            "--threads", "1", "-o", "plan.json", needles=["transform table 'table.json'"])
