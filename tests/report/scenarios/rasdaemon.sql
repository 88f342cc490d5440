-- A rasdaemon 0.8 database (its schema: tests/fleet/rasdaemon-0.8.sql) as
-- a machine without ras-fdr left it: corrected errors on one DIMM over two
-- days, an uncorrected one on another, a PCIe device's corrected errors and
-- a page offlined; imported with ras-fdr-ctl import rasdaemon.
INSERT INTO mc_event VALUES (NULL, '2025-06-01 10:00:00 +0000', 3, 'Corrected', 'memory read error', 'DIMM_P1_A1', 0, 0, 0, -1, 4096, 6, 0, 'rank:0 row:0x1a2b');
INSERT INTO mc_event VALUES (NULL, '2025-06-01 22:00:00 +0000', 2, 'Corrected', 'memory read error', 'DIMM_P1_A1', 0, 0, 0, -1, 4160, 6, 0, 'rank:0 row:0x1a2b');
INSERT INTO mc_event VALUES (NULL, '2025-06-02 09:30:00 +0000', 4, 'Corrected', 'memory read error', 'DIMM_P1_A1', 0, 0, 0, -1, 4224, 6, 0, 'rank:0 row:0x1a2b');
INSERT INTO mc_event VALUES (NULL, '2025-06-02 11:00:00 +0000', 1, 'Uncorrected', 'memory scrub error', 'DIMM_P1_B1', 0, 1, 0, -1, 8192, 12, 7, '');
INSERT INTO aer_event VALUES (NULL, '2025-06-01 12:00:00 +0000', '0000:5e:00.0', 'Corrected', 'Receiver Error');
INSERT INTO aer_event VALUES (NULL, '2025-06-01 12:00:05 +0000', '0000:5e:00.0', 'Corrected', 'Bad TLP');
INSERT INTO memory_failure_event VALUES (NULL, '2025-06-02 11:00:01 +0000', '0x2a1f0', 'dirty LRU page', 'Recovered');
