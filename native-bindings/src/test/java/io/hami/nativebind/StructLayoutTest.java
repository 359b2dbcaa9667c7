package io.hami.nativebind;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.nativebind.cndev.raw.cndevCardHealthState_t;
import io.hami.nativebind.cndev.raw.cndevCardInfo_t;
import io.hami.nativebind.cndev.raw.cndevMemoryInfoV2_t;
import io.hami.nativebind.cndev.raw.cndevNUMANodeId_t;
import io.hami.nativebind.cndev.raw.cndevPCIeInfoV2_t;
import io.hami.nativebind.cndev.raw.cndevSMluInfo_t;
import io.hami.nativebind.cndev.raw.cndevSMluProfileIdInfo_t;
import io.hami.nativebind.cndev.raw.cndevSMluProfileInfo_t;
import io.hami.nativebind.cndev.raw.cndevSMluSet_t;
import io.hami.nativebind.cndev.raw.cndevUUID_t;
import io.hami.nativebind.hamicore.raw.device_memory_t;
import io.hami.nativebind.hamicore.raw.device_memory_v0_t;
import io.hami.nativebind.hamicore.raw.device_util_t;
import io.hami.nativebind.hamicore.raw.device_util_v0_t;
import io.hami.nativebind.hamicore.raw.shared_region_t;
import io.hami.nativebind.hamicore.raw.shared_region_v0_t;
import io.hami.nativebind.hamicore.raw.shrreg_proc_slot_t;
import io.hami.nativebind.hamicore.raw.shrreg_proc_slot_v0_t;
import io.hami.nativebind.hydmi.raw.dmiDeviceInfo;
import io.hami.nativebind.mtml.raw.MtmlPciInfo;
import io.hami.nativebind.nvml.raw.nvmlEventData_t;
import io.hami.nativebind.nvml.raw.nvmlMemory_t;
import io.hami.nativebind.nvml.raw.nvmlMemory_v2_t;
import io.hami.nativebind.nvml.raw.nvmlPciInfo_t;
import io.hami.nativebind.nvml.raw.nvmlUtilization_t;
import io.hami.nativebind.rocm.raw.rsmi_evt_notification_data_t;
import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Compiles src/test/c/layouts.c with gcc from the project's headers and compares every struct with its Java layout. */
class StructLayoutTest {

    static final List<GroupLayout> JAVA_STRUCTS = List.of(
            nvmlPciInfo_t.layout(),
            nvmlMemory_t.layout(),
            nvmlMemory_v2_t.layout(),
            nvmlUtilization_t.layout(),
            nvmlEventData_t.layout(),
            cndevCardInfo_t.layout(),
            cndevUUID_t.layout(),
            cndevMemoryInfoV2_t.layout(),
            cndevPCIeInfoV2_t.layout(),
            cndevNUMANodeId_t.layout(),
            cndevCardHealthState_t.layout(),
            cndevSMluSet_t.layout(),
            cndevSMluProfileIdInfo_t.layout(),
            cndevSMluProfileInfo_t.layout(),
            cndevSMluInfo_t.layout(),
            MtmlPciInfo.layout(),
            rsmi_evt_notification_data_t.layout(),
            dmiDeviceInfo.layout(),
            device_memory_t.layout(),
            device_util_t.layout(),
            shrreg_proc_slot_t.layout(),
            shared_region_t.layout(),
            device_memory_v0_t.layout(),
            device_util_v0_t.layout(),
            shrreg_proc_slot_v0_t.layout(),
            shared_region_v0_t.layout());

    /** "struct name size align" and "field struct member offset" lines, as C reports them. */
    static Map<String, String> cLayout;

    @BeforeAll
    static void compileAndRunTheCProgram() throws IOException, InterruptedException {
        Path out = Files.createTempDirectory("hami-layouts").resolve("layouts");
        run(List.of(
                "gcc",
                "-std=c11",
                "-Wall",
                "-Werror",
                "-I" + System.getProperty("hami.headers.dir"),
                System.getProperty("hami.layout.source"),
                "-o",
                out.toString()));
        cLayout = new TreeMap<>();
        for (String line : run(List.of(out.toString())).split("\n")) {
            String[] f = line.trim().split(" ");
            cLayout.put(f[0] + " " + f[1] + (f[0].equals("field") ? " " + f[2] : ""), line.trim());
        }
    }

    @Test
    void everyJavaStructMatchesTheCCompilersSizeAlignmentAndOffsets() {
        Map<String, String> javaLayout = new TreeMap<>();
        for (GroupLayout struct : JAVA_STRUCTS) {
            String name = cName(struct);
            javaLayout.put("struct " + name, "struct " + name + " " + struct.byteSize() + " " + struct.byteAlignment());
            long offset = 0;
            for (MemoryLayout member : struct.memberLayouts()) {
                if (!(member instanceof PaddingLayout)) {
                    String field = member.name().orElseThrow();
                    javaLayout.put("field " + name + " " + field, "field " + name + " " + field + " " + offset);
                }
                offset += member.byteSize();
            }
        }
        assertThat(javaLayout).isEqualTo(cLayout);
    }

    @Test
    void theCProgramCoversEveryStructTheBindingsDeclare() {
        assertThat(cLayout.keySet().stream()
                        .filter(k -> k.startsWith("struct "))
                        .count())
                .isEqualTo(JAVA_STRUCTS.size());
    }

    /** Java layouts carry the C struct tag; the C program prints the typedef name. */
    private static String cName(GroupLayout struct) {
        String tag = struct.name().orElseThrow();
        return tag.endsWith("_st") ? tag.substring(0, tag.length() - 3) + "_t" : tag;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS))
                .as("%s finished", command)
                .isTrue();
        assertThat(process.exitValue()).as("%s failed:%n%s", command, output).isZero();
        return output;
    }
}
