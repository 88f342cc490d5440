# ras-fdr-ctl import-config: rasdaemon's and mcelog's settings as rasd.conf lines.
ctl_ras_fdr_ctl_SOURCES += ctl/import_config.c ctl/import_config.h ctl/import_model.c \
	ctl/import_env.c ctl/import_env.h ctl/import_rasdaemon.c ctl/import_mcelog.c
EXTRA_DIST += ctl/import_config.mk
