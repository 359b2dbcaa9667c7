package io.hami.lab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.lab.check.DeviceCapacity;
import io.hami.lab.scenario.Vendor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableTest {

    private static DeviceRow device(String node, int index, long memory) {
        var capacity = new DeviceCapacity(node, Vendor.NVIDIA, index, node + "-" + index, "A100", 10, 1000, 100);
        return new DeviceRow(capacity, memory, memory / 10, 1, memory, memory / 10);
    }

    @Test
    void textAlignsColumnsAndColumnsOfNumbersRight() {
        var table = new Table(
                List.of("op", "calls", "p99"),
                List.of(List.of("filter", "7", "3.00ms"), List.of("bind", "120", "40.0ms")));

        assertThat(table.text("  ")).isEqualTo("""
                          op      calls     p99
                          filter      7  3.00ms
                          bind      120  40.0ms
                        """);
    }

    @Test
    void aSmallClusterIsListedPerDeviceALargeOnePerNodeFullestFirst() {
        Table small = Table.allocation(List.of(device("a", 0, 250), device("a", 1, 0)));
        assertThat(small.rows()).hasSize(2);
        assertThat(small.rows().getFirst()).containsSubsequence("a", "nvidia #0", "A100", "250/1000 25%", "25%");

        var rows = new ArrayList<DeviceRow>();
        for (int n = 0; n < 40; n++) {
            rows.add(device("n" + n, 0, n == 7 ? 900 : n));
            rows.add(device("n" + n, 1, 0));
        }
        Table large = Table.allocation(rows);
        assertThat(Table.allocationTitle(rows)).startsWith("39 of 40 nodes hold pods");
        assertThat(large.rows()).hasSize(20);
        assertThat(large.rows().getFirst()).containsExactly("n7", "900/2000 45%", "90/200");
    }
}
