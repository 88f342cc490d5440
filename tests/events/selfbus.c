// SPDX-License-Identifier: MIT
/*
 * selfbus - sends itself the signal a memory failure sends (tests only).
 *
 *   selfbus ar|ao|adrerr|usr1
 *
 * Names itself rasfdr-selfbus and sends itself, with rt_sigqueueinfo(),
 * SIGBUS with si_code BUS_MCEERR_AR (4), BUS_MCEERR_AO (5) or BUS_ADRERR
 * (2), or SIGUSR1: the kernel's signal_generate tracepoint fires with that
 * code, as when memory_failure() sends it, and nothing is poisoned. A
 * process may queue a positive si_code to itself only. It dies of the
 * signal (no core: not dumpable).
 */
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static const struct { const char *name; int sig, code; } kinds[] = {
		{ "ar", SIGBUS, 4 }, { "ao", SIGBUS, 5 }, { "adrerr", SIGBUS, 2 }, { "usr1", SIGUSR1, 0 },
	};
	struct rlimit none = { 0, 0 };
	siginfo_t si;

	if (argc != 2)
		return 2;
	setrlimit(RLIMIT_CORE, &none);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	prctl(PR_SET_NAME, "rasfdr-selfbus", 0, 0, 0);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(argv[1], kinds[i].name))
			continue;
		memset(&si, 0, sizeof(si));
		si.si_signo = kinds[i].sig;
		si.si_code = kinds[i].code;
		if (syscall(SYS_rt_sigqueueinfo, getpid(), kinds[i].sig, &si) != 0)
			return 1;
		/* SIGUSR1's default action ends it too; a SIGBUS queued to oneself is taken on return. */
		pause();
		return 3;
	}
	return 2;
}
