/* SPDX-License-Identifier: MIT */
/*
 * Golden vectors of issue 36's decoders: the memory-failure SIGBUS
 * (signal_generate), NIC transmit timeouts (net_dev_xmit_timeout), CXL memory
 * sparing and a CXL device's own threshold, and block_rq_complete's failed
 * pass-through commands (the block decoder). Each value is the kernel's, as
 * cited; the records seen under QEMU are Debian 6.1's and 6.12's.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "decoders/blockerr.h"
#include "decoders/cxl.h"
#include "decoders/netdev.h"
#include "decoders/sigbus.h"
#include "tests/tap.h"

#define S(x) x, sizeof(x) - 1

static const char *said_sigbus(const struct sigbus_decoded *d, const struct sigbus_link *l)
{
	static char buf[RAS_SUMMARY_LEN];

	sigbus_render_linked(d, l, buf, sizeof(buf));
	return buf;
}

/*
 * include/trace/events/signal.h signal_generate: "sig=%d errno=%d code=%d
 * comm=%s pid=%d grp=%d res=%d". Seen under QEMU (Debian 6.1, a process that
 * read its own page after madvise(MADV_HWPOISON)):
 * "sig=7 errno=0 code=4 comm=sigbus pid=132 grp=0 res=0".
 */
static void test_sigbus(void)
{
	struct sigbus_in in = { .sig = SIGBUS, .code = 4, .comm = S("sigbus\0\0\0\0\0\0\0\0\0"),
				.pid = 132, .group = 0, .result = 0 };
	struct sigbus_link link = { .pfn = 0x2e0e, .page_type = "dirty LRU page",
				    .recovery = "Recovered", .delta_ns = -6000000 };
	struct sigbus_decoded d;

	tap_is_int(sigbus_decode(&in, &d), 0, "SIGBUS decodes");
	/* BUS_MCEERR_AR 4, BUS_MCEERR_AO 5: include/uapi/asm-generic/siginfo.h */
	tap_is_str(d.code_name, "BUS_MCEERR_AR", "code 4 is BUS_MCEERR_AR");
	tap_is_str(d.sig_name, "SIGBUS", "signal name");
	tap_is_str(d.comm, "sigbus", "comm up to its NUL");
	tap_is_int(d.severity, RAS_SEV_SRAR, "action required: srar");
	/* TRACE_SIGNAL_DELIVERED 0 (enum trace_signal_result) */
	tap_is_str(d.result_name, "delivered", "result 0 is delivered");
	tap_is_str(d.location, "process sigbus, pid 132", "location: the process");
	tap_is_str(said_sigbus(&d, NULL),
		   "Process `sigbus` (pid 132) was killed: it consumed poisoned memory; SIGBUS "
		   "(BUS_MCEERR_AR) ends it unless it handles the signal", "unlinked sentence");
	/* The 6.1 late kill: memory_failure_event 6 ms before the SIGBUS. */
	tap_is_str(said_sigbus(&d, &link),
		   "Process `sigbus` (pid 132) was killed: it consumed poisoned memory at pfn 0x2e0e "
		   "(dirty LRU page, recovery Recovered); SIGBUS (BUS_MCEERR_AR) ends it unless it "
		   "handles the signal", "linked sentence");
	link.delta_ns = -3600 * 1000000000LL;
	tap_ok(strstr(said_sigbus(&d, &link), "(dirty LRU page, recovery Recovered, 3600 s before)") != NULL,
	       "a memory failure long before says when: %s", said_sigbus(&d, &link));

	/* 6.1 early kill (PR_MCE_KILL_EARLY): "sig=7 errno=0 code=5 comm=sigbus pid=135 grp=0 res=0" */
	in.code = 5;
	in.pid = 135;
	sigbus_decode(&in, &d);
	tap_is_int(d.severity, RAS_SEV_SRAO, "action optional: srao");
	link.delta_ns = 230000;
	tap_is_str(said_sigbus(&d, &link),
		   "Process `sigbus` (pid 135) was sent SIGBUS: poisoned memory was taken out of its "
		   "address space at pfn 0x2e0e (dirty LRU page, recovery Recovered) (BUS_MCEERR_AO); "
		   "it ends unless it handles the signal", "AO sentence");

	/* TRACE_SIGNAL_ALREADY_PENDING 2 */
	in.result = 2;
	sigbus_decode(&in, &d);
	tap_ok(strstr(said_sigbus(&d, NULL), "; the kernel did not deliver it (already pending)") != NULL,
	       "not delivered: %s", said_sigbus(&d, NULL));

	/* rasdaemon's table may hold other signals: SIGSEGV with SEGV_MAPERR (1). */
	in = (struct sigbus_in){ .sig = SIGSEGV, .code = 1, .comm = S("a.out"), .pid = 7 };
	sigbus_decode(&in, &d);
	tap_is_int(d.severity, RAS_SEV_INFO, "another signal is information");
	tap_is_str(said_sigbus(&d, NULL), "Process `a.out` (pid 7) was sent SIGSEGV (code 1)",
		   "another signal's sentence");
	in.sig = 200;
	sigbus_decode(&in, &d);
	tap_is_str(d.sig_name, "signal 200", "an unknown signal keeps its number");

	/* A comm with control bytes is made safe, and again when read back unfiltered. */
	in = (struct sigbus_in){ .sig = SIGBUS, .code = 4, .comm = S("x\033[2Jy"), .pid = 1 };
	sigbus_decode(&in, &d);
	tap_is_str(d.comm, "x?[2Jy", "control bytes of comm replaced");
	memcpy(d.comm, "x\033y", 4);
	tap_ok(strchr(said_sigbus(&d, NULL), '\033') == NULL, "a stored comm is filtered again");
	memset(&d, 0, sizeof(d));
	d.pid = RAS_DF_NONE;
	tap_is_str(said_sigbus(&d, NULL), "", "nothing known: nothing said");
}

