package io.hami.scheduler.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.extender.SchedulingPolicy;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bodies a hostile or broken client sends to every endpoint: each is answered 400 with a reason that names the field
 * and what was expected there, and no reason names the Java types behind the endpoint.
 */
class HostileBodiesTest {
    static SchedulerFixture f;
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final List<String> INTERNALS =
            List.of("io.hami", "io.fabric8", "com.fasterxml", "tools.jackson", "java.", "Exception", "JsonToken");

    /** Bodies wrong for any endpoint: wrong JSON types at each depth, bad syntax, several values, JSON null. */
    static final List<String> HOSTILE = List.of(
            "nul",
            "{\"Pod\":",
            "{} {}",
            "\"str\"",
            "[1]",
            "3",
            "null",
            "{\"Pod\":{\"spec\":\"x\"}}",
            "{\"Pod\":3}",
            "{\"Pod\":{\"spec\":{\"containers\":\"x\"}}}",
            "{\"Pod\":{\"metadata\":{\"annotations\":{\"a\":{}}}}}",
            "{\"Pod\":{\"spec\":{\"containers\":[{\"resources\":{\"limits\":{\"nvidia.com/gpu\":{}}}}]}}}",
            "{\"Pod\":{\"spec\":{\"priority\":\"high\"}}}",
            "{\"Pod\":{\"spec\":{\"priority\":1e99}}}",
            "{\"Pod\":{\"spec\":{\"hostNetwork\":\"yes\"}}}",
            "{\"NodeNames\":\"x\"}",
            "{\"NodeNames\":[{}]}",
            "{\"Nodes\":{\"items\":\"x\"}}",
            "{\"PodName\":[]}",
            "{\"PodName\":\"p\",\"PodNamespace\":{},\"Node\":\"n\"}");

    @BeforeAll
    static void start() throws Exception {
        f = new SchedulerFixture(SchedulingPolicy.UPSTREAM_DEFAULTS);
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    static String error(String path, String body) throws Exception {
        var r = f.post(path, body);
        assertThat(r.statusCode()).as(path + " " + body).isIn(400, 200);
        return JSON.readTree(r.body()).get("Error").asString();
    }

    @Test
    void extenderReasonsNameTheFieldAndNoJavaType() throws Exception {
        for (String path : List.of("/filter", "/prioritize", "/bind")) {
            for (String body : HOSTILE) {
                var r = f.post(path, body);
                if (r.statusCode() != 200) {
                    assertThat(r.statusCode()).as(path + " " + body).isEqualTo(400);
                    assertThat(JSON.readTree(r.body()).get("Error").asString())
                            .as(path + " " + body)
                            .isNotBlank();
                }
                for (String internal : INTERNALS) {
                    assertThat(r.body()).as(path + " " + body).doesNotContain(internal);
                }
            }
        }
    }

    @Test
    void extenderReasonsSayWhatWasExpected() throws Exception {
        assertThat(error("/filter", "{\"Pod\":{\"spec\":\"x\"}}"))
                .isEqualTo("malformed ExtenderArgs: field Pod.spec: expected an object, got a string");
        assertThat(error("/filter", "{\"Pod\":{\"spec\":{\"containers\":\"x\"}}}"))
                .isEqualTo("malformed ExtenderArgs: field Pod.spec.containers: expected a list, got a string");
        assertThat(error("/prioritize", "{\"NodeNames\":[{}]}"))
                .isEqualTo("malformed ExtenderArgs: field NodeNames[0]: expected a string, got an object");
        assertThat(error("/filter", "{\"Pod\":{\"spec\":{\"priority\":1e99}}}"))
                .startsWith(
                        "malformed ExtenderArgs: field Pod.spec.priority: expected a whole number from -2147483648 to 2147483647");
        assertThat(error("/filter", "{\"Pod\":{\"spec\":{\"hostNetwork\":\"yes\"}}}"))
                .isEqualTo("malformed ExtenderArgs: field Pod.spec.hostNetwork: expected true or false, got a string");
        assertThat(error(
                        "/filter",
                        "{\"Pod\":{\"spec\":{\"containers\":[{\"resources\":{\"limits\":{\"nvidia.com/gpu\":{}}}}]}}}"))
                .startsWith(
                        "malformed ExtenderArgs: field Pod.spec.containers[0].resources.limits[\"nvidia.com/gpu\"]");
        assertThat(error("/bind", "{\"PodName\":[]}"))
                .isEqualTo("malformed ExtenderBindingArgs: field PodName: expected a string, got a list");
        assertThat(error("/bind", "null")).isEqualTo("request body is JSON null, want a JSON ExtenderBindingArgs");
        assertThat(error("/filter", "{} {}"))
                .isEqualTo("malformed ExtenderArgs: the body holds more than one JSON value");
        assertThat(error("/filter", "nul"))
                .startsWith("malformed ExtenderArgs: not valid JSON at line 1, column 1: Unrecognized token 'nul'");
    }

    @Test
    void webhookReasonsNameTheFieldAndNoJavaType() throws Exception {
        for (String body : HOSTILE) {
            String review =
                    "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\",\"object\":"
                            + body.replace("\"Pod\"", "\"spec\"") + "}}";
            for (String sent : List.of(body, review)) {
                var r = f.post("/webhook", sent);
                assertThat(r.statusCode()).as(sent).isIn(200, 400);
                for (String internal : INTERNALS) {
                    assertThat(r.body()).as(sent).doesNotContain(internal);
                }
            }
        }
        var containers =
                "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\",\"object\":"
                        + "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"spec\":{\"containers\":\"x\"}}}}";
        assertThat(f.post("/webhook", containers).body())
                .isEqualTo(
                        "malformed AdmissionReview: field request.object.spec.containers: expected a list, got a string");
    }
}
