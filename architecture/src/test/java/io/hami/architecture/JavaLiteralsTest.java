package io.hami.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JavaLiteralsTest {

    @Test
    void findsStringLiteralsAndSkipsCommentsAndChars() {
        String source = """
                // "hami.io/in-a-line-comment"
                /* "hami.io/in-a-block-comment" */
                /** {@code "hami.io/in-javadoc"} */
                char q = '"'; char e = '\\''; String a = "hami.io/a";
                String b = "say \\"hi\\"" + "nvidia.com/gpu";
                """;

        assertThat(JavaLiterals.strings(source)).containsExactly("hami.io/a", "say \\\"hi\\\"", "nvidia.com/gpu");
    }

    @Test
    void keyPrefixesAreThoseOfTheProtocolAndTheVendors() {
        assertThat(AnnotationKeyLiteralsTest.isKey("hami.io/vgpu-node")).isTrue();
        assertThat(AnnotationKeyLiteralsTest.isKey("hygon.com/hcunum")).isTrue();
        assertThat(AnnotationKeyLiteralsTest.isKey("kubernetes.io/hostname")).isFalse();
    }
}
