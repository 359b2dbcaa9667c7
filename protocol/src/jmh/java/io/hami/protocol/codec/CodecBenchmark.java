package io.hami.protocol.codec;

import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.device.PodDevices;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of the annotation codecs on the values the scheduler reads most: an 8-GPU node's NVIDIA register
 * value (JSON, and the same devices in the legacy colon form) and a 4-container pod's device string.
 * Run with {@code scripts/bench.sh protocol [JMH options]}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class CodecBenchmark {
    private List<DeviceInfo> devices;
    private String register;
    private String legacyRegister;
    private PodDevices pod;
    private String podString;

    @Setup
    public void setUp() throws AnnotationFormatException {
        devices = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            devices.add(new DeviceInfo(
                    String.format("GPU-%08x-5c87-89ac-b1a6-7b53aa24b0ec", 0x00552014 + i),
                    i,
                    10,
                    81920,
                    100,
                    "NVIDIA-A100-SXM4-80GB",
                    i / 4,
                    "hami-core",
                    true));
        }
        register = JsonRegisterCodec.encode(devices);
        legacyRegister = LegacyRegisterCodec.encode(devices);
        pod = new PodDevices(List.of(
                List.of(new ContainerDevice(devices.get(0).id(), "NVIDIA", 3000, 30)),
                List.of(
                        new ContainerDevice(devices.get(1).id(), "NVIDIA", 5000, 0),
                        new ContainerDevice(devices.get(2).id(), "NVIDIA", 5000, 0)),
                List.of(),
                List.of(new ContainerDevice(devices.get(3).id(), "NVIDIA", 10240, 50))));
        podString = PodDevicesCodec.encode(pod);
        // The benchmark is only meaningful if the codecs agree with themselves.
        if (!JsonRegisterCodec.decode(register).equals(devices)
                || !LegacyRegisterCodec.decode(legacyRegister).equals(devices)
                || !PodDevicesCodec.decode(podString).equals(pod)) {
            throw new IllegalStateException("codec round trip failed");
        }
    }

    @Benchmark
    public List<DeviceInfo> decodeNvidiaRegister8() throws AnnotationFormatException {
        return JsonRegisterCodec.decode(register);
    }

    @Benchmark
    public String encodeNvidiaRegister8() {
        return JsonRegisterCodec.encode(devices);
    }

    @Benchmark
    public List<DeviceInfo> decodeLegacyRegister8() throws AnnotationFormatException {
        return LegacyRegisterCodec.decode(legacyRegister);
    }

    @Benchmark
    public String encodeLegacyRegister8() {
        return LegacyRegisterCodec.encode(devices);
    }

    @Benchmark
    public PodDevices decodePodDevices4() throws AnnotationFormatException {
        return PodDevicesCodec.decode(podString);
    }

    @Benchmark
    public String encodePodDevices4() {
        return PodDevicesCodec.encode(pod);
    }
}
