#include "Interrupt.h"

#include <pybind11/pybind11.h>

#include <csignal>

namespace shardgen::python {

namespace py = pybind11;

namespace {

// The flag of the run the main thread is in (one at a time: that thread is
// busy with it), and the handler ours replaced.
std::atomic<std::atomic<bool> *> currentFlag{nullptr};
struct sigaction previousAction;

void onSigint(int number, siginfo_t *info, void *context) {
  if (std::atomic<bool> *flag = currentFlag.load())
    flag->store(true); // async-signal-safe: a lock-free atomic
  if (previousAction.sa_flags & SA_SIGINFO)
    previousAction.sa_sigaction(number, info, context);
  else if (previousAction.sa_handler != SIG_DFL && previousAction.sa_handler != SIG_IGN)
    previousAction.sa_handler(number);
}

bool onMainThread() {
  static const unsigned long mainThread =
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  return PyThread_get_thread_ident() == mainThread;
}

} // namespace

InterruptibleRun::InterruptibleRun() {
  static_assert(std::atomic<bool>::is_always_lock_free);
  if (!onMainThread())
    return;
  struct sigaction current{};
  if (sigaction(SIGINT, nullptr, &current) != 0)
    return;
  bool pythonHandler = (current.sa_flags & SA_SIGINFO)
                           ? current.sa_sigaction != onSigint
                           : (current.sa_handler != SIG_DFL && current.sa_handler != SIG_IGN);
  if (!pythonHandler)
    return;
  previousAction = current;
  currentFlag.store(&cancel_);
  struct sigaction ours{};
  ours.sa_sigaction = onSigint;
  ours.sa_flags = SA_SIGINFO | (current.sa_flags & SA_ONSTACK);
  sigemptyset(&ours.sa_mask);
  if (sigaction(SIGINT, &ours, nullptr) != 0) {
    currentFlag.store(nullptr);
    return;
  }
  installed_ = true;
}

InterruptibleRun::~InterruptibleRun() {
  if (!installed_)
    return;
  sigaction(SIGINT, &previousAction, nullptr);
  currentFlag.store(nullptr);
}

void InterruptibleRun::raiseIfInterrupted(bool cancelled) {
  if (!interrupted())
    return;
  if (PyErr_CheckSignals() != 0)
    throw py::error_already_set();
  if (cancelled) {
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
}

} // namespace shardgen::python
