/* SPDX-License-Identifier: MIT */
/*
 * The flight-recorder snapshot container: a magic string followed by
 * sections (metadata text, header_page, event formats, per-CPU raw
 * sub-buffers), stored zlib-compressed in the database. Section headers are
 * little-endian whatever the host, so a database copied to another machine
 * can still be parsed; the sub-buffers keep the capturing kernel's byte
 * order, which the metadata records.
 */
#ifndef RAS_FDR_BLOB_H
#define RAS_FDR_BLOB_H

#include <stddef.h>
#include <stdint.h>

#define FDR_BLOB_MAGIC "RASFDR\0\1"
#define FDR_BLOB_MAGIC_LEN 8
/* Refuse to inflate anything larger: no sane flight recorder is this big. */
#define FDR_BLOB_MAX_RAW ((size_t)1 << 30)

enum fdr_section_kind {
	FDR_SEC_META = 1,        /* "key=value\n" lines */
	FDR_SEC_HEADER_PAGE = 2, /* events/header_page */
	FDR_SEC_FORMAT = 3,      /* "system\0" then events/SYSTEM/EVENT/format */
	FDR_SEC_PAGES = 4,       /* aux = cpu; whole sub-buffers */
};

struct fdr_blob {
	uint8_t *data;
	size_t len, cap;
	size_t open_section;  /* offset of the section being appended to, or 0 */
	int err;              /* first error; later calls do nothing */
};

struct fdr_section {
	uint32_t kind, aux;
	const uint8_t *data;
	uint32_t len;
};

void fdr_blob_init(struct fdr_blob *b);
void fdr_blob_free(struct fdr_blob *b);
/* Adds a whole section. Errors are kept in b->err. */
void fdr_blob_add(struct fdr_blob *b, uint32_t kind, uint32_t aux, const void *data, size_t len);
/* Starts a section whose contents are appended in pieces, then fdr_blob_end. */
void fdr_blob_begin(struct fdr_blob *b, uint32_t kind, uint32_t aux);
/* Room for n more bytes of the open section; commit them with fdr_blob_commit. */
uint8_t *fdr_blob_reserve(struct fdr_blob *b, size_t n);
void fdr_blob_commit(struct fdr_blob *b, size_t n);
/* Closes the open section; an empty one is dropped when drop_empty. */
void fdr_blob_end(struct fdr_blob *b, int drop_empty);

/* zlib in and out. decompress checks that exactly raw_size bytes come out. */
int fdr_blob_compress(const struct fdr_blob *b, uint8_t **out, size_t *outlen);
int fdr_blob_decompress(const void *z, size_t zlen, size_t raw_size, uint8_t **out);

/* 0 when buf starts with the magic, -EINVAL otherwise. */
int fdr_blob_check(const uint8_t *buf, size_t len);
/* Walks sections from *pos (start at FDR_BLOB_MAGIC_LEN): 1 = *s filled, 0 = end, -EINVAL. */
int fdr_blob_next(const uint8_t *buf, size_t len, size_t *pos, struct fdr_section *s);
/* Copies the value of key from a META section; -ENOENT when absent. */
int fdr_meta_get(const struct fdr_section *meta, const char *key, char *out, size_t outlen);

#endif
