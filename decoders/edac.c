/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include "edac.h"
#include "other_util.h"

const struct ras_dfield edac_dfields[] = {
	RAS_DF_I(struct edac_decoded, error_type),
	RAS_DF_S(struct edac_decoded, error_type_name),
	RAS_DF_I(struct edac_decoded, error_count),
	RAS_DF_I(struct edac_decoded, mc_index),
	RAS_DF_I(struct edac_decoded, top_layer),
	RAS_DF_I(struct edac_decoded, middle_layer),
	RAS_DF_I(struct edac_decoded, lower_layer),
	RAS_DF_S(struct edac_decoded, label),
	RAS_DF_X(struct edac_decoded, address),
	RAS_DF_I(struct edac_decoded, grain),
	RAS_DF_X(struct edac_decoded, syndrome),
	RAS_DF_S(struct edac_decoded, msg),
	RAS_DF_S(struct edac_decoded, driver_detail),
};
const size_t edac_n_dfields = OU_ARRAY_SIZE(edac_dfields);

/* enum hw_event_mc_err_type (Linux include/linux/edac.h), in value order. */
static const struct {
	char name[16];              /* as error_type_name holds it, copied whole */
	enum ras_severity severity;
	const char *advice;
} edac_types[] = {
	[EDAC_ERR_CORRECTED] = { "corrected", RAS_SEV_CORRECTED,
		"no data lost; replace the DIMM if its corrected count keeps rising" },
	[EDAC_ERR_UNCORRECTED] = { "uncorrected", RAS_SEV_UNCORRECTED,
		"data was lost; replace or reseat the DIMM" },
	[EDAC_ERR_DEFERRED] = { "deferred", RAS_SEV_DEFERRED,
		"poisoned data not yet consumed; plan to replace the DIMM" },
	[EDAC_ERR_FATAL] = { "fatal", RAS_SEV_FATAL,
		"the system could not continue safely; replace the DIMM" },
	[EDAC_ERR_INFO] = { "info", RAS_SEV_INFO, NULL },
};

const char *edac_error_type_name(uint32_t error_type)
{
	if (error_type >= OU_ARRAY_SIZE(edac_types))
		return NULL;
	return edac_types[error_type].name;
}

bool edac_label_is_specific(const char *label)
{
	return label[0] && strcmp(label, "any memory") != 0 &&
	       strcmp(label, "unknown memory") != 0;
}

/* edac_label_is_specific for a label of known length n: compares of known size, no strcmp. */
static bool label_is_specific_n(const char *label, size_t n)
{
	return n && !(n == sizeof("any memory") - 1 && !memcmp(label, "any memory", n)) &&
	       !(n == sizeof("unknown memory") - 1 && !memcmp(label, "unknown memory", n));
}

/* label_len: strlen(out->label), known from the copy. */
static void write_location(const struct edac_in *in, struct edac_decoded *out, size_t label_len)
{
	const int8_t layer[3] = { in->top_layer, in->middle_layer, in->lower_layer };
	struct ou_buf loc = ou_start(out->location, sizeof(out->location));
	int named = in->layer_name[0] != NULL, last = -1;

	for (int i = 0; i < 3; i++)
		if (layer[i] >= 0)
			last = i;
	if (in->no_mc) {
		ou_put(&loc, out->label[0] ? out->label : "unknown memory");
		return;
	}
	/* Built at every record, so without printf. */
	ou_put_lit(&loc, "mc");
	ou_put_small(&loc, in->mc_index);
	for (int i = 0; i <= last; i++) {
		if (named && layer[i] < 0)
			continue;
		if (named) {
			ou_put_lit(&loc, ", ");
			ou_put(&loc, in->layer_name[i] ? in->layer_name[i] : "layer");
			ou_put_lit(&loc, " ");
		} else if (i) {
			ou_put_lit(&loc, ":");
		} else {
			ou_put_lit(&loc, ", layers ");
		}
		ou_put_small(&loc, layer[i]);
	}
	/* The label whole or not at all: the sentence names one too long for the location. */
	if (label_is_specific_n(out->label, label_len) &&
	    loc.at + label_len + 3 < sizeof(out->location)) {
		ou_put_lit(&loc, " (");
		ou_put_n(&loc, out->label, label_len);
		ou_put_lit(&loc, ")");
	}
}

/* Whether the location names the label whole (write_location). */
static bool location_has_label(const struct edac_decoded *d, const char *label)
{
	size_t nl = strlen(d->location), n = strlen(label);

	if (!strcmp(d->location, label))
		return true;
	return nl >= n + 3 && !strcmp(d->location + nl - 1, ")") &&
	       !strncmp(d->location + nl - n - 3, " (", 2) && !strncmp(d->location + nl - n - 1, label, n);
}

/*
 * msg and driver_detail restate raw tracepoint text, so a struct rebuilt from
 * a database may hold them unfiltered; the copy filters them the same way
 * decoding did.
 */
