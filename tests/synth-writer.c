/* SPDX-License-Identifier: MIT */
/*
 * Test helper: writes COUNT synthetic ras:mc_event records with msg
 * "TAG-<n>" (n = FIRST, FIRST+1, ...) straight into an instance's
 * trace_marker_raw, as fast as it can, at RATE records/s when given.
 * Prints how many writes the kernel accepted: a refused write is a record the
 * kernel dropped (and counts in its per-CPU stats), so emitted = accepted.
 * The records are uncorrected errors, never folded; with "corrected" after
 * RATE they are corrected ones, which a storm folds.
 *   synth-writer TRACING_DIR INSTANCE FORMATS_DIR TAG FIRST COUNT [RATE [corrected]]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lib/formats.h"
#include "lib/synthetic.h"

int main(int argc, char **argv)
{
	char inst[4096], path[4200], msg[128], err[256];
	char *assign[] = { msg, "error_type=1", "label=DIMM_A1" };
	struct ras_formats *fmt;
	const struct ras_event_type *t = ras_event_type_find("ras:mc_event");
	unsigned long first, count, rate = 0, accepted = 0;
	uint8_t buf[RAS_SYNTH_MAX + 256];
	unsigned idx;
	int fd;

	if (argc < 7)
		return 2;
	first = strtoul(argv[5], NULL, 10);
	count = strtoul(argv[6], NULL, 10);
	if (argc > 7)
		rate = strtoul(argv[7], NULL, 10);
	if (argc > 8 && !strcmp(argv[8], "corrected"))
		assign[1] = "error_type=0";
	snprintf(inst, sizeof(inst), "%s/instances/%s", argv[1], argv[2]);
	if (!t || ras_formats_load(&fmt, argv[1], inst, argv[3]) < 0)
		return 1;
	idx = (unsigned)(t - ras_event_types);
	snprintf(path, sizeof(path), "%s/trace_marker_raw", inst);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || !fmt->type[idx].event)
		return 1;
	for (unsigned long i = 0; i < count; i++) {
		int len;

		snprintf(msg, sizeof(msg), "msg=%s-%lu", argv[4], first + i);
		len = ras_synth_build(fmt->type[idx].event, fmt->type[idx].system, assign, 3, buf,
				      sizeof(buf), err, sizeof(err));
		if (len < 0) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		if (write(fd, buf, (size_t)len) == len)
			accepted++;
		if (rate) {
			struct timespec ts = { 0, (long)(1000000000UL / rate) };

			nanosleep(&ts, NULL);
		}
	}
	close(fd);
	ras_formats_free(fmt);
	printf("%lu\n", accepted);
	return 0;
}
