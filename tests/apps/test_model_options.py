"""--batch and --seed say when they do not apply: a batch other than the one a file fixes
is refused, naming the option and the file's batch; an option without effect (a seed for a
file whose weights it holds, a JSON graph's own batch) is accepted with a warning on stderr."""

from cli_runner import CliTestCase, SOURCE_DIR
from inputs import TINY_ONNX

DYNAMIC_ONNX = SOURCE_DIR / "data" / "onnx" / "ops" / "dynamic_batch-opset14.onnx"


class ModelOptions(CliTestCase):
    def export_json(self):
        self.expect_success("export", TINY_ONNX, "-o", "tiny.json")
        return self.path("tiny.json")

    def test_a_batch_a_file_fixes_otherwise_is_refused(self):
        self.expect_failure("info", TINY_ONNX, "--batch", "4",
                            needles=["--batch 4", "tiny-convnet.onnx", "fixes its batch at 1"])
        self.expect_failure("info", self.export_json(), "--batch", "2", needles=["--batch 2", "fixes its batch at 1"])

    def test_the_file_s_own_batch_is_accepted_with_a_warning(self):
        for model in (TINY_ONNX, self.export_json()):
            with self.subTest(model=model):
                outcome = self.expect_success("info", model, "--batch", "1")
                self.assertIn("warning: --batch 1 has no effect", outcome.stderr)

    def test_a_seed_for_weights_in_the_file_warns(self):
        outcome = self.expect_success("info", TINY_ONNX, "--seed", "5")
        self.assertIn("warning: --seed 5 has no effect", outcome.stderr)
        self.assertIn("weights are all in the file", outcome.stderr)
        outcome = self.expect_success("info", self.export_json(), "--seed", "5")
        self.assertIn("warning: --seed 5 has no effect", outcome.stderr)

    def test_options_that_apply_stay_silent(self):
        for args in (["resnet-18", "--batch", "2", "--seed", "3"], [DYNAMIC_ONNX, "--batch", "3"], [TINY_ONNX]):
            with self.subTest(args=args):
                outcome = self.expect_success("info", *args)
                self.assertNotIn("warning", outcome.stderr)
