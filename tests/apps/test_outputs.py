"""Output paths: no command replaces a file the user made unless told to (--force), and a
refused command leaves that file byte for byte as it was."""

from cli_runner import CliTestCase, digest
from inputs import TINY_INPUT_SHAPE, TINY_ONNX, write_npy

MODEL = str(TINY_ONNX)

# Commands whose -o names one file, with the flags they need; refused before any work.
WRITERS = {
    "export": ["export", MODEL],
    "dot": ["dot", MODEL],
    "gen-instance": ["gen-instance", "--nodes", "5"],
    "plan": ["plan", MODEL, "--model-costs"],
    "run": ["run", MODEL, "--input", "input.npy", "--threads", "1"],
    # The smallest budget, should a check be lost: the test then fails, but soon.
    "optimize": ["optimize", MODEL, "--threads", "1", "--time-budget", "1", "--calibrate-rounds", "0"],
}


class Overwrites(CliTestCase):
    def test_an_existing_output_is_refused_without_force_and_kept(self):
        write_npy(self.path("input.npy"), TINY_INPUT_SHAPE)
        for name in WRITERS:
            self.path(f"{name}.out").write_text(f"the user's {name} file\n")
        outcomes = self.run_all([[*args, "-o", f"{name}.out"] for name, args in WRITERS.items()])
        for name, outcome in zip(WRITERS, outcomes):
            with self.subTest(command=name):
                self.assert_failed(outcome, f"'{name}.out' exists", "--force")
                self.assertEqual(self.path(f"{name}.out").read_text(), f"the user's {name} file\n")
        self.assertFalse(self.path("out").exists(), "optimize made out/ before refusing")

    def test_force_replaces_the_output(self):
        self.path("tiny.json").write_text("old\n")
        self.expect_success("export", MODEL, "-o", "tiny.json", "--force", stdout=["wrote tiny.json"])
        self.assertIn("layoutopt-graph", self.path("tiny.json").read_text())

    def test_an_output_in_a_missing_folder_is_named(self):
        outcomes = self.run_all([[*WRITERS[name], "-o", "missing/out.file"] for name in ("export", "dot", "plan")])
        for outcome in outcomes:
            self.assert_failed(outcome, "folder 'missing' does not exist")

    def test_an_output_that_is_a_folder_is_refused_even_with_force(self):
        write_npy(self.path("input.npy"), TINY_INPUT_SHAPE)
        self.path("folder.out").mkdir()
        outcomes = self.run_all([[*WRITERS[name], "-o", "folder.out", "--force"] for name in WRITERS])
        for name, outcome in zip(WRITERS, outcomes):
            with self.subTest(command=name):
                self.assert_failed(outcome, "'folder.out' is a folder")

    def test_optimize_refuses_an_existing_summary_before_any_work(self):
        self.path("summary.json").write_text('{"mine": true}\n')
        before = digest(self.path("summary.json"))
        self.expect_failure(*WRITERS["optimize"], "--json-summary", "summary.json",
                            needles=["'summary.json' exists", "--force"])
        self.assert_unchanged(self.path("summary.json"), before)
        self.assertFalse(self.path("out").exists(), "optimize started before refusing")

    def test_optimize_refuses_an_existing_default_plan(self):
        (self.dir / "out" / "tiny-convnet").mkdir(parents=True)
        plan = self.path("out/tiny-convnet/plan.json")
        plan.write_text("{}\n")
        self.expect_failure(*WRITERS["optimize"], needles=["out/tiny-convnet/plan.json' exists"])
        self.assertEqual(plan.read_text(), "{}\n")
        self.assertFalse(self.path("out/tiny-convnet/tune.jsonl").exists(), "optimize tuned before refusing")

    def test_compare_refuses_a_folder_holding_a_report(self):
        for kept in ("report.html", "comparison.csv"):
            with self.subTest(file=kept):
                folder = self.path(f"report-{kept}")
                folder.mkdir()
                (folder / kept).write_text("the user's report\n")
                self.expect_failure("compare", "tiny.json", "-o", folder.name,
                                    needles=[f"{kept}' exists", "--force"])
                self.assertEqual((folder / kept).read_text(), "the user's report\n")
