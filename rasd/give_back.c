/* SPDX-License-Identifier: MIT */
#include "give_back.h"

void rasd_give_back_busy(struct rasd_give_back *g, int64_t now_ns)
{
	g->busy_ns = now_ns;
}

void rasd_give_back_done(struct rasd_give_back *g, int64_t now_ns)
{
	g->given_ns = now_ns;
}

int64_t rasd_give_back_at(const struct rasd_give_back *g, int64_t held_ns)
{
	/* Busy since the last give-back: a second of nothing first, whatever is held. */
	if (g->busy_ns > g->given_ns)
		return g->busy_ns + RASD_GIVE_BACK_IDLE_NS;
	return held_ns < 0 ? -1 : held_ns;
}

bool rasd_give_back_due(const struct rasd_give_back *g, int64_t held_ns, int64_t now_ns)
{
	int64_t at = rasd_give_back_at(g, held_ns);

	return at >= 0 && now_ns >= at;
}

int rasd_give_back_timeout_ms(const struct rasd_give_back *g, int64_t held_ns, int64_t now_ns)
{
	int64_t at = rasd_give_back_at(g, held_ns);

	if (at < 0)
		return -1;
	if (at <= now_ns)
		return 0;
	/* Rounded up: woken before it is due, the loop would sleep again for nothing. */
	return (int)((at - now_ns + 999999) / 1000000);
}
