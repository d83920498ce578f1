"""What the PyTorch baselines share: the best wall time of N calls."""
import time


def best_ms(fn, runs):
    """The fastest of `runs` calls of `fn` after one warm-up call, in ms."""
    fn()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1e3
