package io.hami.protocol.fit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** docs/upstream.md#small-formats: UUID lists match exactly, type lists by case-insensitive substring. */
class DeviceSelectorTest {
    private static final DeviceSelector SELECTOR = new DeviceSelector("x/use", "x/nouse");

    @Test
    void noAnnotationAllowsEverything() {
        assertThat(SELECTOR.byUuid(Map.of()).test("GPU-a")).isTrue();
        assertThat(SELECTOR.byType(Map.of()).test("NVIDIA A100")).isTrue();
    }

    @Test
    void blankValuesAreNoConstraint() {
        var annotations = Map.of("x/use", "  ", "x/nouse", "");
        assertThat(SELECTOR.byUuid(annotations).test("GPU-a")).isTrue();
        assertThat(SELECTOR.byType(annotations).test("anything")).isTrue();
    }

    @Test
    void uuidUseListNeedsAnExactTrimmedMatch() {
        var use = SELECTOR.byUuid(Map.of("x/use", " GPU-a , GPU-b"));
        assertThat(use.test("GPU-a")).isTrue();
        assertThat(use.test("GPU-b")).isTrue();
        assertThat(use.test("GPU-c")).isFalse();
        assertThat(use.test("gpu-a")).isFalse();
        assertThat(use.test("GPU-")).isFalse();
    }

    @Test
    void uuidNouseListExcludes() {
        var nouse = SELECTOR.byUuid(Map.of("x/nouse", "GPU-a"));
        assertThat(nouse.test("GPU-a")).isFalse();
        assertThat(nouse.test("GPU-b")).isTrue();
    }

    @Test
    void useIsCheckedAndThenNouse() {
        var both = SELECTOR.byUuid(Map.of("x/use", "GPU-a,GPU-b", "x/nouse", "GPU-b"));
        assertThat(both.test("GPU-a")).isTrue();
        assertThat(both.test("GPU-b")).isFalse();
    }

    @Test
    void typeItemsAreCaseInsensitiveSubstrings() {
        var use = SELECTOR.byType(Map.of("x/use", "a10"));
        assertThat(use.test("NVIDIA A100")).isTrue();
        assertThat(use.test("NVIDIA-Tesla V100")).isFalse();
    }

    @Test
    void typeNouseRejectsAnyMatchingItem() {
        var nouse = SELECTOR.byType(Map.of("x/nouse", "T4, v100"));
        assertThat(nouse.test("NVIDIA-Tesla V100-PCIE-32GB")).isFalse();
        assertThat(nouse.test("NVIDIA A100")).isTrue();
    }

    @Test
    void aTypeListOfOnlySeparatorsMatchesNothing() {
        assertThat(SELECTOR.byType(Map.of("x/use", ",")).test("NVIDIA A100")).isFalse();
    }
}
