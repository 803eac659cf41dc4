"""Process jobs (`service.procs`): start, exit codes, cancel, queue, reload after a restart, bad ids."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from service.proc_record import ProcJob, alive, clean_log, new_id, now, proc_state
from service.procs import ProcessJobs, ProcJobError

SLEEP = ["-c", "import time; print('sleeping', flush=True); time.sleep(60)"]


def wait_for(check: Callable[[], bool], timeout: float = 15.0) -> None:
    """Poll `check` until true or fail after `timeout` seconds."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.05)


@pytest.fixture
def make(tmp_path: Path) -> Iterator[Callable[..., ProcessJobs]]:
    """ProcessJobs over `tmp_path/jobs` with `python` as the base command (argv is python's); all closed after."""
    made: list[ProcessJobs] = []

    def factory(max_running: int = 2) -> ProcessJobs:
        jobs = ProcessJobs(tmp_path / "jobs", command=[sys.executable], max_running=max_running, poll_s=0.05)
        made.append(jobs)
        return jobs

    yield factory
    for jobs in made:
        jobs.close()


def test_a_job_runs_and_its_record_and_log_are_on_disk(make: Callable[..., ProcessJobs], tmp_path: Path) -> None:
    jobs = make()
    job = jobs.start("generate", ["-c", "print('hello from the job')"], out_dir=tmp_path / "o", title="t")
    assert job.status in ("running", "done") and job.pid is not None
    wait_for(lambda: jobs.get(job.id).done)
    got = jobs.get(job.id)
    assert (got.status, got.returncode, got.note) == ("done", 0, None)
    assert got.started is not None and got.finished is not None and got.out_dir == str(tmp_path / "o")
    folder = tmp_path / "jobs" / "generate" / job.id
    assert ProcJob.model_validate_json((folder / "job.json").read_text()) == got
    tail = jobs.log_tail(job.id)
    assert tail.startswith("$ drowzee -c ") and "hello from the job" in tail
    assert jobs.log_tail(job.id, n_bytes=25) == "hello from the job\n"  # the partial first line is dropped
    assert [j.id for j in jobs.list("generate")] == [job.id] and jobs.list("train") == []


def test_a_failing_job_is_failed_with_its_exit_status(make: Callable[..., ProcessJobs]) -> None:
    jobs = make()
    job = jobs.start("train", ["-c", "import sys; print('boom', file=sys.stderr); sys.exit(3)"])
    wait_for(lambda: jobs.get(job.id).done)
    got = jobs.get(job.id)
    assert (got.status, got.returncode) == ("failed", 3)
    assert "exit status 3" in (got.note or "")
    assert "boom" in jobs.log_tail(job.id)  # stderr goes to the same log


def test_cancel_stops_the_process_group(make: Callable[..., ProcessJobs]) -> None:
    jobs = make()
    job = jobs.start("benchmark", SLEEP)
    wait_for(lambda: "sleeping" in jobs.log_tail(job.id))
    pid = jobs.get(job.id).pid
    assert pid is not None
    jobs.cancel(job.id)
    wait_for(lambda: jobs.get(job.id).done)
    got = jobs.get(job.id)
    assert got.status == "cancelled" and got.returncode is not None and got.returncode < 0
    assert not alive(pid, None)
    assert jobs.cancel(job.id).status == "cancelled"  # cancelling a finished job changes nothing


def test_jobs_beyond_max_running_wait_and_can_be_cancelled_queued(make: Callable[..., ProcessJobs]) -> None:
    jobs = make(max_running=1)
    first = jobs.start("train", SLEEP)
    second = jobs.start("eval", ["-c", "pass"])
    third = jobs.start("eval", ["-c", "pass"])
    assert jobs.get(first.id).status == "running" and jobs.get(second.id).status == "queued"
    assert jobs.cancel(third.id).status == "cancelled" and jobs.get(third.id).pid is None
    jobs.cancel(first.id)
    wait_for(lambda: jobs.get(second.id).status == "done")  # the slot freed starts the next one
    assert [j.id for j in jobs.list(["train", "eval"])] == [third.id, second.id, first.id]


def _record(root: Path, kind: str, **fields: object) -> ProcJob:
    job_id = new_id()
    folder = root / kind / job_id
    folder.mkdir(parents=True)
    job = ProcJob(id=job_id, kind=kind, argv=["x"], created=now(), log=str(folder / "log.txt"), **fields)  # type: ignore[arg-type]
    (folder / "job.json").write_text(job.model_dump_json())
    return job


