"""The PyTorch baselines of bench_codegen_sort, single-threaded, best of N
runs: torch.topk with k = 50 of 64 rows of 32768 f32, and torch.sort of 1M
f32. Usage: python3 bench/topk_torch.py [N]"""
import sys

import torch

from best_of import best_ms

torch.set_num_threads(1)
runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
rows = torch.rand(64, 32768) * 2 - 1
print(f"torch.topk k=50 of 64x32768: {best_ms(lambda: torch.topk(rows, 50), runs):.3f} ms")
values = torch.rand(1 << 20) * 2 - 1
print(f"torch.sort of 1M f32: {best_ms(lambda: torch.sort(values), runs):.3f} ms")
