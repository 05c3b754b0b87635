from labwright.agent.loop_breaker import LoopBreaker, fingerprint


def test_threshold_sequence_ok_ok_nudge_ok_stop() -> None:
    breaker = LoopBreaker()
    verdicts = [breaker.observe("read_file", {"path": "a.txt"}) for _ in range(5)]
    assert verdicts == ["ok", "ok", "nudge", "ok", "stop"]


def test_nudge_happens_once_per_run() -> None:
    breaker = LoopBreaker()
    for _ in range(3):
        breaker.observe("read_file", {"path": "a.txt"})
    verdicts = [breaker.observe("list_dir", {"path": "."}) for _ in range(4)]
    assert "nudge" not in verdicts


def test_different_offsets_are_different_calls() -> None:
    breaker = LoopBreaker()
    verdicts = [
        breaker.observe("read_file", {"path": "a.txt", "offset": i * 100}) for i in range(10)
    ]
    assert set(verdicts) == {"ok"}


def test_fingerprint_ignores_key_order_and_never_raises() -> None:
    assert fingerprint("t", {"a": 1, "b": 2}) == fingerprint("t", {"b": 2, "a": 1})
    assert fingerprint("t", {"x": object()}).startswith("t|")


def test_finish_exploration_is_exempt() -> None:
    breaker = LoopBreaker()
    assert {breaker.observe("finish_exploration", {}) for _ in range(6)} == {"ok"}
