/* SPDX-License-Identifier: MIT */
/*
 * What systemd-pstore does with the pstore files at boot, from its
 * pstore.conf(5): section [PStore], Storage= (none, external: moved to
 * /var/lib/systemd/pstore/, journal: logged only; default external) and
 * Unlink= (a boolean, default yes: the file is removed from pstore, which
 * erases the record from the firmware, once handled). Storage=none leaves
 * pstore untouched whatever Unlink= says (src/pstore/pstore.c). Files are read
 * in order, each one's settings over the last's: /etc/systemd/pstore.conf,
 * then the drop-ins.
 */
#ifndef LW_PSTORE_CONF_H
#define LW_PSTORE_CONF_H

#include <stdbool.h>
#include <stddef.h>

enum lw_pstore_storage { LW_PSTORE_UNSET = -1, LW_PSTORE_NONE, LW_PSTORE_EXTERNAL, LW_PSTORE_JOURNAL };

struct lw_pstore_conf {
	int unlink;                       /* -1 unset, else 0 or 1 */
	enum lw_pstore_storage storage;
	unsigned bad_lines;               /* values systemd would refuse (it keeps its default) */
};

void lw_pstore_conf_init(struct lw_pstore_conf *c);
/* Applies one file's text over c. */
void lw_pstore_conf_parse(const char *text, size_t len, struct lw_pstore_conf *c);
/* Whether systemd-pstore, so configured, removes what it handles from pstore (and the firmware). */
bool lw_pstore_conf_removes(const struct lw_pstore_conf *c);

#endif
