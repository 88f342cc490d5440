/* SPDX-License-Identifier: MIT */
/*
 * Machine checks in rasdaemon's output (see rasd_text.h): the
 * "ras-mc-ctl --errors" MCE rows (util/ras-mc-ctl.in: ", name=0x%08x" for
 * each non-zero register, ", CPU <X86_VENDOR_*>", ", bank <name> (bank=<n>)")
 * and rasdaemon's mce_record log lines (ras-mce-handler.c
 * report_mce_event: ", name= %llx", the cpu_type name).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "mce_text_amd.h"
#include "rasd_text_internal.h"
#include "text_num.h"

/* The value of ", <key>=0x..." in s; false if absent. */
static bool hex_field(const char *s, const char *key, uint64_t *v)
{
	char pat[24];
	const char *f;

	snprintf(pat, sizeof(pat), ", %s=0x", key);
	f = strstr(s, pat);
	return f && text_num_prefix(f + strlen(pat) - 2, 16, v, NULL);
}

/* ", bank <name> (bank=<n>)": the SMCA bank type from its name (AMD), as the kernel's text does. */
static void mce_bank_name(struct mce_in *m, const char *s)
{
	const char *b = strstr(s, ", bank "), *paren;

	/* paren may be b + 6, the name empty (", bank (bank=N)"): nothing to name the type by. */
	if (!b || !(paren = strstr(b, " (bank=")) || paren < b + 7)
		return;
	if (mce_amd_bank_type_ipid(b + 7, (size_t)(paren - b - 7), &m->ipid))
		m->ipid_type_only = 1;
}

static void mce_fields(struct mce_in *m, const char *s)
{
	static const struct { const char *key; size_t off, size; } regs[] = {
#define R(k) { #k, offsetof(struct mce_in, k), sizeof(((struct mce_in *)0)->k) }
		R(mcgcap), R(mcgstatus), R(status), R(addr), R(misc), R(ip), R(tsc), R(walltime),
		R(ppin), R(cpu), R(cpuid), R(apicid), R(socketid), R(cs), R(bank), R(microcode),
#undef R
	};
	uint64_t v;

	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		if (!hex_field(s, regs[i].key, &v))
			continue;
		if (regs[i].size == 8)
			memcpy((char *)m + regs[i].off, &v, 8);
		else if (regs[i].size == 4)
			*(uint32_t *)((char *)m + regs[i].off) = (uint32_t)v;
		else
			*((uint8_t *)m + regs[i].off) = (uint8_t)v;
	}
}

/* Where rasdaemon's message ends: at the first part ras-mc-ctl adds after it. */
static const char *mce_message_end(const char *msg)
{
	static const char *const parts[] = {
		", CPU ", ", bank ", ", mcg ", ", mci ", ", mca ", ", mcgcap=0x", ", mcgstatus=0x", ", status=0x",
	};
	const char *end = msg + strlen(msg), *f;

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if ((f = strstr(msg, parts[i])) && f < end)
			end = f;
	return end;
}

/* "<id> <time> error: <msg>[, CPU <vendor>][, bank <name>]..., status=0x...[, ...]" */
bool rasd_mce_row(struct rasd_parser *p, const char *line)
{
	const char *id = rasd_row_id(line), *e = id ? strstr(id - 1, " error: ") : NULL, *cpu;
	struct mce_in *m = &p->rec.in.mce;
	uint64_t v;

	if (!e || !id || !strstr(e, ", status=0x"))
		return false;
	mce_fields(m, e);
	m->has_ppin = hex_field(e, "ppin", &v);
	m->has_microcode = hex_field(e, "microcode", &v);
	m->no_cpuid = !hex_field(e, "cpuid", &v);
	/* Zero registers are left out of the row; a zero status is no record. */
	if (!m->status) {
		rasd_refuse(p, "rasdaemon MCE row with a zero status");
		return true;
	}
	if ((cpu = strstr(e, ", CPU ")) && text_num_prefix(cpu + 6, 10, &v, NULL) && v < 256)
		m->cpuvendor = (uint8_t)v;
	mce_bank_name(m, e);
	rasd_note(p, 1, "timestamp", id, (size_t)(e > id ? e - id : 0));
	rasd_note(p, 2, "rasdaemon_message", e + 8, (size_t)(mce_message_end(e + 8) - e - 8));
	rasd_emit(p, RASD_TEXT_MCE, "ras-mc-ctl --errors");
	return true;
}

/*
 * rasdaemon's cpu_type names that stand for one CPUID family/model
 * (ras-mce-handler.c cputype_name and its model selection); the others
 * (client families, "AMD Scalable MCA", ...) cover several and are not
 * guessed.
 */