/*
 * include/trace/events/net.h net_dev_xmit_timeout: "dev=%s driver=%s
 * queue=%d"; driver is netdev_drivername(), "" for a device without a parent.
 */
static void test_netdev(void)
{
	struct netdev_in in = { .name = S("eth0"), .driver = S("e1000e"), .queue_index = 3 };
	struct netdev_decoded d;
	char buf[RAS_SUMMARY_LEN];

	tap_is_int(netdev_decode(&in, &d), 0, "transmit timeout decodes");
	tap_is_str(d.location, "net eth0 (e1000e)", "location: device and driver");
	tap_is_int(d.queue_index, 3, "queue");
	tap_is_int(d.severity, RAS_SEV_UNCORRECTED, "not corrected by the hardware");
	netdev_render(&d, buf, sizeof(buf));
	tap_ok(strstr(buf, "Network device eth0 (driver e1000e): transmit queue 3 timed out") == buf,
	       "sentence: %s", buf);
	in.driver_len = 0;
	netdev_decode(&in, &d);
	tap_is_str(d.location, "net eth0", "no driver");
	d.queue_index = RAS_DF_NONE;
	netdev_render(&d, buf, sizeof(buf));
	tap_is_str(buf, "", "nothing known: nothing said");
}

static struct cxl_in cxl_base(const char *event)
{
	struct cxl_in in;

	memset(&in, 0, sizeof(in));
	in.event = event;
	in.event_len = strlen(event);
	in.memdev = "mem0";
	in.memdev_len = 4;
	in.host = "0000:0d:00.0";
	in.host_len = 12;
	return in;
}

/*
 * drivers/cxl/core/trace.h TRACE_EVENT(cxl_memory_sparing) (CXL r3.2 Table
 * 8-60). The values are those QEMU's emulated type-3 device puts in the
 * record of a row sparing (hw/cxl/cxl-mailbox-utils.c,
 * cxl_mbox_create_mem_sparing_event_records): maintenance class 2 (sparing),
 * subclass 1 (row), channel 2, rank 5, nibble mask 0xa59c, bank group 2,
 * bank 4, row 13, column 23, sub-channel 7, one spare left.
 */
static void test_cxl_sparing(void)
{
	struct cxl_in in = cxl_base("cxl_memory_sparing");
	struct cxl_decoded d;
	char buf[RAS_SUMMARY_LEN];

	cxl_in_set(&in, "log", 0);
	cxl_in_set(&in, "hdr_maint_op_class", 2);
	cxl_in_set(&in, "hdr_maint_op_sub_class", 1);
	cxl_in_set(&in, "flags", 0x6);        /* CXL_MSER_HARD_SPARING_FLAG | _DEV_INITED_FLAG */
	cxl_in_set(&in, "result", 0);
	cxl_in_set(&in, "validity_flags", 0x27f);   /* CXL_MSER_VALID_*: all but the component id */
	cxl_in_set(&in, "res_avail", 1);
	cxl_in_set(&in, "channel", 2);
	cxl_in_set(&in, "rank", 5);
	cxl_in_set(&in, "nibble_mask", 0xa59c);
	cxl_in_set(&in, "bank_group", 2);
	cxl_in_set(&in, "bank", 4);
	cxl_in_set(&in, "row", 13);
	cxl_in_set(&in, "column", 23);
	cxl_in_set(&in, "sub_channel", 7);
	tap_is_int(cxl_decode(&in, &d), 0, "sparing decodes");
	tap_is_str(d.record_type, "row sparing (hard, device initiated)", "granularity and flags");
	tap_is_str(d.detail, "channel 2, rank 5, bank group 2, bank 4, row 13, column 23, sub-channel 7, "
		   "nibble mask 0xa59c; the sparing succeeded; spare resources available: 1", "detail");
	tap_is_int(d.spares, 1, "spares");
	tap_is_int(d.severity, RAS_SEV_INFO, "the Informational log");
	tap_is_str(d.location, "CXL mem0 (0000:0d:00.0)", "location");
	cxl_render(&d, buf, sizeof(buf));
	tap_ok(strstr(buf, "CXL memory sparing on mem0 (0000:0d:00.0): row sparing (hard, device "
		      "initiated) [Informational log]; channel 2") == buf, "sentence: %s", buf);
	/* Validity bits gate the place; a failure and no spare left are said. */
	cxl_in_set(&in, "validity_flags", 0x20);
	cxl_in_set(&in, "result", 1);
	cxl_in_set(&in, "res_avail", 0);
	cxl_decode(&in, &d);
	tap_is_str(d.detail, "row 13; the sparing failed (result 1); spare resources available: 0 (the "
		   "next failing one cannot be spared: plan to replace the device)", "failed, none left");
	cxl_in_set(&in, "hdr_maint_op_class", 1);     /* PPR: not a sparing class */
	cxl_decode(&in, &d);
	tap_is_str(d.record_type, "sparing (hard, device initiated)", "no granularity outside class 2");
}

