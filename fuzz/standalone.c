/* SPDX-License-Identifier: MIT */
/*
 * Runs a libFuzzer target without libFuzzer: feeds each file named on the
 * command line (or stdin when none) to LLVMFuzzerTestOneInput once.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT (1 << 20)

static int run_stream(FILE *f, const char *name)
{
	static uint8_t buf[MAX_INPUT];
	size_t n = fread(buf, 1, sizeof(buf), f);

	if (ferror(f)) {
		fprintf(stderr, "%s: read error\n", name);
		return 1;
	}
	LLVMFuzzerTestOneInput(buf, n);
	return 0;
}

int main(int argc, char **argv)
{
	int failed = 0;

	if (argc < 2)
		return run_stream(stdin, "<stdin>");
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");

		if (!f) {
			perror(argv[i]);
			failed = 1;
			continue;
		}
		failed |= run_stream(f, argv[i]);
		fclose(f);
	}
	return failed;
}