static const struct { const char *name; uint8_t vendor, family, model; } cpu_types[] = {
	{ "Sandy Bridge EP", 0, 6, 0x2d }, { "Ivy Bridge EP/EX", 0, 6, 0x3e },
	{ "Intel Xeon v2 (Ivy Bridge) EP/EX", 0, 6, 0x3e },
	{ "Intel Xeon v3 (Haswell) EP/EX", 0, 6, 0x3f }, { "Broadwell EP/EX", 0, 6, 0x4f },
	{ "Broadwell DE", 0, 6, 0x56 }, { "Knights Landing", 0, 6, 0x57 },
	{ "Knights Mill", 0, 6, 0x85 }, { "Skylake server", 0, 6, 0x55 },
	{ "Icelake server", 0, 6, 0x6a }, { "Icelake server D Family", 0, 6, 0x6c },
	{ "Tremont microserver", 0, 6, 0x86 }, { "Sapphirerapids server", 0, 6, 0x8f },
	{ "AMD Family 17h Zen1", 2, 0x17, 0x01 }, { "Hygon Family 18h Moksha", 9, 0x18, 0x00 },
};

static void mce_cpu_type(struct mce_in *m, const char *s)
{
	const char *t = strstr(s, ", cpu_type= "), *end;

	m->no_cpuid = 1;
	if (!t)
		return;
	t += 12;
	end = strstr(t, ", ");
	for (size_t i = 0; i < sizeof(cpu_types) / sizeof(cpu_types[0]); i++) {
		if (end && rasd_name_is(cpu_types[i].name, t, (size_t)(end - t))) {
			m->cpuvendor = cpu_types[i].vendor;
			m->cpuid = mce_cpuid_signature(cpu_types[i].family, cpu_types[i].model, 0);
			m->no_cpuid = 0;
			return;
		}
	}
}

/* ", <key>= <number>" of rasdaemon's log line (hex without 0x, or decimal). */
static bool log_field(const char *s, const char *key, unsigned base, uint64_t *v)
{
	char pat[24];
	const char *f;

	snprintf(pat, sizeof(pat), ", %s= ", key);
	f = strstr(s, pat);
	return f && text_num_prefix(f + strlen(pat), base, v, NULL);
}

static void mce_log_fields(struct mce_in *m, const char *s)
{
	uint64_t v;

	log_field(s, "misc", 16, &m->misc);
	log_field(s, "addr", 16, &m->addr);
	log_field(s, "ip", 16, &m->ip);
	log_field(s, "mcgstatus", 16, &m->mcgstatus);
	log_field(s, "mcgcap", 16, &m->mcgcap);
	m->has_synd = log_field(s, "synd", 16, &m->synd);
	if (log_field(s, "ipid", 16, &m->ipid))
		m->has_ipid = 1, m->ipid_type_only = 0;
	if (log_field(s, "cpu", 10, &v))
		m->cpu = (uint32_t)v;
	if (log_field(s, "socketid", 10, &v))
		m->socketid = (uint32_t)v;
	if (log_field(s, "apicid", 16, &v))
		m->apicid = (uint32_t)v;
	if (log_field(s, "cs", 16, &v))
		m->cs = (uint8_t)v;
}

/* The bank of "bank=<hex>, status= ..." or "<name> (bank=<dec>), status= ..."; false if unnamed. */
static bool mce_log_bank(struct mce_in *m, const char *s, const char *status)
{
	const char *paren = strstr(s, " (bank=");
	uint64_t bank;

	if (strncmp(s, "bank=", 5) == 0)
		return text_num_prefix(s + 5, 16, &bank, NULL) && bank < 256 && (m->bank = (uint8_t)bank, true);
	if (!paren || paren > status || !text_num_prefix(paren + 7, 10, &bank, NULL) || bank > 255)
		return false;
	m->bank = (uint8_t)bank;
	if (!m->has_ipid && mce_amd_bank_type_ipid(s, (size_t)(paren - s), &m->ipid))
		m->ipid_type_only = 1;
	return true;
}

/* "mce_record <time> <bank>, status= <hex>, <msg>, ..., cpu_type= <name>, cpu= <n>, ..." */
bool rasd_journal_mce(struct rasd_parser *p, const char *line)
{
	const char *stamp, *s = rasd_journal_start(line, "mce_record", &stamp);
	const char *status = s ? strstr(s, ", status= ") : NULL, *msg_end;
	struct mce_in *m = &p->rec.in.mce;

	if (!status)
		return false;
	mce_log_fields(m, s);
	mce_cpu_type(m, s);
	if (!text_num_prefix(status + 10, 16, &m->status, &msg_end) || !m->status) {
		rasd_refuse(p, "rasdaemon mce_record line without a status");
		return true;
	}
	if (!mce_log_bank(m, s, status)) {
		rasd_refuse(p, "rasdaemon mce_record line without a bank number");
		return true;
	}
	rasd_note(p, 1, "timestamp", stamp, (size_t)(s - stamp));
	if (strncmp(msg_end, ", ", 2) == 0) {
		const char *end = strstr(msg_end + 2, ", mci="), *f;

		/* The message, action and location: up to the first register-like part. */
		if ((f = strstr(msg_end + 2, ", mca=")) && (!end || f < end))
			end = f;
		if ((f = strstr(msg_end + 2, ", cpu_type= ")) && (!end || f < end))
			end = f;
		rasd_note(p, 2, "rasdaemon_message", msg_end + 2, end ? (size_t)(end - msg_end - 2) : 0);
	}
	rasd_emit(p, RASD_TEXT_MCE, "rasdaemon log (mce_record)");
	return true;
}