def test_after_a_restart_records_are_read_back_honestly(make: Callable[..., ProcessJobs], tmp_path: Path) -> None:
    jobs = make()
    done = jobs.start("generate", ["-c", "pass"])
    wait_for(lambda: jobs.get(done.id).done)
    jobs.close()
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    root = tmp_path / "jobs"
    dead = _record(root, "benchmark", status="running", pid=gone.pid, started=now())
    queued = _record(root, "train")
    (root / "train" / new_id()).mkdir()  # a folder without a record is ignored
    bad = root / "eval" / new_id()
    bad.mkdir(parents=True)
    (bad / "job.json").write_text("{not json")  # an unreadable record is skipped

    again = make()
    assert again.get(done.id) == jobs.get(done.id)
    got = again.get(dead.id)
    assert got.status == "failed" and got.returncode is None and "restarted" in (got.note or "")
    assert again.get(queued.id).status == "failed"
    assert json.loads((root / "benchmark" / dead.id / "job.json").read_text())["status"] == "failed"
    assert len(again.list()) == 3


def test_a_job_that_outlived_the_server_is_watched_and_can_be_cancelled(
    make: Callable[..., ProcessJobs], tmp_path: Path
) -> None:
    orphan = subprocess.Popen([sys.executable, *SLEEP], start_new_session=True, stdout=subprocess.DEVNULL)
    try:
        state = proc_state(orphan.pid)
        assert state is not None
        job = _record(tmp_path / "jobs", "train", status="running", pid=orphan.pid, pid_created=state[1])
        jobs = make()
        assert jobs.get(job.id).status == "running"
        jobs.cancel(job.id)
        orphan.wait(timeout=10)  # the test is its parent: reap it so that it is gone
        wait_for(lambda: jobs.get(job.id).done)
        assert jobs.get(job.id).status == "cancelled"
    finally:
        if orphan.poll() is None:
            orphan.kill()


def test_a_recorded_pid_reused_by_another_process_is_not_ours(tmp_path: Path) -> None:
    state = proc_state(os.getpid())
    assert state is not None
    assert alive(os.getpid(), state[1]) and not alive(os.getpid(), state[1] + 1)


def test_close_stops_running_jobs(make: Callable[..., ProcessJobs]) -> None:
    jobs = make()
    job = jobs.start("train", SLEEP)
    queued = [jobs.start("eval", SLEEP) for _ in range(2)][-1]
    wait_for(lambda: "sleeping" in jobs.log_tail(job.id))
    pid = jobs.get(job.id).pid
    jobs.close()
    assert jobs.get(job.id).status == "cancelled" and pid is not None and not alive(pid, None)
    assert jobs.get(queued.id).status == "cancelled" and "before it started" in (jobs.get(queued.id).note or "")


@pytest.mark.parametrize("job_id", ["../../etc", "20250101-000000-zzzzzz", "", "20250101-000000-abcdef/.."])
def test_malformed_ids_are_refused(make: Callable[..., ProcessJobs], job_id: str) -> None:
    jobs = make()
    for call in (jobs.get, jobs.cancel, jobs.log_tail):
        with pytest.raises(ProcJobError, match="malformed job id"):
            call(job_id)
    with pytest.raises(ProcJobError):
        jobs.job_dir("benchmark", job_id)


def test_unknown_ids_kinds_and_reused_ids_are_refused(make: Callable[..., ProcessJobs]) -> None:
    jobs = make()
    with pytest.raises(ProcJobError, match="no job"):
        jobs.get(new_id())
    with pytest.raises(ProcJobError, match="unknown job kind"):
        jobs.start("../x", ["-c", "pass"])
    job = jobs.start("eval", ["-c", "pass"])
    with pytest.raises(ProcJobError, match="exists already"):
        jobs.start("eval", ["-c", "pass"], job_id=job.id)


def test_a_command_that_cannot_start_fails_with_the_reason(tmp_path: Path) -> None:
    jobs = ProcessJobs(tmp_path / "jobs", command=[str(tmp_path / "no-such-program")], poll_s=0.05)
    try:
        job = jobs.start("generate", [])
        assert job.status == "failed" and "could not start" in (job.note or "")
    finally:
        jobs.close()


def test_clean_log_keeps_the_last_state_of_progress_bars_without_colours() -> None:
    raw = " 10%|#  | 1/10\r 50%|#### | 5/10\r100%|#####| 10/10\r\n\x1b[31merror:\x1b[0m bad\n"
    assert clean_log(raw) == "100%|#####| 10/10\nerror: bad\n"


