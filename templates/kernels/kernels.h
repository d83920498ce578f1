// shardgen kernel library: everything a generated program uses.
#pragma once

#include "kernels/dot.h"
#include "kernels/elements.h"
#include "kernels/elementwise.h"
#include "kernels/fft.h"
#include "kernels/indexed.h"
#include "kernels/layout.h"
#include "kernels/reduce.h"
#include "kernels/region.h"
#include "kernels/rng.h"
#include "kernels/scratch.h"
#include "kernels/sort.h"
#include "kernels/window.h"
