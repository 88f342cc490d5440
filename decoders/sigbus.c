/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "sigbus.h"
#include "other_util.h"

const struct ras_dfield sigbus_dfields[] = {
	RAS_DF_I(struct sigbus_decoded, sig),
	RAS_DF_S(struct sigbus_decoded, sig_name),
	RAS_DF_I(struct sigbus_decoded, code),
	RAS_DF_S(struct sigbus_decoded, code_name),
	RAS_DF_S(struct sigbus_decoded, comm),
	RAS_DF_I(struct sigbus_decoded, pid),
	RAS_DF_I(struct sigbus_decoded, result),
	RAS_DF_S(struct sigbus_decoded, result_name),
};
const size_t sigbus_n_dfields = OU_ARRAY_SIZE(sigbus_dfields);

/*
 * Signal numbers differ between architectures (SIGBUS is 7 on x86, arm64 and
 * most others, 10 on alpha, mips, sparc and parisc): this machine's <signal.h>
 * numbers them, as the kernel it runs does.
 */
static const struct ou_name signals[] = {
	{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" }, { SIGILL, "SIGILL" },
	{ SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" }, { SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" },
	{ SIGKILL, "SIGKILL" }, { SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
	{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" }, { SIGCHLD, "SIGCHLD" },
	{ SIGCONT, "SIGCONT" }, { SIGSTOP, "SIGSTOP" }, { SIGTSTP, "SIGTSTP" }, { SIGTTIN, "SIGTTIN" },
	{ SIGTTOU, "SIGTTOU" }, { SIGURG, "SIGURG" }, { SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
	{ SIGVTALRM, "SIGVTALRM" }, { SIGPROF, "SIGPROF" }, { SIGWINCH, "SIGWINCH" },
	{ SIGIO, "SIGIO" }, { SIGPWR, "SIGPWR" }, { SIGSYS, "SIGSYS" },
};

/* SIGBUS codes, include/uapi/asm-generic/siginfo.h (the same on every architecture). */
static const struct ou_name bus_codes[] = {
	{ 1, "BUS_ADRALN" }, { 2, "BUS_ADRERR" }, { 3, "BUS_OBJERR" },
	{ SIGBUS_MCEERR_AR, "BUS_MCEERR_AR" }, { SIGBUS_MCEERR_AO, "BUS_MCEERR_AO" },
};

/* enum trace_signal_result, include/trace/events/signal.h, in value order. */
static const char *const results[] = {
	"delivered", "ignored", "already pending", "overflow failed", "info lost",
};

static bool is_memory_failure(const struct sigbus_decoded *d)
{
	return d->sig == SIGBUS && (d->code == SIGBUS_MCEERR_AR || d->code == SIGBUS_MCEERR_AO);
}

int sigbus_decode(const struct sigbus_in *in, struct sigbus_decoded *out)
{
	const char *name;

	if (!out)
		return -EINVAL;
	ou_reset(out, sizeof(*out), sigbus_dfields, sigbus_n_dfields);
	if (!in)
		return -EINVAL;
	out->sig = in->sig;
	out->code = in->code;
	out->pid = in->pid;
	out->result = in->result;
	ou_copy(out->comm, sizeof(out->comm), in->comm, in->comm_len);
	if ((name = ou_lookup(signals, OU_ARRAY_SIZE(signals), in->sig)))
		snprintf(out->sig_name, sizeof(out->sig_name), "%s", name);
	else
		snprintf(out->sig_name, sizeof(out->sig_name), "signal %d", (int)in->sig);
	if (in->sig == SIGBUS && (name = ou_lookup(bus_codes, OU_ARRAY_SIZE(bus_codes), in->code)))
		snprintf(out->code_name, sizeof(out->code_name), "%s", name);
	else
		snprintf(out->code_name, sizeof(out->code_name), "code %d", (int)in->code);
	if (in->result >= 0 && (size_t)in->result < OU_ARRAY_SIZE(results))
		snprintf(out->result_name, sizeof(out->result_name), "%s", results[in->result]);
	else
		snprintf(out->result_name, sizeof(out->result_name), "result %d", (int)in->result);
	out->severity = !is_memory_failure(out) ? RAS_SEV_INFO :
			out->code == SIGBUS_MCEERR_AR ? RAS_SEV_SRAR : RAS_SEV_SRAO;
	snprintf(out->location, sizeof(out->location), "process %s, pid %d",
		 out->comm[0] ? out->comm : "(unnamed)", (int)in->pid);
	return 0;
}

/* " at pfn 0x... (page type, recovery result[, N s before])" */
static void put_link(const struct sigbus_link *l, char *buf, size_t len)
{
	char type[64], recovery[64];
	/* Whole seconds, rounded: 9.9998 s is 10 s. */
	int64_t ago_s = (-l->delta_ns + 500000000) / 1000000000;

	ou_copy(type, sizeof(type), l->page_type, l->page_type ? strlen(l->page_type) : 0);
	ou_copy(recovery, sizeof(recovery), l->recovery, l->recovery ? strlen(l->recovery) : 0);
	ou_appendf(buf, len, " at pfn 0x%llx", (unsigned long long)l->pfn);
	if (type[0] || recovery[0])
		ou_appendf(buf, len, " (%s%s%s%s", type, type[0] && recovery[0] ? ", " : "",
			   recovery[0] ? "recovery " : "", recovery);
	/* The same call of the kernel's memory-failure handling is microseconds apart. */
	if (ago_s >= 1)
		ou_appendf(buf, len, "%s%lld s before", type[0] || recovery[0] ? ", " : " (",
			   (long long)ago_s);
	if (type[0] || recovery[0] || ago_s >= 1)
		ou_append(buf, len, ")");
}

void sigbus_render_linked(const struct sigbus_decoded *d, const struct sigbus_link *link,
			  char *buf, size_t len)
{
	char comm[sizeof(d->comm)];
	bool linked = link && link->pfn != RAS_DF_NONE;

	if (!buf || !len)
		return;
	buf[0] = '\0';
	/* Nothing known (no record): the caller says it could not be decoded. */
	if (!d || !d->sig_name[0] || d->pid == RAS_DF_NONE)
		return;
	/* comm restates the raw field: a struct rebuilt from a database may hold it unfiltered. */
	ou_copy(comm, sizeof(comm), d->comm, sizeof(d->comm));
	if (!is_memory_failure(d)) {
		snprintf(buf, len, "Process `%s` (pid %lld) was sent %s (%s)", comm,
			 (long long)d->pid, d->sig_name, d->code_name);
	} else if (d->code == SIGBUS_MCEERR_AR) {
		snprintf(buf, len, "Process `%s` (pid %lld) was killed: it consumed poisoned memory",
			 comm, (long long)d->pid);
		if (linked)
			put_link(link, buf, len);
		ou_append(buf, len, "; SIGBUS (BUS_MCEERR_AR) ends it unless it handles the signal");
	} else {
		snprintf(buf, len, "Process `%s` (pid %lld) was sent SIGBUS: poisoned memory was taken "
			 "out of its address space", comm, (long long)d->pid);
		if (linked)
			put_link(link, buf, len);
		ou_append(buf, len, " (BUS_MCEERR_AO); it ends unless it handles the signal");
	}
	if (d->result != 0 && d->result != RAS_DF_NONE)
		ou_appendf(buf, len, "; the kernel did not deliver it (%s)", d->result_name);
}

void sigbus_render(const struct sigbus_decoded *d, char *buf, size_t len)
{
	sigbus_render_linked(d, NULL, buf, len);
}
