package io.hami.cli.inspect;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.PodDevices;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.fit.PodRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The pods that ask for managed devices or carry an allocation: per container the devices the scheduler allocated
 * (the vendors' allocated annotations, entry {@code i} for container {@code i}, init containers first), whether the
 * device plugin has served that entry yet (the to-allocate annotation), and the bind phase.
 */
final class PodReport {

    /**
     * One device granted to a container; {@code allocate} is {@code waiting} while the to-allocate entry of the
     * container is still there, {@code done} once the device plugin consumed it, null without a to-allocate
     * annotation.
     */
    record Grant(String vendor, ContainerDevice device, String allocate) {}

    record ContainerEntry(String name, List<Grant> grants) {}

    /** @param problems allocation annotations that do not decode, with the reason */
    record Entry(
            String namespace,
            String name,
            String node,
            String phase,
            String bindPhase,
            List<ContainerEntry> containers,
            List<String> problems) {}

    private final List<Entry> entries;

    private PodReport(List<Entry> entries) {
        this.entries = entries;
    }

    static PodReport of(Cluster cluster, DeviceBackends backends) {
        var entries = new ArrayList<Entry>();
        for (Pod pod : cluster.pods()) {
            Map<String, String> annotations = Cluster.annotations(pod);
            boolean allocated = backends.all().stream()
                    .anyMatch(b -> annotations.containsKey(b.keys().allocatedKey())
                            || annotations.containsKey(b.keys().toAllocateKey()));
            if (!allocated
                    && !annotations.containsKey(ProtocolKeys.BIND_PHASE)
                    && PodRequest.of(pod, backends).isEmpty()) {
                continue;
            }
            entries.add(entry(pod, annotations, backends));
        }
        return new PodReport(entries);
    }

    private static Entry entry(Pod pod, Map<String, String> annotations, DeviceBackends backends) {
        List<String> names = containerNames(pod);
        var grants = new ArrayList<List<Grant>>();
        names.forEach(n -> grants.add(new ArrayList<>()));
        var problems = new ArrayList<String>();
        for (DeviceBackend b : backends.all()) {
            PodDevices allocated;
            PodDevices toAllocate;
            try {
                allocated = decode(annotations.get(b.keys().allocatedKey()));
                toAllocate = decode(annotations.get(b.keys().toAllocateKey()));
            } catch (AnnotationFormatException e) {
                problems.add(b.vendor() + ": " + e.getMessage());
                continue;
            }
            boolean tracked = annotations.containsKey(b.keys().toAllocateKey());
            for (int i = 0; i < allocated.containers().size(); i++) {
                while (grants.size() <= i) {
                    names.add("#" + grants.size());
                    grants.add(new ArrayList<>());
                }
                boolean waiting = i < toAllocate.containers().size()
                        && !toAllocate.containers().get(i).isEmpty();
                String allocate = !tracked ? null : waiting ? "waiting" : "done";
                for (ContainerDevice d : allocated.containers().get(i)) {
                    grants.get(i).add(new Grant(b.vendor(), d, allocate));
                }
            }
        }
        var containers = new ArrayList<ContainerEntry>();
        for (int i = 0; i < names.size(); i++) {
            containers.add(new ContainerEntry(names.get(i), grants.get(i)));
        }
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (node == null || node.isEmpty()) {
            node = annotations.get(ProtocolKeys.VGPU_NODE);
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return new Entry(
                pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(),
                node,
                phase,
                annotations.get(ProtocolKeys.BIND_PHASE),
                containers,
                problems);
    }

    private static PodDevices decode(String value) throws AnnotationFormatException {
        return value == null ? PodDevices.NONE : PodDevicesCodec.decode(value);
    }

    /** Init containers first, then app containers: the order of the entries in pod device strings. */
    private static List<String> containerNames(Pod pod) {
        var names = new ArrayList<String>();
        if (pod.getSpec() != null) {
            for (List<Container> list : Arrays.asList(
                    pod.getSpec().getInitContainers(), pod.getSpec().getContainers())) {
                if (list != null) {
                    list.forEach(c -> names.add(c.getName()));
                }
            }
        }
        return names;
    }

    static final String[] HEADERS = {
        "NAMESPACE",
        "POD",
        "NODE",
        "PHASE",
        "BIND-PHASE",
        "CONTAINER",
        "VENDOR",
        "DEVICE",
        "MEMORY(MiB)",
        "CORES",
        "ALLOCATE"
    };

    String table() {
        var table = new Table(HEADERS);
        var notes = new StringBuilder();
        for (Entry e : entries) {
            String node = dash(e.node());
            String phase = dash(e.phase());
            String bindPhase = dash(e.bindPhase());
            boolean any = false;
            for (ContainerEntry c : e.containers()) {
                for (Grant g : c.grants()) {
                    any = true;
                    table.row(
                            e.namespace(),
                            e.name(),
                            node,
                            phase,
                            bindPhase,
                            c.name(),
                            g.vendor(),
                            g.device().uuid(),
                            Integer.toString(g.device().usedmem()),
                            Integer.toString(g.device().usedcores()),
                            dash(g.allocate()));
                }
            }
            if (!any) {
                table.row(e.namespace(), e.name(), node, phase, bindPhase, "-", "-", "-", "-", "-", "-");
            }
            e.problems()
                    .forEach(p -> notes.append("pod ")
                            .append(e.namespace())
                            .append('/')
                            .append(e.name())
                            .append(": unreadable allocation: ")
                            .append(p)
                            .append('\n'));
        }
        return notes.isEmpty() ? table.render() : table.render() + "\n" + notes;
    }

    private static String dash(String value) {
        return value == null || value.isEmpty() ? "-" : value;
    }

    ObjectNode json() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ArrayNode pods = root.putArray("pods");
        for (Entry e : entries) {
            ObjectNode p = pods.addObject()
                    .put("namespace", e.namespace())
                    .put("name", e.name())
                    .put("node", e.node())
                    .put("phase", e.phase())
                    .put("bindPhase", e.bindPhase());
            ArrayNode containers = p.putArray("containers");
            for (ContainerEntry c : e.containers()) {
                ArrayNode devices = containers.addObject().put("name", c.name()).putArray("devices");
                for (Grant g : c.grants()) {
                    devices.addObject()
                            .put("vendor", g.vendor())
                            .put("uuid", g.device().uuid())
                            .put("memoryMiB", g.device().usedmem())
                            .put("cores", g.device().usedcores())
                            .put("allocate", g.allocate());
                }
            }
            ArrayNode problems = p.putArray("problems");
            e.problems().forEach(problems::add);
        }
        return root;
    }
}
