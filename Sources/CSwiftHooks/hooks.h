#ifndef CSWIFTHOOKS_HOOKS_H
#define CSWIFTHOOKS_HOOKS_H

// Swift concurrency's hook for enqueueing a global job (`swift_task_enqueueGlobal_hook` of the runtime's
// Concurrency library: a function pointer, null until set). Reached by name through the linker, so that it
// is found whether the runtime is linked dynamically or statically (`--static-swift-stdlib`, where a
// `dlsym` of the executable does not see it): EventLoopExecutor sets it, first thing.
extern void *_Nullable swift_task_enqueueGlobal_hook;

/// Where the hook is stored.
static inline void *_Nullable *_Nonnull cswifthooks_enqueue_global_hook(void) {
    return &swift_task_enqueueGlobal_hook;
}

#endif
