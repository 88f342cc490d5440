// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * rasfdr_testmod - ras-fdr's real-kernel test module (tests/qemu only).
 *
 * Raises the RAS tracepoints that QEMU's emulated hardware cannot reach, each
 * through the running kernel's own code, so the record layout is exactly the
 * kernel's:
 *
 *   mc_event              EDAC core: a memory controller registered with
 *                         edac_mc_add_mc_with_groups(), edac_mc_handle_error()
 *   extlog_mem_event      the exported tracepoint trace_extlog_mem_event()
 *   non_standard_event    the exported tracepoint trace_non_standard_event()
 *   arm_event             the exported tracepoint trace_arm_event()
 *   devlink_health_report devlink core: devlink_health_report() on a reporter
 *   net_dev_xmit_timeout  the net core's transmit watchdog (dev_watchdog()) on
 *                         a device of this module whose queue never wakes
 *
 * and a helper for QEMU's pcie_aer_inject_error, which only sends error
 * messages when the endpoint's DevCtl reporting bits and SERR# are on:
 *
 *   ereport               pcie_capability_set_word(DEVCTL, CERE|NFERE|FERE|URRE)
 *
 * One write-only file, /sys/kernel/debug/rasfdr_testmod/cmd, takes one
 * command per write; the first word selects it:
 *
 *   mc TYPE COUNT PFN OFFSET SYNDROME TOP MID LOW [MSG]   (numbers: C syntax)
 *   mcd TYPE COUNT PFN OFFSET SYNDROME TOP MID LOW DETAIL (the driver's detail, as skx writes it)
 *   extlog SEV SEQ PA ETYPE
 *   nonstd SEV LEN                  (payload bytes 0xa0, 0xa1, ...)
 *   arm MPIDR MIDR RUNNING_STATE PSCI_STATE AFFINITY
 *   devlink MSG
 *   ereport DDDD:BB:DD.F
 *   xmit_timeout                    (registers rasfdr0 at the first one)
 */
#include <linux/module.h>
#include <linux/version.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/platform_device.h>
#include <linux/pci.h>
#include <linux/uaccess.h>
#include <linux/edac.h>
#include <linux/cper.h>
#include <linux/uuid.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/devlink.h>
#include <ras/ras_event.h>

/* Exported by the EDAC core; drivers/edac/edac_mc.h is not in linux-headers. */
struct mem_ctl_info *edac_mc_alloc(unsigned int mc_num, unsigned int n_layers,
				   struct edac_mc_layer *layers, unsigned int sz_pvt);
int edac_mc_add_mc_with_groups(struct mem_ctl_info *mci,
			       const struct attribute_group **groups);
struct mem_ctl_info *edac_mc_del_mc(struct device *dev);
void edac_mc_free(struct mem_ctl_info *mci);
void edac_mc_handle_error(const enum hw_event_mc_err_type type,
			  struct mem_ctl_info *mci, const u16 error_count,
			  const unsigned long page_frame_number,
			  const unsigned long offset_in_page,
			  const unsigned long syndrome, const int top_layer,
			  const int mid_layer, const int low_layer,
			  const char *msg, const char *other_detail);

#define DRV "rasfdr_testmod"
#define CMD_MAX 256

static struct platform_device *tm_pdev;
static struct mem_ctl_info *tm_mci;
static struct devlink *tm_devlink;
static struct devlink_health_reporter *tm_reporter;
static struct dentry *tm_dir;

/* Section type and FRU id used by the CPER-based events (fixed, so testable). */
static const guid_t tm_sec = GUID_INIT(0x3c4a5b6d, 0x7e8f, 0x4091, 0xa2, 0xb3,
				       0xc4, 0xd5, 0xe6, 0xf7, 0x08, 0x19);
static const guid_t tm_fru = GUID_INIT(0x01234567, 0x89ab, 0x4cde, 0x8f, 0x01,
				       0x23, 0x45, 0x67, 0x89, 0xab, 0xcd);

static int cmd_mc(char *args)
{
	unsigned long pfn, off, synd;
	int type, count, top, mid, low, n = 0;

	if (sscanf(args, "%i %i %li %li %li %i %i %i %n", &type, &count, &pfn, &off,
		   &synd, &top, &mid, &low, &n) < 8)
		return -EINVAL;
	if (type < HW_EVENT_ERR_CORRECTED || type > HW_EVENT_ERR_INFO || count < 1)
		return -EINVAL;
	edac_mc_handle_error(type, tm_mci, count, pfn, off, synd, top, mid, low,
			     n ? args + n : "", DRV);
	return 0;
}

/* As mc, the rest of the line the driver's detail (driver_detail), the message fixed. */
static int cmd_mcd(char *args)
{
	unsigned long pfn, off, synd;
	int type, count, top, mid, low, n = 0;

	if (sscanf(args, "%i %i %li %li %li %i %i %i %n", &type, &count, &pfn, &off,
		   &synd, &top, &mid, &low, &n) < 8 || !n)
		return -EINVAL;
	if (type < HW_EVENT_ERR_CORRECTED || type > HW_EVENT_ERR_INFO || count < 1)
		return -EINVAL;
	edac_mc_handle_error(type, tm_mci, count, pfn, off, synd, top, mid, low,
			     "memory read error", args + n);
	return 0;
}

static int cmd_extlog(char *args)
{
	struct cper_sec_mem_err mem = {};
	unsigned int sev, seq, etype;
	unsigned long long pa;

	if (sscanf(args, "%u %u %lli %u", &sev, &seq, &pa, &etype) < 4)
		return -EINVAL;
	mem.validation_bits = CPER_MEM_VALID_ERROR_TYPE | CPER_MEM_VALID_PA |
			      CPER_MEM_VALID_PA_MASK | CPER_MEM_VALID_NODE |
			      CPER_MEM_VALID_CARD | CPER_MEM_VALID_MODULE |
			      CPER_MEM_VALID_BANK | CPER_MEM_VALID_ROW |
			      CPER_MEM_VALID_COLUMN;
	mem.error_type = etype;
	mem.physical_addr = pa;
	mem.physical_addr_mask = ~0xfffULL;
	mem.node = 3;
	mem.card = 1;
	mem.module = 7;
	mem.bank = 2;
	mem.row = 0x1234;
	mem.column = 0x56;
	trace_extlog_mem_event(&mem, seq, &tm_fru, "RASFDR FRU", sev);
	return 0;
}

static int cmd_nonstd(char *args)
{
	unsigned int sev, len, i;
	u8 payload[64];

	if (sscanf(args, "%u %u", &sev, &len) < 2 || len > sizeof(payload))
		return -EINVAL;
	for (i = 0; i < len; i++)
		payload[i] = 0xa0 + i;
	trace_non_standard_event(&tm_sec, &tm_fru, "RASFDR FRU", sev, payload, len);
	return 0;
}

static int cmd_arm(char *args)
{
	struct cper_sec_proc_arm proc = {};
	unsigned long long mpidr, midr;
	unsigned int rs, psci, aff;

	if (sscanf(args, "%lli %lli %i %i %i", &mpidr, &midr, &rs, &psci, &aff) < 5)
		return -EINVAL;
	proc.validation_bits = CPER_ARM_VALID_MPIDR | CPER_ARM_VALID_AFFINITY_LEVEL |
			       CPER_ARM_VALID_RUNNING_STATE;
	proc.mpidr = mpidr;
	proc.midr = midr;
	proc.running_state = rs;
	proc.psci_state = psci;
	proc.affinity_level = aff;
	proc.section_length = sizeof(proc);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	/* 6.12 (run.sh --kernel 6.12): the error-information buffers and severity */
	trace_arm_event(&proc, NULL, 0, NULL, 0, NULL, 0, 0, 0);
#else
	trace_arm_event(&proc);
#endif
	return 0;
}

static int cmd_devlink(char *args)
{
	int ret = devlink_health_report(tm_reporter, args, NULL);

	/* -ECANCELED: grace period; the tracepoint fired anyway */
	return ret == -ECANCELED ? 0 : ret;
}

static int cmd_ereport(char *args)
{
	unsigned int dom, bus, dev, fn;
	struct pci_dev *pdev;
	int ret;

	if (sscanf(args, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) < 4)
		return -EINVAL;
	pdev = pci_get_domain_bus_and_slot(dom, bus, PCI_DEVFN(dev, fn));
	if (!pdev)
		return -ENODEV;
	ret = pcie_capability_set_word(pdev, PCI_EXP_DEVCTL,
				       PCI_EXP_DEVCTL_CERE | PCI_EXP_DEVCTL_NFERE |
				       PCI_EXP_DEVCTL_FERE | PCI_EXP_DEVCTL_URRE);
	if (!ret)
		ret = pci_write_config_word(pdev, PCI_COMMAND,
					    pdev->current_state == PCI_D0 ?
					    PCI_COMMAND_SERR | PCI_COMMAND_MEMORY |
					    PCI_COMMAND_MASTER : PCI_COMMAND_SERR);
	if (!ret && pdev->aer_cap) {
		/* clear stale status so each injection starts clean (RW1C) */
		pci_write_config_dword(pdev, pdev->aer_cap + PCI_ERR_UNCOR_STATUS, ~0u);
		pci_write_config_dword(pdev, pdev->aer_cap + PCI_ERR_COR_STATUS, ~0u);
	}
	pci_dev_put(pdev);
	return ret ? -EIO : 0;
}

/*
 * A network device whose transmit queue stops at its first packet and is
 * woken only by the watchdog's timeout: the net core's dev_watchdog() finds
 * it stopped past watchdog_timeo, fires net_dev_xmit_timeout and calls
 * ndo_tx_timeout, which wakes it (one timeout per command).
 */
static struct net_device *tm_netdev;

static netdev_tx_t tm_xmit(struct sk_buff *skb, struct net_device *dev)
{
	netif_stop_queue(dev);
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static void tm_tx_timeout(struct net_device *dev, unsigned int txqueue)
{
	netif_wake_queue(dev);
}

static const struct net_device_ops tm_netdev_ops = {
	.ndo_start_xmit = tm_xmit,
	.ndo_tx_timeout = tm_tx_timeout,
};

static int tm_netdev_init(void)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0x52, 0x41, 0x53, 0x46, 0x44 };
	struct net_device *dev = alloc_etherdev(0);
	int ret;

	if (!dev)
		return -ENOMEM;
	strscpy(dev->name, "rasfdr%d", sizeof(dev->name));
	dev->netdev_ops = &tm_netdev_ops;
	dev->watchdog_timeo = HZ / 5;
	eth_hw_addr_set(dev, mac);
	/* The tracepoint names the driver of the parent: this module's bound platform device. */
	SET_NETDEV_DEV(dev, &tm_pdev->dev);
	ret = register_netdev(dev);
	if (ret) {
		free_netdev(dev);
		return ret;
	}
	rtnl_lock();
	ret = dev_open(dev, NULL);
	rtnl_unlock();
	if (ret) {
		unregister_netdev(dev);
		free_netdev(dev);
		return ret;
	}
	tm_netdev = dev;
	return 0;
}

