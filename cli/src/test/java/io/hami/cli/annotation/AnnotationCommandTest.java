package io.hami.cli.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.cli.Main;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

class AnnotationCommandTest {

    /** Exit code, stdout and stderr of one run. */
    record Result(int code, String out, String err) {}

    static Result hami(String... args) {
        return hamiWithStdin("", args);
    }

    /** A run whose stdin holds {@code stdin}. */
    static Result hamiWithStdin(String stdin, String... args) {
        var out = new StringWriter();
        var err = new StringWriter();
        var in = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
        var cl = Main.commandLine(new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> type) throws Exception {
                return type == AnnotationCommand.class
                        ? type.cast(new AnnotationCommand(in))
                        : CommandLine.defaultFactory().create(type);
            }
        });
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    static final String V100 =
            "[{\"id\":\"GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec\",\"count\":10,\"devmem\":32768,\"devcore\":100,"
                    + "\"type\":\"NVIDIA-Tesla V100-PCIE-32GB\",\"numa\":1,\"mode\":\"hami-core\",\"health\":true},"
                    + "{\"id\":\"GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448\",\"index\":1,\"count\":10,\"devmem\":32768,\"devcore\":100,"
                    + "\"type\":\"NVIDIA-Tesla V100-PCIE-32GB\",\"numa\":1,\"mode\":\"hami-core\",\"health\":true}]";

    @Test
    void decodesTheNvidiaRegisterToCanonicalJsonWithEveryKey() {
        var r = hami("annotation", "decode", "--key", "hami.io/node-nvidia-register", "--value", V100);
        assertThat(r.code()).isZero();
        assertThat(r.out().trim())
                .isEqualTo(
                        "[{\"id\":\"GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec\",\"index\":0,\"count\":10,"
                                + "\"devmem\":32768,\"devcore\":100,\"type\":\"NVIDIA-Tesla V100-PCIE-32GB\",\"numa\":1,\"mode\":\"hami-core\",\"migProfiles\":[],\"health\":true},"
                                + "{\"id\":\"GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448\",\"index\":1,\"count\":10,\"devmem\":32768,\"devcore\":100,"
                                + "\"type\":\"NVIDIA-Tesla V100-PCIE-32GB\",\"numa\":1,\"mode\":\"hami-core\",\"migProfiles\":[],\"health\":true}]");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "hami.io/node-nvidia-register|"
                        + "[{\"id\":\"GPU-a\",\"count\":10,\"devmem\":1024,\"devcore\":100,\"type\":\"NVIDIA-A\\u003c1\\u003e\\u0026\",\"mode\":\"hami-core\",\"health\":true}]",
                "hami.io/node-hcu-register|HCU-1,10,16384,100,HCU-Z100,0,true,0,hami-core:HCU-2,10,16384,100,HCU-Z100,1,false,1,:",
                "hami.io/vgpu-devices-to-allocate|GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448,NVIDIA,3000,0:;GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448,NVIDIA,5000,0:;",
                "hami.io/vgpu-devices-allocated|;",
                "hami.io/cambricon-mlu-devices-allocated|n1-cambricon-mlu-0,MLU,1024,10:n1-cambricon-mlu-1,MLU,1024,10:;;",
                "hami.io/mthreads-vgpu-devices-to-allocate|;n-mthreads-0,Mthreads,2048,4:;",
                "hami.io/hcu-devices-allocated|HCU-1,HCU,2048,50:;",
                "hami.io/mutex.lock|2026-08-01T06:00:00Z,ns,pod-a",
                "hami.io/mutex.lock|2026-07-03T15:35:10Z",
                "hami.io/node-handshake|Requesting_2024-01-23 04:30:04",
                "hami.io/node-handshake-hcu|Reported_2024-01-23 04:30:05",
                "hami.io/bind-time|1716199325",
                "hami.io/vgpu-time|1705054796",
                "hami.io/node-nvidia-score|[{\"uuid\":\"GPU-a\",\"score\":{\"GPU-b\":600,\"GPU-c\":10}},{\"uuid\":\"GPU-b\",\"score\":{\"GPU-a\":600}}]",
                "hami.io/node-nvidia-register|" + MIG_REGISTER,
                "hami.io/vgpu-mig-allocations|" + MIG_RESERVED,
                "hami.io/vgpu-mig-allocations|" + MIG_CREATED,
                "hami.io/vgpu-mig-allocations|[]",
            })
    void encodeOfDecodeGivesTheExactValueBack(String key, String value) {
        var decoded = hami("annotation", "decode", "--key", key, "--value", value);
        assertThat(decoded.code()).as(decoded.err()).isZero();
        var encoded = hami(
                "annotation", "encode", "--key", key, "--json", decoded.out().trim());
        assertThat(encoded.code()).as(encoded.err()).isZero();
        assertThat(encoded.out()).isEqualTo(value + System.lineSeparator());
    }

    /** A register as our plugin writes it in mig mode: placements given, nil ({@code null}) and empty. */
    static final String MIG_REGISTER =
            "[{\"id\":\"GPU-0\",\"count\":7,\"devmem\":40960,\"devcore\":100,\"type\":\"NVIDIA-A100-SXM4-40GB\","
                    + "\"mode\":\"mig\",\"migProfiles\":[{\"name\":\"1g.5gb\",\"memoryMB\":4864,\"core\":15,\"sliceCount\":1,"
                    + "\"placements\":[{\"start\":6,\"size\":1},{\"start\":0,\"size\":1}]},"
                    + "{\"name\":\"7g.40gb\",\"memoryMB\":40192,\"core\":100,\"sliceCount\":7,\"placements\":null},"
                    + "{\"name\":\"x\",\"memoryMB\":0,\"core\":0,\"sliceCount\":4294967295,\"placements\":[]}],\"health\":true}]";

    /** Upstream's {@code TestEncodeDecodeMigAllocations} vector (protocol's MigAllocationsCodecTest). */
    static final String MIG_RESERVED = "[{\"containerIndex\":0,\"deviceIndex\":0,\"gpuUUID\":\"GPU-a\","
            + "\"profile\":\"1g.5gb\",\"placement\":{\"start\":6,\"size\":1}}]";

    /** docs/mig-design.md §1.3's example: the plugin's runtime identity added, an id of 0 written. */
    static final String MIG_CREATED = "[{\"containerIndex\":0,\"deviceIndex\":0,\"gpuUUID\":\"GPU-a\","
            + "\"profile\":\"1g.5gb\",\"placement\":{\"start\":6,\"size\":1},\"migUUID\":\"MIG-a\","
            + "\"gpuInstanceID\":7,\"computeInstanceID\":0}]";

    @Test
    void decodesMigAllocationsInUpstreamsFieldOrderWhateverTheInputCase() {
        var r = hami(
                "annotation",
                "decode",
                "--key",
                "hami.io/vgpu-mig-allocations",
                "--value",
                "[{\"GPUUUID\":\"GPU-a\",\"profile\":\"1g.5gb\",\"ContainerIndex\":0,\"deviceIndex\":0,"
                        + "\"placement\":{\"size\":1,\"start\":6},\"instanceCount\":7}]");
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).isEqualTo(MIG_RESERVED + System.lineSeparator());
    }

    @Test
    void aBadMigAllocationsValueExitsTwoWithTheCodecsMessage() {
        String twice = "[{\"containerIndex\":0,\"deviceIndex\":0,\"gpuUUID\":\"GPU-a\",\"profile\":\"1g.5gb\","
                + "\"placement\":{\"start\":6,\"size\":1}},{\"containerIndex\":0,\"deviceIndex\":0,"
                + "\"gpuUUID\":\"GPU-a\",\"profile\":\"1g.5gb\",\"placement\":{\"start\":5,\"size\":1}}]";
        var decoded = hami("annotation", "decode", "--key", "hami.io/vgpu-mig-allocations", "--value", twice);
        assertThat(decoded.code()).isEqualTo(2);
        assertThat(decoded.out()).isEmpty();
        assertThat(decoded.err())
                .isEqualTo("hami annotation: hami.io/vgpu-mig-allocations: duplicate MIG allocation for container 0"
                        + " device 0" + System.lineSeparator());
        var partial = hami(
                "annotation",
                "encode",
                "--key",
                "hami.io/vgpu-mig-allocations",
                "--json",
                MIG_RESERVED.replace("}}]", "},\"migUUID\":\"MIG-a\"}]"));
        assertThat(partial.code()).isEqualTo(2);
        assertThat(partial.err())
                .isEqualTo("hami annotation: hami.io/vgpu-mig-allocations: MIG allocation 0 has partial runtime"
                        + " identity" + System.lineSeparator());
    }

    @Test
    void decodesMigProfilesWithTheWiresNamesAndKeepsNullPlacementsApartFromEmpty() {
        // Upstream's plugin writes instanceCount and multiprocessorCount too; the register reads neither.
        String upstream = "[{\"id\":\"GPU-0\",\"count\":7,\"devmem\":40960,\"devcore\":100,"
                + "\"type\":\"NVIDIA-A100-SXM4-40GB\",\"numa\":0,\"health\":true,\"mode\":\"mig\",\"migProfiles\":["
                + "{\"name\":\"1g.5gb\",\"memoryMB\":5120,\"core\":14,\"sliceCount\":1,\"instanceCount\":7,"
                + "\"multiprocessorCount\":14,\"placements\":[{\"start\":6,\"size\":1}]},"
                + "{\"name\":\"7g.40gb\",\"memoryMB\":40192,\"core\":100,\"sliceCount\":7,\"placements\":null},"
                + "{\"name\":\"x\",\"placements\":[]}]}]";
        var r = hami("annotation", "decode", "--key", "hami.io/node-nvidia-register", "--value", upstream);
        assertThat(r.err()).isEmpty();
        assertThat(r.out().trim())
                .isEqualTo("[{\"id\":\"GPU-0\",\"index\":0,\"count\":7,\"devmem\":40960,\"devcore\":100,"
                        + "\"type\":\"NVIDIA-A100-SXM4-40GB\",\"numa\":0,\"mode\":\"mig\",\"migProfiles\":["
                        + "{\"name\":\"1g.5gb\",\"memoryMB\":5120,\"core\":14,\"sliceCount\":1,"
                        + "\"placements\":[{\"start\":6,\"size\":1}]},"
                        + "{\"name\":\"7g.40gb\",\"memoryMB\":40192,\"core\":100,\"sliceCount\":7,\"placements\":null},"
                        + "{\"name\":\"x\",\"memoryMB\":0,\"core\":0,\"sliceCount\":0,\"placements\":[]}],"
                        + "\"health\":true}]");
    }

    @Test
    void encodeChecksMigProfilesAndRefusesThemWhereTheFormatCannotCarryThem() {
        String device = "[{\"id\":\"GPU-0\",\"index\":0,\"count\":7,\"devmem\":40960,\"devcore\":100,"
                + "\"type\":\"A100\",\"numa\":0,\"mode\":\"mig\",\"health\":true,\"migProfiles\":";
        String profile = "[{\"name\":\"1g.5gb\",\"memoryMB\":5120,\"core\":14,\"sliceCount\":1,\"placements\":";
        var missing = hami(
                "annotation",
                "encode",
                "--key",
                "hami.io/node-nvidia-register",
                device + "[{\"name\":\"1g.5gb\",\"memoryMB\":5120,\"core\":14}]}]");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("device 0 MIG profile 0: missing \"sliceCount\", \"placements\"");
        var tooBig = hami(
                "annotation",
                "encode",
                "--key",
                "hami.io/node-nvidia-register",
                device + profile + "[{\"start\":4294967296,\"size\":1}]}]}]");
        assertThat(tooBig.code()).isEqualTo(2);
        assertThat(tooBig.err())
                .contains("device 0 MIG profile 0 placement 0: start must be a whole number from 0 to 4294967295,"
                        + " got 4294967296");
        var notAList = hami("annotation", "encode", "--key", "hami.io/node-nvidia-register", device + "null}]");
        assertThat(notAList.err()).contains("device 0: migProfiles must be an array of MIG profiles ([] for none)");
        var hcu = hami("annotation", "encode", "--key", "hami.io/node-hcu-register", device + profile + "null}]}]");
        assertThat(hcu.code()).isEqualTo(2);
        assertThat(hcu.err())
                .isEqualTo("hami annotation: hami.io/node-hcu-register: this register format carries no migProfiles;"
                        + " give \"migProfiles\":[]" + System.lineSeparator());
    }

    @Test
    void decodesLockAndHandshakeIntoTheirCanonicalObjects() {
        assertThat(hami(
                                "annotation",
                                "decode",
                                "--key",
                                "hami.io/mutex.lock",
                                "--value",
                                "2026-08-01T06:00:00Z,ns,pod-a")
                        .out()
                        .trim())
                .isEqualTo("{\"time\":\"2026-08-01T06:00:00Z\",\"namespace\":\"ns\",\"name\":\"pod-a\"}");
        assertThat(hami(
                                "annotation",
                                "decode",
                                "--key",
                                "hami.io/node-handshake",
                                "--value",
                                "Requesting_2024-01-23 04:30:04")
                        .out()
                        .trim())
                .isEqualTo("{\"state\":\"Requesting\",\"time\":\"2024-01-23 04:30:04\"}");
        assertThat(hami(
                                "annotation",
                                "decode",
                                "--key",
                                "hami.io/vgpu-devices-allocated",
                                "--value",
                                "G,NVIDIA,3000,0:;;")
                        .out()
                        .trim())
                .isEqualTo("[[{\"uuid\":\"G\",\"type\":\"NVIDIA\",\"usedmem\":3000,\"usedcores\":0}],[]]");
    }

    @Test
    void aLockTimeWithAnOffsetIsWrittenBackInUtc() {
        var decoded = hami(
                "annotation", "decode", "--key", "hami.io/mutex.lock", "--value", "2026-07-03T15:35:10+08:00,ns,p");
        assertThat(decoded.out().trim())
                .isEqualTo("{\"time\":\"2026-07-03T07:35:10Z\",\"namespace\":\"ns\",\"name\":\"p\"}");
    }

    @Test
    void invalidValueExitsTwoWithOneLineNamingTheField() {
        var r = hami("annotation", "decode", "--key", "hami.io/node-hcu-register", "--value", "a,1,12x,1,t,0,true:");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err())
                .isEqualTo(
                        "hami annotation: hami.io/node-hcu-register: invalid memory field in device 0: \"12x\", want a whole number from 0 to 2147483647"
                                + System.lineSeparator());
    }

    @Test
    void anNvidiaPairScoreThatIsNotAWholeNumberExitsTwo() {
        var r = hami(
                "annotation",
                "decode",
                "--key",
                "hami.io/node-nvidia-score",
                "--value",
                "[{\"uuid\":\"GPU-a\",\"score\":{\"GPU-b\":1.5}}]");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .isEqualTo(
                        "hami annotation: hami.io/node-nvidia-score: invalid score for peer \"GPU-b\" in entry 0: 1.5"
                                + " (want a whole number from 0 to 2147483647)" + System.lineSeparator());
    }

    @Test
    void unknownKeyExitsTwoAndListsTheKnownKeys() {
        var r = hami("annotation", "decode", "--key", "hami.io/node-dcu-register", "--value", "x:");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .contains("unknown key \"hami.io/node-dcu-register\"")
                .contains("hami.io/node-hcu-register");
        assertThat(r.err().lines()).hasSize(1);
    }

    @Test
    void encodeRejectsUnknownFieldsAndWrongTypes() {
        var unknown = hami(
                "annotation",
                "encode",
                "--key",
                "hami.io/vgpu-devices-allocated",
                "--json",
                "[[{\"uuid\":\"a\",\"typ\":\"NVIDIA\"}]]");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("container 0 device 0: unknown field \"typ\"");
        var wrongType = hami(
                "annotation",
                "encode",
                "--key",
                "hami.io/node-nvidia-register",
                "--json",
                "[{\"id\":\"a\",\"index\":0,\"count\":1,\"devmem\":\"1\",\"devcore\":100,\"type\":\"T\",\"numa\":0,"
                        + "\"mode\":\"hami-core\",\"migProfiles\":[],\"health\":true}]");
        assertThat(wrongType.code()).isEqualTo(2);
        assertThat(wrongType.err()).contains("device 0: devmem must be a 32-bit integer");
        var badState = hami(
                "annotation",
                "encode",
                "--key",
                "hami.io/node-handshake",
                "--json",
                "{\"state\":\"Deleted\",\"time\":\"2024-01-23 04:30:04\"}");
        assertThat(badState.code()).isEqualTo(2);
        assertThat(badState.err()).contains("Requesting or Reported");
    }

    @Test
    void encodeWritesGoJsonForNvidiaAndNineFieldsForHcu() {
        String canonical =
                "[{\"id\":\"GPU-1\",\"index\":1,\"count\":10,\"devmem\":100,\"devcore\":100,\"type\":\"NVIDIA-X\",\"numa\":0,\"mode\":\"\",\"migProfiles\":[],\"health\":false},"
                        + "{\"id\":\"GPU-0\",\"index\":0,\"count\":10,\"devmem\":100,\"devcore\":100,\"type\":\"NVIDIA-X\",\"numa\":0,\"mode\":\"hami-core\",\"migProfiles\":[],\"health\":true}]";
        assertThat(hami("annotation", "encode", "--key", "hami.io/node-nvidia-register", "--json", canonical)
                        .out()
                        .trim())
                .isEqualTo(
                        "[{\"id\":\"GPU-0\",\"count\":10,\"devmem\":100,\"devcore\":100,\"type\":\"NVIDIA-X\",\"mode\":\"hami-core\",\"health\":true},"
                                + "{\"id\":\"GPU-1\",\"index\":1,\"count\":10,\"devmem\":100,\"devcore\":100,\"type\":\"NVIDIA-X\"}]");
        assertThat(hami("annotation", "encode", "--key", "hami.io/node-hcu-register", "--json", canonical)
                        .out()
                        .trim())
                .isEqualTo("GPU-0,10,100,100,NVIDIA-X,0,true,0,hami-core:GPU-1,10,100,100,NVIDIA-X,0,false,1,:");
    }

    @Test
    void helpListsTheSubcommands() {
        var r = hami("--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("annotation").contains("help");
        var missing = hami("annotation", "decode", "--value", "x");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("Missing required option: '--key=KEY'");
    }

    static final String LOCK = "2026-08-01T06:00:00Z,kube-system,pod-a";
    static final String LOCK_JSON =
            "{\"time\":\"2026-08-01T06:00:00Z\",\"namespace\":\"kube-system\",\"name\":\"pod-a\"}";

    @Test
    void bothDirectionsTakeTheInputAsArgumentOptionOrStdin() {
        String key = "hami.io/mutex.lock";
        for (Result r : List.of(
                hami("annotation", "decode", "--key", key, LOCK),
                hami("annotation", "decode", "--key", key, "--value", LOCK),
                hamiWithStdin(LOCK + "\n", "annotation", "decode", "--key", key, "-"),
                hamiWithStdin(LOCK + "\n", "annotation", "decode", "--key", key))) {
            assertThat(r.err()).isEmpty();
            assertThat(r.out().trim()).isEqualTo(LOCK_JSON);
        }
        for (Result r : List.of(
                hami("annotation", "encode", "--key", key, LOCK_JSON),
                hami("annotation", "encode", "--key", key, "--json", LOCK_JSON),
                hamiWithStdin(LOCK_JSON + "\n", "annotation", "encode", "--key", key, "-"),
                hamiWithStdin(LOCK_JSON, "annotation", "encode", "--key", key))) {
            assertThat(r.err()).isEmpty();
            assertThat(r.out().trim()).isEqualTo(LOCK);
        }
        var twice = hami("annotation", "encode", "--key", key, "--json", LOCK_JSON, LOCK_JSON);
        assertThat(twice.code()).isEqualTo(2);
        assertThat(twice.err())
                .isEqualTo("hami annotation: give the input once: as the argument or as --json, not both"
                        + System.lineSeparator());
    }

    @Test
    void encodeNamesEveryMissingFieldInsteadOfWritingZero() {
        var r = hami(
                "annotation",
                "encode",
                "--key",
                "hami.io/node-nvidia-register",
                "[{\"id\":\"GPU-0\",\"count\":10,\"devmem\":100,\"devcore\":100,\"type\":\"NVIDIA-X\",\"mode\":\"hami-core\",\"health\":true}]");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err())
                .isEqualTo(
                        "hami annotation: hami.io/node-nvidia-register: device 0: missing \"index\", \"numa\", \"migProfiles\" (every "
                                + "field of the canonical form must be given)" + System.lineSeparator());
        var time = hami("annotation", "encode", "--key", "hami.io/bind-time", "{\"unix\":1}");
        assertThat(time.err()).contains("time: missing \"time\"");
    }

    @Test
    void badJsonIsReportedByLineAndColumnInPlainWords() {
        String key = "hami.io/mutex.lock";
        assertThat(hami("annotation", "encode", "--key", key, "{\"time\": x}").err())
                .isEqualTo(
                        "hami annotation: hami.io/mutex.lock: not valid JSON at line 1, column 10: unknown word \"x\" "
                                + "(strings need double quotes; the only bare words are true, false and null)"
                                + System.lineSeparator());
        assertThat(hami("annotation", "encode", "--key", key, "{\"time\": \"a\",\n \"name\": \"b\"")
                        .err())
                .contains("not valid JSON at line 2")
                .contains("the text ends before the JSON value does");
        assertThat(hami("annotation", "encode", "--key", key, "{'time': 1}").err())
                .contains("at line 1, column 2: a single quote; JSON strings need double quotes");
        assertThat(hami("annotation", "encode", "--key", key, LOCK_JSON + " {}").err())
                .contains("more text after the JSON value");
        for (String bad : List.of("{\"time\": x}", "{\"time\": \"a\"", "{'time': 1}", "[}", "{\"a\" 1}", "nul")) {
            assertThat(hami("annotation", "encode", "--key", key, bad).err())
                    .as(bad)
                    .doesNotContain("code ")
                    .doesNotContain("JSON String, Number")
                    .doesNotContain("tools.jackson")
                    .doesNotContain("Source:")
                    .hasLineCount(1);
        }
    }

    @Test
    void theCiSmokeInvocationsStillWork() {
        // .ci/run: a valid lock decodes, an invalid allocation fails.
        assertThat(hami("annotation", "decode", "--key", "hami.io/mutex.lock", "--value", LOCK)
                        .code())
                .isZero();
        assertThat(hami(
                                "annotation",
                                "decode",
                                "--key",
                                "hami.io/vgpu-devices-allocated",
                                "--value",
                                "GPU-1,NVIDIA,12x,0:;")
                        .code())
                .isEqualTo(2);
    }
}
