/* SPDX-License-Identifier: MIT */
/*
 * The tests' random numbers: Marsaglia's xorshift generators, the state held
 * by the test and passed in. Every test starts its state from a fixed seed,
 * so each run draws the same inputs: a test is reproducible, and a failure
 * seen once is seen again on every machine. A test's seed and the order of
 * its draws are what it checks: change either and it checks other inputs.
 */
#ifndef RAS_TESTS_RNG_H
#define RAS_TESTS_RNG_H

#include <stdint.h>

/* xorshift64 (shifts 13, 7, 17): the next state, which is the value drawn. Seed nonzero. */
static inline uint64_t rng_next(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* A number in [0, n), n > 0: the next value modulo n. */
static inline unsigned rng_below(uint64_t *state, unsigned n)
{
	return (unsigned)(rng_next(state) % n);
}

/*
 * xorshift64* (shifts 12, 25, 27, then a multiply): another stream, drawn by
 * the tests that were written with it.
 */
static inline uint64_t rng_next_star(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dULL;
}

#endif
