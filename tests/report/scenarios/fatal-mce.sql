-- The crash the fatal machine check of fatal-mce.records caused, as rasd
-- stores what it harvests from pstore at the next boot: the panic and the
-- kernel's last hardware lines, a minute after the machine check.
INSERT INTO crashes (boot, found_ns, crash_ns, uptime_ns, backend, kind, cause, reason, detail, hw_lines, explained, ident)
 SELECT min(boot), max(wall_ns) + 600000000000, max(wall_ns) + 1000000000, 86400000000000, 'efi', 'dmesg', 'mce',
  'Kernel panic - not syncing: Fatal machine check',
  'mce: [Hardware Error]: Machine check: Processor context corrupt',
  'mce: [Hardware Error]: CPU 2: Machine Check: 0 Bank 7: be00000000800090 ADDR 0x7e5a10c0', 1, 7
 FROM mce_record;
