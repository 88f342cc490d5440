/* SPDX-License-Identifier: MIT */
/* make bench-live's view of rasd's CPU, from /proc (live_cpu.c). */
#ifndef RAS_BENCH_LIVE_CPU_H
#define RAS_BENCH_LIVE_CPU_H

#include <sys/types.h>

/* rasd's threads by name: the event loop ("rasd"), "rasd-writer", "rasd-checkpoint". */
#define LIVE_THREADS 3
extern const char *const live_thread_names[LIVE_THREADS];
/* The same, in words: "event loop", "writer", "checkpointer". */
extern const char *const live_thread_words[LIVE_THREADS];

/* The process's CPU seconds (user + system), or -1. */
double live_proc_cpu(pid_t pid);
/* Adds each named thread's CPU seconds times sign to cpu[] (a start sample is subtracted). */
void live_threads_cpu(pid_t pid, double sign, double cpu[LIVE_THREADS]);

#endif
