package io.hami.nativebind;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.nativebind.cndev.raw.cndev_h;
import io.hami.nativebind.hydmi.raw.hydmi_h;
import io.hami.nativebind.mtml.raw.mtml_h;
import io.hami.nativebind.nvml.raw.nvml_h;
import io.hami.nativebind.rocm.raw.rocm_smi_h;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every function a binding declares is exported by its mock, so the wrappers can run against the mocks. */
class MockExportsTest {

    @ParameterizedTest
    @CsvSource({
        "nvidia/libnvidia-ml.so.1, NVML",
        "cambricon/libcndev.so, CNDev",
        "mthreads/libmtml.so.2, MTML",
        "hygon/librocm_smi64.so.2, ROCm SMI",
        "hygon/libhydmi.so.1, hydmi"
    })
    void theMockExportsEveryBoundFunction(String file, String vendor) {
        NativeLibrary library =
                NativeLibrary.open(vendor, MockLibrary.builtDir().resolve(file));
        List<String> functions = functions(
                switch (vendor) {
                    case "NVML" -> nvml_h.class;
                    case "CNDev" -> cndev_h.class;
                    case "MTML" -> mtml_h.class;
                    case "ROCm SMI" -> rocm_smi_h.class;
                    default -> hydmi_h.class;
                });
        assertThat(functions)
                .isNotEmpty()
                .allSatisfy(f -> assertThat(library.has(f)).as(f).isTrue());
    }

    @ParameterizedTest
    @CsvSource({
        "nvidia/libnvidia-ml.so.1, libnvidia-ml.so.1",
        "cambricon/libcndev.so, libcndev.so",
        "mthreads/libmtml.so.2, libmtml.so.2",
        "hygon/librocm_smi64.so.2, librocm_smi64.so.2",
        "hygon/libhydmi.so.1, libhydmi.so.1"
    })
    void eachMockCarriesTheVendorSoname(String file, String soname) throws Exception {
        Process readelf = new ProcessBuilder(
                        "readelf", "-d", MockLibrary.builtDir().resolve(file).toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(readelf.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(readelf.waitFor()).isZero();
        assertThat(output).contains("Library soname: [" + soname + "]");
    }

    /** The C functions a jextract-shaped header class binds: one {@code name$descriptor()} each. */
    private static List<String> functions(Class<?> header) {
        return Arrays.stream(header.getMethods())
                .filter(m -> Modifier.isStatic(m.getModifiers()) && m.getName().endsWith("$descriptor"))
                .map(Method::getName)
                .map(n -> n.substring(0, n.length() - "$descriptor".length()))
                .sorted()
                .toList();
    }
}