# ---------------------------------------------------------------------------------------------- the tabs' argv
def test_benchmark_argv_from_the_form_is_checked_like_the_cli(tmp_path: Path) -> None:
    from service.ui.benchmark import SOURCES, build_argv

    out, answers = tmp_path / "run", tmp_path / "vicuna" / "history.json"
    argv = build_argv(out, "drowzee-qa", 20, 3, SOURCES[2], "", "", "", answers, "facts", 4)
    assert argv == [
        *("-v", "benchmark", "--generator", "drowzee-qa", "--seed", "3", "--evidence", "facts"),
        *("--answers", str(answers), "--limit", "4", "--out", str(out)),
    ]  # no --n with recorded answers: the file holds the cases
    role = build_argv(out, "temporal", 5, 0, SOURCES[0], "target", "", "", None, "none", 0)
    assert role[role.index("--n") + 1] == "5" and role[role.index("--target") + 1] == "target"
    assert "--limit" not in role
    pairs = build_argv(out, "factchd", 8, 0, SOURCES[0], "target", "", "", None, "none", None)
    assert "--target" not in pairs and "--n" in pairs  # factchd pairs carry their own responses
    with pytest.raises(ValueError, match="base URL and the model name"):
        build_argv(out, "drowzee-qa", 5, 0, SOURCES[1], "", "http://h/v1", "", None, "none", None)
    with pytest.raises(ValueError, match="exactly one of"):
        build_argv(out, "drowzee-qa", 5, 0, SOURCES[2], "", "", "", None, "none", None)


def test_train_and_eval_argv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from service.ui.train import eval_argv, generate_argv, train_argv

    monkeypatch.setenv("DROWZEE_CACHE", str(tmp_path))
    assert generate_argv(tmp_path / "p.jsonl", 50, 2, "train")[1:] == [
        *("generate", "factchd", "--n", "50", "--seed", "2", "--split", "train", "--out", str(tmp_path / "p.jsonl"))
    ]
    argv = train_argv("d.jsonl", "mine", "smollm2-135m", 20, 4, 0)
    assert argv[1:4] == ["train", "guardian", "--data"] and "--limit" not in argv
    assert argv[argv.index("--max-steps") + 1] == argv[argv.index("--save-steps") + 1] == "20"
    more = train_argv("d.jsonl", "mine", "smollm2-135m", 20, 4, 0, add_from=["/runs/a", "/runs/b"])
    assert [more[i + 1] for i, x in enumerate(more) if x == "--add-from"] == ["/runs/a", "/runs/b"]
    (tmp_path / "adapters" / "taken").mkdir(parents=True)
    for name, why in (("Bad Name", "adapter name"), ("taken", "exists already"), ("smollm2-135m", "exists already")):
        with pytest.raises(ValueError, match=why):
            train_argv("d.jsonl", name, "smollm2-135m", 20, 4, 0)
    with pytest.raises(ValueError, match="pick the training pairs"):
        train_argv("", "mine", "smollm2-135m", 20, 4, 0)
    assert eval_argv(tmp_path / "j.jsonl", "d.jsonl", "base:smollm2-135m", 40)[3:8] == [
        *("--data", "d.jsonl", "--base", "smollm2-135m", "--out")
    ]
    assert "--adapter" in eval_argv(tmp_path / "j.jsonl", "d.jsonl", "/a/mine", None)


def test_training_progress_comes_from_the_trainer_bar_only() -> None:
    from service.ui.train import train_fraction

    job = ProcJob(id=new_id(), kind="train", argv=["--max-steps", "20"], created=now(), log="x")
    assert train_fraction(job, "Loading weights: 100%|###| 20/20 [00:00<00:00]\n") is None
    log = " 10%|#         | 2/20 [00:30<04:30]\n  0%|          | 0/1 [00:00<?]\n 40%|####      | 8/20 [02:00<03:00]\n"
    assert train_fraction(job, log) == pytest.approx(0.4)


def test_a_run_folder_shows_its_progress_and_its_report_with_plots_inlined(tmp_path: Path) -> None:
    from service.ui.loop_report import report_html, run_progress, stages_html

    out = tmp_path / "run"
    (out / "target").mkdir(parents=True)
    (out / "cases.jsonl").write_text('{"id": 1}\n{"id": 2}\n')
    (out / "answers.jsonl").write_text('{"id": 1}\n{"id": 2}\n')
    (out / "verdicts.jsonl").write_text('{"row": 1}\n')
    prog = run_progress(out, 4)  # no checkpoints: the nodes finished are read from the files
    assert (prog.finished, prog.verdicts, prog.total, prog.fraction) == (("generate", "ask"), 1, 2, 0.5)
    assert "verify 1/2" in stages_html(prog, "running")
    assert report_html(out) == ""
    (out / "detection.png").write_bytes(b"\x89PNG fake")
    (out / "target" / "report.md").write_text("# Target\n\n<b>raw</b>\n")
    (out / "report.md").write_text("# Closed loop\n\n![d](detection.png) ![x](../../etc/x.png) [t](target/report.md)\n")
    html = report_html(out)
    assert 'src="data:image/png;base64,' in html and "(missing plot)" in html
    assert "<code>t</code>" in html and "Target" in html and "<b>raw</b>" not in html  # Markdown HTML is escaped
