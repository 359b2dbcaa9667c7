package io.hami.lab.scenario;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** The rules between the parts of a scenario that the file's shape alone cannot state. */
final class ScenarioRules {
    /** Kubernetes object names used here: DNS labels. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    /** NVML's NVML_NVLINK_MAX_LINKS: links one GPU has at most. */
    private static final int MAX_NVLINKS = 18;
    /** The highest value of a user-defined PriorityClass (higher ones are reserved for system classes). */
    private static final int MAX_PRIORITY = 1_000_000_000;
    /** The mock libraries hold at most this many devices per file. */
    private static final int MAX_DEVICES = 64;

    private ScenarioRules() {}

    static List<String> check(Scenario s) {
        var problems = new ArrayList<String>();
        if (s.name().isBlank()) {
            problems.add("name must not be empty");
        }
        checkScheduler(s.scheduler(), problems);
        Map<String, NodeSpec> nodes = checkNodes(s.nodes(), problems);
        checkPriorityClasses(s.priorityClasses(), problems);
        checkWorkloads(s.workloads(), s.priorityClasses(), problems);
        checkFaults(s, nodes, problems);
        return problems;
    }

    private static void checkScheduler(SchedulerSpec spec, List<String> problems) {
        if (spec.replicas() < 1 || spec.replicas() > 3) {
            problems.add("scheduler.replicas must be 1, 2 or 3, got " + spec.replicas());
        }
        if (!spec.nodePolicy().equals("binpack") && !spec.nodePolicy().equals("spread")) {
            problems.add("scheduler.nodePolicy must be binpack or spread, got \"" + spec.nodePolicy() + "\"");
        }
        if (spec.bindParallelism() < 1) {
            problems.add("scheduler.bindParallelism must be at least 1, got " + spec.bindParallelism());
        }
        if (spec.handshakePeriod().isZero() || spec.lockTimeout().isZero()) {
            problems.add("scheduler.handshakePeriod and scheduler.lockTimeout must be longer than 0");
        }
    }

    private static Map<String, NodeSpec> checkNodes(List<NodeGroup> groups, List<String> problems) {
        if (groups.isEmpty()) {
            problems.add("nodes: a scenario needs at least one node group");
        }
        var names = new HashSet<String>();
        for (int g = 0; g < groups.size(); g++) {
            NodeGroup group = groups.get(g);
            String at = "nodes[" + g + "]";
            if (group.name() == null || !NAME.matcher(group.name()).matches()) {
                problems.add(at + ".name must be a DNS label (lower case letters, digits, '-'), got "
                        + quoted(group.name()));
            } else if (!names.add(group.name())) {
                problems.add(at + ".name \"" + group.name() + "\" is used by another node group");
            }
            if (group.count() < 1) {
                problems.add(at + ".count must be at least 1, got " + group.count());
            }
            if (group.devices().isEmpty()) {
                problems.add(at + ".devices: a node needs at least one device group");
            }
            var vendors = new HashSet<Vendor>();
            for (int d = 0; d < group.devices().size(); d++) {
                checkDevices(group, group.devices().get(d), at + ".devices[" + d + "]", vendors, problems);
            }
        }
        var nodes = new HashMap<String, NodeSpec>();
        for (NodeGroup group : groups) {
            if (group.name() != null) {
                group.expand().forEach(n -> nodes.put(n.name(), n));
            }
        }
        return nodes;
    }

    private static void checkDevices(
            NodeGroup group, DeviceGroup d, String at, Set<Vendor> vendors, List<String> problems) {
        if (d.vendor() == null) {
            problems.add(at + ".vendor is missing (nvidia, cambricon, mthreads or hygon)");
            return;
        }
        if (!vendors.add(d.vendor())) {
            problems.add(at + ": a node runs one plugin per vendor, so one device group per vendor; "
                    + d.vendor().yamlName() + " appears twice");
        }
        if (d.model() == null || d.model().isBlank()) {
            problems.add(at + ".model is missing");
        }
        if (d.count() < 1 || d.count() > MAX_DEVICES) {
            problems.add(at + ".count must be 1.." + MAX_DEVICES + ", got " + d.count());
        }
        if (d.memory() == null || d.memory() < 1) {
            problems.add(at + ".memory (MiB per device) must be at least 1, got " + d.memory());
        }
        if (d.numa() < 1 || d.numa() > d.count()) {
            problems.add(at + ".numa must be 1..count, got " + d.numa());
        }
        if (d.split() < 1) {
            problems.add(at + ".split must be at least 1, got " + d.split());
        }
        checkNvlink(group, d, at, problems);
        if (group.synthetic() && !d.vendor().registered()) {
            problems.add(at + ": synthetic nodes carry their inventory in a register annotation, which only nvidia and "
                    + "hygon have; " + d.vendor().yamlName() + " is discovered from the capacity its plugin reports");
        }
    }