static int cmd_xmit_timeout(char *args)
{
	struct sk_buff *skb;
	struct ethhdr *eth;
	int ret;

	if (!tm_netdev && (ret = tm_netdev_init()))
		return ret;
	skb = alloc_skb(ETH_ZLEN, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	eth = skb_put_zero(skb, ETH_ZLEN);
	eth_broadcast_addr(eth->h_dest);
	ether_addr_copy(eth->h_source, tm_netdev->dev_addr);
	eth->h_proto = htons(ETH_P_802_3_MIN);
	skb->dev = tm_netdev;
	skb->protocol = eth->h_proto;
	skb_reset_mac_header(skb);
	return dev_queue_xmit(skb) == NET_XMIT_SUCCESS ? 0 : -EIO;
}

static const struct {
	const char *name;
	int (*fn)(char *args);
} tm_cmds[] = {
	{ "mc", cmd_mc }, { "mcd", cmd_mcd }, { "extlog", cmd_extlog }, { "nonstd", cmd_nonstd },
	{ "arm", cmd_arm }, { "devlink", cmd_devlink }, { "ereport", cmd_ereport },
	{ "xmit_timeout", cmd_xmit_timeout },
};

static ssize_t tm_cmd_write(struct file *f, const char __user *ubuf, size_t len,
			    loff_t *off)
{
	char buf[CMD_MAX], *args;
	size_t i, wl;
	int ret;

	if (len >= sizeof(buf))
		return -E2BIG;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	args = strim(buf);
	wl = strcspn(args, " ");
	for (i = 0; i < ARRAY_SIZE(tm_cmds); i++) {
		if (strlen(tm_cmds[i].name) != wl || strncmp(args, tm_cmds[i].name, wl))
			continue;
		ret = tm_cmds[i].fn(skip_spaces(args + wl));
		return ret ? ret : len;
	}
	return -EINVAL;
}

static const struct file_operations tm_cmd_fops = {
	.owner = THIS_MODULE,
	.write = tm_cmd_write,
	.llseek = noop_llseek,
};

static int tm_dump(struct devlink_health_reporter *r, struct devlink_fmsg *fmsg,
		   void *priv_ctx, struct netlink_ext_ack *extack)
{
	return 0;
}

static const struct devlink_health_reporter_ops tm_reporter_ops = {
	.name = "rasfdr_reporter",
	.dump = tm_dump,
};

static const struct devlink_ops tm_devlink_ops = {};

/* devlink's tracepoints read dev->driver->name: the device must be bound. */
static int tm_probe(struct platform_device *p)
{
	return 0;
}

static struct platform_driver tm_driver = {
	.probe = tm_probe,
	.driver = { .name = DRV },
};

static int tm_edac_init(void)
{
	struct edac_mc_layer layers[2] = {
		{ .type = EDAC_MC_LAYER_CHANNEL, .size = 2, .is_virt_csrow = false },
		{ .type = EDAC_MC_LAYER_SLOT, .size = 2, .is_virt_csrow = true },
	};
	struct dimm_info *dimm;
	int ret;

	tm_mci = edac_mc_alloc(0, ARRAY_SIZE(layers), layers, 0);
	if (!tm_mci)
		return -ENOMEM;
	tm_mci->pdev = &tm_pdev->dev;
	tm_mci->mtype_cap = MEM_FLAG_DDR4;
	tm_mci->edac_ctl_cap = EDAC_FLAG_SECDED;
	tm_mci->edac_cap = EDAC_FLAG_SECDED;
	tm_mci->mod_name = DRV;
	tm_mci->ctl_name = "rasfdr_mc";
	tm_mci->dev_name = DRV;
	mci_for_each_dimm(tm_mci, dimm) {
		dimm->nr_pages = 0x8000;
		dimm->grain = 32;
		dimm->mtype = MEM_DDR4;
		dimm->dtype = DEV_X4;
		dimm->edac_mode = EDAC_SECDED;
		snprintf(dimm->label, sizeof(dimm->label), "RASFDR_CH%u_DIMM%u",
			 dimm->location[0], dimm->location[1]);
	}
	ret = edac_mc_add_mc_with_groups(tm_mci, NULL);
	if (ret) {
		edac_mc_free(tm_mci);
		tm_mci = NULL;
	}
	return ret;
}

static void tm_edac_exit(void)
{
	edac_mc_del_mc(&tm_pdev->dev);
	edac_mc_free(tm_mci);
}

static int tm_devlink_init(void)
{
	tm_devlink = devlink_alloc(&tm_devlink_ops, 0, &tm_pdev->dev);
	if (!tm_devlink)
		return -ENOMEM;
	devlink_register(tm_devlink);
	tm_reporter = devlink_health_reporter_create(tm_devlink, &tm_reporter_ops, 0, NULL);
	if (IS_ERR(tm_reporter)) {
		devlink_unregister(tm_devlink);
		devlink_free(tm_devlink);
		return PTR_ERR(tm_reporter);
	}
	return 0;
}

static void tm_devlink_exit(void)
{
	devlink_health_reporter_destroy(tm_reporter);
	devlink_unregister(tm_devlink);
	devlink_free(tm_devlink);
}

static int __init tm_init(void)
{
	int ret = platform_driver_register(&tm_driver);

	if (ret)
		return ret;
	tm_pdev = platform_device_register_simple(DRV, -1, NULL, 0);
	ret = IS_ERR(tm_pdev) ? PTR_ERR(tm_pdev) : 0;
	if (!ret && !tm_pdev->dev.driver) {
		platform_device_unregister(tm_pdev);
		ret = -ENODEV;
	}
	if (ret)
		goto out_driver;
	ret = tm_edac_init();
	if (ret)
		goto out_pdev;
	ret = tm_devlink_init();
	if (ret)
		goto out_edac;
	tm_dir = debugfs_create_dir(DRV, NULL);
	debugfs_create_file("cmd", 0200, tm_dir, NULL, &tm_cmd_fops);
	pr_info(DRV ": ready: EDAC mc%d, devlink %s\n", tm_mci->mc_idx, dev_name(&tm_pdev->dev));
	return 0;

out_edac:
	tm_edac_exit();
out_pdev:
	platform_device_unregister(tm_pdev);
out_driver:
	platform_driver_unregister(&tm_driver);
	return ret;
}

static void __exit tm_exit(void)
{
	debugfs_remove_recursive(tm_dir);
	if (tm_netdev) {
		unregister_netdev(tm_netdev);
		free_netdev(tm_netdev);
	}
	tm_devlink_exit();
	tm_edac_exit();
	platform_device_unregister(tm_pdev);
	platform_driver_unregister(&tm_driver);
}

module_init(tm_init);
module_exit(tm_exit);
MODULE_LICENSE("Dual MIT/GPL"); /* GPL-only EDAC exports */
MODULE_DESCRIPTION("ras-fdr test module: raises RAS tracepoints through the kernel's own code");
