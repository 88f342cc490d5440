/* SPDX-License-Identifier: MIT */
#include "loop_wait.h"

int rasd_loop_sooner(int a, int b)
{
	return b >= 0 && (a < 0 || b < a) ? b : a;
}

int rasd_loop_timeout_ms(const struct rasd_loop_waits *w)
{
	int t = rasd_loop_sooner(w->check, w->group);

	t = rasd_loop_sooner(t, w->burst);
	t = rasd_loop_sooner(t, w->sel);
	t = rasd_loop_sooner(t, w->retry);
	if (!w->quiet)
		return t;
	t = rasd_loop_sooner(t, w->give_back);
	t = rasd_loop_sooner(t, w->trim);
	return w->failing ? t : rasd_loop_sooner(t, w->health);
}
