import pytest

from labwright.agent.streaming import Finished, Restart, stream_deltas


def test_deltas_restarts_and_result_arrive_in_order() -> None:
    def call(on_delta, on_restart):  # type: ignore[no-untyped-def]
        on_delta("a")
        on_restart()
        on_delta("b")
        return 42

    items = list(stream_deltas(call))
    assert items[0] == "a" and isinstance(items[1], Restart) and items[2] == "b"
    assert items[-1] == Finished(42)


def test_errors_are_reraised_in_the_consumer() -> None:
    def call(on_delta, on_restart):  # type: ignore[no-untyped-def]
        on_delta("x")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        list(stream_deltas(call))
