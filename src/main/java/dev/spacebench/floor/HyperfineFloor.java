package dev.spacebench.floor;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A second opinion on the spawn floor from outside the JVM: {@code hyperfine -N} (no shell)
 * timing {@code true}. Where it agrees with {@link HostSpawnFloor}, the JVM adds little; where
 * the JVM is much slower, the launch mechanism is the first suspect.
 */
public final class HyperfineFloor {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Far above what {@code true} needs even for many runs; a hung hyperfine must not hang a run. */
    private static final long TIMEOUT_SECONDS = 120;

    private HyperfineFloor() {}

    /**
     * hyperfine's figures for one command, seconds converted to ns (rounded).
     *
     * @param reason null when hyperfine ran; otherwise why there are no figures (then every other
     *     field is empty or 0)
     * @param command what hyperfine timed, as it reports it
     * @param samplesNs every measured run in ns, in the order they ran (hyperfine's "times")
     */
    public record Result(String reason, String command, long meanNs, long medianNs, long minNs, long maxNs, long[] samplesNs) {

        static Result unavailable(String reason) {
            return new Result(reason, "", 0, 0, 0, 0, new long[0]);
        }

        public boolean available() {
            return reason == null;
        }
    }

    /**
     * Runs {@code hyperfine -N --export-json FILE --runs N --warmup W true}.
     *
     * @param runs measured runs, at least 1
     * @param warmups runs first and dropped, at least 0
     * @return the figures, or {@link Result#unavailable} when hyperfine is not on PATH
     * @throws IOException if hyperfine fails, times out or writes something unreadable
     * @throws IllegalArgumentException if runs &lt; 1 or warmups &lt; 0
     */
    public static Result run(int runs, int warmups) throws IOException, InterruptedException {
        return run(runs, warmups, "true");
    }

    /**
     * Runs {@code hyperfine -N --export-json FILE --runs N --warmup W COMMAND}.
     *
     * @param command what hyperfine runs without a shell, e.g. {@code true} or {@code sh -c true}
     * @see #run(int, int)
     */
    public static Result run(int runs, int warmups, String command) throws IOException, InterruptedException {
        if (runs < 1 || warmups < 0) {
            throw new IllegalArgumentException("runs must be at least 1 and warmups 0 or more, were " + runs + " and " + warmups);
        }
        Optional<Path> hyperfine = onPath("hyperfine", System.getenv("PATH"));
        if (hyperfine.isEmpty()) {
            return Result.unavailable("hyperfine is not on PATH (Debian: apt-get install hyperfine)");
        }
        Path json = Files.createTempFile("spacebench-hyperfine", ".json");
        // A file, not a pipe, so that waiting for hyperfine can time out instead of blocking on a read.
        Path errors = Files.createTempFile("spacebench-hyperfine", ".err");
        try {
            Process process = new ProcessBuilder(List.of(hyperfine.get().toString(), "-N", "--export-json", json.toString(),
                    "--runs", Integer.toString(runs), "--warmup", Integer.toString(warmups), command))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(errors.toFile())
                    .start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("hyperfine did not finish within " + TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                throw new IOException("hyperfine exited with " + process.exitValue() + ": " + Files.readString(errors).trim());
            }
            return parse(Files.readString(json));
        } finally {
            Files.deleteIfExists(json);
            Files.deleteIfExists(errors);
        }
    }

    /**
     * Reads the first result of hyperfine's {@code --export-json} output.
     *
     * @throws IOException if the text is not that shape
     */
    static Result parse(String exported) throws IOException {
        try {
            JsonNode result = JSON.readTree(exported).path("results").path(0);
            if (!result.isObject()) {
                throw new IOException("hyperfine's JSON has no results");
            }
            JsonNode times = result.path("times");
            long[] samples = new long[times.size()];
            for (int i = 0; i < samples.length; i++) {
                samples[i] = nanoseconds(times.get(i), "times[" + i + "]");
            }
            return new Result(null, result.path("command").asString(), nanoseconds(result.path("mean"), "mean"),
                    nanoseconds(result.path("median"), "median"), nanoseconds(result.path("min"), "min"),
                    nanoseconds(result.path("max"), "max"), samples);
        } catch (JacksonException e) {
            throw new IOException("hyperfine's JSON could not be read: " + e.getOriginalMessage(), e);
        }
    }

    private static long nanoseconds(JsonNode seconds, String field) throws IOException {
        if (!seconds.isNumber()) {
            throw new IOException("hyperfine's JSON has no number for " + field);
        }
        return Math.round(seconds.asDouble() * 1e9);
    }

    /** @param searchPath a PATH value (directories separated by ':'), or null */
    public static Optional<Path> onPath(String program, String searchPath) {
        if (searchPath == null) {
            return Optional.empty();
        }
        for (String dir : searchPath.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, program);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }
}
