# SPDX-License-Identifier: MIT
# values.sh - what the QEMU scenarios inject. Sourced by the guest script
# (busybox sh) and by the host checks (bash), so both sides agree.

# mce_qemu_ce: QEMU HMP "mce CPU BANK STATUS MCGSTATUS ADDR MISC", corrected,
# found by the kernel's polling timer (check_interval=1).
QCE_CPU=0 QCE_BANK=1 QCE_STATUS=0x9c00000000010090 QCE_MCG=0x0
QCE_ADDR=0x2345000 QCE_MISC=0x8c

# mce_qemu_srao: QEMU HMP "mce -b ...", uncorrected SRAO (memory scrubbing,
# MCACOD 0xc0) broadcast to all CPUs: a real #MC, then memory_failure() on
# ADDR's page.
QSRAO_CPU=0 QSRAO_BANK=1 QSRAO_STATUS=0xbd000000000000c0 QSRAO_MCG=0x5
QSRAO_ADDR=0x33000000 QSRAO_MISC=0x8c QSRAO_PFN=0x33000

# mce_inject_sw: ras-fdr-ctl inject mce (mce-inject, flags=sw)
SW_CPU=1 SW_BANK=2 SW_STATUS=0x9c00000000010091 SW_ADDR=0x3456000 SW_MISC=0x8c
SW_SYND=0x5a5a SW_IPID=0x1234000000

# restart: four sw injections A..D, B and C while rasd is stopped
RST_BANK=4 RST_STATUS=0x9c0000000001009e
RST_ADDR_A=0xa1000 RST_ADDR_B=0xa2000 RST_ADDR_C=0xa3000 RST_ADDR_D=0xa4000

# storm: COUNT sw injections in one burst into a small rasd buffer
STORM_BANK=5 STORM_STATUS=0x9000000000000e0b STORM_COUNT=3000 STORM_BUF_KB=16

# aer: QEMU's pcie_aer_inject_error on virtio-net-pci,aer=on (vnet0 = 02:00.0),
# then aer_inject on the e1000e (01:00.0) and its root port (00:1c.0)
AERQ_DEV=0000:02:00.0 AERQ_STATUS=0x100000
AERQ_TLP="0x40000001 0x0000000f 0xfee00000 0x0"
AER_EP=0000:01:00.0 AER_RP=0000:00:1c.0
AER_COR_STATUS=0x1 AER_RP_COR_STATUS=0x40
AER_NF_STATUS=0x100000 AER_NF_TLP=0x4a000001,0x0100000f,0xfedcba98,0x00000000
AER_FATAL_STATUS=0x10

# module events (tests/qemu/module): mc_event CE and UE
MC_CE="0 1 0x12345 0x678 0x55 1 0 -1 rasfdr ce read"
MC_UE="1 2 0x23456 0x0 0x0 0 1 -1 rasfdr ue write"
EXTLOG="2 7 0x12345678 2"
NONSTD="1 16"
ARM="0x80000101 0x410fd0c0 1 0 1"
DEVLINK_MSG="rasfdr health event"

# actions: a real soft offline, a real CPU offline and their triggers.
# rasd's thresholds for that session; the page one is crossed by one mc_event
# (error_count ACT_PAGE_ERRORS) at the page tests/qemu/guest/pagehold.c holds,
# the CPU one by ACT_CPU_ERRORS corrected TLB errors (MCACOD 0x0011: a core
# bank's error, instruction TLB, level 1) on ACT_CPU, the guest's second vCPU.
ACT_THRESHOLD=3/1h ACT_PAGE_ERRORS=3 ACT_PAGE_OFFSET=0x40
ACT_CPU=1 ACT_CPU_BANK=0 ACT_CPU_STATUS=0x9000000000000011 ACT_CPU_ERRORS=3

# import_rasdaemon_real (guest/rasdaemon-real.sh, check-rasdaemon.sh): errors
# recorded by Debian's real rasdaemon, then imported by ras-fdr-ctl
RDM_MC_CE="0 1 0x4321 0x100 0x77 1 1 -1 rdm ce read"
RDM_MC_UE="1 1 0x5432 0x0 0x0 0 0 -1 rdm ue write"
RDM_EXTLOG="2 9 0x7654000 2"
RDM_AER_STATUS=0x80
RDM_MCE_CPU=0 RDM_MCE_BANK=3 RDM_MCE_STATUS=0x9c00000000010092 RDM_MCE_ADDR=0x6543000
RDM_MCE_MISC=0x8c

# crash (guest/crash.sh, check-crash.sh): the fatal machine check that ends
# the first boot, QEMU HMP "mce -b CPU BANK STATUS MCGSTATUS ADDR MISC": an
# uncorrected memory read error (MCACOD 0x0093: channel 3) with processor
# context corrupt (PCC), broadcast; mce_panic() writes it to ERST and panics.
CRASH_CPU=0 CRASH_BANK=7 CRASH_STATUS=0xbe00000000000093 CRASH_MCG=0x5
CRASH_ADDR=0x12345000 CRASH_MISC=0x8c
# health: a failing row on RASFDR_CH1_DIMM0 (mc0 1:0:-1) and a failing bank on
# RASFDR_CH0_DIMM1 (mc0 0:1:-1), skx-style driver_detail, in two bursts
# HEALTH_GAP seconds apart; rasd counts errors that far apart as permanent.
HEALTH_PERMANENT=2s HEALTH_GAP=3
HEALTH_ROW_LAYERS="1 0 -1" HEALTH_ROW=0x2b4c HEALTH_ROW_COLS="0x10 0x48 0x80 0x118 0x1f0 0x228 0x300 0x3a8"
HEALTH_BANK_LAYERS="0 1 -1"
HEALTH_BANK_CELLS="0x1111:0x20 0x2345:0x98 0x4a0b:0x1c0 0x6c3d:0x2e8 0x8123:0x3f0 0x9e77:0x88"