    private static void checkPriorityClasses(Map<String, Integer> classes, List<String> problems) {
        classes.forEach((name, value) -> {
            if (!NAME.matcher(name).matches()) {
                problems.add("priorityClasses: \"" + name + "\" must be a DNS label (lower case letters, digits, '-')");
            }
            if (value == null || value > MAX_PRIORITY) {
                problems.add("priorityClasses." + name + " must be an integer up to " + MAX_PRIORITY
                        + " (higher values are for system classes), got " + value);
            }
        });
    }

    /** NVLink islands: NVIDIA devices of nodes with plugins (the NVML mock reports them), each device in one. */
    private static void checkNvlink(NodeGroup group, DeviceGroup d, String at, List<String> problems) {
        if (d.nvlink().isEmpty()) {
            return;
        }
        if (d.vendor() != Vendor.NVIDIA) {
            problems.add(at + ".nvlink: only nvidia devices have NVLink, not "
                    + d.vendor().yamlName());
            return;
        }
        if (group.synthetic()) {
            problems.add(at + ".nvlink: synthetic nodes have no NVML mock to report links; use a node with plugins");
            return;
        }
        if (d.nvlinkLinks() < 1 || d.nvlinkLinks() > MAX_NVLINKS) {
            problems.add(at + ".nvlinkLinks must be 1.." + MAX_NVLINKS + ", got " + d.nvlinkLinks());
        }
        var seen = new HashSet<Integer>();
        for (int i = 0; i < d.nvlink().size(); i++) {
            List<Integer> island = d.nvlink().get(i);
            String here = at + ".nvlink[" + i + "]";
            if (island.size() < 2) {
                problems.add(here + ": an island links at least 2 devices, got " + island);
            }
            for (int index : island) {
                if (index < 0 || index >= d.count()) {
                    problems.add(here + ": device " + index + " does not exist (devices 0.." + (d.count() - 1) + ")");
                } else if (!seen.add(index)) {
                    problems.add(here + ": device " + index + " is in another island too (a device is in one island)");
                }
            }
        }
    }

    private static void checkWorkloads(List<Workload> workloads, Map<String, Integer> classes, List<String> problems) {
        var names = new HashSet<String>();
        for (int w = 0; w < workloads.size(); w++) {
            Workload wl = workloads.get(w);
            String at = "workloads[" + w + "]";
            if (wl.name() == null || !NAME.matcher(wl.name()).matches()) {
                problems.add(
                        at + ".name must be a DNS label (lower case letters, digits, '-'), got " + quoted(wl.name()));
            } else if (!names.add(wl.name())) {
                problems.add(at + ".name \"" + wl.name() + "\" is used by another workload");
            }
            if (wl.count() < 1) {
                problems.add(at + ".count must be at least 1, got " + wl.count());
            }
            if (!(wl.rate() > 0)) {
                problems.add(at + ".rate (pods per second) must be above 0, got " + wl.rate());
            }
            if (wl.containers().isEmpty()) {
                problems.add(at + ".containers: a pod needs at least one container");
            }
            String named = wl.name() == null ? at : at + " (" + wl.name() + ")";
            if (wl.priorityClass() != null && !classes.containsKey(wl.priorityClass())) {
                problems.add(named + ".priorityClass \"" + wl.priorityClass()
                        + "\" is not one of the scenario's priorityClasses ("
                        + (classes.isEmpty()
                                ? "it has none"
                                : String.join(", ", new java.util.TreeSet<>(classes.keySet())))
                        + ")");
            }
            if (wl.podGroup() != null && !NAME.matcher(wl.podGroup()).matches()) {
                problems.add(named + ".podGroup must be a DNS label (lower case letters, digits, '-'), got "
                        + quoted(wl.podGroup()));
            }
            var containerNames = new HashSet<String>();
            checkContainers(wl.initContainers(), named + ".initContainers", true, containerNames, problems);
            checkContainers(wl.containers(), named + ".containers", false, containerNames, problems);
        }
    }

