"""An engine's reader asked in a process of its own (engines/reader_process.py): its last
JSON line is the answer; a process that stops or hangs is one sentence naming the
reader, never an error of the audit."""

import json

from dynval.engines.reader_process import ask


def test_the_answer_is_the_last_json_line(tmp_path):
    f = tmp_path / "a.json"
    f.write_text(json.dumps({"upper": 1.0}))
    assert ask("json.tool", ["--compact", str(f)], "A reader", 60) == ({"upper": 1.0}, None)


def test_a_reader_that_stops_its_process_is_said_to():
    assert ask("json.tool", ["/no/such/file"], "A reader", 60) == (
        None, "A reader stops the process reading it (exit status 2)")


def test_a_reader_that_hangs_is_said_to():
    assert ask("timeit", ["-n", "1", "import time; time.sleep(5)"], "A reader", 1) == (
        None, "A reader did not finish reading it in 1 s")
