/* SPDX-License-Identifier: MIT */
/*
 * PCIe Advanced Error Reporting: the ras:aer_event tracepoint, the AER
 * status registers and the logged TLP header.
 */
#ifndef RAS_AER_H
#define RAS_AER_H

#include <stddef.h>
#include <stdint.h>
#include "severity.h"
#include "dfield.h"

/* ras:aer_event "severity" values (include/ras/ras_event.h, enum aer_severity). */
#define AER_TP_NONFATAL 0
#define AER_TP_FATAL 1
#define AER_TP_CORRECTED 2

struct aer_in {
	/* tracepoint fields */
	const char *dev_name;   /* "0000:00:1c.0", not necessarily NUL-terminated */
	size_t dev_name_len;
	uint32_t status;        /* already masked by the kernel */
	uint8_t severity;       /* AER_TP_* */
	uint8_t tlp_header_valid;
	uint32_t tlp_header[4];
	/* Optional extras: the dmesg parser or caller fills these when known. */
	unsigned has_mask : 1, has_first_error : 1, has_pci_id : 1;
	uint32_t mask;          /* the error mask register; status is then unmasked raw */
	uint8_t first_error;    /* bit number of the First Error Pointer */
	uint16_t vendor_id, device_id;
	const char *dev_desc;   /* e.g. from pci_describe(); may be NULL */
	size_t dev_desc_len;
	const char *bus_type;   /* proposed newer field, "PCIe" or "CXL"; may be NULL */
	size_t bus_type_len;
};

struct aer_decoded {
	RAS_DECODED_HEAD;
	/*
	 * ras:aer_event's dev_name is pci_name(): "%04x:%02x:%02x.%d"
	 * (drivers/pci/probe.c pci_setup_device), at most 16 characters with an
	 * eight-digit domain; held with room to spare.
	 */
	char dev_name[64];
	char dev_desc[160];       /* the caller's name for the device (pci.ids), "" if none */
	char bus_type[8];
	int64_t aer_severity;     /* raw tracepoint value */
	char error_class[24];     /* "corrected", "uncorrected non-fatal", "fatal" */
	int64_t status;           /* raw status as given */
	char errors[320];         /* names of status bits not masked */
	char kernel_names[160];   /* the same bits as Linux names them in dmesg: "RxErr, BadTLP" */
	int64_t mask;
	char masked_errors[320];  /* names of status bits that are masked */
	int64_t first_error;
	int64_t vendor_id;
	int64_t device_id;
	char tlp_header_text[40];      /* "04000001 0000200f 03071800 00000000" */
	char tlp_type[24];        /* "CfgRd0", "MWr (64-bit)", ... */
	char tlp_requester[16];   /* BDF, domain taken from dev_name */
	int64_t tlp_tag;
	int64_t tlp_address;
	char tlp_completer[16];
	char tlp_detail[160];     /* one line describing the TLP */
};
RAS_DECODED_CHECK(struct aer_decoded);

extern const struct ras_dfield aer_dfields[];
extern const size_t aer_n_dfields;

int aer_decode(const struct aer_in *in, struct aer_decoded *out);
/*
 * The one-sentence description of d, built from d->head and the members
 * listed in aer_dfields alone (pure). Always NUL-terminates buf.
 */
void aer_render(const struct aer_decoded *d, char *buf, size_t len);

/*
 * Writes the names of the set bits of an AER status register, ", "-joined;
 * correctable selects the Correctable (else Uncorrectable) Error Status
 * Register. Unnamed bits are written as "bit N". Returns 0 or -EINVAL.
 */
int aer_decode_status(uint32_t status, int correctable, char *out, size_t len);
/* Name of one status bit, or NULL when the specification defines none. */
const char *aer_status_bit_name(unsigned bit, int correctable);
/* Linux's short dmesg name for a status bit ("RxErr"), or NULL. */
const char *aer_status_bit_short(unsigned bit, int correctable);

enum aer_tlp_kind {
	AER_TLP_UNKNOWN = 0,
	AER_TLP_MEM,
	AER_TLP_IO,
	AER_TLP_CFG,
	AER_TLP_MSG,
	AER_TLP_CPL,
	AER_TLP_ATOMIC,
	AER_TLP_PREFIX,
};

/* A TLP header (non-Flit mode) taken apart; see PCIe Base Spec r6.0 2.2. */
struct aer_tlp {
	enum aer_tlp_kind kind;
	const char *name;        /* "MRd", "CplD", ...; "unknown" if reserved */
	uint8_t fmt, type;
	unsigned header_dw;      /* 3 or 4 */
	unsigned length_dw;      /* payload length in DW (0 encodes 1024) */
	uint8_t tc, attr, at;
	uint8_t td, ep;
	uint16_t requester_id;   /* bus << 8 | dev << 3 | fn */
	uint16_t tag;            /* up to 10 bits */
	uint8_t first_be, last_be;
	int has_address;
	uint64_t address;
	uint16_t completer_id;   /* completions */
	uint8_t cpl_status;
	const char *cpl_status_name;
	uint16_t byte_count;
	uint8_t lower_address;
	uint16_t cfg_target_id;  /* configuration requests */
	uint16_t cfg_register;   /* byte offset */
	uint8_t msg_code;        /* messages */
	const char *msg_name;    /* NULL if not a named message code */
};

/* Decodes tlp[0..3] as logged in the AER Header Log registers. Returns 0. */
int aer_tlp_decode(const uint32_t tlp[4], struct aer_tlp *out);
/* Formats a routing id as "bb:dd.f". */
void aer_format_rid(uint16_t rid, char *out, size_t len);

#endif
