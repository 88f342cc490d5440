# Non-MCE decoders: PCIe AER, EDAC, CPER (extlog, non-standard, ARM), memory
# failure, devlink, block and CXL; plus their tests and fuzz targets.
# Included by the top Makefile.am; only appends.

decoders_libdecoders_a_SOURCES += \
	decoders/other_util.c decoders/other_util.h \
	decoders/aer.c decoders/aer.h \
	decoders/aer_text.c decoders/aer_text.h \
	decoders/edac.c decoders/edac.h decoders/edac_text.c decoders/edac_text.h \
	decoders/cper.c decoders/cper_arm.c decoders/cper_proc.c decoders/cper.h decoders/cper_proc.h \
	decoders/ghes_text.c decoders/ghes_text_arm.c decoders/ghes_text_proc.c decoders/ghes_text.h decoders/ghes_text_internal.h \
	decoders/rasd_text.c decoders/rasd_text_mce.c decoders/rasd_text_other.c decoders/rasd_text.h decoders/rasd_text_internal.h \
	decoders/memfail.c decoders/memfail.h \
	decoders/devlink.c decoders/devlink.h \
	decoders/blockerr.c decoders/blockerr.h \
	decoders/cxl.c decoders/cxl_cper.c decoders/cxl.h

check_PROGRAMS += tests/decoders/test-aer tests/decoders/test-edac tests/decoders/test-edac-text \
	tests/decoders/test-ghes-text tests/decoders/test-rasd-text \
	tests/decoders/test-cper tests/decoders/test-other \
	tests/decoders/test-pci-names tests/decoders/test-decode-ref
TESTS += tests/decoders/test-aer tests/decoders/test-edac tests/decoders/test-edac-text \
	tests/decoders/test-ghes-text tests/decoders/test-rasd-text \
	tests/decoders/test-cper tests/decoders/test-other \
	tests/decoders/test-pci-names tests/decoders/test-decode-ref

tests_decoders_test_decode_ref_SOURCES = tests/decoders/test-decode-ref.c tests/tap.h tests/rng.h
tests_decoders_test_decode_ref_LDADD = decoders/libdecoders.a
tests_decoders_test_aer_SOURCES = tests/decoders/test-aer.c tests/tap.h
tests_decoders_test_aer_LDADD = decoders/libdecoders.a
tests_decoders_test_edac_SOURCES = tests/decoders/test-edac.c tests/tap.h
tests_decoders_test_edac_LDADD = decoders/libdecoders.a
tests_decoders_test_edac_text_SOURCES = tests/decoders/test-edac-text.c tests/tap.h
tests_decoders_test_edac_text_LDADD = decoders/libdecoders.a
tests_decoders_test_ghes_text_SOURCES = tests/decoders/test-ghes-text.c tests/tap.h
tests_decoders_test_ghes_text_LDADD = decoders/libdecoders.a
tests_decoders_test_rasd_text_SOURCES = tests/decoders/test-rasd-text.c tests/tap.h
tests_decoders_test_rasd_text_LDADD = decoders/libdecoders.a
tests_decoders_test_cper_SOURCES = tests/decoders/test-cper.c tests/tap.h
tests_decoders_test_cper_LDADD = decoders/libdecoders.a
tests_decoders_test_other_SOURCES = tests/decoders/test-other.c tests/tap.h tests/rng.h
tests_decoders_test_other_LDADD = decoders/libdecoders.a
tests_decoders_test_pci_names_SOURCES = tests/decoders/test-pci-names.c tests/tap.h \
	lib/pci_names.c lib/pci_names.h
tests_decoders_test_pci_names_CFLAGS = $(AM_CFLAGS) $(PCI_CFLAGS)
tests_decoders_test_pci_names_LDADD = decoders/libdecoders.a $(PCI_LIBS)

EXTRA_DIST += tests/formats/linux-6.1/ras/memory_failure_event/format

FUZZ_TARGETS += fuzz/fuzz-aer-text.c fuzz/fuzz-cper.c fuzz/fuzz-arm.c fuzz/fuzz-edac-text.c fuzz/fuzz-ghes-text.c fuzz/fuzz-rasd-text.c
EXTRA_DIST += fuzz/fuzz-aer-text.c fuzz/fuzz-cper.c fuzz/fuzz-arm.c fuzz/fuzz-edac-text.c fuzz/fuzz-ghes-text.c fuzz/fuzz-rasd-text.c \
	fuzz/render_check.h fuzz/fuzz_text.h tests/decoders/said.h tests/decoders/text_got.h

# The text path of "ras-fdr-ctl decode" as a whole: every parser plus the glue
# (ctl/decode_text.c, ctl/decode_print.c, built by including them).
FUZZ_TARGETS += fuzz/fuzz-decode-glue.c
EXTRA_DIST += fuzz/fuzz-decode-glue.c tests/data/fuzz
