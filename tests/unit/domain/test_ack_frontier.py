from app.core.domain.ack_frontier import AckFrontier


def test_one_view_acks_pass_through() -> None:
    f = AckFrontier()
    assert f.attach("a", 500) is True
    assert f.ack("a", 100) == 100 and f.ack("a", 0) == 0 and f.ack("zz", 10) == 0


def test_the_slowest_view_sets_the_frontier_and_leaving_releases_it() -> None:
    f = AckFrontier()
    f.attach("a", 0)
    assert f.attach("b", 0) is False
    assert f.ack("a", 300) == 0
    assert f.ack("b", 100) == 100
    assert f.detach("b") == 200  # only a is left, and it is further on
    assert f.detach("a") == 0 and f.views == frozenset()


def test_a_late_view_counts_what_came_before_it_as_consumed() -> None:
    f = AckFrontier()
    f.attach("a", 0)
    f.attach("b", 1000)
    assert f.ack("a", 1000) == 1000 and f.ack("b", 5) == 0 and f.ack("a", 5) == 5