/*
 * General Media / DRAM descriptor (CXL r3.1 Tables 8-45/8-46; trace.h
 * CXL_GMER_EVT_DESC_*): bit 0 uncorrectable event, bit 1 threshold event.
 * cme_threshold_ev_flags bit 1: CXL_GMER_CME_EV_FLAG_THRESHOLD_EXCEEDED.
 */
static void test_cxl_threshold(void)
{
	struct cxl_in in = cxl_base("cxl_dram");
	struct cxl_decoded d;

	cxl_in_set(&in, "log", 0);
	cxl_in_set(&in, "dpa", 0x8000);
	cxl_in_set(&in, "hpa", 0x4080001000);
	cxl_in_set(&in, "descriptor", 2);
	cxl_decode(&in, &d);
	tap_is_int(d.device_threshold, 1, "threshold event: the device's threshold");
	tap_is_int(d.severity, RAS_SEV_CORRECTED, "informational log, corrected errors: corrected");
	cxl_in_set(&in, "descriptor", 3);
	cxl_decode(&in, &d);
	tap_is_int(d.device_threshold, 0, "an uncorrectable event is not a corrected threshold");
	tap_is_int(d.severity, RAS_SEV_UNCORRECTED, "and stays uncorrected");
	cxl_in_set(&in, "descriptor", 0);
	cxl_in_set(&in, "cme_threshold_ev_flags", 2);
	cxl_decode(&in, &d);
	tap_is_int(d.device_threshold, 1, "exceeded programmable threshold");
	tap_ok(strstr(d.detail, "exceeded the programmable threshold") != NULL, "said: %s", d.detail);
	cxl_in_set(&in, "cme_threshold_ev_flags", 1);
	cxl_decode(&in, &d);
	tap_is_int(d.device_threshold, 0, "multiple media components alone is not");
	in = cxl_base("cxl_general_media");
	cxl_decode(&in, &d);
	tap_is_int(d.device_threshold, RAS_DF_NONE, "no descriptor: not told");
}

/*
 * block_rq_complete under QEMU (scsi_debug probe, Debian 6.1):
 * "8,0 N () 18446744073709551615 + 0 [-5]": op N (blk_fill_rwbs: none of
 * read, write, discard, secure erase, flush), no sectors, -EIO. A
 * pass-through command: block_rq_error would not have reported it.
 */
static void test_block_passthrough(void)
{
	struct blockerr_in in = { .dev = 8u << 20, .sector = UINT64_MAX, .nr_sector = 0, .error = -5,
				  .rwbs = S("N\0\0\0\0\0\0\0"), .cmd = S("") };
	struct blockerr_decoded d;
	char buf[RAS_SUMMARY_LEN];

	blockerr_decode(&in, &d);
	tap_is_int(d.severity, RAS_SEV_INFO, "a failed command without data is information");
	blockerr_render(&d, buf, sizeof(buf));
	tap_is_str(buf, "I/O error on 8:0, a command without data (N); a pass-through or management "
		   "command failed (device probing sends such commands), no read or write", "sentence");
	in.nr_sector = 8;
	blockerr_decode(&in, &d);
	tap_is_int(d.severity, RAS_SEV_UNCORRECTED, "with data it is a failed request");
}

int main(void)
{
	test_sigbus();
	test_netdev();
	test_cxl_sparing();
	test_cxl_threshold();
	test_block_passthrough();
	return tap_done();
}
