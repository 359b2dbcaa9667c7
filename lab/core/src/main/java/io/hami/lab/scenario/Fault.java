package io.hami.lab.scenario;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.time.Duration;
import java.util.List;

/** Something that goes wrong at a given time of the run; the {@code type} key names the kind. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Fault.PluginRestart.class, name = "plugin-restart"),
    @JsonSubTypes.Type(value = Fault.KubeletRestart.class, name = "kubelet-restart"),
    @JsonSubTypes.Type(value = Fault.DeviceUnhealthy.class, name = "device-unhealthy"),
    @JsonSubTypes.Type(value = Fault.ApiWriteErrors.class, name = "api-write-errors"),
    @JsonSubTypes.Type(value = Fault.LeaderFailover.class, name = "leader-failover"),
    @JsonSubTypes.Type(value = Fault.SelfGrant.class, name = "self-grant"),
    @JsonSubTypes.Type(value = Fault.KubeletRejects.class, name = "kubelet-rejects")
})
public sealed interface Fault {

    /** When it happens, from the start of the run. */
    Duration at();

    /** One line for the console and the report. */
    String describe();

    /**
     * The device plugin of {@code vendor} on {@code node} stops (its sockets go away) and starts again.
     *
     * @param vendor null: every plugin of the node
     */
    record PluginRestart(Duration at, String node, Vendor vendor) implements Fault {
        @Override
        public String describe() {
            return "restart the " + (vendor == null ? "" : vendor.yamlName() + " ") + "plugin"
                    + (vendor == null ? "s" : "") + " on " + node;
        }
    }

    /**
     * The kubelet of {@code node} stops for {@code down} and starts again: it re-creates {@code kubelet.sock} and
     * cleans the plugin directory, so the plugins must register again.
     */
    record KubeletRestart(Duration at, String node, Duration down) implements Fault {
        public KubeletRestart {
            down = down == null ? Duration.ofSeconds(1) : down;
        }

        @Override
        public String describe() {
            return "restart the kubelet on " + node + " (down " + DurationText.format(down) + ")";
        }
    }

    /**
     * Device {@code device} of {@code vendor} on {@code node} turns unhealthy through the mock's control file, and
     * healthy again after {@code lasting} (never when null).
     */
    record DeviceUnhealthy(
            Duration at,
            String node,
            Vendor vendor,
            Integer device,
            @JsonProperty("for") Duration lasting) implements Fault {
        public DeviceUnhealthy {
            device = device == null ? 0 : device;
        }

        @Override
        public String describe() {
            return vendor.yamlName() + " device " + device + " on " + node + " unhealthy"
                    + (lasting == null ? "" : " for " + DurationText.format(lasting));
        }
    }

    /** For {@code lasting}, each API write fails with {@code probability}, answering one of {@code statuses}. */
    record ApiWriteErrors(
            Duration at, @JsonProperty("for") Duration lasting, Double probability, List<Integer> statuses)
            implements Fault {
        public ApiWriteErrors {
            lasting = lasting == null ? Duration.ofSeconds(5) : lasting;
            probability = probability == null ? 0.1 : probability;
            statuses = statuses == null ? List.of(409, 500) : List.copyOf(statuses);
        }

        @Override
        public String describe() {
            return String.format(
                    java.util.Locale.ROOT,
                    "API writes fail with %.0f%% probability (%s) for %s",
                    probability * 100,
                    statuses,
                    DurationText.format(lasting));
        }
    }

    /** The leading scheduler replica stops; another takes the Lease. The stopped one comes back as a follower. */
    record LeaderFailover(Duration at) implements Fault {
        @Override
        public String describe() {
            return "stop the leading scheduler replica";
        }
    }

    /**
     * A user's pod on {@code node} that skips the webhook ({@code hami.io/webhook: ignore}), sets {@code nodeName},
     * requests one {@code nvidia.com/gpu} and writes itself a grant of the node's first GPU (upstream #3041/#3076).
     * It must never receive a device.
     */
    record SelfGrant(Duration at, String node) implements Fault {
        @Override
        public String describe() {
            return "a pod on " + node + " writes itself a grant of a GPU, skipping the webhook";
        }
    }

    /**
     * The kubelet of {@code node} rejects the next pod it admits that carries a scheduler decision, before any
     * Allocate: the pod ends {@code Failed} while it holds the node lock. The node must take its next pod within
     * seconds, and the rejected pod must never receive a device.
     */
    record KubeletRejects(Duration at, String node) implements Fault {
        @Override
        public String describe() {
            return "the kubelet on " + node
                    + " rejects the next pod it admits, before Allocate, while it holds the node lock";
        }
    }
}
