package dev.spacebench.measure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * An interleaved run of a real process Space, end to end: samples.csv says, through its block and
 * seq columns alone, that every series ran in the same number of blocks, one block of each per
 * round, warm-ups before a series' first block, in one global order.
 */
class InterleavedRunTest extends AppTestSupport {

    @Test
    void everySeriesRunsInRoundsOfOneBlockEach() throws Exception {
        HttpResponse<String> created = post("/api/runs", """
                {"space":{"kind":"process"},"plan":{"order":"interleaved","blockSize":10,"seed":29,
                 "exec":{"metrics":["noop","true"],"n":40,"warmups":2,"agentWarmupCalls":100},"files":{"sizes":[]},
                 "floor":{"n":40,"warmups":1}}}""");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long id = json(created).get("id").asLong();
        JsonNode run = awaitFinished(id, Duration.ofSeconds(240));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");

        List<String> lines = get("/api/runs/" + id + "/samples.csv").body().lines().toList();
        assertThat(lines.get(0)).endsWith(",level,space_index,channel,block,seq,entry");
        List<String> header = List.of(lines.get(0).split(","));
        int blockAt = header.indexOf("block");
        int seqAt = header.indexOf("seq");
        List<String[]> blocked = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            assertThat(f).as(line).hasSize(header.size());
            if (!f[blockAt].isEmpty()) {
                blocked.add(f);
            } else {
                assertThat(f[0]).as("outside the blocks: the timer and the Space's own times only").matches("floor\\.timer|space\\..*");
            }
        }
        // seq runs 1, 2, 3 … in the order the rows were stored.
        for (int i = 0; i < blocked.size(); i++) {
            assertThat(Long.parseLong(blocked.get(i)[seqAt])).isEqualTo(i + 1);
        }
        Map<String, List<Integer>> blocksBySeries = new LinkedHashMap<>();
        Map<String, Integer> measuredBySeries = new HashMap<>();
        int lastBlock = 0;
        for (String[] f : blocked) {
            int block = Integer.parseInt(f[blockAt]);
            assertThat(block).as("rounds follow each other: no block of round r+1 before one of round r").isGreaterThanOrEqualTo(lastBlock);
            lastBlock = block;
            if (f[2].equals("warmup")) {
                assertThat(block).as("warm-ups belong to the first block").isEqualTo(1);
                assertThat(measuredBySeries.getOrDefault(f[0], 0)).as("warm-ups before %s's first measured sample", f[0]).isZero();
                continue;
            }
            measuredBySeries.merge(f[0], 1, Integer::sum);
            List<Integer> blocks = blocksBySeries.computeIfAbsent(f[0], k -> new ArrayList<>());
            if (blocks.isEmpty() || blocks.get(blocks.size() - 1) != block) {
                blocks.add(block);
            }
        }
        assertThat(blocksBySeries.keySet()).contains("exec.noop", "exec.true", "floor.spawn.true", "floor.spawn.sh_c", "floor.grpc.noop");
        blocksBySeries.forEach((series, blocks) -> assertThat(blocks).as(series).containsExactly(1, 2, 3, 4));
        measuredBySeries.forEach((series, n) -> assertThat(n).as(series).isEqualTo(40));
    }
}