void edac_render(const struct edac_decoded *d, char *buf, size_t len)
{
	char msg[sizeof(d->msg)], detail[sizeof(d->driver_detail)], label[sizeof(d->label)];
	const char *advice = NULL;
	struct ou_buf b;

	if (!buf || !len)
		return;
	b = ou_start(buf, len);
	/* Nothing known (no record): the caller says it could not be decoded. */
	if (!d || d->error_type == RAS_DF_NONE)
		return;
	if (d->error_type >= 0 && d->error_type < (int64_t)OU_ARRAY_SIZE(edac_types))
		advice = edac_types[d->error_type].advice;
	/* Rendered for every record --part attaches (100,000 of them): without printf. */
	if (d->error_type_name[0]) {
		char first = (char)toupper((unsigned char)d->error_type_name[0]);

		ou_put_n(&b, &first, 1);
		ou_put(&b, d->error_type_name + 1);
		ou_put_lit(&b, " memory error");
	} else {
		ou_put_lit(&b, "Memory error of type ");
		ou_put_uint(&b, (unsigned)d->error_type);
	}
	ou_put_lit(&b, " at ");
	ou_put(&b, d->location);
	/* A count of 0 is one error the driver did not count (edac_errors_of). */
	if (d->error_count == 0) {
		ou_put_lit(&b, ": 1 error (the driver gave no count)");
	} else {
		ou_put_lit(&b, ": ");
		ou_put_uint(&b, (unsigned)d->error_count);
		if (d->error_count == 1)
			ou_put_lit(&b, " error");
		else
			ou_put_lit(&b, " errors");
	}
	ou_copy(label, sizeof(label), d->label, sizeof(d->label));
	if (edac_label_is_specific(label) && !location_has_label(d, label)) {
		ou_put_lit(&b, ", DIMM ");
		ou_put(&b, label);
	}
	if (d->address != RAS_DF_NONE) {
		ou_put_lit(&b, ", address ");
		ou_put_hex(&b, (unsigned long long)d->address);
	}
	if (d->grain != RAS_DF_NONE) {
		ou_put_lit(&b, ", grain ");
		ou_put_int(&b, (long long)d->grain);
		ou_put_lit(&b, " bytes");
	}
	if (d->syndrome != RAS_DF_NONE) {
		ou_put_lit(&b, ", syndrome ");
		ou_put_hex(&b, (unsigned long long)d->syndrome);
	}
	ou_copy(msg, sizeof(msg), d->msg, sizeof(d->msg));
	ou_copy(detail, sizeof(detail), d->driver_detail, sizeof(d->driver_detail));
	if (msg[0]) {
		ou_put_lit(&b, ", ");
		ou_put(&b, msg);
	}
	if (detail[0]) {
		ou_put_lit(&b, " [");
		ou_put(&b, detail);
		ou_put_lit(&b, "]");
	}
	if (advice) {
		ou_put_lit(&b, "; ");
		ou_put(&b, advice);
	}
}

/*
 * Every byte of out written at every record: all zero, then each RAS_DF_INT
 * member (edac_dfields) set below, to RAS_DF_NONE where unknown.
 */
int edac_decode(const struct edac_in *in, struct edac_decoded *out)
{
	size_t label_len;

	if (!out)
		return -EINVAL;
	ou_bytes_zero(out, sizeof(*out));
	out->address = out->grain = out->syndrome = RAS_DF_NONE;
	if (!in) {
		out->error_type = out->error_count = out->mc_index = RAS_DF_NONE;
		out->top_layer = out->middle_layer = out->lower_layer = RAS_DF_NONE;
		return -EINVAL;
	}
	out->error_type = in->error_type;
	out->severity = RAS_SEV_UNKNOWN;
	if (in->error_type < OU_ARRAY_SIZE(edac_types)) {
		_Static_assert(sizeof(out->error_type_name) == sizeof(edac_types[0].name), "copied whole");
		memcpy(out->error_type_name, edac_types[in->error_type].name, sizeof(out->error_type_name));
		out->severity = edac_types[in->error_type].severity;
	}
	out->error_count = in->error_count;
	out->mc_index = in->mc_index;
	out->top_layer = in->top_layer >= 0 ? in->top_layer : RAS_DF_NONE;
	out->middle_layer = in->middle_layer >= 0 ? in->middle_layer : RAS_DF_NONE;
	out->lower_layer = in->lower_layer >= 0 ? in->lower_layer : RAS_DF_NONE;
	label_len = ou_copy(out->label, sizeof(out->label), in->label, in->label_len);
	if (in->no_mc)
		out->mc_index = out->top_layer = out->middle_layer = out->lower_layer = RAS_DF_NONE;
	if (!in->no_address) {
		out->address = in->address;
		if (in->grain_bits < 63)
			out->grain = INT64_C(1) << in->grain_bits;
		out->syndrome = in->syndrome;
	}
	ou_copy(out->msg, sizeof(out->msg), in->msg, in->msg_len);
	ou_copy(out->driver_detail, sizeof(out->driver_detail), in->driver_detail,
		in->driver_detail_len);
	write_location(in, out, label_len);
	return 0;
}