    private static void checkContainers(
            List<ContainerSpec> containers, String at, boolean init, Set<String> names, List<String> problems) {
        for (int c = 0; c < containers.size(); c++) {
            ContainerSpec spec = containers.get(c);
            String here = at + "[" + c + "]";
            if (spec.name() == null || !NAME.matcher(spec.name()).matches()) {
                problems.add(at + "[" + c + "].name must be a DNS label, got " + quoted(spec.name()));
            } else if (!names.add(spec.name())) {
                problems.add(at + "[" + c + "].name \"" + spec.name() + "\" is used by another container of the pod");
            }
            spec.resources().forEach((resource, value) -> {
                if (value == null || value.isBlank()) {
                    problems.add(here + ".resources." + resource + " has no value");
                }
            });
            if (spec.usage() != null) {
                problems.addAll(UsageRules.check(spec.usage(), here + ".usage", init, spec.resources()));
            }
        }
    }

    private static void checkFaults(Scenario s, Map<String, NodeSpec> nodes, List<String> problems) {
        for (int f = 0; f < s.faults().size(); f++) {
            Fault fault = s.faults().get(f);
            String at = "faults[" + f + "]";
            if (fault.at() == null) {
                problems.add(at + ".at is missing (when the fault happens, for example 20s)");
            }
            switch (fault) {
                case Fault.PluginRestart r -> pluginNode(nodes, r.node(), r.vendor(), at, problems);
                case Fault.KubeletRestart r -> pluginNode(nodes, r.node(), null, at, problems);
                case Fault.DeviceUnhealthy u -> {
                    if (u.vendor() == null) {
                        problems.add(at + ".vendor is missing");
                        break;
                    }
                    NodeSpec node = pluginNode(nodes, u.node(), u.vendor(), at, problems);
                    if (node != null
                            && node.devices(u.vendor())
                                    .map(d -> u.device() < 0 || u.device() >= d.count())
                                    .orElse(false)) {
                        problems.add(at + ".device " + u.device() + " does not exist on " + u.node() + " ("
                                + node.devices(u.vendor()).get().count() + " "
                                + u.vendor().yamlName() + " devices)");
                    }
                }
                case Fault.ApiWriteErrors e -> {
                    if (!(e.probability() > 0 && e.probability() <= 1)) {
                        problems.add(at + ".probability must be in (0, 1], got " + e.probability());
                    }
                    if (e.statuses().isEmpty() || e.statuses().stream().anyMatch(c -> c < 400 || c > 599)) {
                        problems.add(at + ".statuses must be HTTP error codes (4xx, 5xx), got " + e.statuses());
                    }
                }
                case Fault.LeaderFailover l -> {
                    if (s.scheduler().replicas() < 2) {
                        problems.add(at + ": leader-failover needs scheduler.replicas of 2 or more");
                    }
                }
                case Fault.SelfGrant g -> pluginNode(nodes, g.node(), Vendor.NVIDIA, at, problems);
                case Fault.KubeletRejects r -> pluginNode(nodes, r.node(), null, at, problems);
            }
        }
    }

    /** The node a plugin or kubelet fault names, if it has plugins (and the vendor, when given). */
    private static NodeSpec pluginNode(
            Map<String, NodeSpec> nodes, String name, Vendor vendor, String at, List<String> problems) {
        NodeSpec node = name == null ? null : nodes.get(name);
        if (node == null) {
            problems.add(
                    at + ".node " + quoted(name) + " is not a node of this scenario (nodes are named <group>-<i>)");
            return null;
        }
        if (node.synthetic()) {
            problems.add(at + ".node " + name + " is synthetic: it has no plugins or kubelet to fault");
            return null;
        }
        if (vendor != null && node.devices(vendor).isEmpty()) {
            problems.add(at + ": node " + name + " has no " + vendor.yamlName() + " devices");
            return null;
        }
        return node;
    }

    private static String quoted(String s) {
        return s == null ? "nothing" : "\"" + s + "\"";
    }
}
